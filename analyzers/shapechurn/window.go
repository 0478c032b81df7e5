package shapechurn

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// Windows: a slice from start to limit has the length limit-start. A
// window of fixed width at a moving offset (x[off:off+w]) keeps its shape;
// batches cut with min(off+w, n) have two lengths (full batches and the
// last, short one), a bounded number of compiles. Only widths that change
// with the loop in other ways are churn.

// sliceVaries reports whether x.Slice(start, limit) gives a different
// shape on each iteration.
func (s *shapes) sliceVaries(args []ast.Expr) bool {
	if len(args) != 2 {
		return s.loop.VariesAny(args)
	}
	start, ok1 := ast.Unparen(args[0]).(*ast.CompositeLit)
	limit, ok2 := ast.Unparen(args[1]).(*ast.CompositeLit)
	if !ok1 || !ok2 || len(start.Elts) != len(limit.Elts) {
		return s.loop.VariesAny(args)
	}
	for k := range start.Elts {
		if s.widthVaries(start.Elts[k], limit.Elts[k]) {
			return true
		}
	}
	return false
}

// widthVaries reports whether limit-start changes between iterations in a
// way not bounded by a fixed width.
func (s *shapes) widthVaries(start, limit ast.Expr) bool {
	if !s.loop.Varies(start) && !s.loop.Varies(limit) {
		return false
	}
	return !s.fixedWidth(start, limit, map[types.Object]bool{}) && !s.differenceFixed(start, limit)
}

// differenceFixed reports whether limit - start, written out as sums,
// leaves only what does not change (x.Slice({t - lb}, {t}) is lb wide).
// A start clamped at zero, max(0, t-lb), is a warm-up: the width grows to
// lb and stays there, at most lb shapes.
func (s *shapes) differenceFixed(start, limit ast.Expr) bool {
	if call, ok := ast.Unparen(start).(*ast.CallExpr); ok && traced.IsBuiltin(s.r.Info, call.Fun, "max") && len(call.Args) == 2 {
		if k, ok := traced.ConstInt(s.r.Info, call.Args[0]); ok && k == 0 {
			start = call.Args[1]
		} else if k, ok := traced.ConstInt(s.r.Info, call.Args[1]); ok && k == 0 {
			start = call.Args[0]
		}
	}
	hi, ok1 := s.linearOf(limit)
	lo, ok2 := s.linearOf(start)
	return ok1 && ok2 && !s.sizeVaries(hi.plus(lo, -1))
}

// fixedWidth reports whether limit is start plus a loop-invariant width,
// possibly capped by min (the short last batch), directly or through a
// variable defined in the loop.
func (s *shapes) fixedWidth(start, limit ast.Expr, seen map[types.Object]bool) bool {
	switch l := ast.Unparen(limit).(type) {
	case *ast.BinaryExpr:
		if l.Op != token.ADD {
			return false
		}
		return (sameExpr(s, l.X, start) && !s.valueVaries(l.Y)) || (sameExpr(s, l.Y, start) && !s.valueVaries(l.X))
	case *ast.CallExpr:
		if id, ok := ast.Unparen(l.Fun).(*ast.Ident); ok && id.Name == "min" {
			if _, builtin := s.r.Info.Uses[id].(*types.Builtin); builtin {
				for _, a := range l.Args {
					if s.fixedWidth(start, a, seen) {
						return true
					}
				}
			}
		}
	case *ast.Ident:
		obj := s.r.Info.Uses[l]
		if obj == nil || seen[obj] {
			return false
		}
		seen[obj] = true
		values, loopVar := s.loop.Values(obj)
		if loopVar || len(values) == 0 {
			return false
		}
		for _, v := range values {
			if !s.fixedWidth(start, v, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// sameExpr reports whether a and b are the same variable or expression text.
func sameExpr(s *shapes, a, b ast.Expr) bool {
	ai, ok1 := ast.Unparen(a).(*ast.Ident)
	bi, ok2 := ast.Unparen(b).(*ast.Ident)
	if ok1 && ok2 {
		return s.r.Info.Uses[ai] != nil && s.r.Info.Uses[ai] == s.r.Info.Uses[bi]
	}
	return types.ExprString(a) == types.ExprString(b)
}
