package eval

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyBinary evaluates a two-operand elementwise primitive. The operands
// have one dtype; their shapes are equal, one is a rank-0 scalar, or they
// have equal rank and differ only in size-1 dimensions (which broadcast).
func applyBinary(prim string, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 2); err != nil {
		return nil, err
	}
	a, b := args[0], args[1]
	if a.DType != b.DType {
		return nil, fmt.Errorf("operand dtypes differ: %s and %s (convert one with convert_element_type)", a.DType, b.DType)
	}
	shape, sa, sb, a, b, err := broadcastScalar(a, b)
	if err != nil {
		return nil, err
	}
	outDT := a.DType
	if ir.IsCompare(prim) {
		outDT = ir.Bool
	}
	out := ir.NewBuffer(outDT, shape)
	if ir.IsCompare(prim) {
		dst := out.Data.([]bool)
		switch ad := a.Data.(type) {
		case []float32:
			zip(dst, ad, b.Data.([]float32), sa, sb, compareFn[float32](prim))
		case []float64:
			zip(dst, ad, b.Data.([]float64), sa, sb, compareFn[float64](prim))
		case []int32:
			zip(dst, ad, b.Data.([]int32), sa, sb, compareFn[int32](prim))
		case []int64:
			zip(dst, ad, b.Data.([]int64), sa, sb, compareFn[int64](prim))
		case []bool:
			c := compareFn[int8](prim)
			zip(dst, ad, b.Data.([]bool), sa, sb, func(x, y bool) bool { return c(b2i(x), b2i(y)) })
		}
		return out, nil
	}
	switch ad := a.Data.(type) {
	case []float32:
		f := floatBinary(prim)
		if f == nil {
			return nil, notDefined(a.DType)
		}
		zipFloat32(a.DType, out.Data.([]float32), ad, b.Data.([]float32), sa, sb, f)
	case []float64:
		f := floatBinary(prim)
		if f == nil {
			return nil, notDefined(a.DType)
		}
		zip(out.Data.([]float64), ad, b.Data.([]float64), sa, sb, f)
	case []int32:
		f := intBinary[int32](prim)
		if f == nil {
			return nil, notDefined(a.DType)
		}
		zip(out.Data.([]int32), ad, b.Data.([]int32), sa, sb, f)
	case []int64:
		f := intBinary[int64](prim)
		if f == nil {
			return nil, notDefined(a.DType)
		}
		zip(out.Data.([]int64), ad, b.Data.([]int64), sa, sb, f)
	case []bool:
		f := boolBinary(prim)
		if f == nil {
			return nil, notDefined(a.DType)
		}
		zip(out.Data.([]bool), ad, b.Data.([]bool), sa, sb, f)
	}
	return out, nil
}

// broadcastScalar returns the result shape of an elementwise binary op and
// the element strides of its operands (0 for a rank-0 scalar). Operands of
// equal rank whose dimensions differ only where one of them is 1 broadcast
// as lax's binary ops do (f32[1] + f32[2]): the size-1 operand is expanded
// first, so a and b may be replaced.
func broadcastScalar(a, b *ir.Buffer) (shape []int, sa, sb int, na, nb *ir.Buffer, err error) {
	switch {
	case slices.Equal(a.Shape, b.Shape):
		return a.Shape, 1, 1, a, b, nil
	case len(a.Shape) == 0:
		return b.Shape, 0, 1, a, b, nil
	case len(b.Shape) == 0:
		return a.Shape, 1, 0, a, b, nil
	}
	shape, ok := ir.BroadcastSizeOne(a.Shape, b.Shape)
	if !ok {
		return nil, 0, 0, nil, nil, fmt.Errorf("operand shapes %v and %v differ (broadcast one with broadcast_in_dim)", a.Shape, b.Shape)
	}
	if na, err = expandTo(a, shape); err == nil {
		nb, err = expandTo(b, shape)
	}
	return shape, 1, 1, na, nb, err
}

// expandTo broadcasts x's size-1 dimensions to shape (same rank).
func expandTo(x *ir.Buffer, shape []int) (*ir.Buffer, error) {
	if slices.Equal(x.Shape, shape) {
		return x, nil
	}
	dims := make([]int, len(shape))
	for i := range dims {
		dims[i] = i
	}
	return applyBroadcastInDim(ir.Params{"shape": shape, "broadcast_dimensions": dims}, []*ir.Buffer{x})
}

