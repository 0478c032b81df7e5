package cpu

import (
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// Float kernels. add, sub, mul, div, neg, abs, sign, max and min are exact
// in float32. The f32 transcendentals, sqrt, rsqrt and pow run the kernels
// of f32math.go (vectorized where the CPU allows): within 0.5 + 2^-9 ulp of
// the exact result, so they equal the reference evaluator's (the float64
// math package's result rounded once) except, rarely, by one ulp where the
// exact result lies next to a rounding midpoint; f32 integer_pow with y = 2
// is the exact float32 square. Everything else, and bf16/f16, converts the
// block to float64, runs the math package over it, and rounds the block
// back.

// mathLoop returns the float64 loop d[i] = f(a[i]) of a unary primitive, or
// nil for primitives computed natively (neg, abs, sign) or not on floats.
func mathLoop(prim string, y int) func(d, a []float64) {
	switch prim {
	case ir.Sin:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Sin(v)
			}
		}
	case ir.Cos:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Cos(v)
			}
		}
	case ir.Tan:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Tan(v)
			}
		}
	case ir.Tanh:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Tanh(v)
			}
		}
	case ir.Exp:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Exp(v)
			}
		}
	case ir.Log:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Log(v)
			}
		}
	case ir.Log1p:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Log1p(v)
			}
		}
	case ir.Expm1:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Expm1(v)
			}
		}
	case ir.Sqrt:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Sqrt(v)
			}
		}
	case ir.Rsqrt:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = 1 / math.Sqrt(v)
			}
		}
	case ir.Floor:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Floor(v)
			}
		}
	case ir.Ceil:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Ceil(v)
			}
		}
	case ir.Logistic:
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = 1 / (1 + math.Exp(-v))
			}
		}
	case ir.IntegerPow:
		fy := float64(y)
		return func(d, a []float64) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = math.Pow(v, fy)
			}
		}
	}
	return nil
}

// nativeUnary returns the exact elementwise kernel of neg, abs or sign.
func nativeUnary[T float32 | float64](prim string) func(d, a []T) {
	if prim != ir.Abs {
		return arithUnary[T](prim)
	}
	return func(d, a []T) {
		d = d[:len(a)]
		for i, v := range a {
			d[i] = T(math.Abs(float64(v)))
		}
	}
}

// floatUnaryOp builds a unary op on a float register of dtype dt.
func floatUnaryOp(prim string, y int, a, d loc, dt ir.DType) op {
	if a.c == cF64 {
		if f := nativeUnary[float64](prim); f != nil {
			return un(regF64, regF64, a.reg, d.reg, func(_ *frame, d, a []float64) { f(d, a) })
		}
		f := mathLoop(prim, y)
		if f == nil {
			return nil
		}
		return un(regF64, regF64, a.reg, d.reg, func(_ *frame, d, a []float64) { f(d, a) })
	}
	if k := f32Unaries[prim]; k != nil && dt == ir.Float32 {
		return un(regF32, regF32, a.reg, d.reg, func(_ *frame, d, a []float32) { k.block(d, a) })
	}
	if prim == ir.IntegerPow && y == 2 && dt == ir.Float32 {
		return un(regF32, regF32, a.reg, d.reg, func(_ *frame, d, a []float32) { squareBlock(d, a) })
	}
	round := blockRounder(dt)
	if f := nativeUnary[float32](prim); f != nil {
		return un(regF32, regF32, a.reg, d.reg, func(_ *frame, d, a []float32) { f(d, a); round(d) })
	}
	f := mathLoop(prim, y)
	if f == nil {
		return nil
	}
	store := storeF32(dt)
	return un(regF32, regF32, a.reg, d.reg, func(fr *frame, d, a []float32) {
		t := fr.tmp[0][:len(a)]
		widen(t, a)
		f(t, t)
		store(d, t)
	})
}

// widen converts a float32 block to float64.
func widen(t []float64, a []float32) {
	t = t[:len(a)]
	for i, v := range a {
		t[i] = float64(v)
	}
}

// storeF32 returns the loop that rounds a float64 block into a float32
// block of dtype dt (f32, bf16 or f16 precision).
func storeF32(dt ir.DType) func(d []float32, t []float64) {
	if dt == ir.Float32 {
		return func(d []float32, t []float64) {
			for i, v := range t {
				d[i] = float32(v)
			}
		}
	}
	return func(d []float32, t []float64) {
		for i, v := range t {
			d[i] = ir.RoundTo(dt, v)
		}
	}
}

