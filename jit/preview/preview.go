// Package preview is the runtime of jitls's preview harness. The harness
// is a test file that jitls generates in the user's package (it exists
// only in a go test -overlay): its one test calls Run with a function
// that maps each previewable function's name to a Case, and Run traces
// the one named in the environment (result.EnvFunction), in measure mode
// also lowers, compiles and times it, and writes a result.Preview as JSON
// to the file result.EnvOut names.
//
// It is linked into the user's test binary only, never into a program.
package preview

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/jitlint/jitlint/jit"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// Tracer is what a Case traces: jit.Jit's result.
type Tracer interface {
	Trace(args ...any) (*jit.Traced, error)
}

// Case is one previewable function: the jitted function, the arguments to
// trace it with (jit.Spec for arrays, Go values for static arguments),
// and, for measure mode, concrete values to call the compiled function
// with.
type Case struct {
	Fn     Tracer
	Specs  []any
	Values func() []any
}

// gpuEstimate, if set (package gpuestimate), returns the offline compile
// estimate of the GPU backend, or "".
var gpuEstimate func(*jit.ClosedJaxpr) string

// SetGPUEstimate sets the function that gives a measurement the GPU
// backend's offline compile estimate; package gpuestimate calls it when
// the harness links the GPU backend.
func SetGPUEstimate(f func(*jit.ClosedJaxpr) string) { gpuEstimate = f }

// cachedCalls is how many calls of the compiled function a measurement
// times after the first.
const cachedCalls = 10

// Run previews the function the environment names: cases returns its
// Case (nil if there is none by that name). A panic in the user's code,
// or jit's rejection of the function, is reported in the result; only a
// result that cannot be written fails t.
func Run(t *testing.T, cases func(name string) *Case) {
	res := &result.Preview{Function: os.Getenv(result.EnvFunction)}
	defer finish(t, res)
	c := cases(res.Function)
	if c == nil {
		res.Error = "jitls has no preview for " + res.Function
		return
	}
	run(res, c, result.Mode(os.Getenv(result.EnvMode)))
}

// finish records a panic (jit's *jit.Error, which rejects a function or a
// transformation's options, as an error) and writes res.
func finish(t *testing.T, res *result.Preview) {
	if r := recover(); r != nil {
		if e, ok := r.(*jit.Error); ok {
			res.Error = e.Error()
		} else {
			res.Panic = fmt.Sprint(r)
			res.Stack = string(debug.Stack())
		}
	}
	data, err := json.Marshal(res)
	if err == nil {
		err = os.WriteFile(os.Getenv(result.EnvOut), data, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// run traces c (and in measure mode lowers, compiles and times it) into res.
func run(res *result.Preview, c *Case, mode result.Mode) {
	t0 := time.Now()
	tr, err := c.Fn.Trace(c.Specs...)
	res.TraceMs = ms(time.Since(t0))
	if err != nil {
		res.Error = "tracing failed: " + err.Error()
		return
	}
	jx := tr.Jaxpr()
	res.Jaxpr = jx.String()
	res.JaxprSources = jx.PrettyPrint(ir.PrintOptions{SourceInfo: true})
	res.Sources = sources(jx.IR().Jaxpr, nil)
	for _, a := range jx.InAvals() {
		res.In = append(res.In, a.String())
	}
	for _, a := range jx.OutAvals() {
		res.Out = append(res.Out, a.String())
	}
	res.Eqns = len(jx.Eqns())
	if mode != result.Measure {
		return
	}
	t1 := time.Now()
	low, err := tr.Lower()
	res.LowerMs = ms(time.Since(t1))
	if err != nil {
		res.Error = "lowering failed: " + err.Error()
		return
	}
	t2 := time.Now()
	comp, err := low.Compile()
	res.CompileMs = ms(time.Since(t2))
	if err != nil {
		res.Error = "compiling failed: " + err.Error()
		return
	}
	res.Backend, res.Device = comp.Backend(), comp.Device()
	if gpuEstimate != nil {
		res.GPUEstimate = gpuEstimate(jx)
	}
	args := c.Values()
	call := func() error {
		out, err := comp.Call(args...)
		for _, o := range out {
			o.BlockUntilReady()
		}
		if err != nil {
			return fmt.Errorf("calling the compiled function failed: %v", err)
		}
		return nil
	}
	t3 := time.Now()
	if err := call(); err != nil {
		res.Error = err.Error()
		return
	}
	res.FirstCallMs = ms(time.Since(t3))
	t4 := time.Now()
	for range cachedCalls {
		if err := call(); err != nil {
			res.Error = err.Error()
			return
		}
	}
	res.CachedCallMs = ms(time.Since(t4)) / cachedCalls
}

// sources lists the equations of j and of the jaxprs nested in them (in
// the order of their parameters' names), each after its parent.
func sources(j *ir.Jaxpr, out []result.Eqn) []result.Eqn {
	for _, e := range j.Eqns {
		s := result.Eqn{Prim: e.Prim}
		if e.Source != nil {
			s.File, s.Line = e.Source.File, e.Source.Line
		}
		for _, v := range e.Out {
			s.Out = append(s.Out, v.Aval.String())
		}
		out = append(out, s)
		keys := make([]string, 0, len(e.Params))
		for k := range e.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			switch sub := e.Params[k].(type) {
			case *ir.ClosedJaxpr:
				out = sources(sub.Jaxpr, out)
			case []*ir.ClosedJaxpr:
				for _, c := range sub {
					out = sources(c.Jaxpr, out)
				}
			}
		}
	}
	return out
}
