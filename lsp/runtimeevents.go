package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// runtimeEvents turns the last run's recompiles, read from the events file
// a program wrote with JITLINT_EVENTS (the runtimeEvents setting), into
// Information diagnostics at the call sites that compiled more than once.
// A poller re-analyses when the file changes.
type runtimeEvents struct {
	s *Server

	mu      sync.Mutex
	path    string    // the file run was read from
	stamp   fileStamp // its size and mtime then
	run     *lastRun
	polling bool
	done    chan struct{}
}

// fileStamp identifies a version of a file cheaply.
type fileStamp struct {
	size  int64
	mtime time.Time
}

func stampOf(path string) (fileStamp, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{st.Size(), st.ModTime()}, true
}

// runtimePoll is how often the events file is checked for changes.
const runtimePoll = 300 * time.Millisecond

func newRuntimeEvents(s *Server) *runtimeEvents {
	return &runtimeEvents{s: s, done: make(chan struct{})}
}

// stop ends the poller.
func (r *runtimeEvents) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.done:
	default:
		close(r.done)
	}
}

// eventLine is the part of a jit.Event line the server reads.
type eventLine struct {
	Time      time.Time `json:"time"`
	Event     string    `json:"event"`
	Function  string    `json:"function"`
	CallSite  string    `json:"call_site"`
	TraceMS   float64   `json:"trace_ms"`
	LowerMS   float64   `json:"lower_ms"`
	CompileMS float64   `json:"compile_ms"`
	PID       int       `json:"pid"`
	Changes   []struct {
		Kind   string `json:"kind"`
		Path   string `json:"path"`
		Before string `json:"before"`
		Now    string `json:"now"`
	} `json:"changes"`
}

// lastRun is the events of the last process that wrote the file, by call site.
type lastRun struct {
	start time.Time
	sites map[string]*callSiteStats // "file:line"
}

// callSiteStats is what one call site compiled.
type callSiteStats struct {
	file     string
	line     int
	function string
	compiles int
	ms       float64 // trace + lower + compile, all compiles
	causes   map[string]*cause
	order    []string // cause keys in first-seen order (ties go to the first)
}

// cause is one reason for recompiles (an argument that changed) with the
// successive values it took.
type cause struct {
	what   string
	count  int
	values []string
}

// readLastRun parses the events file and keeps the last run's events (the
// process id of the last line). Malformed lines are skipped.
func readLastRun(path string) (*lastRun, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var evs []eventLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e eventLine
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.CallSite != "" {
			evs = append(evs, e)
		}
	}
	run := &lastRun{sites: map[string]*callSiteStats{}}
	if len(evs) == 0 {
		return run, nil
	}
	pid := evs[len(evs)-1].PID
	for _, e := range evs {
		if e.PID != pid {
			continue
		}
		if run.start.IsZero() || e.Time.Before(run.start) {
			run.start = e.Time
		}
		st := run.sites[e.CallSite]
		if st == nil {
			i := strings.LastIndexByte(e.CallSite, ':')
			line, err := strconv.Atoi(e.CallSite[i+1:])
			if i < 0 || err != nil {
				continue
			}
			st = &callSiteStats{file: filepath.Clean(e.CallSite[:i]), line: line, function: e.Function, causes: map[string]*cause{}}
			run.sites[e.CallSite] = st
		}
		st.compiles++
		st.ms += e.TraceMS + e.LowerMS + e.CompileMS
		if e.Event == "compile" && st.compiles > 1 {
			st.add("new", "a new jitted function each time (jit.Jit is called again, so its cache starts empty)", "")
		}
		for _, c := range e.Changes {
			switch c.Kind {
			case "static":
				st.add(c.Kind+c.Path, "static argument "+c.Path+" changed", c.Before, c.Now)
			case "type":
				st.add(c.Kind+c.Path, "the shape or dtype of "+c.Path+" changed", c.Before, c.Now)
			case "weak_type":
				st.add(c.Kind+c.Path, "the weak type of "+c.Path+" changed (a Go number versus an Array)", c.Before, c.Now)
			case "pytree":
				st.add(c.Kind, "the pytree structure of the arguments changed", c.Before, c.Now)
			case "backend":
				st.add(c.Kind, "the backend changed", c.Before, c.Now)
			}
		}
	}
	return run, nil
}

// add counts one occurrence of a cause with the before and now values: the
// values the call site passed in order are the first before and every now.
func (st *callSiteStats) add(key, what string, values ...string) {
	c := st.causes[key]
	if c == nil {
		c = &cause{what: what}
		st.causes[key] = c
		st.order = append(st.order, key)
	} else if len(values) > 1 {
		values = values[1:]
	}
	c.count++
	for _, v := range values {
		if v != "" && (len(c.values) == 0 || c.values[len(c.values)-1] != v) {
			c.values = append(c.values, v)
		}
	}
}

