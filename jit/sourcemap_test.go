package jit_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/ir"
)

// lineHere returns the line it is called from.
func lineHere() int {
	_, _, line, _ := runtime.Caller(1)
	return line
}

var inner, innerLine = jit.Jit(func(x jit.Array) jit.Array { return x.Exp() }), lineHere()

// TestSourceMapNestedAndComposite checks the positions of a nested jit call
// and of its body, of a composite op (Mean stages several equations inside
// jit) and of a one-call helper (compiled without a stack frame), and the
// SourceInfo printing option.
func TestSourceMapNestedAndComposite(t *testing.T) {
	helper, helperLine := func(x jit.Array) jit.Array { return x.Neg() }, lineHere()
	var callLine, meanLine int
	cj, err := jit.MakeJaxpr(func(x jit.Array) jit.Array {
		y, l := inner.Call(x), lineHere()
		callLine = l //jitlint:ignore traceeffect the test records the staging lines while tracing, once
		m, l := y.Mean(), lineHere()
		meanLine = l //jitlint:ignore traceeffect the test records the staging lines while tracing, once
		return helper(m)
	})(jit.Spec(jit.Float32, 8))
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	got := map[string]bool{}
	var walk func(j *ir.Jaxpr)
	walk = func(j *ir.Jaxpr) {
		for _, e := range j.Eqns {
			if e.Source == nil || e.Source.File != file {
				t.Errorf("%s staged at %q, want a line of %s", e.Prim, e.Source, file)
				continue
			}
			got[fmt.Sprintf("%s:%d", e.Prim, e.Source.Line)] = true
			if sub, ok := e.Params["jaxpr"].(*ir.ClosedJaxpr); ok {
				walk(sub.Jaxpr)
			}
		}
	}
	walk(cj.IR().Jaxpr)
	for _, want := range []string{
		fmt.Sprintf("jit:%d", callLine), fmt.Sprintf("exp:%d", innerLine),
		fmt.Sprintf("reduce_sum:%d", meanLine), fmt.Sprintf("div:%d", meanLine), fmt.Sprintf("neg:%d", helperLine),
	} {
		if !got[want] {
			t.Errorf("no equation %s; got %v", want, got)
		}
	}
	printed := cj.PrettyPrint(ir.PrintOptions{SourceInfo: true})
	if n := strings.Count(printed, "  # sourcemap_test.go:"); n != 5 {
		t.Errorf("%d source comments for 5 equations in\n%s", n, printed)
	}
	if !strings.Contains(printed, fmt.Sprintf("] a  # sourcemap_test.go:%d\n", callLine)) {
		t.Errorf("the jit equation's source does not end its last line:\n%s", printed)
	}
	if strings.Contains(cj.String(), "#") {
		t.Errorf("String prints sources:\n%s", cj)
	}
}
