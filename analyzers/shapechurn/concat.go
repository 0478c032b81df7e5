package shapechurn

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// Padding by hand concatenates a batch of n rows with b-n rows of zeros:
// the result has b rows, whatever n is. To see that, the checker adds the
// sizes of the concatenated arrays along the axis as sums of variables
// (n + (b - n) = b) and asks whether what is left changes in the loop.

// linear is a size as a sum of variables times whole numbers, plus a
// constant, plus other integer expressions kept whole (bucket(n) in
// bucket(n) - n).
type linear struct {
	terms map[types.Object]int64
	k     int64
	other []ast.Expr
}

// plus returns l + sign·m.
func (l linear) plus(m linear, sign int64) linear {
	out := linear{terms: map[types.Object]int64{}, k: l.k + sign*m.k, other: append(append([]ast.Expr{}, l.other...), m.other...)}
	for v, c := range l.terms {
		out.terms[v] += c
	}
	for v, c := range m.terms {
		out.terms[v] += sign * c
		if out.terms[v] == 0 {
			delete(out.terms, v)
		}
	}
	return out
}

// concatSize returns the size along the axis of jit.Concatenate(axis,
// arrays...), when every part's size is known as a linear form.
func (s *shapes) concatSize(args []ast.Expr) (linear, bool) {
	if len(args) < 2 {
		return linear{}, false
	}
	axis, ok := traced.ConstInt(s.r.Info, args[0])
	if !ok {
		return linear{}, false
	}
	var total linear
	for _, a := range args[1:] {
		size, ok := s.axisSize(a, int(axis))
		if !ok {
			return linear{}, false
		}
		total = total.plus(size, 1)
	}
	return total, true
}

// sizeVaries reports whether a size changes between iterations: one of its
// variables or other expressions does, and takes more than a few values.
func (s *shapes) sizeVaries(l linear) bool {
	for v := range l.terms {
		if s.loop.VariesVar(v) && !s.fewVar(v) {
			return true
		}
	}
	for _, e := range l.other {
		if s.valueVaries(e) {
			return true
		}
	}
	return false
}

// fewVar reports whether the variable v takes a few values in the loop (a
// bucket size).
func (s *shapes) fewVar(v types.Object) bool {
	values, _ := s.loop.Values(v)
	for _, val := range values {
		if s.valueVaries(val) {
			return false
		}
	}
	return len(values) > 0
}

// axisSize returns the size along axis of the array e as a linear form:
// from the dimensions given to jit.Zeros, Ones, Full and FromSlice, through
// variables with one value and helpers of the package (whose parameters
// stand for the caller's arguments).
func (s *shapes) axisSize(e ast.Expr, axis int) (linear, bool) {
	if s.depth > maxHelperDepth {
		return linear{}, false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if values, _ := s.loop.Values(s.r.Info.Uses[e]); len(values) == 1 {
			return s.axisSize(values[0], axis)
		}
	case *ast.CallExpr:
		firstDim := map[string]int{"Zeros": 1, "Ones": 1, "Full": 2, "FromSlice": 1}
		if first, ok := firstDim[traced.JitFunc(s.r.Info, e)]; ok {
			if first+axis < len(e.Args) {
				return s.linearOf(e.Args[first+axis])
			}
			return linear{}, false
		}
		values, ok := s.r.Returns(e, 0)
		if !ok || len(values) != 1 {
			return linear{}, false
		}
		ret := values[0]
		size, ok := s.inner(traced.NewScope(s.r.Info, traced.FuncBody(ret.Func), nil)).axisSize(ret.Value, axis)
		if !ok || len(size.other) > 0 {
			return linear{}, false
		}
		out := linear{k: size.k}
		params := s.r.Params(ret.Func)
		for v, c := range size.terms {
			i := indexOf(params, v)
			if i < 0 || i >= len(e.Args) {
				return linear{}, false // a size from the helper's own variables
			}
			arg, ok := s.linearOf(e.Args[i])
			if !ok {
				return linear{}, false
			}
			for range max(c, -c) {
				out = out.plus(arg, c/max(c, -c))
			}
		}
		return out, true
	}
	return linear{}, false
}

// linearOf writes the integer expression e as a linear form of variables
// and, for what is neither a sum nor a variable, whole expressions.
func (s *shapes) linearOf(e ast.Expr) (linear, bool) {
	if n, ok := traced.ConstInt(s.r.Info, e); ok {
		return linear{k: n}, true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v := s.r.Info.Uses[e]; v != nil {
			return linear{terms: map[types.Object]int64{v: 1}}, true
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD || e.Op == token.SUB {
			x, ok1 := s.linearOf(e.X)
			y, ok2 := s.linearOf(e.Y)
			if !ok1 || !ok2 {
				return linear{}, false
			}
			if e.Op == token.SUB {
				return x.plus(y, -1), true
			}
			return x.plus(y, 1), true
		}
	}
	if t := s.r.Info.TypeOf(e); t != nil {
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return linear{other: []ast.Expr{e}}, true // bucket(n), 2*n: kept whole
		}
	}
	return linear{}, false
}

// indexOf returns the index of v among params, or -1.
func indexOf(params []*types.Var, v types.Object) int {
	for i, p := range params {
		if p != nil && types.Object(p) == v {
			return i
		}
	}
	return -1
}