// blockRounder returns the in-place rounding of a float32 block to dt's
// precision (a no-op for f32).
func blockRounder(dt ir.DType) func(d []float32) {
	switch dt {
	case ir.BFloat16:
		return func(d []float32) {
			for i, v := range d {
				d[i] = ir.RoundBF16(v)
			}
		}
	case ir.Float16:
		return func(d []float32) {
			for i, v := range d {
				d[i] = ir.RoundF16(v)
			}
		}
	}
	return func([]float32) {}
}

// nativeBinary returns the exact kernel of add, sub, mul, div, max or min.
func nativeBinary[T float32 | float64](prim string) func(d, a, b []T) {
	if prim != ir.Div {
		return arithBinary[T](prim)
	}
	return func(d, a, b []T) {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] / b[i]
		}
	}
}

// mathBinary returns the float64 loop of pow or rem.
func mathBinary(prim string) func(d, a, b []float64) {
	switch prim {
	case ir.Pow:
		return func(d, a, b []float64) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = math.Pow(a[i], b[i])
			}
		}
	case ir.Rem:
		return func(d, a, b []float64) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = math.Mod(a[i], b[i])
			}
		}
	}
	return nil
}

// floatBinaryOp builds a binary op on float registers of dtype dt.
func floatBinaryOp(prim string, a, b, d loc, dt ir.DType) op {
	if a.c == cF64 {
		if o := scalarBinary(regF64, prim, a, b, d, func([]float64) {}); o != nil {
			return o
		}
		if f := nativeBinary[float64](prim); f != nil {
			return bin(regF64, regF64, a.reg, b.reg, d.reg, func(_ *frame, d, a, b []float64) { f(d, a, b) })
		}
		f := mathBinary(prim)
		if f == nil {
			return nil
		}
		return bin(regF64, regF64, a.reg, b.reg, d.reg, func(_ *frame, d, a, b []float64) { f(d, a, b) })
	}
	round := blockRounder(dt)
	if o := scalarBinary(regF32, prim, a, b, d, round); o != nil {
		return o
	}
	if f := nativeBinary[float32](prim); f != nil {
		return bin(regF32, regF32, a.reg, b.reg, d.reg, func(_ *frame, d, a, b []float32) { f(d, a, b); round(d) })
	}
	if prim == ir.Pow && dt == ir.Float32 {
		return bin(regF32, regF32, a.reg, b.reg, d.reg, func(_ *frame, d, a, b []float32) { f32PowKernel.block(d, a, b) })
	}
	f := mathBinary(prim)
	if f == nil {
		return nil
	}
	store := storeF32(dt)
	return bin(regF32, regF32, a.reg, b.reg, d.reg, func(fr *frame, d, a, b []float32) {
		t0, t1 := fr.tmp[0][:len(a)], fr.tmp[1][:len(b)]
		widen(t0, a)
		widen(t1, b)
		f(t0, t0, t1)
		store(d, t0)
	})
}

// scalarBinary builds add, sub, mul, div, max or min with one scalar
// operand read once per block instead of from a filled register; nil when
// neither operand is a scalar or prim is another primitive.
func scalarBinary[T float32 | float64](g func(*frame) [][]T, prim string, a, b, d loc, round func([]T)) op {
	if !a.scalar && !b.scalar || a.scalar && b.scalar {
		return nil
	}
	f := scalarKernel[T](prim, b.scalar)
	if f == nil {
		return nil
	}
	vec, sc := a.reg, b.reg
	if a.scalar {
		vec, sc = b.reg, a.reg
	}
	return func(fr *frame, n int) {
		r := g(fr)
		dst := r[d.reg][:n]
		f(dst, r[vec][:n], r[sc][0])
		round(dst)
	}
}

// scalarKernel returns d[i] = a[i] op s (right) or d[i] = s op a[i].
func scalarKernel[T float32 | float64](prim string, right bool) func(d, a []T, s T) {
	switch prim {
	case ir.Add:
		return func(d, a []T, s T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = v + s
			}
		}
	case ir.Mul:
		return func(d, a []T, s T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = v * s
			}
		}
	case ir.Max:
		return func(d, a []T, s T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = max(v, s)
			}
		}
	case ir.Min:
		return func(d, a []T, s T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = min(v, s)
			}
		}
	case ir.Sub:
		if right {
			return func(d, a []T, s T) {
				d = d[:len(a)]
				for i, v := range a {
					d[i] = v - s
				}
			}
		}
		return func(d, a []T, s T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = s - v
			}
		}
	case ir.Div:
		if right {
			return func(d, a []T, s T) {
				d = d[:len(a)]
				for i, v := range a {
					d[i] = v / s
				}
			}
		}
		return func(d, a []T, s T) {
			d = d[:len(a)]
			for i, v := range a {
				d[i] = s / v
			}
		}
	}
	return nil
}
