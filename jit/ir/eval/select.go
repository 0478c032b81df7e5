package eval

import (
	"fmt"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// applySelectN evaluates select_n(pred, case0, case1, ...): out[i] =
// cases[pred[i]][i]. pred is bool (false → case0, true → case1) or an
// integer index clamped into range; it is a scalar or has the cases' shape.
func applySelectN(args []*ir.Buffer) (*ir.Buffer, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("got %d operands, want a predicate and at least one case", len(args))
	}
	pred, cases := args[0], args[1:]
	c0 := cases[0]
	for k, c := range cases[1:] {
		if c.DType != c0.DType || !slices.Equal(c.Shape, c0.Shape) {
			return nil, fmt.Errorf("case %d has type %s but case 0 has type %s (all cases must have one type)", k+1, c.Aval(), c0.Aval())
		}
	}
	if len(pred.Shape) != 0 && !slices.Equal(pred.Shape, c0.Shape) {
		return nil, fmt.Errorf("predicate shape %v is neither a scalar nor the cases' shape %v", pred.Shape, c0.Shape)
	}
	which := make([]int, pred.Len())
	last := len(cases) - 1
	switch p := pred.Data.(type) {
	case []bool:
		if len(cases) > 2 {
			return nil, fmt.Errorf("a bool predicate selects between at most 2 cases, got %d", len(cases))
		}
		for i, v := range p {
			if v {
				which[i] = last
			}
		}
	case []int32:
		for i, v := range p {
			which[i] = clampIndex(int64(v), last)
		}
	case []int64:
		for i, v := range p {
			which[i] = clampIndex(v, last)
		}
	default:
		return nil, fmt.Errorf("predicate has dtype %s, want bool or int32", pred.DType)
	}
	ws := 1
	if len(pred.Shape) == 0 {
		ws = 0
	}
	datas := make([]any, len(cases))
	for k, c := range cases {
		datas[k] = c.Data
	}
	out := ir.NewBuffer(c0.DType, c0.Shape)
	switch d := out.Data.(type) {
	case []float32:
		pick(d, datas, which, ws)
	case []float64:
		pick(d, datas, which, ws)
	case []int32:
		pick(d, datas, which, ws)
	case []int64:
		pick(d, datas, which, ws)
	case []bool:
		pick(d, datas, which, ws)
	}
	return out, nil
}

// clampIndex clamps v into [0, last].
func clampIndex(v int64, last int) int {
	if v < 0 {
		return 0
	}
	if v > int64(last) {
		return last
	}
	return int(v)
}

// pick sets dst[i] = cases[which[i*ws]][i].
func pick[T any](dst []T, cases []any, which []int, ws int) {
	cs := make([][]T, len(cases))
	for k, c := range cases {
		cs[k] = c.([]T)
	}
	w := 0
	for i := range dst {
		dst[i] = cs[which[w]][i]
		w += ws
	}
}

// applyClamp evaluates clamp(lo, x, hi) = min(max(x, lo), hi), propagating
// NaN; lo and hi are scalars or have x's shape.
func applyClamp(args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 3); err != nil {
		return nil, err
	}
	lo, x, hi := args[0], args[1], args[2]
	for _, b := range []*ir.Buffer{lo, hi} {
		if len(b.Shape) != 0 && !slices.Equal(b.Shape, x.Shape) {
			return nil, fmt.Errorf("bound of shape %v is neither a scalar nor the operand's shape %v", b.Shape, x.Shape)
		}
	}
	t, err := applyBinary(ir.Max, []*ir.Buffer{x, lo})
	if err != nil {
		return nil, err
	}
	return applyBinary(ir.Min, []*ir.Buffer{t, hi})
}
