package unrolledloop

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

//go:embed doc.go
var docGo string

// DefaultMax is the largest trip count that is not reported.
const DefaultMax = 32

// Analyzer is the unrolledloop analyzer with its own traced prerequisite.
// Drivers that run several jitlint analyzers should use analyzers.Suite,
// which shares one prerequisite between them.
var Analyzer = New(traced.New(), DefaultMax)

// New returns a fresh unrolledloop analyzer that uses tracer (made by
// traced.New) and reports trip counts above max (its -max flag).
func New(tracer *analysis.Analyzer, max int) *analysis.Analyzer {
	limit := new(int)
	a := traced.NewAnalyzer("unrolledloop", docGo, tracer, func(pass *analysis.Pass, r *traced.Result) {
		c := &checker{r: r, max: int64(*limit), report: pass.Report, visiting: map[*types.Var]bool{}, inDims: map[*types.Var]bool{}}
		for _, fn := range r.Funcs {
			c.check(fn)
		}
	})
	a.Flags.IntVar(limit, "max", max, "largest trip count of a Go loop in traced code that is not reported")
	return a
}

type checker struct {
	r      *traced.Result
	max    int64
	report func(analysis.Diagnostic)
	// visiting are the slice variables whose length lengthOf is working
	// out (a variable defined from itself is not known).
	visiting map[*types.Var]bool
	// exact is set while exactValue asks for a value that is the same
	// wherever it is evaluated, not only its largest.
	exact bool
	// calls are the calls of each function in the package (see callsOf).
	calls map[types.Object][]*ast.CallExpr
	// inDims are the variables whose shape dims is working out, and cycle
	// is set when one needs its own shape (see widest).
	inDims map[*types.Var]bool
	cycle  bool
}

const advice = "trace and compile time grow with the count. Use jit.ScanN or jit.ForiLoop"

// check reports the loops of fn.
func (c *checker) check(fn *traced.Func) {
	c.r.Walk(fn, func(n ast.Node, stack []ast.Node) bool {
		var body *ast.BlockStmt
		switch s := n.(type) {
		case *ast.ForStmt:
			body = s.Body
		case *ast.RangeStmt:
			body = s.Body
		default:
			return true
		}
		if !c.r.StagesOps(body) {
			return true
		}
		d := analysis.Diagnostic{Pos: n.Pos(), End: body.Lbrace, Related: fn.Related()}
		if c.explain(fn, n.(ast.Stmt), &d) {
			c.report(d)
		}
		return true
	})
}

// explain fills d's message when the loop should be reported.
func (c *checker) explain(fn *traced.Func, loop ast.Stmt, d *analysis.Diagnostic) bool {
	tc := traced.Trips(c.r.Info, loop)
	ops := c.r.Ops(traced.LoopBody(loop))
	binds := c.factories(fn)
	switch {
	case tc.Known:
		if tc.N <= c.max {
			return false
		}
		d.Message = fmt.Sprintf("loop is unrolled into the trace %d times → %s; %s", tc.N, equations(tc.N, ops), advice)
		return true
	case tc.Structure:
		if rs, ok := loop.(*ast.RangeStmt); ok {
			return c.sliceBound(fn, rs.X, ops, d)
		}
		return false
	case tc.Bound == nil:
		return false
	}
	if n, ok := c.mostTrips(loop, binds); ok {
		if n <= c.max {
			return false
		}
		d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times → %s; %s", n, equations(n, ops), advice)
		return true
	}
	switch {
	case mentionsLen(c.r.Info, tc.Bound):
		if arg := lenArg(c.r.Info, tc.Bound); arg != nil {
			return c.sliceBound(fn, arg, ops, d)
		}
		return false
	}
	if n, ok := c.mostValue(tc.Bound, binds); ok && !c.isParam(fn, tc.Bound) {
		if n <= c.max {
			return false
		}
		what := ""
		if slices.ContainsFunc(binds, func(b *binding) bool { return c.fromShape(tc.Bound, b) }) {
			what = " for the shapes the program passes"
		}
		d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times (%s is %d%s) → %s; %s",
			n, types.ExprString(tc.Bound), n, what, equations(n, ops), advice)
		return true
	}
	if slices.ContainsFunc(binds, func(b *binding) bool { return c.fromShape(tc.Bound, b) }) {
		d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of a shape (%s), about %d equations each: the unrolled length grows with the input, with a new program for each shape; %s",
			types.ExprString(tc.Bound), max(ops, 1), advice)
		return true
	}
	id, ok := ast.Unparen(tc.Bound).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.r.Info.Uses[id].(*types.Var)
	index := paramIndex(fn, v)
	if index < 0 {
		return false
	}
	return c.paramBound(fn, index, ops, d, map[*traced.Func]bool{})
}

