package jit

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jitlint/jitlint/jit/events"
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

// SetEventsFile makes every compile append one JSON line (an events.Event) to the
// file at path, created if needed; "" turns events off. The environment
// variable JITLINT_EVENTS sets it at start-up. Each line is appended with a
// single write to a file opened with O_APPEND, so lines of concurrent
// compiles, and of several processes sharing the file, do not interleave.
// A write that fails is reported once on standard error and never stops the
// program.
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

// emitEvent appends e to the events file when there is one.
func emitEvent(e *events.Event) {
	f := eventsOut.Load()
	if f == nil {
		return
	}
	e.Time = time.Now()
	e.PID = os.Getpid()
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
