package traced

import (
	"github.com/jitlint/jitlint/internal/jitapi"

	"fmt"
	"go/constant"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Which code is traced: the functions given to jit's entry points run
// inside a trace, and so does everything they call, however the call is
// made. A Context is one such run: a function with its atoms bound (its
// parameters to what the call passes, in terms of the root's parameters;
// its mode to true). The contexts are found from the roots by following
// every call whose callee the bound values resolve — a function passed to
// a helper, returned by a factory, held in a field, a method of the
// dynamic type that reaches an interface — so the same helper is judged
// with what each caller gives it. Contexts are cut off at maxCallDepth
// calls below a root and maxContexts per function (documented in
// docs/analyzers.md).

const (
	maxCallDepth = 12
	maxContexts  = 16
	// maxUpDepth bounds how many callers a value of a parameter is
	// followed up through (the arguments of the callers of the callers).
	maxUpDepth = 4
)

// A Context is a function running inside a trace.
type Context struct {
	Fn *ssa.Function
	// Env binds Fn's atoms.
	Env *Env
	// Parent is the context that called this one (nil at a root), at Call.
	Parent *Context
	Call   ssa.Instruction
	// Root is the trace this context belongs to.
	Root *Root
	// transforms are the jit.Vmap, Grad and ValueAndGrad that the call
	// making this context applies to its function (a transformed function
	// called inside a trace), innermost first.
	transforms []*Expr
	depth      int
	flow       *flow
	live       map[*ssa.BasicBlock]bool
	vals       map[ssa.Value]*Expr
}

// A Root is an entry point of the jit API and the function it traces.
type Root struct {
	// Entry is the jit function ("Jit", "MakeJaxpr", "Vmap", "Cond", ...).
	Entry string
	// Call is its call.
	Call ssa.CallInstruction
	// Fn is the traced function.
	Fn *ssa.Function
	// Static are the static argument indexes (StaticArgnums), and
	// StaticKnown is false when the options come from elsewhere.
	Static      []int
	StaticKnown bool
	// Wrapper is the jit.Jit result (nil for other entry points).
	Wrapper *Expr
	// Transforms are the jit.Vmap / Grad / ValueAndGrad applied to Fn,
	// innermost first.
	Transforms []*Expr
	// BoundRecv is set for a method value (jit.Jit(m.Step)): its receiver
	// outlives the trace.
	BoundRecv bool
	// frees are the free variables of a closure root.
	frees []*Expr
}

// findContexts finds the roots of the package and every context below
// them; roots are the contexts of every root, also those the walk merges
// with an equal one (each is an entry call of its function).
func (f *flow) findContexts() (all, roots []*Context) {
	w := newWalk()
	for _, r := range f.roots() {
		c := f.rootContext(r)
		roots = append(roots, c)
		w.add(c)
	}
	w.run()
	// Control flow called outside any trace traces its functions too.
	tracedFns := map[*ssa.Function]bool{}
	for _, c := range w.out {
		tracedFns[c.Fn] = true
	}
	for _, r := range f.eagerControlRoots(tracedFns) {
		c := f.rootContext(r)
		roots = append(roots, c)
		w.add(c)
	}
	w.run()
	return w.out, roots
}

// below returns root and the contexts below it.
func (f *flow) below(root *Context) []*Context {
	w := newWalk()
	w.add(root)
	w.run()
	return w.out
}

// walk finds contexts breadth first, each once, within the limits.
type walk struct {
	out   []*Context
	queue []*Context
	seen  map[string]bool
	perFn map[*ssa.Function]int
}

func newWalk() *walk { return &walk{seen: map[string]bool{}, perFn: map[*ssa.Function]int{}} }

func (w *walk) add(c *Context) {
	key := c.key()
	if w.seen[key] || w.perFn[c.Fn] >= maxContexts || c.depth > maxCallDepth {
		return
	}
	w.seen[key] = true
	w.perFn[c.Fn]++
	w.out = append(w.out, c)
	w.queue = append(w.queue, c)
}

func (w *walk) run() {
	for len(w.queue) > 0 {
		c := w.queue[0]
		w.queue = w.queue[1:]
		for _, child := range c.children() {
			w.add(child)
		}
	}
}

// key identifies a context by its function and bindings.
func (c *Context) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%p|", c.Fn)
	if c.Env != nil {
		for _, p := range c.Env.Params {
			b.WriteString(p.String())
			b.WriteByte(',')
		}
		b.WriteByte('|')
		for _, p := range c.Env.Frees {
			b.WriteString(p.String())
			b.WriteByte(',')
		}
	}
	return b.String()
}