// mostTrips is tripUpper's largest value under any of binds.
func (c *checker) mostTrips(loop ast.Stmt, binds []*binding) (most int64, ok bool) {
	for _, b := range binds {
		if n, nok := c.tripUpper(loop, b); nok && (!ok || n > most) {
			most, ok = n, true
		}
	}
	return most, ok
}

// paramBound explains a loop bounded by parameter index of fn: from the
// calls of fn's jitted wrappers, or, for a function called from traced
// code, from what its callers pass (constants, or their own parameters,
// followed up to the jitted function).
func (c *checker) paramBound(fn *traced.Func, index int, ops int, d *analysis.Diagnostic, seen map[*traced.Func]bool) bool {
	if seen[fn] || index >= len(fn.Params) || fn.Params[index] == nil {
		return false
	}
	seen[fn] = true
	v := fn.Params[index]
	if len(fn.Jitted) > 0 {
		if _, static := fn.Static[v]; !static {
			for _, j := range fn.Jitted {
				if !j.StaticKnown {
					return false // the options come from elsewhere: it may be static
				}
			}
			d.Message = fmt.Sprintf("loop is unrolled into the trace %s times, and %s is an argument of the jitted function that is not static: the unrolled length is unbounded; %s",
				v.Name(), v.Name(), advice)
			return true
		}
		return c.staticBound(fn, v.Name(), index, ops, d)
	}
	for _, cs := range fn.CalledFrom {
		if index >= len(cs.Call.Args) {
			continue
		}
		arg := cs.Call.Args[index]
		if q := c.forwarded(cs, arg); q >= 0 {
			// The caller passes its own parameter on: explain from its
			// calls (a static argument, say).
			if c.paramBound(cs.In, q, ops, d, seen) {
				return true
			}
			continue
		}
		if n, ok := c.intValue(arg, nil); ok && n > c.max {
			d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times (%s is %d at %s) → %s; %s",
				n, v.Name(), n, c.r.Where(cs.Call.Pos()), equations(n, ops), advice)
			return true
		}
	}
	return false
}

// equations says how big the unrolled loop makes the program.
func equations(n int64, ops int) string {
	if ops <= 0 {
		return "a program that grows with the count"
	}
	return fmt.Sprintf("about %d equations", n*int64(ops))
}

// staticBound checks the values that the calls of fn's jitted wrappers pass
// to the static parameter index: direct calls, and calls through f.Call
// passed to a function of the package (whose argument may in turn be one of
// that function's parameters, set by the outer call).
func (c *checker) staticBound(fn *traced.Func, name string, index int, ops int, d *analysis.Diagnostic) bool {
	var sites []site
	for _, j := range fn.Jitted {
		for _, call := range j.Calls {
			if index < len(call.Args) {
				sites = append(sites, site{arg: call.Args[index], call: call})
			}
		}
		for _, ic := range j.Indirect {
			if index >= len(ic.Inner.Args) {
				continue
			}
			s := site{arg: ic.Inner.Args[index], call: ic.Inner}
			if q := paramOf(c.r.Info, ic.Callee, s.arg); q >= 0 && q < len(ic.Outer.Args) {
				s = site{arg: ic.Outer.Args[q], call: ic.Outer}
			}
			sites = append(sites, s)
		}
	}
	var worst *site
	var worstN int64
	for i, s := range sites {
		n, ok := c.intValue(s.arg, nil)
		if !ok {
			d.Message = fmt.Sprintf("loop is unrolled into the trace %s times, and the static argument %s is set to %s at %s, not a known constant: the unrolled length is unbounded; %s",
				name, name, types.ExprString(s.arg), c.r.Where(s.call.Pos()), advice)
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.call.Pos(), End: s.call.End(), Message: "the static argument " + name + " is set here"})
			return true
		}
		if worst == nil || n > worstN {
			worst, worstN = &sites[i], n
		}
	}
	if worst == nil || worstN <= c.max {
		return false
	}
	d.Message = fmt.Sprintf("loop is unrolled into the trace up to %d times (static argument %s is %d at %s) → %s; %s",
		worstN, name, worstN, c.r.Where(worst.call.Pos()), equations(worstN, ops), advice)
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: worst.call.Pos(), End: worst.call.End(), Message: fmt.Sprintf("the static argument %s is %d here", name, worstN)})
	return true
}