// message is the diagnostic text for a call site.
func (st *callSiteStats) message() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compiled %d times in the last run", st.compiles)
	var top *cause
	for _, k := range st.order {
		if c := st.causes[k]; top == nil || c.count > top.count {
			top = c
		}
	}
	if top != nil {
		fmt.Fprintf(&b, ": %s", top.what)
		if len(top.values) > 0 {
			vs := top.values
			if len(vs) > 4 {
				vs = append(vs[:4:4], "…")
			}
			fmt.Fprintf(&b, " (%s)", strings.Join(vs, "→"))
		}
		if len(st.causes) > 1 {
			fmt.Fprintf(&b, " and %d other cause(s)", len(st.causes)-1)
		}
	}
	fmt.Fprintf(&b, "; %s tracing and compiling %s in all", fmtMs(st.ms), st.function)
	return b.String()
}

// current returns the last run of the configured events file (re-read when
// the file changed), or nil when there is none. It starts the poller.
func (r *runtimeEvents) current() *lastRun {
	r.s.mu.Lock()
	path := r.s.settings.RuntimeEvents
	r.s.mu.Unlock()
	if path == "" {
		return nil
	}
	path, _ = filepath.Abs(path)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.polling {
		r.polling = true
		go r.poll()
	}
	stamp, ok := stampOf(path)
	if !ok {
		r.run, r.path = nil, path
		return nil
	}
	if r.run == nil || path != r.path || stamp != r.stamp {
		run, err := readLastRun(path)
		if err != nil {
			r.s.logf("jitls: reading runtime events: %v", err)
			return nil
		}
		r.run, r.path, r.stamp = run, path, stamp
	}
	return r.run
}

// poll re-analyses every package when the events file changes.
func (r *runtimeEvents) poll() {
	t := time.NewTicker(runtimePoll)
	defer t.Stop()
	for {
		select {
		case <-r.done:
			return
		case <-t.C:
		}
		r.mu.Lock()
		path, old := r.path, r.stamp
		r.mu.Unlock()
		if path == "" {
			continue
		}
		if now, _ := stampOf(path); now != old {
			r.s.diags.rescheduleAll()
		}
	}
}

// addDiagnostics adds the runtime diagnostics of res's files. A file
// changed since the run (on disk after the run started, or edited in an
// unsaved buffer) gets none: its lines may have moved.
func (r *runtimeEvents) addDiagnostics(res *pkgResult, docs map[string]*document) {
	run := r.current()
	if run == nil || res.pp == nil {
		return
	}
	for _, st := range run.sites {
		if st.compiles < 2 {
			continue
		}
		content, ok := res.pp.contents[st.file]
		m := res.mappers[st.file]
		if !ok || m == nil || changedSince(st.file, content, docs[st.file] != nil, run.start) {
			continue
		}
		start, end, ok := lineSpan(content, st.line)
		if !ok {
			continue
		}
		u := fileURI(st.file)
		rng := m.rangeOf(start, end)
		msg := st.message()
		for _, d := range res.diags[u] {
			if d.diag.Code != "runtime" && d.diag.Code != "jitargs" && d.diag.Range.Start.Line <= rng.Start.Line && rng.Start.Line <= d.diag.Range.End.Line {
				msg += fmt.Sprintf(" (the %v analyzer reports this call too: the run agrees)", d.diag.Code)
				break
			}
		}
		res.diags[u] = append(res.diags[u], storedDiag{version: res.version(st.file), diag: protocol.Diagnostic{
			Range: rng, Severity: protocol.DiagnosticSeverityInformation, Code: "runtime", Source: "jitls", Message: msg}})
	}
}

// changedSince reports whether file may differ from what a run that
// started at start executed: modified on disk after it, or (open) edited
// in a buffer that differs from the disk.
func changedSince(file string, content []byte, open bool, start time.Time) bool {
	st, err := os.Stat(file)
	if err != nil || st.ModTime().After(start) {
		return true
	}
	if open {
		disk, err := os.ReadFile(file)
		return err != nil || !bytes.Equal(disk, content)
	}
	return false
}

// lineSpan returns the byte offsets of line (1-based) of content without
// its indentation.
func lineSpan(content []byte, line int) (int, int, bool) {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(content[start:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		start += i + 1
	}
	end := start + bytes.IndexByte(content[start:], '\n')
	if end < start {
		end = len(content)
	}
	for start < end && (content[start] == ' ' || content[start] == '\t') {
		start++
	}
	return start, end, true
}