// value is v's expression in the context.
func (c *Context) value(v ssa.Value, at *ssa.BasicBlock) *Expr {
	if c.vals == nil {
		c.vals = map[ssa.Value]*Expr{}
	}
	if e, ok := c.vals[v]; ok && at == nil {
		return e
	}
	s := c.flow.summary(c.Fn)
	e := c.flow.subst(s.operand(v, at), c.Env)
	if at == nil {
		c.vals[v] = e
	}
	return e
}

// Live reports whether block b can run in the context: blocks behind a
// condition that the bound values decide (x.IsTracer() on a traced x) do
// not.
func (c *Context) Live(b *ssa.BasicBlock) bool {
	if c.live == nil {
		c.live = map[*ssa.BasicBlock]bool{}
		if len(c.Fn.Blocks) == 0 {
			return false
		}
		stack := []*ssa.BasicBlock{c.Fn.Blocks[0]}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c.live[x] {
				continue
			}
			c.live[x] = true
			succs := x.Succs
			if ifs, ok := x.Instrs[len(x.Instrs)-1].(*ssa.If); ok {
				if v, ok := c.value(ifs.Cond, x).isConst(); ok && v.Kind() == constant.Bool {
					if constant.BoolVal(v) {
						succs = x.Succs[:1]
					} else {
						succs = x.Succs[1:]
					}
				}
			}
			stack = append(stack, succs...)
		}
	}
	return c.live[b]
}

// surely reports whether block b runs whenever the context's function
// does: the conditions on the way to it hold for the bound values.
func (c *Context) surely(b *ssa.BasicBlock) bool {
	if len(c.Fn.Blocks) == 0 {
		return false
	}
	cond := c.flow.subst(c.flow.summary(c.Fn).pathCond(c.Fn.Blocks[0], b), c.Env)
	v, ok := cond.isConst()
	if !ok {
		vs := c.flow.valuesAt(cond, c)
		if vs.vals == nil || len(vs.vals) != 1 {
			return false
		}
		v = vs.vals[0]
	}
	return v.Kind() == constant.Bool && constant.BoolVal(v)
}

// roots finds the calls of jit.Jit, MakeJaxpr, Vmap, Grad and
// ValueAndGrad and the functions they trace.
func (f *flow) roots() []*Root {
	var out []*Root
	for _, fn := range f.funcs {
		s := f.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee == nil {
					continue
				}
				switch name := jitName(callee); name {
				case "Jit", "MakeJaxpr", "Vmap", "Grad", "ValueAndGrad":
					args := f.argsOf(s, call.Common(), b)
					if len(args) == 0 {
						continue
					}
					if name == "Jit" && onlyInspected(call.Value()) {
						continue // a wrapper whose cache is only read: it traces nothing
					}
					r := &Root{Entry: name, Call: call, StaticKnown: true}
					if name == "Jit" {
						r.Wrapper = s.value(call.Value())
					}
					if len(args) > 1 {
						r.Static, r.StaticKnown = f.staticArgnums(fn, args[1])
					}
					if name != "Jit" && name != "MakeJaxpr" {
						r.Transforms = []*Expr{s.value(call.Value())}
					}
					for _, fv := range f.resolveUp(fn, args[0], maxUpDepth) {
						out = append(out, f.rootsOf(r, fv)...)
					}
				}
			}
		}
	}
	return out
}

