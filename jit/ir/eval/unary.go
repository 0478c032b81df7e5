package eval

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyUnary evaluates a one-operand elementwise primitive.
func applyUnary(prim string, params ir.Params, args []*ir.Buffer) (*ir.Buffer, error) {
	if err := wantArgs(args, 1); err != nil {
		return nil, err
	}
	x := args[0]
	y := 0
	if prim == ir.IntegerPow {
		var err error
		if y, err = intParam(params, "y"); err != nil {
			return nil, err
		}
	}
	out := ir.NewBuffer(x.DType, x.Shape)
	switch src := x.Data.(type) {
	case []float32:
		f := floatUnary(prim, y)
		if f == nil {
			return nil, notDefined(x.DType)
		}
		dst := out.Data.([]float32)
		if x.DType == ir.Float32 {
			for i, v := range src {
				dst[i] = float32(f(float64(v)))
			}
		} else {
			for i, v := range src {
				dst[i] = ir.RoundTo(x.DType, f(float64(v)))
			}
		}
	case []float64:
		f := floatUnary(prim, y)
		if f == nil {
			return nil, notDefined(x.DType)
		}
		dst := out.Data.([]float64)
		for i, v := range src {
			dst[i] = f(v)
		}
	case []int32:
		f, err := intUnary[int32](prim, y)
		if err != nil {
			return nil, err
		}
		mapInto(out.Data.([]int32), src, f)
	case []int64:
		f, err := intUnary[int64](prim, y)
		if err != nil {
			return nil, err
		}
		mapInto(out.Data.([]int64), src, f)
	case []bool:
		if prim != ir.Not {
			return nil, notDefined(x.DType)
		}
		mapInto(out.Data.([]bool), src, func(v bool) bool { return !v })
	}
	return out, nil
}

// notDefined is the error for a primitive applied to a dtype it does not accept.
func notDefined(dt ir.DType) error {
	return fmt.Errorf("not defined for %s operands", dt.Name())
}

// mapInto sets dst[i] = f(src[i]).
func mapInto[T, R any](dst []R, src []T, f func(T) R) {
	for i, v := range src {
		dst[i] = f(v)
	}
}

// floatUnary returns the float64 kernel of a unary primitive, or nil when
// the primitive does not apply to floats (not).
func floatUnary(prim string, y int) func(float64) float64 {
	if prim == ir.IntegerPow {
		fy := float64(y)
		return func(x float64) float64 { return math.Pow(x, fy) }
	}
	return floatFuncs[prim]
}

// floatFuncs are the float64 kernels of the parameterless unary primitives.
var floatFuncs = map[string]func(float64) float64{
	ir.Neg: func(x float64) float64 { return -x },
	ir.Sign: func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return x // ±0 and NaN
	},
	ir.Abs:      math.Abs,
	ir.Sin:      math.Sin,
	ir.Cos:      math.Cos,
	ir.Tan:      math.Tan,
	ir.Tanh:     math.Tanh,
	ir.Exp:      math.Exp,
	ir.Log:      math.Log,
	ir.Log1p:    math.Log1p,
	ir.Expm1:    math.Expm1,
	ir.Sqrt:     math.Sqrt,
	ir.Rsqrt:    func(x float64) float64 { return 1 / math.Sqrt(x) },
	ir.Floor:    math.Floor,
	ir.Ceil:     math.Ceil,
	ir.Logistic: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
}

// intUnary returns the kernel of a unary primitive on integers.
func intUnary[T int32 | int64](prim string, y int) (func(T) T, error) {
	switch prim {
	case ir.Neg:
		return func(x T) T { return -x }, nil
	case ir.Sign:
		return func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		}, nil
	case ir.Abs:
		return func(x T) T {
			if x < 0 {
				return -x
			}
			return x
		}, nil
	case ir.Not:
		return func(x T) T { return ^x }, nil
	case ir.IntegerPow:
		if y < 0 {
			return nil, fmt.Errorf("integers cannot be raised to the negative power %d", y)
		}
		return func(x T) T { return IntPow(x, int64(y)) }, nil
	}
	var zero T
	return nil, notDefined(intDType(zero))
}

// intDType returns the dtype of a Go integer type.
func intDType[T int32 | int64](T) ir.DType {
	var z any = T(0)
	if _, ok := z.(int32); ok {
		return ir.Int32
	}
	return ir.Int64
}
