package unrolledloop

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis"
)

// Ranging over a slice argument (layers, time steps) unrolls one copy of
// the body per element. Whether that is structure (a few layers) or an
// unbounded loop (one element per item of the data) depends on what the
// calls of the jitted function pass: the checker looks at how each call
// site builds the slice.

// sliceLen describes the length of a slice passed at a call site.
type sliceLen struct {
	n        int64 // the length, when known
	known    bool
	fromData bool     // built by a loop over data, or with a length not known
	shape    ast.Expr // the length is this size of an array (make([]T, x.Shape()[0]))
	at       ast.Node // where it is built
	why      string   // how, for the message
}

// sliceBound reports a loop over the elements of x (or of x[k:]) when its
// length is more than the limit, grows with the data, or is a size of an
// array: for a slice parameter of fn, from what the calls of fn's jitted
// wrapper pass (directly, or through traced functions that pass their own
// parameter on); for a slice that fn builds, calls a helper for or
// captures, from how it is built.
func (c *checker) sliceBound(fn *traced.Func, x ast.Expr, ops int, d *analysis.Diagnostic) bool {
	var skip int64
	if se, ok := ast.Unparen(x).(*ast.SliceExpr); ok && se.High == nil {
		if se.Low != nil {
			skip, _ = traced.ConstInt(c.r.Info, se.Low)
		}
		x = se.X
	}
	name := types.ExprString(x)
	var sites []site
	for _, b := range c.factories(fn) {
		sites = append(sites, site{arg: x, bind: b})
	}
	if id, ok := ast.Unparen(x).(*ast.Ident); ok {
		v, _ := c.r.Info.Uses[id].(*types.Var)
		if index := paramIndex(fn, v); index >= 0 {
			sites = c.sliceSites(fn, index, map[*traced.Func]bool{})
		}
	}
	for _, s := range sites {
		var l sliceLen
		passes := ""
		if s.call != nil {
			l = c.lengthOf(s.arg, nil)
			passes = "the call at " + c.r.Where(s.call.Pos()) + " passes a slice"
		} else {
			l = c.lengthOf(s.arg, s.bind)
		}
		n := l.n - skip
		switch {
		case l.shape != nil:
			d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of %s, whose length is a size of an array (%s), about %d equations each: the unrolled length grows with the input, with a new program for each shape; %s",
				name, types.ExprString(l.shape), max(ops, 1), advice)
		case l.fromData && s.call != nil:
			d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of %s, and %s %s: the unrolled length grows with the data (about %d equations per element); %s",
				name, passes, l.why, max(ops, 1), advice)
		case l.known && n > c.max && s.call != nil:
			d.Message = fmt.Sprintf("loop is unrolled into the trace %d times (once per element of %s; the call at %s passes %d) → %s; %s",
				n, name, c.r.Where(s.call.Pos()), l.n, equations(n, ops), advice)
		case l.known && n > c.max:
			d.Message = fmt.Sprintf("loop is unrolled into the trace %d times (once per element of %s, which has %d) → %s; %s",
				n, name, l.n, equations(n, ops), advice)
		default:
			// A slice built in traced code by ranging over a pytree is
			// structure; only its call sites can say it grows with the data.
			continue
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: l.at.Pos(), End: l.at.End(), Message: "the slice is built here"})
		return true
	}
	return false
}

// site is an argument passed at a call, or a slice that traced code
// builds, calls a helper for or captures (no call), with the binding of
// the closure factory it is evaluated in.
type site struct {
	arg  ast.Expr
	call *ast.CallExpr
	bind *binding
}

// sliceSites returns what the calls of fn pass to its parameter index: the
// calls of its jitted wrappers, and its calls from traced code, followed
// up when the caller passes one of its own parameters on.
func (c *checker) sliceSites(fn *traced.Func, index int, seen map[*traced.Func]bool) []site {
	if seen[fn] {
		return nil
	}
	seen[fn] = true
	var out []site
	for _, j := range fn.Jitted {
		for _, call := range j.Calls {
			if index < len(call.Args) {
				out = append(out, site{arg: call.Args[index], call: call})
			}
		}
	}
	for _, cs := range fn.CalledFrom {
		if index >= len(cs.Call.Args) {
			continue
		}
		arg := cs.Call.Args[index]
		if q := c.forwarded(cs, arg); q >= 0 {
			out = append(out, c.sliceSites(cs.In, q, seen)...)
			continue
		}
		out = append(out, site{arg: arg, call: cs.Call})
	}
	return out
}

