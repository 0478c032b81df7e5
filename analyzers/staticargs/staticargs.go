package staticargs

import (
	_ "embed"
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/analyzers/internal/astq"
	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
)

//go:embed doc.go
var docGo string

// Analyzer is the staticargs analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New())

// New returns a fresh staticargs analyzer that uses tracer (made by traced.New).
func New(tracer *analysis.Analyzer) *analysis.Analyzer {
	return traced.NewAnalyzer("staticargs", docGo, tracer, func(pass *analysis.Pass, r *traced.Result) {
		for _, j := range r.RepeatedJits() {
			pass.Report(repeatedJit(r, j))
		}
		for _, call := range r.JittedCalls() {
			checkCall(r, call, pass.Report)
		}
	})
}

// repeatedJit explains a jit.Jit call that makes a new wrapper on every run.
func repeatedJit(r *traced.Result, j traced.RepeatedJit) analysis.Diagnostic {
	d := analysis.Diagnostic{Pos: j.Call.Pos(), End: j.Call.End()}
	if j.Loop == nil {
		d.Message = fmt.Sprintf("jit.Jit runs on every call of %s, and %s: each call makes a new wrapper with an empty cache, "+
			"so every call traces and compiles again. Create the jitted function once (a package variable, or a field of a value made once) and pass what differs between runs as arguments", j.Func, j.Why)
		return d
	}
	if j.UsesLoop {
		// The function is made of the loop's values: it cannot move before it.
		d.Message = "jit.Jit is called on every iteration of this loop, on a function made of the loop's values: each call makes a new wrapper " +
			"with an empty cache, so every call traces and compiles again. Jit one function before the loop and pass what changes as its arguments " +
			"(for a method value, jit the method expression, jit.Jit((*T).M), and pass the receiver)"
		return d
	}
	d.Message = "jit.Jit is called on every iteration of this loop: each call makes a new wrapper with an empty cache, " +
		"so every call traces and compiles again. Create the jitted function once, before the loop"
	stack := astq.PathTo(r.File(j.Call.Pos()), j.Call)
	if fix, ok := hoistFix(r, j.Call, stack, j.Loop); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	return d
}

// checkCall reports the static arguments of one call that make it compile
// again: arrays and values that are not comparable in static positions,
// and static values (arguments, or `jit:"static"` fields of arguments) that
// take a new value on every run.
func checkCall(r *traced.Result, j *traced.JittedCall, report func(analysis.Diagnostic)) {
	for k, arg := range j.Call.Args {
		t := j.ParamType(k)
		if t == nil {
			continue
		}
		name := paramName(j, k)
		if !j.IsStatic(k) {
			for _, sf := range staticFields(t, nil, "") {
				if c := j.ArgChurn(k, sf.path); c != nil {
					report(analysis.Diagnostic{Pos: arg.Pos(), End: arg.End(), Message: churnMessage("static field "+sf.name+" of argument "+name, c)})
				}
			}
			continue
		}
		var msg string
		switch {
		case jitapi.ContainsArray(t):
			msg = fmt.Sprintf("an Array is passed as static argument %s: static arguments are Go values kept in the cache key; pass arrays as ordinary arguments", name)
		case !types.Comparable(t):
			msg = fmt.Sprintf("static argument %s has type %s, which is not comparable: the call panics with BadStaticArg. Use a comparable value (an array, a string, a struct of comparable fields)",
				name, types.TypeString(t, types.RelativeTo(nil)))
		default:
			c := j.ArgChurn(k, nil)
			if c == nil {
				continue
			}
			msg = churnMessage("static argument "+name, c)
		}
		d := analysis.Diagnostic{Pos: arg.Pos(), End: arg.End(), Message: msg}
		if j.StaticOpt != nil {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: j.StaticOpt.Pos(), End: j.StaticOpt.End(), Message: "the argument is made static here"})
		}
		report(d)
	}
}

// churnMessage explains a static value that changes on every run.
func churnMessage(what string, c *traced.Churn) string {
	if c.Handler != "" {
		return fmt.Sprintf("%s comes from each request to %s: each new value traces and compiles again. Pass it as an array argument", what, c.Handler)
	}
	if c.Source != "" {
		return fmt.Sprintf("%s comes from %s and changes on every call: each call traces and compiles again. Pass it as an array argument", what, c.Source)
	}
	count := "each call traces and compiles again"
	switch {
	case c.Known && c.DistinctKnown && c.Distinct < c.Trips:
		count += fmt.Sprintf(" (%d values over %d iterations → %d compiles)", c.Distinct, c.Trips, c.Distinct)
	case c.Known:
		count += fmt.Sprintf(" (%d iterations → %d compiles)", c.Trips, c.Trips)
	}
	return fmt.Sprintf("%s takes a new value on every iteration: %s. Pass it as an array argument, or keep it fixed", what, count)
}

// paramName names static argument k: its parameter name when known.
func paramName(j *traced.JittedCall, k int) string {
	if name := j.ParamName(k); name != "" {
		return name
	}
	return fmt.Sprint(k)
}

// staticField is a `jit:"static"` field of an argument's type, by its
// path of field indexes.
type staticField struct {
	name string
	path []int
}

// staticFields returns the static fields of t (a struct or a pointer to
// one), through nested structs.
func staticFields(t types.Type, path []int, prefix string) []staticField {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || len(path) > 3 {
		return nil
	}
	var out []staticField
	for i := range st.NumFields() {
		f := st.Field(i)
		p := append(append([]int(nil), path...), i)
		if jitapi.IsStaticTag(st.Tag(i)) {
			out = append(out, staticField{prefix + f.Name(), p})
			continue
		}
		out = append(out, staticFields(f.Type(), p, prefix+f.Name()+".")...)
	}
	return out
}
