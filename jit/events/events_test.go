package events

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRoundTrip encodes events with every field set and decodes them back.
func TestRoundTrip(t *testing.T) {
	in := []Event{
		{Time: time.Date(2026, 5, 1, 12, 0, 0, 123, time.UTC), Event: CacheMiss, Function: "power",
			DefinedAt: "/src/app/main.go:9", CallSite: "/src/app/main.go:20", Calls: 3, Signature: "(n=3, x: f32[4]) on cpu",
			Cause: "  different static arguments", Changes: []Change{{Kind: StaticChange, Path: "n", Before: "2", Now: "3"}},
			Sources: map[string]string{"/src/app/main.go": Hash([]byte("package main\n"))},
			TraceMS: 1.5, LowerMS: 0.25, CompileMS: 2, PID: 42},
		{Event: TraceError, Function: "step", CallSite: "/src/app/main.go:30", Calls: 1,
			Failure: &Failure{Kind: "TracerBoolConversionError", Message: "Bool() on a traced value", At: "/src/app/step.go:12"}, PID: 42},
	}
	var buf bytes.Buffer
	for i := range in {
		line, err := Encode(&in[i])
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Count(line, []byte("\n")) != 1 || !bytes.HasSuffix(line, []byte("\n")) {
			t.Fatalf("Encode: not one line: %q", line)
		}
		buf.Write(line)
	}
	out, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip:\n got  %+v\n want %+v", out, in)
	}
}

// TestDecodeBadLine: a line that is not an event is named in the error, and
// the events around it are kept.
func TestDecodeBadLine(t *testing.T) {
	file := `{"event":"compile","call_site":"a.go:1","pid":1}

{"hello": "world"}
not json
{"event":"cache_miss","call_site":"a.go:1","pid":1}
`
	evs, err := Decode(strings.NewReader(file))
	if len(evs) != 2 || err == nil || !strings.Contains(err.Error(), "line 3 ") {
		t.Errorf("Decode = %d events, %v; want 2 events and an error naming line 3", len(evs), err)
	}
}

func TestSplitPos(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		file string
		line int
		ok   bool
	}{
		{"/a/b.go:12", "/a/b.go", 12, true},
		{`C:\a\b.go:3`, `C:\a\b.go`, 3, true},
		{"b.go", "", 0, false},
		{"b.go:0", "", 0, false},
		{":4", "", 0, false},
	} {
		file, line, ok := SplitPos(tc.pos)
		if file != tc.file || line != tc.line || ok != tc.ok {
			t.Errorf("SplitPos(%q) = %q, %d, %v", tc.pos, file, line, ok)
		}
	}
}

// TestSites: compiles are grouped by call site and process; the causes
// keep the values in the order they were passed.
func TestSites(t *testing.T) {
	miss := func(pid, calls int, path, before, now string) Event {
		return Event{Event: CacheMiss, Function: "f", CallSite: "m.go:7", PID: pid, Calls: calls, TraceMS: 1,
			Changes: []Change{{Kind: TypeChange, Path: path, Before: before, Now: now}}}
	}
	evs := []Event{
		{Event: Compile, Function: "f", CallSite: "m.go:7", PID: 1, Calls: 1, TraceMS: 1},
		miss(1, 2, "x", "f32[5]", "f32[9]"),
		{Event: Compile, Function: "g", CallSite: "m.go:9", PID: 1, Calls: 1},
		{Event: TraceError, Function: "f", CallSite: "m.go:7", PID: 1, Calls: 3},
		miss(1, 4, "x", "f32[9]", "f32[12]"),
		{Event: Compile, Function: "f", CallSite: "m.go:7", PID: 2, Calls: 1},
		{Event: Compile, Function: "f", CallSite: "m.go:7", PID: 2, Calls: 2},
	}
	var got []string
	for _, st := range Sites(evs) {
		s := fmt.Sprintf("%s:%d pid %d: %d compiles in %d calls, %gms", st.File, st.Line, st.PID, st.Compiles, st.Calls, st.MS)
		for _, c := range st.Causes {
			s += fmt.Sprintf("; %s ×%d %v", c.What(), c.Count, c.Values)
		}
		got = append(got, s)
	}
	want := []string{
		"m.go:7 pid 1: 3 compiles in 4 calls, 3ms; the shape or dtype of x changed ×2 [f32[5] f32[9] f32[12]]",
		"m.go:9 pid 1: 1 compiles in 1 calls, 0ms",
		"m.go:7 pid 2: 2 compiles in 2 calls, 0ms; a new jitted function each time (jit.Jit is called again, so its cache starts empty) ×1 []",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sites:\n got  %q\n want %q", got, want)
	}
}