// onlyInspected reports whether the wrapper v (nil: a call in a go or
// defer statement) is used, and only by methods that read its cache
// (jit.Func.Stats, Signatures). A wrapper not used at all is analysed as
// if called: code that is meant to be.
func onlyInspected(v *ssa.Call) bool {
	calls, methods, other := wrapperUses(v)
	return !other && len(calls) == 0 && len(methods) > 0 && !slices.ContainsFunc(methods, func(m *ssa.Call) bool {
		return !jitapi.WrapperInspects(m.Call.StaticCallee().Name())
	})
}

// rootsOf makes a root for each function the value fv can be (looking
// through transformations).
func (f *flow) rootsOf(r *Root, fv *Expr) []*Root {
	var out []*Root
	for _, v := range alternatives(unwrapIface(fv)) {
		switch {
		case v.Kind == kTransform && len(v.Args) > 0:
			inner := *r
			inner.Transforms = append([]*Expr{v}, r.Transforms...)
			out = append(out, f.rootsOf(&inner, v.Args[0])...)
		case v.Kind == kFunc && v.Fn != nil && !f.local(v.Fn):
			rr := *r
			rr.Fn = v.Fn
			f.externalRoots = append(f.externalRoots, &rr)
		case v.Kind == kFunc && v.Fn != nil && f.local(v.Fn):
			rr := *r
			rr.Fn = v.Fn
			rr.BoundRecv = strings.HasSuffix(v.Fn.Name(), "$bound")
			if v.Env != nil {
				rr.frees = v.Env.Frees
			}
			out = append(out, &rr)
		}
	}
	return out
}

// staticArgnums reads the StaticArgnums of an options slice.
func (f *flow) staticArgnums(fn *ssa.Function, opts *Expr) ([]int, bool) {
	var static []int
	known := true
	for _, o := range f.resolveUp(fn, opts, maxUpDepth) {
		elems := elements(o)
		if elems == nil {
			if n, ok := length(o).int64Of(); ok && n == 0 {
				continue
			}
			known = false
			continue
		}
		for _, opt := range elems {
			if opt.Kind != kOption {
				if opt.Kind != kUnknown {
					known = false
				}
				continue
			}
			if opt.Name != "StaticArgnums" || len(opt.Args) == 0 {
				continue
			}
			ks := elements(opt.Args[0])
			if ks == nil {
				known = false
			}
			for _, k := range ks {
				if n, ok := k.int64Of(); ok && !slices.Contains(static, int(n)) {
					static = append(static, int(n))
				} else if !ok {
					known = false
				}
			}
		}
	}
	return static, known
}

// resolveUp returns the values e (an expression of fn) has at the places
// that run fn: e itself when it does not depend on fn's parameters or
// free variables, else e bound by each call or closure, followed up
// through callers up to depth.
func (f *flow) resolveUp(fn *ssa.Function, e *Expr, depth int) []*Expr {
	if !e.mentions(func(a *Expr) bool {
		return (a.Kind == kParam || a.Kind == kFree) && a.Fn == fn || (a.Kind == kPtr || a.Kind == kAtExit || a.Kind == kOver) && a.Env == nil && a.owner() == fn
	}) {
		return []*Expr{e}
	}
	if depth == 0 {
		return []*Expr{e}
	}
	var out []*Expr
	for _, cs := range f.callSites(fn) {
		env := &Env{Fn: fn, Params: cs.args, Frees: cs.frees}
		out = append(out, f.resolveUp(cs.atoms, f.subst(e, env), depth-1)...)
	}
	if len(out) == 0 {
		return []*Expr{e}
	}
	return out
}