// paramOf returns the index of the parameter of fd that e names, or -1.
func paramOf(info *types.Info, fd *ast.FuncDecl, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	for i, p := range traced.ParamVars(info, fd.Type) {
		if p != nil && info.Uses[id] == p {
			return i
		}
	}
	return -1
}

// fromShape reports whether e uses the Shape or Size of an array,
// directly, through variables defined from one (n := x.Shape()[0]), or
// through the parameters of the helpers b binds. Ndim is a small number,
// not a length.
func (c *checker) fromShape(e ast.Expr, b *binding) bool {
	seen := map[types.Object]bool{}
	var visit func(e ast.Expr, b *binding) bool
	visit = func(e ast.Expr, b *binding) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch name, _ := traced.ArrayMethod(c.r.Info, n); name {
				case "Shape", "Size":
					found = true
				}
			case *ast.Ident:
				if a, outer := b.arg(c.r.Info, n); a != nil {
					found = found || visit(a, outer)
				} else if v, ok := c.r.Info.Uses[n].(*types.Var); ok && !seen[v] {
					seen[v] = true
					values, _ := c.r.DeclValues(v)
					for _, def := range values {
						found = found || visit(def, b)
					}
				}
			}
			return !found
		})
		return found
	}
	return visit(e, b)
}

// factories binds the parameters that fn's loops may read to what its
// callers pass: for a closure jitted as jit.Jit(makePenalty(cfg)), the
// parameters of the function that returns it to the arguments of that call
// (one binding per such jit.Jit call); for a helper that traced code calls,
// its parameters to each call's arguments (frames(clip, 8) and
// frames(clip, width) are judged one by one). A single nil binding when
// neither applies.
func (c *checker) factories(fn *traced.Func) []*binding {
	var out []*binding
	if fd, ok := fn.Node.(*ast.FuncDecl); ok && len(fn.Jitted) == 0 {
		for _, cs := range fn.CalledFrom {
			out = append(out, c.bindCall(fd, cs.Call, nil))
		}
	}
	if lit, ok := fn.Node.(*ast.FuncLit); ok {
		if encl, ok := traced.EnclosingFunc(c.r.PathTo(lit)).(*ast.FuncDecl); ok {
			for _, j := range fn.Jitted {
				if len(j.Call.Args) == 0 {
					continue
				}
				call, ok := ast.Unparen(j.Call.Args[0]).(*ast.CallExpr)
				if ok && typeutil.Callee(c.r.Info, call) == c.r.Info.Defs[encl.Name] {
					out = append(out, &binding{params: traced.ParamVars(c.r.Info, encl.Type), args: call.Args})
				}
			}
		}
	}
	if len(out) == 0 {
		return []*binding{nil}
	}
	return out
}

// mentionsLen reports whether e calls the builtin len (the length of a
// pytree is structure).
func mentionsLen(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "len" {
			_, found = info.Uses[id].(*types.Builtin)
		}
		return !found
	})
	return found
}

// isParam reports whether e names a parameter of fn (whose bound
// paramBound explains from the calls).
func (c *checker) isParam(fn *traced.Func, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.r.Info.Uses[id].(*types.Var)
	return paramIndex(fn, v) >= 0
}

// forwarded returns the index of the parameter of the calling function
// that a call site passes on as arg (f(xs) inside g(xs)), or -1.
func (c *checker) forwarded(cs *traced.CallSite, arg ast.Expr) int {
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok {
		return -1
	}
	v, _ := c.r.Info.Uses[id].(*types.Var)
	return paramIndex(cs.In, v)
}

// paramIndex returns the index of v among fn's parameters, or -1.
func paramIndex(fn *traced.Func, v *types.Var) int {
	for i, p := range fn.Params {
		if p != nil && p == v {
			return i
		}
	}
	return -1
}
