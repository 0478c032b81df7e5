package unrolledloop

import (
	"fmt"
	"go/ast"
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
	at       ast.Node // where it is built
	why      string   // how, for the message
}

// sliceBound reports a loop over the elements of x, a slice parameter of
// fn, when a call of fn's jitted wrapper passes a slice longer than the
// limit or one built from data.
func (c *checker) sliceBound(fn *traced.Func, x ast.Expr, ops int, d *analysis.Diagnostic) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.r.Info.Uses[id].(*types.Var)
	index := paramIndex(fn, v)
	if index < 0 {
		return false
	}
	for _, j := range fn.Jitted {
		for _, call := range j.Calls {
			if index >= len(call.Args) {
				continue
			}
			l := c.lengthOf(call.Args[index], call)
			switch {
			case l.fromData:
				d.Message = fmt.Sprintf("loop is unrolled into the trace once per element of %s, and the call at %s passes a slice %s: the unrolled length grows with the data (about %d equations per element); %s",
					id.Name, c.r.Where(call.Pos()), l.why, max(ops, 1), advice)
			case l.known && l.n > c.max:
				d.Message = fmt.Sprintf("loop is unrolled into the trace %d times (once per element of %s; the call at %s passes %d) → %s; %s",
					l.n, id.Name, c.r.Where(call.Pos()), l.n, equations(l.n, ops), advice)
			default:
				continue
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: l.at.Pos(), End: l.at.End(), Message: "the slice is built here"})
			return true
		}
	}
	return false
}

// lengthOf works out the length of the slice e passed by call: a literal,
// make with a length, or a variable filled by appends in loops.
func (c *checker) lengthOf(e ast.Expr, call *ast.CallExpr) sliceLen {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return sliceLen{n: int64(len(e.Elts)), known: true, at: e}
	case *ast.CallExpr:
		if isBuiltin(c.r.Info, e.Fun, "make") && len(e.Args) > 1 {
			if n, ok := traced.MaxInt(c.r.Info, e.Args[1], c.r.PathTo(e)); ok {
				return sliceLen{n: n, known: true, at: e}
			}
			if mentionsLen(c.r.Info, e.Args[1]) {
				return sliceLen{fromData: true, at: e, why: fmt.Sprintf("made with length %s", types.ExprString(e.Args[1]))}
			}
			return sliceLen{} // a length from the configuration, say: not known
		}
	case *ast.Ident:
		v, ok := c.r.Info.Uses[e].(*types.Var)
		encl := traced.EnclosingFunc(c.r.PathTo(call))
		if !ok || encl == nil {
			return sliceLen{}
		}
		total := sliceLen{known: true, at: e}
		for _, val := range traced.Assigned(c.r.Info, encl, v) {
			var l sliceLen
			if app, ok := ast.Unparen(val).(*ast.CallExpr); ok && isBuiltin(c.r.Info, app.Fun, "append") {
				l = c.appended(app)
			} else {
				l = c.lengthOf(val, call)
			}
			if l.fromData {
				return l
			}
			if !l.known {
				total.known = false
			}
			total.n += l.n
		}
		return total
	}
	return sliceLen{}
}

// appended works out how many elements an append adds: its arguments,
// times the trip counts of the loops around it. A loop over data (a range
// over a slice, map or string, or a count from len) makes the length grow
// with the data; a count from elsewhere (a configuration value) is not known.
func (c *checker) appended(app *ast.CallExpr) sliceLen {
	if app.Ellipsis.IsValid() {
		return sliceLen{}
	}
	n := int64(len(app.Args) - 1)
	for _, loop := range traced.Loops(c.r.PathTo(app)) {
		tc := traced.Trips(c.r.Info, loop)
		switch {
		case tc.Known:
			n *= tc.N
		case tc.Structure:
			rs := loop.(*ast.RangeStmt)
			return sliceLen{fromData: true, at: loop, why: "built by ranging over " + types.ExprString(rs.X)}
		case tc.Bound != nil && mentionsLen(c.r.Info, tc.Bound):
			return sliceLen{fromData: true, at: loop, why: "built in a loop of " + types.ExprString(tc.Bound) + " iterations"}
		default:
			return sliceLen{}
		}
	}
	return sliceLen{n: n, known: true, at: app}
}

// isBuiltin reports whether fun is the builtin called name.
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// lenArg returns x when bound is len(x).
func lenArg(info *types.Info, bound ast.Expr) ast.Expr {
	call, ok := ast.Unparen(bound).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isBuiltin(info, call.Fun, "len") {
		return nil
	}
	return call.Args[0]
}