// rootContext is the context of a root: parameters bound to Root atoms
// (traced unless static) with the values the calls of its wrapper pass.
func (f *flow) rootContext(r *Root) *Context {
	fn := r.Fn
	env := &Env{Fn: fn, Params: make([]*Expr, len(fn.Params)), Frees: r.frees, Mode: exprTrue}
	mapped, diff := transformFlags(r, len(fn.Params))
	var passed [][]*Expr
	var sites []any
	if r.Wrapper != nil {
		for _, cs := range f.callSites(fn) {
			if cs.jitted != nil && cs.jitted.Site == r.Wrapper.Site {
				var args []*Expr
				for _, a := range cs.args {
					args = append(args, choice(f.resolveUp(cs.atoms, a, maxUpDepth)...))
				}
				passed = append(passed, args)
				sites = append(sites, cs.at)
			}
		}
	}
	if gradOnly(r) {
		// jit.Grad(f)(x, ...): f is called with what the calls of the
		// gradient pass, of the same shapes.
		v := r.Call.Value()
		for _, ref := range *v.Referrers() {
			call, ok := ref.(*ssa.Call)
			if !ok || call.Common().Value != v {
				continue
			}
			var args []*Expr
			for _, a := range f.argsOf(f.summary(call.Parent()), call.Common(), call.Block()) {
				args = append(args, choice(f.resolveUp(call.Parent(), a, maxUpDepth)...))
			}
			passed = append(passed, args)
			sites = append(sites, call)
		}
	}
	for i, p := range fn.Params {
		flags := ""
		if mapped[i] {
			flags += " mapped"
		}
		if diff[i] {
			flags += " diff"
		}
		var vals []*Expr
		for _, args := range passed {
			if i < len(args) {
				vals = append(vals, args[i])
			}
		}
		if len(vals) != len(passed) {
			vals = nil
		}
		env.Params[i] = pytree(p.Type(), vals, sites, fn, i, slices.Contains(r.Static, i), flags, 0)
		if in := env.Params[i]; !r.StaticKnown && in.Kind == kInput && strings.Contains(in.Name, "nonstatic") {
			cp := *in
			cp.Name = strings.Replace(in.Name, "nonstatic", "maybestatic", 1) // the options come from elsewhere
			env.Params[i] = &cp
		}
	}
	return &Context{Fn: fn, Env: env, Root: r, flow: f}
}

// gradOnly reports whether r is a call of jit.Grad or ValueAndGrad, not
// under a Vmap (whose calls pass arrays of more dims than the function's).
func gradOnly(r *Root) bool {
	return r.Wrapper == nil && r.Call != nil && r.Call.Value() != nil && (r.Entry == "Grad" || r.Entry == "ValueAndGrad") && len(r.Transforms) == 1
}

// transformFlags says which parameters the root's transformations map
// (Vmap, unless jit.InAxes marks them NotMapped) and differentiate (Grad,
// ValueAndGrad: Argnums, or the first).
func transformFlags(r *Root, n int) (mapped, diff map[int]bool) {
	mapped, diff = map[int]bool{}, map[int]bool{}
	for _, t := range r.Transforms {
		opts := options(t)
		switch t.Name {
		case "Vmap":
			axes := opts["InAxes"]
			for i := range n {
				if i < len(axes) {
					if k, ok := axes[i].int64Of(); ok && k == notMapped {
						continue
					}
				}
				mapped[i] = true
			}
		case "Grad", "ValueAndGrad":
			nums := opts["Argnums"]
			if len(nums) == 0 {
				diff[0] = true
			}
			for _, a := range nums {
				if k, ok := a.int64Of(); ok {
					diff[int(k)] = true
				}
			}
		}
	}
	return mapped, diff
}

// notMapped is jit.NotMapped.
const notMapped = -1 << 30

// options returns the options of a jit.Jit, Vmap or Grad call by name,
// with their integer arguments.
func options(t *Expr) map[string][]*Expr {
	out := map[string][]*Expr{}
	if len(t.Args) < 2 {
		return out
	}
	for _, o := range elements(t.Args[1]) {
		if o.Kind == kOption && len(o.Args) > 0 {
			out[o.Name] = elements(o.Args[0])
		}
	}
	return out
}