// zip sets dst[i] = f(a[i*sa], b[i*sb]).
func zip[T, R any](dst []R, a, b []T, sa, sb int, f func(T, T) R) {
	ia, ib := 0, 0
	for i := range dst {
		dst[i] = f(a[ia], b[ib])
		ia += sa
		ib += sb
	}
}

// zipFloat32 sets dst[i] = f(a[i*sa], b[i*sb]) computed in float64 and
// rounded to dt (f32, bf16 or f16); f32 has its own loop as the common case.
func zipFloat32(dt ir.DType, dst, a, b []float32, sa, sb int, f func(x, y float64) float64) {
	ia, ib := 0, 0
	if dt == ir.Float32 {
		for i := range dst {
			dst[i] = float32(f(float64(a[ia]), float64(b[ib])))
			ia += sa
			ib += sb
		}
		return
	}
	for i := range dst {
		dst[i] = ir.RoundTo(dt, f(float64(a[ia]), float64(b[ib])))
		ia += sa
		ib += sb
	}
}

// b2i converts a bool to 0/1.
func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// compareFn returns a comparison; with IEEE semantics for floats (every
// comparison with NaN is false except ne).
func compareFn[T cmp.Ordered](prim string) func(x, y T) bool {
	switch prim {
	case ir.Gt:
		return func(x, y T) bool { return x > y }
	case ir.Ge:
		return func(x, y T) bool { return x >= y }
	case ir.Lt:
		return func(x, y T) bool { return x < y }
	case ir.Le:
		return func(x, y T) bool { return x <= y }
	case ir.Eq:
		return func(x, y T) bool { return x == y }
	}
	return func(x, y T) bool { return x != y }
}

// floatBinary returns the float64 kernel of a binary primitive, or nil when
// it does not apply to floats (and, or).
func floatBinary(prim string) func(x, y float64) float64 {
	switch prim {
	case ir.Add:
		return func(x, y float64) float64 { return x + y }
	case ir.Sub:
		return func(x, y float64) float64 { return x - y }
	case ir.Mul:
		return func(x, y float64) float64 { return x * y }
	case ir.Div:
		return func(x, y float64) float64 { return x / y }
	case ir.Rem:
		return math.Mod
	case ir.Pow:
		return math.Pow
	case ir.Max:
		return func(x, y float64) float64 {
			if x != x || y != y {
				return math.NaN()
			}
			return math.Max(x, y)
		}
	case ir.Min:
		return func(x, y float64) float64 {
			if x != x || y != y {
				return math.NaN()
			}
			return math.Min(x, y)
		}
	}
	return nil
}

// intBinary returns the kernel of a binary primitive on integers (C
// semantics: wrap on overflow, div and rem truncate toward zero; XLA's
// division by zero: x/0 = -1, x%0 = x).
func intBinary[T int32 | int64](prim string) func(x, y T) T {
	switch prim {
	case ir.Add:
		return func(x, y T) T { return x + y }
	case ir.Sub:
		return func(x, y T) T { return x - y }
	case ir.Mul:
		return func(x, y T) T { return x * y }
	case ir.Div:
		return IntDiv[T]
	case ir.Rem:
		return IntRem[T]
	case ir.Pow:
		return func(x, y T) T { return IntPow(x, int64(y)) }
	case ir.Max:
		return func(x, y T) T { return max(x, y) }
	case ir.Min:
		return func(x, y T) T { return min(x, y) }
	case ir.And:
		return func(x, y T) T { return x & y }
	case ir.Or:
		return func(x, y T) T { return x | y }
	}
	return nil
}

// boolBinary returns the kernel of a binary primitive on bools (and, or;
// max is or and min is and, as false < true).
func boolBinary(prim string) func(x, y bool) bool {
	switch prim {
	case ir.And, ir.Min:
		return func(x, y bool) bool { return x && y }
	case ir.Or, ir.Max:
		return func(x, y bool) bool { return x || y }
	}
	return nil
}
