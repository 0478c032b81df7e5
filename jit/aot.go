package jit

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit/backend"
	"github.com/jitlint/jitlint/jit/ir"
)

// ClosedJaxpr is a traced program: its String method prints it exactly as
// JAX prints a jaxpr.
type ClosedJaxpr struct{ cj *ir.ClosedJaxpr }

// String prints the jaxpr in JAX's text format.
func (c *ClosedJaxpr) String() string { return c.cj.String() }

// PrettyPrint prints the jaxpr as String does, with options: SourceInfo
// appends "  # file.go:line", the call in your code that staged it, to each
// equation (JAX's pretty_print(source_info=True)).
func (c *ClosedJaxpr) PrettyPrint(o ir.PrintOptions) string { return c.cj.PrettyPrint(o) }

// Eqns returns the top-level equations.
func (c *ClosedJaxpr) Eqns() []*ir.Eqn { return c.cj.Jaxpr.Eqns }

// InAvals returns the input types.
func (c *ClosedJaxpr) InAvals() []ir.Aval { return c.cj.Jaxpr.InAvals() }

// OutAvals returns the output types.
func (c *ClosedJaxpr) OutAvals() []ir.Aval { return c.cj.Jaxpr.OutAvals() }

// IR returns the underlying IR (shared, do not modify).
func (c *ClosedJaxpr) IR() *ir.ClosedJaxpr { return c.cj }

// Traced is a function traced for one signature (jax.stages.Traced).
type Traced struct {
	core    *funcCore
	cj      *ir.ClosedJaxpr
	sig     *signature
	outTree *treeDef
}

// Jaxpr returns the traced program.
func (t *Traced) Jaxpr() *ClosedJaxpr { return &ClosedJaxpr{t.cj} }

// Signature describes the input signature that was traced, e.g.
// "(x: f32[4]) on cpu".
func (t *Traced) Signature() string { return t.sig.String() }

// Lower lowers the program for the function's backend.
func (t *Traced) Lower() (l *Lowered, err error) {
	defer recoverError(&err)
	bk, err := getBackend(t.sig.backend)
	if err != nil {
		return nil, &Error{Kind: BackendFailure, Msg: fmt.Sprintf("backend %q is not available: %v", t.sig.backend, err)}
	}
	start := time.Now()
	low, err := bk.Lower(t.cj)
	if err != nil {
		return nil, &Error{Kind: BackendFailure, Msg: fmt.Sprintf("lowering %s for %s: %v", t.core.name, bk.Name(), err)}
	}
	d := time.Since(start)
	c := t.core
	c.recordPhase(d, nil, &c.stats.LowerTime, &c.stats.LastLowerTime)
	if logCompiles.Load() {
		logf("Compiling %s with global shapes and types %s. Argument mapping: %s.", c.name, avalList(t.sig.avals), bk.Name())
		logf("Finished jaxpr to %s lowering of jit(%s) in %.9f sec", bk.Name(), c.name, d.Seconds())
	}
	return &Lowered{traced: t, low: low, bk: bk}, nil
}