// lengthOf works out the length of the slice e: a literal, make with a
// length, a slice of a slice, a variable filled by appends in loops, or
// what a helper of the package returns for the arguments it is given (b
// binds the parameters of the helper e is in; nil outside helpers).
func (c *checker) lengthOf(e ast.Expr, b *binding) sliceLen {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return sliceLen{n: int64(len(e.Elts)), known: true, at: e}
	case *ast.SelectorExpr:
		// g.adj: from the literals g comes from and the appends to g.adj.
		if srcs, ok := c.fieldSources(e.X, e.Sel.Name, b, 0); ok {
			return c.combinedLength(srcs, e)
		}
	case *ast.SliceExpr:
		l := c.lengthOf(e.X, b)
		if e.Low != nil && e.High == nil && l.known {
			if low, ok := c.intValue(e.Low, b); ok {
				l.n = max(l.n-low, 0)
			}
		}
		return l
	case *ast.CallExpr:
		if c.r.Info.Types[e.Fun].IsType() && len(e.Args) == 1 {
			return c.lengthOf(e.Args[0], b) // a conversion: seq(xs)
		}
		if traced.IsBuiltin(c.r.Info, e.Fun, "make") && len(e.Args) > 1 {
			if n, ok := c.intValue(e.Args[1], b); ok {
				return sliceLen{n: n, known: true, at: e}
			}
			if c.fromShape(e.Args[1], b) {
				return sliceLen{shape: e.Args[1], at: e}
			}
			if mentionsLen(c.r.Info, e.Args[1]) {
				return sliceLen{fromData: true, at: e, why: fmt.Sprintf("made with length %s", types.ExprString(e.Args[1]))}
			}
			return sliceLen{} // a length from the configuration, say: not known
		}
		return c.returnedLength(e, b)
	case *ast.Ident:
		if a, outer := b.arg(c.r.Info, e); a != nil {
			return c.lengthOf(a, outer)
		}
		v, ok := c.r.Info.Uses[e].(*types.Var)
		if !ok || c.visiting[v] {
			return sliceLen{} // xs = xs[1:]: not known
		}
		c.visiting[v] = true
		defer delete(c.visiting, v)
		values, _ := c.r.DeclValues(v)
		var srcs []origin
		for _, val := range values {
			srcs = append(srcs, origin{val, b})
		}
		return c.combinedLength(srcs, e)
	}
	return sliceLen{}
}

// combinedLength is the length of a slice whose values are srcs: the
// appends add to it, the other values are alternatives (the longest
// counts).
func (c *checker) combinedLength(srcs []origin, at ast.Node) sliceLen {
	var appended, longest sliceLen
	appended.known, longest.known = true, true
	for _, s := range srcs {
		var l sliceLen
		if app, ok := ast.Unparen(s.e).(*ast.CallExpr); ok && traced.IsBuiltin(c.r.Info, app.Fun, "append") {
			l = c.appended(app, s.b)
			appended.n += l.n
			if l.at != nil && l.n > 0 {
				appended.at = l.at // point at what adds the elements
			}
		} else {
			l = c.lengthOf(s.e, s.b)
			if l.n >= longest.n {
				longest.n, longest.at = l.n, l.at
			}
		}
		if l.fromData || l.shape != nil {
			return l
		}
		if !l.known {
			return sliceLen{}
		}
	}
	total := sliceLen{n: longest.n + appended.n, known: len(srcs) > 0, at: at}
	if appended.at != nil {
		total.at = appended.at
	} else if longest.at != nil {
		total.at = longest.at
	}
	return total
}

// returnedLength is the length of the slice that a helper of the package
// returns: the longest of its return values, with its parameters bound to
// the call's arguments.
func (c *checker) returnedLength(call *ast.CallExpr, b *binding) sliceLen {
	depth := b.deeper()
	values, ok := c.r.Returns(call, 0)
	if !ok || depth > maxHelperDepth {
		return sliceLen{}
	}
	var longest sliceLen
	for _, v := range values {
		inner := c.bindCall(v.Func, call, b)
		l := c.lengthOf(v.Value, inner)
		switch {
		case l.fromData || l.shape != nil:
			return l
		case !l.known:
			return sliceLen{}
		case l.n >= longest.n:
			longest = l
		}
	}
	return longest
}

// appended works out how many elements an append adds: its arguments,
// times the trip counts of the loops around it. A loop over data (a range
// over a slice, map or string, or a count from len) makes the length grow
// with the data; a count from elsewhere (a configuration value) is not known.
func (c *checker) appended(app *ast.CallExpr, b *binding) sliceLen {
	if app.Ellipsis.IsValid() {
		return sliceLen{}
	}
	n := int64(len(app.Args) - 1)
	for _, loop := range traced.Loops(c.r.PathTo(app)) {
		tc := traced.Trips(c.r.Info, loop)
		if !tc.Known {
			tc.N, tc.Known = c.tripUpper(loop, b)
		}
		if !tc.Known && tc.Bound != nil {
			tc.N, tc.Known = c.intValue(tc.Bound, b)
		}
		if rs, ok := loop.(*ast.RangeStmt); ok && tc.Structure && !tc.Known {
			if l := c.lengthOf(rs.X, b); l.known {
				tc.N, tc.Known = l.n, true
			}
		}
		switch {
		case tc.Known:
			n *= tc.N
		case tc.Structure:
			rs := loop.(*ast.RangeStmt)
			return sliceLen{fromData: true, at: loop, why: "built by ranging over " + types.ExprString(rs.X)}
		case tc.Bound != nil && c.fromShape(tc.Bound, b):
			return sliceLen{shape: tc.Bound, at: loop}
		case tc.Bound != nil && mentionsLen(c.r.Info, tc.Bound):
			return sliceLen{fromData: true, at: loop, why: "built in a loop of " + types.ExprString(tc.Bound) + " iterations"}
		default:
			return sliceLen{}
		}
	}
	return sliceLen{n: n, known: true, at: app}
}

// lenArg returns x when bound is len(x), or len(x) plus or minus a
// constant.
func lenArg(info *types.Info, bound ast.Expr) ast.Expr {
	if b, ok := ast.Unparen(bound).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) && info.Types[b.Y].Value != nil {
		bound = b.X // len(xs) - 1, the start of a count-down
	}
	call, ok := ast.Unparen(bound).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !traced.IsBuiltin(info, call.Fun, "len") {
		return nil
	}
	return call.Args[0]
}