// eagerControlRoots are the calls of jit.Cond, Switch, Scan, ScanN,
// ForiLoop and WhileLoop in functions that no trace runs: they trace their
// functions themselves.
func (f *flow) eagerControlRoots(traced map[*ssa.Function]bool) []*Root {
	var out []*Root
	for _, fn := range f.funcs {
		if traced[fn] {
			continue
		}
		s := f.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() == nil {
					continue
				}
				name := jitName(call.Common().StaticCallee())
				if !controlFlow[name] {
					continue
				}
				args := f.argsOf(s, call.Common(), b)
				for _, fv := range controlFuncs(name, args) {
					for _, v := range alternatives(fv) {
						if v.Kind == kFunc && v.Fn != nil && f.local(v.Fn) {
							r := &Root{Entry: name, Call: call, Fn: v.Fn, StaticKnown: true}
							if v.Env != nil {
								r.frees = v.Env.Frees
							}
							out = append(out, r)
						}
					}
				}
			}
		}
	}
	return out
}

// controlFlow are the jit control-flow primitives.
var controlFlow = map[string]bool{"Cond": true, "Switch": true, "Scan": true, "ScanN": true, "ForiLoop": true, "WhileLoop": true}

// controlFuncs returns the function arguments of a control-flow call.
func controlFuncs(name string, args []*Expr) []*Expr {
	switch name {
	case "Cond":
		if len(args) == 4 {
			return args[1:3]
		}
	case "Switch":
		if len(args) == 3 {
			return elements(args[1])
		}
	case "Scan", "ScanN":
		if len(args) >= 1 {
			return args[:1]
		}
	case "ForiLoop":
		if len(args) == 4 {
			return args[2:3]
		}
	case "WhileLoop":
		if len(args) == 3 {
			return args[:2]
		}
	}
	return nil
}

// children are the contexts that this one's calls make.
func (c *Context) children() []*Context {
	f := c.flow
	var out []*Context
	child := func(fn *ssa.Function, params, frees []*Expr, call ssa.Instruction) *Context {
		if !f.local(fn) {
			return nil
		}
		env := &Env{Fn: fn, Params: params, Frees: frees, Mode: exprTrue}
		ctx := &Context{Fn: fn, Env: env, Parent: c, Call: call, Root: c.Root, depth: c.depth + 1, flow: f}
		out = append(out, ctx)
		return ctx
	}
	for _, b := range c.Fn.Blocks {
		if !c.Live(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := call.Common()
			args := make([]*Expr, len(com.Args))
			for i, a := range com.Args {
				args[i] = c.value(a, b)
			}
			if callee := com.StaticCallee(); callee != nil {
				if isOnceDo(com) {
					for _, v := range alternatives(args[1]) {
						c.callValue(v, nil, instr, child)
					}
					continue
				}
				if name := jitName(callee); name != "" {
					for _, sub := range c.controlChildren(name, args) {
						for _, v := range alternatives(sub.fn) {
							if v.Kind == kFunc && v.Fn != nil {
								var frees []*Expr
								if v.Env != nil {
									frees = v.Env.Frees
								}
								child(v.Fn, sub.args, frees, instr)
							}
						}
					}
					continue
				}
				child(callee, args, nil, instr)
				continue
			}
			if com.IsInvoke() {
				for _, m := range f.invoked(com, c.value(com.Value, b)) {
					child(m.fn, append([]*Expr{m.recv}, args...), nil, instr)
				}
				continue
			}
			for _, v := range alternatives(c.value(com.Value, b)) {
				switch {
				case v.Kind == kFunc && v.Name == "jit.Call":
					for _, inner := range alternatives(v.Args[0].Args[0]) {
						c.callValue(inner, args, instr, child)
					}
				default:
					c.callValue(v, args, instr, child)
				}
			}
		}
	}
	return out
}

