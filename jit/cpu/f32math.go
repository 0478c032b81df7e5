package cpu

import (
	"math"

	p "github.com/jitlint/jitlint/jit/cpu/internal/f32poly"
)

// Scalar float32 transcendentals. Each evaluates in float64 with explicit
// FMAs (math.FMA) and rounds once to float32, so the result is within
// 0.5 + 2^-9 ulp of the exact value; the AVX2 kernels (f32math_amd64.s,
// generated from internal/asmgen) perform the same float64 operations in
// the same order on four float64 lanes per register, so the two agree bit
// for bit (the block entry points are in f32math_block.go).
// Arguments the polynomials do not cover (NaN, infinities, out-of-domain
// or huge values: "special" lanes) take the float64 math package, as the
// reference evaluator does. Plain products are never followed by a plain
// addition, so the compiler has nothing to contract into an FMA.

const signBit = 1 << 63

// horner evaluates c[0] + c[1]·x + … + c[n-1]·x^(n-1).
func horner(x float64, c []float64) float64 {
	v := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		v = math.FMA(v, x, c[i])
	}
	return v
}

// trigReduce returns r = ax - k·π/2 for 0 ≤ ax < TrigLimit and the bits of
// k + MagicRound, whose low bits are k's.
func trigReduce(ax float64) (r float64, kb uint64) {
	kd := math.FMA(ax, p.TwoOverPi, p.MagicRound)
	k := kd - p.MagicRound
	r = math.FMA(-k, p.PiO2A, ax)
	r = math.FMA(-k, p.PiO2B, r)
	r = math.FMA(-k, p.PiO2C, r)
	return r, math.Float64bits(kd)
}

// sinCosPoly returns sin(r) and cos(r) for |r| ≤ π/4.
func sinCosPoly(r float64) (s, c float64) {
	r2 := r * r
	r3 := r * r2
	return math.FMA(r3, horner(r2, p.Sin), r), math.FMA(r2, horner(r2, p.Cos), 1)
}

// withSign returns v with its sign bit flipped where sign has it set.
func withSign(v float64, sign uint64) float64 {
	return math.Float64frombits(math.Float64bits(v) ^ sign&signBit)
}

// clamp limits v to [-m, m] (v is not NaN).
func clamp(v, m float64) float64 {
	return max(min(v, m), -m)
}

// expParts returns 2^k and e^r - 1 with x = k·ln2 + r, |x| ≤ 2^10, so
// that e^x = 2^k·(e^r - 1) + 2^k.
func expParts(x float64) (scale, em1 float64) {
	kd := math.FMA(x, p.InvLn2, p.MagicRound)
	k := kd - p.MagicRound
	r := math.FMA(-k, p.Ln2Hi, x)
	r = math.FMA(-k, p.Ln2Lo, r)
	r2 := r * r
	em1 = math.FMA(r2, horner(r, p.Expm1), r)
	return math.Float64frombits((math.Float64bits(kd) + 1023) << 52), em1
}

// logPos returns log(d) for a positive, finite, normal d.
func logPos(d float64) float64 {
	ix := math.Float64bits(d)
	tmp := ix - p.LogOffset
	// e = tmp>>52 (arithmetic), computed with logical shifts and the
	// exponent-bits conversion the vector code uses.
	e := math.Float64frombits((tmp+1<<62)>>52|0x4330000000000000) - (0x1p52 + 1024)
	z := math.Float64frombits(ix - tmp&(0xfff<<52))
	f := z - 1
	s := f / (f + 2)
	w := s * s
	t := s + s
	tw := t * w
	return math.FMA(e, p.Ln2Hi, math.FMA(tw, horner(w, p.Log), t))
}

// The polynomial evaluations (argument already widened to float64).

func sinPoly(xd float64) float64 {
	r, kb := trigReduce(math.Abs(xd))
	s, c := sinCosPoly(r)
	if kb&1 != 0 {
		s = c
	}
	return withSign(s, kb<<62^math.Float64bits(xd))
}

func cosPoly(xd float64) float64 {
	r, kb := trigReduce(math.Abs(xd))
	s, c := sinCosPoly(r)
	if kb&1 != 0 {
		c = s
	}
	return withSign(c, (kb+1)<<62)
}

func tanPoly(xd float64) float64 {
	r, kb := trigReduce(math.Abs(xd))
	s, c := sinCosPoly(r)
	if kb&1 != 0 {
		s, c = c, s
	}
	return withSign(s/c, kb<<63^math.Float64bits(xd))
}

func expPoly(xd float64) float64 {
	s, e := expParts(clamp(xd, p.ExpClamp))
	return math.FMA(s, e, s)
}

func expm1Poly(xd float64) float64 {
	if math.Abs(xd) < p.Tiny {
		return xd
	}
	s, e := expParts(clamp(xd, p.ExpClamp))
	return math.FMA(s, e, s-1)
}

func tanhPoly(xd float64) float64 {
	a := min(math.Abs(xd), p.TanhClamp)
	s, e := expParts(a + a)
	t := math.FMA(s, e, s-1)
	return withSign(t/(t+2), math.Float64bits(xd))
}

func logisticPoly(xd float64) float64 {
	s, e := expParts(-clamp(xd, p.ExpClamp))
	return 1 / (math.FMA(s, e, s) + 1)
}

func log1pPoly(xd float64) float64 {
	if math.Abs(xd) < p.Tiny {
		return xd
	}
	return logPos(xd + 1)
}

// powPoly is a^b for positive finite a and finite b.
func powPoly(a, b float64) float64 {
	s, e := expParts(clamp(b*logPos(a), p.ExpClamp))
	return math.FMA(s, e, s)
}

// The lanes each polynomial does not cover.

func trigSpecial(x float64) bool { return !(math.Abs(x) < p.TrigLimit) }
func isNaN(x float64) bool       { return x != x }
func logSpecial(x float64) bool  { return !(x > 0 && x < math.Inf(1)) }
func log1pSpecial(x float64) bool {
	return !(x > -1 && x < math.Inf(1))
}
func powSpecial(a, b float64) bool {
	return !(a > 0 && a < math.Inf(1) && math.Abs(b) < math.Inf(1))
}

// The float64 references: the math package, as the evaluator computes.

func rsqrt(x float64) float64    { return 1 / math.Sqrt(x) }
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
