package lsp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit/events"
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

// lastRun is the compiles of the last process that wrote the file, by
// call site ("file:line").
type lastRun struct {
	sites map[string]*events.Site
}

// readLastRun parses the events file and keeps the last run's compiles
// (the process id of the last event). Lines that are not events are
// skipped.
func readLastRun(path string) (*lastRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	evs, _ := events.Decode(f)
	run := &lastRun{sites: map[string]*events.Site{}}
	if len(evs) == 0 {
		return run, nil
	}
	pid := evs[len(evs)-1].PID
	evs = slices.DeleteFunc(evs, func(e events.Event) bool { return e.PID != pid })
	for _, st := range events.Sites(evs) {
		run.sites[st.CallSite] = st
	}
	return run, nil
}

// siteMessage is the diagnostic text for a call site.
func siteMessage(st *events.Site) string {
	var b strings.Builder
	fmt.Fprintf(&b, "compiled %d times in the last run", st.Compiles)
	if top := st.Top(); top != nil {
		fmt.Fprintf(&b, ": %s", top.What())
		if len(top.Values) > 0 {
			vs := top.Values
			if len(vs) > 4 {
				vs = append(vs[:4:4], "…")
			}
			fmt.Fprintf(&b, " (%s)", strings.Join(vs, "→"))
		}
		if len(st.Causes) > 1 {
			fmt.Fprintf(&b, " and %d other cause(s)", len(st.Causes)-1)
		}
	}
	fmt.Fprintf(&b, "; %s tracing and compiling %s in all", fmtMs(st.MS), st.Function)
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
// whose content (on disk or in an unsaved buffer) is not the one the run
// recorded gets none: its lines may have moved.
func (r *runtimeEvents) addDiagnostics(res *Snapshot) {
	run := r.current()
	if run == nil || res.Parsed == nil {
		return
	}
	for _, st := range run.sites {
		if st.Compiles < 2 {
			continue
		}
		file := filepath.Clean(st.File)
		content, ok := res.Parsed.Contents[file]
		m := res.mappers[file]
		if !ok || m == nil || !events.SameSource(st.Sources, st.File, content) {
			continue
		}
		start, end, ok := LineSpan(content, st.Line)
		if !ok {
			continue
		}
		u := fileURI(file)
		rng := m.rangeOf(start, end)
		msg := siteMessage(st)
		for _, d := range res.diags[u] {
			if d.diag.Code != "runtime" && d.diag.Code != "jitargs" && d.diag.Range.Start.Line <= rng.Start.Line && rng.Start.Line <= d.diag.Range.End.Line {
				msg += fmt.Sprintf(" (the %v analyzer reports this call too: the run agrees)", d.diag.Code)
				break
			}
		}
		res.diags[u] = append(res.diags[u], storedDiag{version: res.version(file), diag: protocol.Diagnostic{
			Range: rng, Severity: protocol.DiagnosticSeverityInformation, Code: "runtime", Source: "jitls", Message: msg}})
	}
}

// LineSpan returns the byte offsets of line (1-based) of content without
// its indentation.
func LineSpan(content []byte, line int) (int, int, bool) {
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
