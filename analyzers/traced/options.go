package traced

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// staticArgnums reads the jit.StaticArgnums options of a jit.Jit or
// jit.MakeJaxpr call: written in the call, or held in an options slice
// passed as opts... when the slice is built in this package (a literal and
// appends). known is false when the slice comes from elsewhere (a
// parameter): then the static arguments are not known.
func (r *Result) staticArgnums(call *ast.CallExpr) (static []int, opt *ast.CallExpr, known bool) {
	opts := call.Args[min(1, len(call.Args)):]
	known = true
	if call.Ellipsis.IsValid() && len(opts) > 0 {
		var ok bool
		opts, ok = r.optionExprs(opts[len(opts)-1], map[types.Object]bool{})
		known = ok
	}
	for _, o := range opts {
		c, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok || JitFunc(r.Info, c) != "StaticArgnums" {
			continue
		}
		for _, a := range c.Args {
			if v := r.Info.Types[a].Value; v != nil {
				if n, ok := constant.Int64Val(v); ok {
					static = append(static, int(n))
				}
			} else {
				known = false
			}
		}
		opt = c
	}
	return static, opt, known
}

// optionExprs returns the option expressions that a slice expression
// holds: the elements of a literal, the values appended to it, and those of
// the slices it is assigned from. ok is false when some of them are not
// known (the slice is a parameter or comes from a call).
func (r *Result) optionExprs(e ast.Expr, seen map[types.Object]bool) (out []ast.Expr, ok bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return e.Elts, true
	case *ast.CallExpr:
		if id, isID := ast.Unparen(e.Fun).(*ast.Ident); isID && id.Name == "append" && len(e.Args) > 0 && !e.Ellipsis.IsValid() {
			if _, builtin := r.Info.Uses[id].(*types.Builtin); builtin {
				out, ok = r.optionExprs(e.Args[0], seen)
				return append(out, e.Args[1:]...), ok
			}
		}
	case *ast.Ident:
		obj := r.objOf(e)
		if obj == nil || seen[obj] {
			return nil, obj != nil
		}
		seen[obj] = true
		values := r.stored[obj]
		if len(values) == 0 {
			return nil, false
		}
		ok = true
		for _, v := range values {
			more, vok := r.optionExprs(v, seen)
			out = append(out, more...)
			ok = ok && vok
		}
		return out, ok
	}
	return nil, false
}