// callValue adds the context of calling the function value v.
func (c *Context) callValue(v *Expr, args []*Expr, instr ssa.Instruction, child makeChild) {
	switch {
	case v.Kind == kFunc && v.Fn != nil:
		var frees []*Expr
		if v.Env != nil {
			frees = v.Env.Frees
		}
		child(v.Fn, args, frees, instr)
	case v.Kind == kTransform && len(v.Args) > 0:
		r := &Root{Entry: v.Name, Transforms: []*Expr{v}}
		mapped, diff := transformFlags(r, len(args))
		// mark binds the arguments as inputs of the transformation: the
		// parameters of fn (the transformed function) it maps or
		// differentiates.
		mark := func(fn *ssa.Function) []*Expr {
			marked := make([]*Expr, len(args))
			for i, a := range args {
				at := node(kInput, a)
				at.Fn, at.N, at.Tr, at.Site = fn, i, exprTrue, instr
				if mapped[i] {
					at.Name += " mapped"
				}
				if diff[i] {
					at.Name += " diff"
				}
				marked[i] = at
			}
			return marked
		}
		transformed := func(fn *ssa.Function, params, frees []*Expr, call ssa.Instruction) *Context {
			ctx := child(fn, params, frees, call)
			if ctx != nil {
				ctx.transforms = append(ctx.transforms, v)
			}
			return ctx
		}
		for _, inner := range alternatives(v.Args[0]) {
			fn := c.Fn
			if inner.Kind == kFunc && inner.Fn != nil {
				fn = inner.Fn
			}
			c.callValue(inner, mark(fn), instr, transformed)
		}
	}
}

// makeChild makes the context of fn called (at call) with params and
// frees, or returns nil when fn is not the package's.
type makeChild func(fn *ssa.Function, params, frees []*Expr, call ssa.Instruction) *Context

// under returns the innermost of the transformations called names that
// c runs under (nil: none).
func (c *Context) under(names ...string) *Expr {
	for x := c; x != nil; x = x.Parent {
		ts := x.transforms
		if x.Parent == nil {
			ts = append(slices.Clone(ts), x.Root.Transforms...)
		}
		for _, t := range ts {
			if slices.Contains(names, t.Name) {
				return t
			}
		}
	}
	return nil
}

// sub is a function a control-flow primitive calls, with its arguments.
type sub struct {
	fn   *Expr
	args []*Expr
}

// controlChildren are the functions that a call of the jit function name
// traces, with the values they receive: branches get the operand, loop
// bodies the carry (in all the forms the body gives it) and the index.
func (c *Context) controlChildren(name string, args []*Expr) []sub {
	f := c.flow
	switch name {
	case "Cond":
		if len(args) == 4 {
			return []sub{{args[1], args[3:]}, {args[2], args[3:]}}
		}
	case "Switch":
		if len(args) == 3 {
			var out []sub
			for _, br := range elements(args[1]) {
				out = append(out, sub{br, args[2:]})
			}
			return out
		}
	case "WhileLoop":
		if len(args) == 3 {
			carry := c.carries(args[1], args[2], nil)
			return []sub{{args[0], []*Expr{carry}}, {args[1], []*Expr{carry}}}
		}
	case "ForiLoop":
		if len(args) == 4 {
			i := array("ForiLoop.i", nil, nil, []*Expr{}, exprTrue)
			carry := c.carries(args[2], args[3], i)
			return []sub{{args[2], []*Expr{i, carry}}}
		}
	case "ScanN":
		if len(args) >= 3 {
			carry := c.carries(args[0], args[1], nil)
			return []sub{{args[0], []*Expr{carry}}}
		}
	case "Scan":
		if len(args) >= 3 {
			x := array("Scan.x", nil, []*Expr{args[2]}, rowDims(args[2]), exprTrue)
			body := func(carry *Expr) *Expr { return extract(f.apply(args[0], []*Expr{carry, x}, exprTrue, nil), 0) }
			carry := choice(args[1], body(args[1]))
			return []sub{{args[0], []*Expr{carry, x}}}
		}
	}
	return nil
}

