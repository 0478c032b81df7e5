package snapshot

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
)

// Runs reads the events file a program wrote with JITLINT_EVENTS and keeps
// its last run, re-reading the file when it changes; a poller calls
// Changed when it does.
type Runs struct {
	// Path returns the events file ("" for none; relative paths are taken
	// from the working directory).
	Path func() string
	// Changed is called (from the poller) when the file has changed.
	Changed func()
	// Logf logs a line.
	Logf func(format string, args ...any)

	mu      sync.Mutex
	path    string    // the file run was read from
	stamp   fileStamp // its size and mtime then
	run     *LastRun
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

// runsPoll is how often the events file is checked for changes.
const runsPoll = 300 * time.Millisecond

// Stop ends the poller.
func (r *Runs) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.polling = true // no poller starts after Stop
	if r.done != nil {
		close(r.done)
		r.done = nil
	}
}

// LastRun is the compiles of the last process that wrote an events file,
// by call site ("file:line").
type LastRun struct {
	sites map[string]*events.Site
}

// ReadLastRun parses an events file and keeps the last run's compiles (the
// process id of the last event). Lines that are not events are skipped.
func ReadLastRun(path string) (*LastRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	evs, _ := events.Decode(f)
	run := &LastRun{sites: map[string]*events.Site{}}
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
	fmt.Fprintf(&b, "; %s tracing and compiling %s in all", FormatMs(st.MS), st.Function)
	return b.String()
}

// Current returns the last run of the events file (re-read when the file
// changed), or nil when there is none. It starts the poller.
func (r *Runs) Current() *LastRun {
	path := r.Path()
	if path == "" {
		return nil
	}
	path, _ = filepath.Abs(path)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.polling {
		r.polling = true
		r.done = make(chan struct{})
		go r.poll(r.done)
	}
	stamp, ok := stampOf(path)
	if !ok {
		r.run, r.path = nil, path
		return nil
	}
	if r.run == nil || path != r.path || stamp != r.stamp {
		run, err := ReadLastRun(path)
		if err != nil {
			r.Logf("jitls: reading runtime events: %v", err)
			return nil
		}
		r.run, r.path, r.stamp = run, path, stamp
	}
	return r.run
}

// poll calls Changed whenever the events file changes, until done closes.
func (r *Runs) poll(done chan struct{}) {
	t := time.NewTicker(runsPoll)
	defer t.Stop()
	for {
		select {
		case <-done:
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
			r.Changed()
		}
	}
}

// Recompile is a call site that the last run compiled more than once: a
// span of a line of a snapshot's file, and what to say of it.
type Recompile struct {
	Span
	Message string
}

// Recompiles returns the call sites of s's files that run compiled more
// than once. A file whose content (on disk or in an unsaved buffer) is not
// the one the run recorded gets none: its lines may have moved.
func (s *Snapshot) Recompiles(run *LastRun) []Recompile {
	if run == nil || s.Parsed == nil {
		return nil
	}
	var out []Recompile
	for _, st := range run.sites {
		if st.Compiles < 2 {
			continue
		}
		file := filepath.Clean(st.File)
		content, ok := s.Parsed.Contents[file]
		if !ok || !events.SameSource(st.Sources, st.File, content) {
			continue
		}
		start, end, ok := LineSpan(content, st.Line)
		if !ok {
			continue
		}
		out = append(out, Recompile{Span{file, start, end}, siteMessage(st)})
	}
	slices.SortFunc(out, func(a, b Recompile) int { return a.Start - b.Start })
	return out
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

// FormatMs formats a duration in milliseconds with the precision a reader
// needs: "123 ms", "4.5 ms", "0.12 ms".
func FormatMs(ms float64) string {
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0f ms", ms)
	case ms >= 1:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.2f ms", ms)
}
