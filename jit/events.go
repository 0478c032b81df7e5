package jit

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jitlint/jitlint/jit/events"
	"github.com/jitlint/jitlint/jit/ir"
)

// eventsOut is the open events file, nil when events are off.
var (
	eventsOut  atomic.Pointer[os.File]
	eventsMu   sync.Mutex // serializes SetEventsFile
	eventsWarn sync.Once
)

func init() {
	if p := os.Getenv("JITLINT_EVENTS"); p != "" {
		if err := SetEventsFile(p); err != nil {
			fmt.Fprintf(os.Stderr, "jit: JITLINT_EVENTS: %v; no events are written\n", err)
		}
	}
}

// SetEventsFile makes every compile and every failed trace append one JSON
// line (an events.Event) to the file at path, created if needed; "" turns
// events off. The environment variable JITLINT_EVENTS sets it at start-up.
// While events are on, the calls of jitted functions are counted at their
// call sites. Each line is appended with a single write to a file opened
// with O_APPEND, so lines of concurrent compiles, and of several processes
// sharing the file, do not interleave. A write that fails is reported once
// on standard error and never stops the program.
func SetEventsFile(path string) error {
	eventsMu.Lock()
	defer eventsMu.Unlock()
	var f *os.File
	if path != "" {
		var err error
		if f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err != nil {
			return err
		}
	}
	if old := eventsOut.Swap(f); old != nil {
		old.Close()
	}
	return nil
}

// emitEvent appends e to the events file when there is one, with the
// hashes of the files its positions name.
func emitEvent(e *events.Event) {
	f := eventsOut.Load()
	if f == nil {
		return
	}
	e.Time = time.Now()
	e.PID = os.Getpid()
	positions := []string{e.CallSite, e.DefinedAt}
	if e.Failure != nil {
		positions = append(positions, e.Failure.At)
	}
	for _, pos := range positions {
		if file, _, ok := events.SplitPos(pos); ok {
			if h := sourceHash(file); h != "" {
				if e.Sources == nil {
					e.Sources = map[string]string{}
				}
				e.Sources[file] = h
			}
		}
	}
	line, err := events.Encode(e)
	if err == nil {
		_, err = f.Write(line)
	}
	if err != nil {
		eventsWarn.Do(func() {
			fmt.Fprintf(os.Stderr, "jit: writing an event to %s: %v (later failures are not reported)\n", f.Name(), err)
		})
	}
}

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// sourceHashes caches the hash of each source file an event names (""
// for a file that cannot be read, as in a binary run away from its source).
var sourceHashes sync.Map // file → string

// sourceHash returns the hash of file's content when the process first
// named it, or "".
func sourceHash(file string) string {
	if h, ok := sourceHashes.Load(file); ok {
		return h.(string)
	}
	h := ""
	if data, err := os.ReadFile(file); err == nil {
		h = events.Hash(data)
	}
	actual, _ := sourceHashes.LoadOrStore(file, h)
	return actual.(string)
}

// siteCalls counts the calls of jitted functions at each call site while
// events are on.
var siteCalls sync.Map // ir.Pos → *atomic.Int64

// callSite is a call of a jitted function in the user's code: its
// position and the number of calls made there so far, this one included.
type callSite struct {
	pos   *ir.Pos
	calls int
}

// countCall finds the user's call that is being made and counts it.
func countCall() callSite {
	pos := userSite()
	if pos == nil {
		return callSite{}
	}
	n, ok := siteCalls.Load(*pos)
	if !ok {
		n, _ = siteCalls.LoadOrStore(*pos, new(atomic.Int64))
	}
	return callSite{pos, int(n.(*atomic.Int64).Add(1))}
}

// callsAt returns the number of calls counted at the file:line pos.
func callsAt(pos string) int {
	file, line, _ := events.SplitPos(pos)
	if n, ok := siteCalls.Load(ir.Pos{File: file, Line: line}); ok {
		return int(n.(*atomic.Int64).Load())
	}
	return 0
}

// recordTraceError writes a TraceError event when the trace of c for sig
// ended in *err and is not nested in another trace (whose own failure
// records it).
func (c *funcCore) recordTraceError(sig *signature, err *error) {
	e, ok := (*err).(*Error)
	if !ok || eventsOut.Load() == nil || currentTrace() != nil {
		return
	}
	defPos, _ := c.source()
	pos := userPos()
	emitEvent(&events.Event{Event: events.TraceError, Function: c.name, DefinedAt: defPos, CallSite: pos, Calls: callsAt(pos),
		Signature: sig.String(), Failure: &events.Failure{Kind: e.Kind.String(), Message: e.Msg, At: e.Pos}})
}
