// Package events defines the record of the jit runtime's events file: one
// JSON object a line, appended by a program that runs with the environment
// variable JITLINT_EVENTS naming the file (or jit.SetEventsFile), for each
// compile, each recompile and each failed trace, with the call site and the
// cause.
//
// Package jit writes the file; the tools read it: jitls shows the last
// run's recompiles in the editor, and jitlint -events reports the
// recompiles and trace failures of a run and marks the static findings that
// the run confirms. The package depends on the standard library only, so
// that the writer and the readers share one definition without importing
// each other.
package events

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Kind says what an event records.
type Kind string

// The kinds of events.
const (
	// Compile: a function traced, lowered and compiled for its first
	// signature (or for the first signature after jit.ClearCaches).
	Compile Kind = "compile"
	// CacheMiss: a function compiled again for a new signature; Cause and
	// Changes say what differs from the closest signature compiled before.
	CacheMiss Kind = "cache_miss"
	// TraceError: a trace failed (Failure says how and where); nothing
	// was compiled.
	TraceError Kind = "trace_error"
)

// Event is one line of the events file.
type Event struct {
	Time      time.Time `json:"time"`
	Event     Kind      `json:"event"`
	Function  string    `json:"function"`
	DefinedAt string    `json:"defined_at"` // file:line of the function
	CallSite  string    `json:"call_site"`  // file:line of the call that traced
	// Calls counts the calls of jitted functions made at CallSite in this
	// process so far, this one included, compiled or served from the
	// cache (counted while events are on).
	Calls     int      `json:"calls,omitempty"`
	Signature string   `json:"signature"`
	Cause     string   `json:"cause,omitempty"` // the cache-miss explanation
	Changes   []Change `json:"changes,omitempty"`
	Failure   *Failure `json:"failure,omitempty"` // for TraceError
	// Sources maps each file named by the event's positions to the hash of
	// its content (see Hash) when the process first named it, so that a
	// reader can tell whether the file changed since the run.
	Sources   map[string]string `json:"sources,omitempty"`
	TraceMS   float64           `json:"trace_ms"`
	LowerMS   float64           `json:"lower_ms"`
	CompileMS float64           `json:"compile_ms"`
	PID       int               `json:"pid"`
}

// ChangeKind classifies a Change.
type ChangeKind string

// The kinds of changes between two signatures.
const (
	PytreeChange  ChangeKind = "pytree"    // the arguments' structure
	BackendChange ChangeKind = "backend"   // the backend
	TypeChange    ChangeKind = "type"      // an array's shape or dtype
	WeakChange    ChangeKind = "weak_type" // an array's weak type
	StaticChange  ChangeKind = "static"    // a static argument's value
)

// Change is one difference between the closest signature compiled before
// and the new one. Path names the argument (empty for PytreeChange and
// BackendChange).
type Change struct {
	Kind   ChangeKind `json:"kind"`
	Path   string     `json:"path,omitempty"`
	Before string     `json:"before"`
	Now    string     `json:"now"`
}

// Failure is why a trace failed: the class of the jit.Error (such as
// "TracerBoolConversionError"), its message, and the file:line in the
// user's code where it happened.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	At      string `json:"at"`
}

// Encode returns e as one line of the events file, newline included.
func Encode(e *Event) ([]byte, error) {
	line, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// Decode reads an events file. It returns the events of all the lines that
// are events, and an error that names the first line that is not (with
// the events of the others), or a read error.
func Decode(r io.Reader) ([]Event, error) {
	var evs []Event
	var bad error
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var e Event
		err := json.Unmarshal(sc.Bytes(), &e)
		if err == nil && (e.Event == "" || e.CallSite == "") {
			err = fmt.Errorf("no event kind or call site")
		}
		if err != nil {
			if bad == nil {
				bad = fmt.Errorf("line %d is not an event of the jit runtime: %v", n, err)
			}
			continue
		}
		evs = append(evs, e)
	}
	if err := sc.Err(); err != nil {
		return evs, err
	}
	return evs, bad
}

// Hash is the hash of a source file's content recorded in Event.Sources.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// SameSource reports whether content is file as the run that recorded
// sources saw it (false when the run recorded no hash of it).
func SameSource(sources map[string]string, file string, content []byte) bool {
	h, ok := sources[file]
	return ok && h == Hash(content)
}

// SplitPos splits a "file:line" position of an event.
func SplitPos(pos string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i <= 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(pos[i+1:])
	if err != nil || line < 1 {
		return "", 0, false
	}
	return pos[:i], line, true
}
