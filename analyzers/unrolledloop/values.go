package unrolledloop

import (
	"go/ast"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// Bounds and lengths often reach a loop through a few hops: a helper's
// parameter (sequence(48)), a local copy (order := cfg.Order), a field of
// a configuration literal (cfg.Len with cfg := config{Len: 48}), an element
// of a fixed table (depths[i]), or a closure factory's parameter
// (jit.Jit(makePenalty(lossConfig{Order: 40}))). The resolver below
// follows them to constants.

// binding gives the parameters of a helper whose result is being followed
// the arguments of the call that runs it (sequence(48) binds n to 48).
type binding struct {
	params []*types.Var
	call   *ast.CallExpr
	outer  *binding
	depth  int
}

// maxHelperDepth bounds how deep the resolver follows helpers that call
// helpers (and values defined from values).
const maxHelperDepth = 4

// arg returns the argument bound to e when e names a parameter of the
// helper, with the binding it is evaluated in.
func (b *binding) arg(info *types.Info, e ast.Expr) (ast.Expr, *binding) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if b == nil || !ok {
		return nil, nil
	}
	for i, p := range b.params {
		if p != nil && info.Uses[id] == p && i < len(b.call.Args) {
			return b.call.Args[i], b.outer
		}
	}
	return nil, nil
}

// deeper returns the depth of a binding made inside b.
func (b *binding) deeper() int {
	if b == nil {
		return 0
	}
	return b.depth + 1
}

// intValue returns the largest value that the integer expression e takes:
// traced.MaxInt, with parameters of helpers replaced by the arguments
// their calls pass, local variables with a single value, fields of
// configuration literals, elements of fixed tables, and min/max of those.
func (c *checker) intValue(e ast.Expr, b *binding) (int64, bool) {
	return c.intValueAt(e, b, 0)
}

// mostValue is the largest of e's values under the bindings of the
// closure factories that make the function (makePenalty(lossConfig{Order:
// 40}) and makePenalty(lossConfig{Order: 5}): 40), over those it resolves
// under; ok is false when it resolves under none.
func (c *checker) mostValue(e ast.Expr, binds []*binding) (most int64, ok bool) {
	for _, b := range binds {
		if n, nok := c.intValue(e, b); nok && (!ok || n > most) {
			most, ok = n, true
		}
	}
	return most, ok
}

func (c *checker) intValueAt(e ast.Expr, b *binding, hops int) (int64, bool) {
	if n, ok := traced.MaxInt(c.r.Info, e, c.r.PathTo(e)); ok {
		return n, true
	}
	if hops > maxHelperDepth*2 {
		return 0, false
	}
	if a, outer := b.arg(c.r.Info, e); a != nil {
		return c.intValueAt(a, outer, hops+1)
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := c.r.Info.Uses[e].(*types.Var); ok {
			values, elemWrites := c.r.DeclValues(v)
			if x := c.r.RangedOver(e); x != nil && len(values) == 0 {
				return c.tableMax(x, b, hops) // for _, d := range s.Depths
			}
			if len(values) == 1 && !elemWrites {
				return c.intValueAt(values[0], b, hops+1)
			}
			args := c.paramArgs(v)
			var most int64
			for _, a := range args {
				n, ok := c.intValueAt(a, nil, hops+1)
				if !ok {
					return 0, false
				}
				most = max(most, n)
			}
			return most, len(args) > 0
		}
	case *ast.SelectorExpr, *ast.IndexExpr:
		if lit, lb := c.literalOf(e, b, hops); lit != nil {
			return c.intValueAt(lit, lb, hops+1)
		}
		if ix, ok := e.(*ast.IndexExpr); ok {
			return c.tableMax(ix.X, b, hops)
		}
	case *ast.CallExpr:
		switch {
		case traced.IsBuiltin(c.r.Info, e.Fun, "min"):
			found, least := false, int64(0)
			for _, a := range e.Args {
				if n, ok := c.intValueAt(a, b, hops+1); ok && (!found || n < least) {
					found, least = true, n
				}
			}
			return least, found // min is at most any known argument
		case traced.IsBuiltin(c.r.Info, e.Fun, "max"):
			var most int64
			for _, a := range e.Args {
				n, ok := c.intValueAt(a, b, hops+1)
				if !ok {
					return 0, false
				}
				most = max(most, n)
			}
			return most, len(e.Args) > 0
		}
	}
	return 0, false
}

// tableMax returns the largest element of the fixed table x, a literal
// that literalOf finds.
func (c *checker) tableMax(x ast.Expr, b *binding, hops int) (int64, bool) {
	table, tb := c.literalOf(x, b, hops)
	lit, ok := table.(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return 0, false
	}
	var most int64
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		n, ok := c.intValueAt(elt, tb, hops+1)
		if !ok {
			return 0, false
		}
		most = max(most, n)
	}
	return most, true
}

// literalOf follows e to the expression it stands for: through helpers'
// parameters, local variables with a single value, the & operator, fields
// of struct literals (cfg.Len) and keyed elements of literals. It returns
// nil when e is not one of those, or it leads nowhere.
func (c *checker) literalOf(e ast.Expr, b *binding, hops int) (ast.Expr, *binding) {
	if hops > maxHelperDepth*2 {
		return nil, nil
	}
	if a, outer := b.arg(c.r.Info, e); a != nil {
		return c.literalOf(a, outer, hops+1)
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return e, b
	case *ast.UnaryExpr:
		return c.literalOf(e.X, b, hops+1)
	case *ast.Ident:
		if v, ok := c.r.Info.Uses[e].(*types.Var); ok {
			if values, elemWrites := c.r.DeclValues(v); len(values) == 1 && !elemWrites {
				return c.literalOf(values[0], b, hops+1)
			}
			if args := c.paramArgs(v); len(args) == 1 {
				return c.literalOf(args[0], nil, hops+1)
			}
		}
	case *ast.SelectorExpr:
		lit, lb := c.literalOf(e.X, b, hops+1)
		if cl, ok := lit.(*ast.CompositeLit); ok {
			if field := fieldValue(c.r.Info, cl, e.Sel.Name); field != nil {
				return field, lb
			}
		}
	}
	return nil, nil
}

// fieldValue returns the value that a struct literal gives to the field
// name, or nil.
func fieldValue(info *types.Info, lit *ast.CompositeLit, name string) ast.Expr {
	st, ok := info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
			continue
		}
		if i < st.NumFields() && st.Field(i).Name() == name {
			return elt
		}
	}
	return nil
}

// paramArgs returns what the calls of a traced function that traced code
// calls pass to its parameter v (decode(cfg, enc, w) passes cfg), or nil
// when v is not such a parameter or the function is also jitted (its
// arguments then come from its callers' f.Call).
func (c *checker) paramArgs(v *types.Var) []ast.Expr {
	for _, fn := range c.r.Funcs {
		i := paramIndex(fn, v)
		if i < 0 || len(fn.Jitted) > 0 {
			continue
		}
		var args []ast.Expr
		for _, cs := range fn.CalledFrom {
			if i >= len(cs.Call.Args) {
				return nil
			}
			args = append(args, cs.Call.Args[i])
		}
		return args
	}
	return nil
}
