package jit_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/events"
)

// readEvents decodes the events file, failing on any line that is not one
// event.
func readEvents(t *testing.T, path string) []events.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := events.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func scaleBy(n int, x jit.Array) jit.Array { return x.Mul(float64(n)) }

var scaleByLine = lineHere() - 2

func TestEventsContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := jit.SetEventsFile(path); err != nil {
		t.Fatal(err)
	}
	defer jit.SetEventsFile("")
	f := jit.Jit(scaleBy, jit.StaticArgnums(0))
	x := jit.Ones(jit.Float32, 4)
	var lines []int
	for _, n := range []int{2, 3, 3} {
		f.Call(n, x)
		lines = append(lines, lineHere()-1)
	}
	evs := readEvents(t, path)
	if len(evs) != 2 {
		t.Fatalf("%d events, want 2 (two compiles, one hit): %+v", len(evs), evs)
	}
	_, file, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if e.Function != "scaleBy" || e.DefinedAt != fmt.Sprintf("%s:%d", file, scaleByLine) ||
			e.CallSite != fmt.Sprintf("%s:%d", file, lines[i]) || e.PID != os.Getpid() || e.Calls != i+1 {
			t.Errorf("event %d: %+v", i, e)
		}
		if len(e.Sources) != 1 || e.Sources[file] != events.Hash(src) {
			t.Errorf("event %d: sources %v, want this file's hash", i, e.Sources)
		}
		if e.TraceMS <= 0 || e.LowerMS < 0 || e.CompileMS < 0 {
			t.Errorf("event %d durations: trace %v lower %v compile %v ms", i, e.TraceMS, e.LowerMS, e.CompileMS)
		}
	}
	if evs[0].Event != events.Compile || evs[0].Cause != "" || evs[0].Signature != "(n=2, x: f32[4]) on cpu" {
		t.Errorf("first event: %+v", evs[0])
	}
	second := evs[1]
	if second.Event != events.CacheMiss || len(second.Changes) != 1 ||
		fmt.Sprintf("%+v", second.Changes[0]) != "{Kind:static Path:n Before:2 Now:3}" ||
		!strings.Contains(second.Cause, "different static arguments") || !strings.Contains(second.Cause, "at n, now 3 and before 2") {
		t.Errorf("second event: %+v", second)
	}
}

// TestEventsCallsAndTraceErrors: the calls at a site are counted, hits
// included, and a failed trace writes one trace_error event at the line
// where it failed, also when it fails in a jitted function called by
// another one.
func TestEventsCallsAndTraceErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := jit.SetEventsFile(path); err != nil {
		t.Fatal(err)
	}
	defer jit.SetEventsFile("")
	x := jit.Zeros(jit.Float32, 3)
	f := jit.Jit(func(x jit.Array) jit.Array { return x.Neg() })
	var callLines []string
	for _, n := range []int{3, 3, 4, 4, 5} {
		f.Call(jit.Zeros(jit.Float32, n)) //jitlint:ignore shapechurn the test records the compiles new shapes cause
		callLines = append(callLines, lineBefore())
	}
	catch(t, func() { jit.Jit(reluBad).Call(x) })
	badCall := lineBefore()
	outer := jit.Jit(func(x jit.Array) jit.Array { return jit.Jit(reluBad).Call(x).Exp() })
	catch(t, func() { outer.Call(x) })
	outerCall := lineBefore()

	evs := readEvents(t, path)
	var got []string
	for _, e := range evs {
		s := fmt.Sprintf("%s %s calls=%d", e.Event, e.CallSite, e.Calls)
		if e.Failure != nil {
			s += fmt.Sprintf(" %s at %s", e.Failure.Kind, e.Failure.At)
		}
		got = append(got, s)
	}
	want := []string{
		fmt.Sprintf("compile %s calls=1", callLines[0]),
		fmt.Sprintf("cache_miss %s calls=3", callLines[2]),
		fmt.Sprintf("cache_miss %s calls=5", callLines[4]),
		fmt.Sprintf("trace_error %s calls=1 TracerBoolConversionError at %s", badCall, boolLine),
		fmt.Sprintf("trace_error %s calls=1 TracerBoolConversionError at %s", outerCall, boolLine),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// lineBefore returns this file's name and the line before the call: the
// statement the test has just run.
func lineBefore() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", file, line-1)
}

func TestEventsConcurrentLinesStayWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := jit.SetEventsFile(path); err != nil {
		t.Fatal(err)
	}
	defer jit.SetEventsFile("")
	const workers, sizes = 8, 6
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			f := jit.Jit(func(x jit.Array) jit.Array { return x.Add(float64(w)) })
			for n := 1; n <= sizes; n++ {
				f.Call(jit.Ones(jit.Float32, n)) //jitlint:ignore shapechurn the test compiles one signature per size on purpose
			}
		})
	}
	wg.Wait()
	evs := readEvents(t, path)
	if len(evs) != workers*sizes {
		t.Fatalf("%d events, want %d", len(evs), workers*sizes)
	}
	misses := 0
	for _, e := range evs {
		if e.Event == events.CacheMiss {
			misses++
		}
	}
	if misses != workers*(sizes-1) {
		t.Errorf("%d cache misses, want %d", misses, workers*(sizes-1))
	}
}

func TestEventsUnwritable(t *testing.T) {
	if err := jit.SetEventsFile(filepath.Join(t.TempDir(), "no", "such", "dir", "events.jsonl")); err == nil {
		t.Error("SetEventsFile on a missing directory: no error")
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to make writes fail")
	}
	// Every write to /dev/full fails (ENOSPC); the program must not notice.
	if err := jit.SetEventsFile("/dev/full"); err != nil {
		t.Fatal(err)
	}
	defer jit.SetEventsFile("")
	f := jit.Jit(func(x jit.Array) jit.Array { return x.Add(1) })
	for n := 1; n <= 3; n++ {
		if got := f.Call(jit.Ones(jit.Float32, n)).Sum().Item(); got != float64(2*n) { //jitlint:ignore shapechurn each size compiles, so each writes an event
			t.Errorf("sum = %v, want %d", got, 2*n)
		}
	}
}

// TestEventsEnvUnwritable runs a program with JITLINT_EVENTS naming a
// directory: it warns once and runs to the end.
func TestEventsEnvUnwritable(t *testing.T) {
	if os.Getenv("JIT_EVENTS_CHILD") == "1" {
		f := jit.Jit(func(x jit.Array) jit.Array { return x.Add(1) })
		fmt.Println("result", f.Call(jit.Ones(jit.Float32, 2)).Sum().Item())
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestEventsEnvUnwritable$", "-test.v")
	cmd.Env = append(os.Environ(), "JIT_EVENTS_CHILD=1", "JITLINT_EVENTS="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result 4") || !strings.Contains(string(out), "jit: JITLINT_EVENTS:") {
		t.Errorf("child: %v\n%s", err, out)
	}
}

// TestEventsConcurrentFirstCallsOneFirstCompile checks that of concurrent
// first calls with different shapes exactly one is the first compile and
// every other is a cache miss explained by the shape, however the compiles
// overlap: a miss is explained against every compile begun before it.
func TestEventsConcurrentFirstCallsOneFirstCompile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := jit.SetEventsFile(path); err != nil {
		t.Fatal(err)
	}
	defer jit.SetEventsFile("")
	const callers = 8
	f := jit.Jit(func(x jit.Array) jit.Array { return x.Mul(2) })
	start := make(chan struct{})
	var wg sync.WaitGroup
	for n := 1; n <= callers; n++ {
		wg.Go(func() {
			<-start
			f.Call(jit.Ones(jit.Float32, n))
		})
	}
	close(start)
	wg.Wait()
	first, misses := 0, 0
	for _, e := range readEvents(t, path) {
		switch e.Event {
		case events.Compile:
			first++
		case events.CacheMiss:
			misses++
			if len(e.Changes) != 1 || e.Changes[0].Kind != events.TypeChange {
				t.Errorf("cache miss explained by %+v, want the input's shape", e.Changes)
			}
		}
	}
	if first != 1 || misses != callers-1 {
		t.Fatalf("%d first compiles and %d cache misses, want 1 and %d", first, misses, callers-1)
	}
}