func avalList(avals []ir.Aval) string {
	parts := make([]string, len(avals))
	for i, a := range avals {
		parts[i] = a.StringWeak()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Lowered is a lowered program (jax.stages.Lowered).
type Lowered struct {
	traced *Traced
	low    backend.Lowered
	bk     backend.Backend
}

// AsText returns the lowered program: a readable kernel listing on cpu, PTX on gpu.
func (l *Lowered) AsText() string { return l.low.Text() }

// CostAnalysis estimates the program's cost before compiling.
func (l *Lowered) CostAnalysis() Cost { return Cost(ir.CostOf(l.traced.cj.Jaxpr)) }

// Compile compiles the program.
func (l *Lowered) Compile() (comp *Compiled, err error) {
	defer recoverError(&err)
	c := l.traced.core
	start := time.Now()
	exe, err := l.low.Compile()
	if err != nil {
		return nil, &Error{Kind: BackendFailure, Msg: fmt.Sprintf("compiling %s for %s: %v", c.name, l.bk.Name(), err)}
	}
	d := time.Since(start)
	c.recordPhase(d, &c.stats.Compiles, &c.stats.CompileTime, &c.stats.LastCompileTime)
	if logCompiles.Load() {
		logf("Finished %s compilation of jit(%s) in %.9f sec", l.bk.Name(), c.name, d.Seconds())
	}
	device := ""
	if ds := l.bk.Devices(); len(ds) > 0 {
		device = ds[0].Name
	}
	t := l.traced
	return &Compiled{core: c, exe: exe, backend: l.bk.Name(), device: device, cj: t.cj, sig: t.sig, outTree: t.outTree}, nil
}

// Cost is an estimate of a program's work.
type Cost ir.Cost

// Compiled is a compiled program for one signature (jax.stages.Compiled).
type Compiled struct {
	core    *funcCore
	exe     backend.Executable
	backend string
	device  string
	cj      *ir.ClosedJaxpr
	sig     *signature
	outTree *treeDef
}

// Backend returns the platform the program was compiled for ("cpu" or "gpu").
func (c *Compiled) Backend() string { return c.backend }

// Device names the device the program runs on.
func (c *Compiled) Device() string { return c.device }

// CostAnalysis estimates the program's cost.
func (c *Compiled) CostAnalysis() Cost { return Cost(ir.CostOf(c.cj.Jaxpr)) }

// DriverCompileTime is the device driver's own JIT time (gpu), or 0.
func (c *Compiled) DriverCompileTime() time.Duration { return c.exe.CompileDetail().DriverJIT }

// Call runs the program. args are the traced function's arguments (all of
// them, statics included, or only the non-static ones); their types must
// match the compiled signature. The results are returned flattened.
func (c *Compiled) Call(args ...any) (out []Array, err error) {
	defer recoverError(&err)
	core := c.core
	if len(args) != core.typ.NumIn() && len(args) == core.typ.NumIn()-len(core.static) {
		full := make([]any, 0, core.typ.NumIn())
		k, si := 0, 0
		for i := 0; i < core.typ.NumIn(); i++ {
			if core.static[i] {
				full = append(full, c.sig.statics[si].v)
				si++
				continue
			}
			full = append(full, args[k])
			k++
		}
		args = full
	}
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	f, tree := core.flattenArgs(vals, false, true)
	if msg := c.sig.mismatch(f.signature(tree, c.sig.backend)); msg != "" {
		return nil, &Error{Kind: BadArgument, Msg: "Argument types differ from the types for which this computation was compiled. The mismatches are:\n" + msg, Pos: userPos()}
	}
	return c.run(core, f.leaves), nil
}

// run executes with flattened leaves, timing the call in caller's stats.
func (c *Compiled) run(caller *funcCore, leaves []leaf) []Array {
	bufs := make([]*ir.Buffer, len(leaves))
	for i, l := range leaves {
		v := l.arr.val()
		if v.t != nil {
			throw(LeakedTracer, "%s: argument %s is a traced value used after its trace ended", c.core.name, l.path)
		}
		bufs[i] = v.buf
	}
	return c.runBuffers(caller, bufs)
}

// runBuffers executes with concrete input buffers and wraps the results,
// timing the call in caller's stats.
func (c *Compiled) runBuffers(caller *funcCore, bufs []*ir.Buffer) []Array {
	start := time.Now()
	res, err := c.exe.Execute(bufs)
	if err != nil {
		throw(BackendFailure, "running %s on %s: %v", c.core.name, c.backend, err)
	}
	outs := c.cj.Jaxpr.Outvars
	arrs := make([]Array, len(res))
	for i, b := range res {
		arrs[i] = concrete(b, outs[i].Type().Weak)
	}
	d := int64(time.Since(start))
	caller.execTotal.Add(d)
	caller.execLast.Store(d)
	return arrs
}

// MakeJaxpr returns a function that traces fn for the given arguments
// (Arrays, ShapeDtypes, Go numbers as weak scalars, static values per
// StaticArgnums) and returns its jaxpr, as jax.make_jaxpr.
func MakeJaxpr(fn any, opts ...Option) func(args ...any) (*ClosedJaxpr, error) {
	c := newCore(reflect.ValueOf(fn), opts)
	return func(args ...any) (*ClosedJaxpr, error) {
		t, err := c.traceAny("make_jaxpr", args)
		if err != nil {
			return nil, err
		}
		return t.Jaxpr(), nil
	}
}

// Trace traces the function for the given arguments (Arrays, ShapeDtypes, Go
// numbers, static values, pytrees) without compiling it.
func (f *Func[F]) Trace(args ...any) (*Traced, error) {
	return f.core.traceAny("jit", args)
}

// Lower traces and lowers the function for the given arguments.
func (f *Func[F]) Lower(args ...any) (*Lowered, error) {
	t, err := f.Trace(args...)
	if err != nil {
		return nil, err
	}
	return t.Lower()
}