// carries is the carry of a loop primitive in every form the body gives
// it (init, body(init), body(body(init))): a carry that starts unbatched
// and becomes batched through the body is batched.
func (c *Context) carries(body, init, index *Expr) *Expr {
	f := c.flow
	step := func(carry *Expr) *Expr {
		args := []*Expr{carry}
		if index != nil {
			args = []*Expr{index, carry}
		}
		out := f.apply(body, args, exprTrue, nil)
		if out.Kind == kTuple && len(out.Args) > 0 {
			out = out.Args[0]
		}
		return out
	}
	one := step(init)
	return choice(init, one, step(one))
}

// rowDims are the dims of one row of x (Scan's xs).
func rowDims(x *Expr) []*Expr {
	d := dimsOf(x)
	if len(d) == 0 {
		return nil
	}
	return d[1:]
}

// String writes an expression compactly (for keys and debugging).
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b, map[*Expr]bool{}, 0)
	return b.String()
}

func (e *Expr) write(b *strings.Builder, seen map[*Expr]bool, depth int) {
	if e == nil {
		b.WriteString("nil")
		return
	}
	if depth > 12 {
		b.WriteString("…")
		return
	}
	switch e.Kind {
	case kConst:
		b.WriteString(e.Val.ExactString())
		return
	case kParam, kFree, kMode, kInput:
		fmt.Fprintf(b, "%s%d@%p%s", kindNames[e.Kind], e.N, e.Fn, e.Name)
		if e.Kind != kInput || len(e.Args) == 0 {
			return
		}
	case kIter:
		fmt.Fprintf(b, "it%d@%p", e.N, e.Loop)
		return
	case kFresh:
		fmt.Fprintf(b, "fresh@%p", e.Site)
		return
	case kFunc:
		fmt.Fprintf(b, "func@%p%s", e.Fn, e.Name)
	case kPtr:
		fmt.Fprintf(b, "ptr@%v", siteID(e.Site))
	case kOp:
		b.WriteString(e.Op.String())
	case kField:
		fmt.Fprintf(b, "field%d", e.N) // the field, so that two fields of a value differ
	default:
		b.WriteString(kindNames[e.Kind])
		if e.Name != "" {
			b.WriteString(":" + e.Name)
		}
	}
	b.WriteByte('(')
	for i, a := range e.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		a.write(b, seen, depth+1)
	}
	if e.Env != nil {
		b.WriteString(" env:")
		for _, a := range e.Env.Params {
			a.write(b, seen, depth+1)
			b.WriteByte(' ')
		}
		for _, a := range e.Env.Frees {
			a.write(b, seen, depth+1)
			b.WriteByte(' ')
		}
	}
	if e.Kind == kArray {
		b.WriteString(" dims:")
		for _, d := range e.Dims {
			d.write(b, seen, depth+1)
			b.WriteByte(' ')
		}
	}
	b.WriteByte(')')
}

func siteID(site any) string {
	switch s := site.(type) {
	case string:
		return s
	case nil:
		return "nil"
	case *Expr:
		return s.String()
	}
	return fmt.Sprintf("%p", site)
}

var kindNames = map[Kind]string{
	kUnknown: "?", kConst: "c", kParam: "p", kFree: "fv", kMode: "mode", kInput: "root", kIter: "it", kAtExit: "exit", kOver: "over",
	kFresh: "fresh", kOp: "op", kConv: "conv", kPure: "pure", kSelect: "sel", kChoice: "one", kStruct: "struct", kField: "field",
	kSeq: "seq", kIndex: "index", kLen: "len", kPtr: "ptr", kLoad: "load", kFunc: "func", kApply: "apply", kArray: "array",
	kShape: "shape", kTracer: "tracer", kWrapper: "jit", kTransform: "transform", kIface: "iface", kTuple: "tuple", kOption: "opt",
}
