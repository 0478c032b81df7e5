package gpu

import (
	"math"

	"github.com/jitlint/jitlint/jit/ir"
)

// Transcendental functions. Every f32 function is evaluated in f64 (the
// input converted exactly, one rounding back to f32 at the end), with
// Cody–Waite argument reduction and polynomials whose truncation error is
// below 1e-14 relative, so the f32 results are within 1 ulp of the true value
// (measured by TestTranscendentalULP through the PTX interpreter). sin, cos and
// tan reduce by pi/2 split into three doubles (Cody–Waite), which is exact
// enough while x*2/pi < 2^50; f32 arguments from 2^40 up take a Payne–Hanek
// reduction instead, so they are right over the whole f32 range. (f64
// arguments beyond 1.7e15 are not reduced correctly.)

// d is an f64 immediate.
func d(v float64) string { return immediate(ir.Float64, v) }

// fd returns a fresh f64 register.
func (k *kernel) fd() string { return k.reg("%fd") }

// f64op emits "op.f64 dst, args..." into a fresh register and returns it.
func (k *kernel) f64op(op string, args ...string) string {
	r := k.fd()
	line := op + " " + r
	for _, a := range args {
		line += ", " + a
	}
	k.op("%s", line)
	return r
}

// horner evaluates sum c[i]*x^(n-1-i) (highest degree first) with fma.
func (k *kernel) horner(x string, c []float64) string {
	p := k.f64op("mov.f64", d(c[0]))
	for _, ci := range c[1:] {
		p = k.f64op("fma.rn.f64", p, x, d(ci))
	}
	return p
}

// pickF64 returns cond ? a : b.
func (k *kernel) pickF64(cond, a, b string) string {
	return k.f64op("selp.f64", a, b, cond)
}

// setp emits a comparison into a fresh predicate.
func (k *kernel) setp(cmp, typ, a, b string) string {
	p := k.reg("%p")
	k.op("setp.%s%s %s, %s, %s", cmp, typ, p, a, b)
	return p
}

// taylor returns the Taylor coefficients 1/n! for n = hi down to lo by step
// (1 for exp, 2 for sin/cos), signed (-1)^(n/2) when alt is set (sin, cos).
func taylor(hi, lo, step int, alt bool) []float64 {
	var c []float64
	for n := hi; n >= lo; n -= step {
		f := 1.0
		for i := 2; i <= n; i++ {
			f *= float64(i)
		}
		v := 1 / f
		if alt && (n/2)%2 == 1 {
			v = -v
		}
		c = append(c, v)
	}
	return c
}

const (
	log2e  = 1.4426950408889634
	ln2Hi  = 6.93147180369123816490e-01 // 0x3FE62E42FEE00000, 21 trailing zero bits
	ln2Lo  = 1.9082149292705877e-10
	ln2    = 0.6931471805599453
	twoPi  = 0.6366197723675814 // 2/pi
	pio2a  = 1.5707963267948966
	pio2b  = 6.123233995736766e-17
	pio2c  = -1.4973849048591698e-33 // 0xB91F1976B7ED8FBC
	sqrt2  = 1.4142135623730951
	tanhHi = 20.0 // tanh(x) rounds to 1 in f64 beyond this
)

// exp64 returns e^x for an f64 register: n = rint(x/ln2), r = x - n*ln2
// (two-part), e^r by Taylor to degree 11 (|r| <= 0.347), scaled by 2^n built
// from exponent bits in two halves so overflow and underflow round properly.
func (k *kernel) exp64(x string) string {
	xc := k.f64op("max.f64", x, d(-1000))
	xc = k.f64op("min.f64", xc, d(1000))
	t := k.f64op("mul.rn.f64", xc, d(log2e))
	n := k.f64op("cvt.rni.f64.f64", t)
	nn := k.f64op("neg.f64", n)
	r := k.f64op("fma.rn.f64", nn, d(ln2Hi), xc)
	r = k.f64op("fma.rn.f64", nn, d(ln2Lo), r)
	p := k.horner(r, taylor(11, 0, 1, false))
	ni, n1, n2 := k.reg("%r"), k.reg("%r"), k.reg("%r")
	k.op("cvt.rni.s32.f64 %s, %s", ni, n)
	k.op("shr.s32 %s, %s, 1", n1, ni)
	k.op("sub.s32 %s, %s, %s", n2, ni, n1)
	for _, h := range []string{n1, n2} {
		e, s := k.reg("%rd"), k.fd()
		k.op("cvt.s64.s32 %s, %s", e, h)
		k.op("add.s64 %s, %s, 1023", e, e)
		k.op("shl.b64 %s, %s, 52", e, e)
		k.op("mov.b64 %s, %s", s, e)
		p = k.f64op("mul.rn.f64", p, s)
	}
	return k.pickF64(k.setp("nan", ".f64", x, x), x, p)
}

// log64 returns ln x: x = m*2^e with m in [sqrt(1/2), sqrt(2)),
// ln m = 2s + 2s^3/3 + ... with s = (m-1)/(m+1), then e*ln2 added in two
// parts. Zero, negative, infinite and NaN inputs follow IEEE.
func (k *kernel) log64(x string) string {
	tiny := k.setp("lt", ".f64", x, d(0x1p-1022))
	scaled := k.f64op("mul.rn.f64", x, d(0x1p54))
	xs := k.pickF64(tiny, scaled, x)
	bits, e64, m64 := k.reg("%rd"), k.reg("%rd"), k.reg("%rd")
	k.op("mov.b64 %s, %s", bits, xs)
	k.op("shr.u64 %s, %s, 52", e64, bits)
	k.op("and.b64 %s, %s, 4503599627370495", m64, bits)  // 0x000FFFFFFFFFFFFF
	k.op("or.b64 %s, %s, 4607182418800017408", m64, m64) // 0x3FF0000000000000
	e := k.f64op("cvt.rn.f64.s64", e64)
	e = k.f64op("sub.rn.f64", e, d(1023))
	e = k.f64op("sub.rn.f64", e, k.pickF64(tiny, d(54), d(0)))
	m := k.fd()
	k.op("mov.b64 %s, %s", m, m64)
	big := k.setp("gt", ".f64", m, d(sqrt2))
	m = k.pickF64(big, k.f64op("mul.rn.f64", m, d(0.5)), m)
	e = k.pickF64(big, k.f64op("add.rn.f64", e, d(1)), e)
	f := k.f64op("sub.rn.f64", m, d(1))
	s := k.f64op("div.rn.f64", f, k.f64op("add.rn.f64", m, d(1)))
	z := k.f64op("mul.rn.f64", s, s)
	var c []float64
	for j := 8; j >= 1; j-- {
		c = append(c, 2/float64(2*j+1))
	}
	rz := k.f64op("mul.rn.f64", k.horner(z, c), z)
	ls := k.f64op("fma.rn.f64", s, rz, k.f64op("add.rn.f64", s, s))
	res := k.f64op("fma.rn.f64", e, d(ln2Lo), ls)
	res = k.f64op("fma.rn.f64", e, d(ln2Hi), res)
	res = k.pickF64(k.setp("eq", ".f64", x, d(math.Inf(1))), x, res)
	res = k.pickF64(k.setp("eq", ".f64", x, d(0)), d(math.Inf(-1)), res)
	res = k.pickF64(k.setp("lt", ".f64", x, d(0)), d(math.NaN()), res)
	return k.pickF64(k.setp("nan", ".f64", x, x), x, res)
}

// sincos64 returns sin x and cos x: k = rint(x*2/pi), r = x - k*pi/2 with
// pi/2 in three parts (fma), Taylor polynomials on |r| <= pi/4, and the
// quadrant k mod 4 selecting and negating them. When x came from an f32
// (fromF32) and 2^40 <= |x| < inf, a branch takes the Payne–Hanek reduction
// (payneHanek) instead, so every f32 argument is reduced exactly enough.
func (k *kernel) sincos64(x string, fromF32 bool) (sin, cos string) {
	q := k.f64op("cvt.rni.f64.f64", k.f64op("mul.rn.f64", x, d(twoPi)))
	nq := k.f64op("neg.f64", q)
	r := k.f64op("fma.rn.f64", nq, d(pio2a), x)
	r = k.f64op("fma.rn.f64", nq, d(pio2b), r)
	r = k.f64op("fma.rn.f64", nq, d(pio2c), r)
	// quadrant = q - 4*floor(q/4), exact while |q| < 2^53.
	fl := k.f64op("cvt.rmi.f64.f64", k.f64op("mul.rn.f64", q, d(0.25)))
	qm := k.f64op("fma.rn.f64", fl, d(-4), q)
	qi := k.reg("%r")
	k.op("cvt.rzi.s32.f64 %s, %s", qi, qm)
	if fromF32 {
		skip := k.label()
		ax := k.f64op("abs.f64", x)
		huge := k.setp("ge", ".f64", ax, d(0x1p40)) // false for NaN
		k.op("and.pred %s, %s, %s", huge, huge, k.setp("lt", ".f64", ax, d(math.Inf(1))))
		k.op("@!%s bra %s", huge, skip)
		rh, qh := k.payneHanek(x)
		k.op("mov.f64 %s, %s", r, rh)
		k.op("mov.u32 %s, %s", qi, qh)
		k.mark(skip)
	}
	r2 := k.f64op("mul.rn.f64", r, r)
	s := k.f64op("mul.rn.f64", k.f64op("mul.rn.f64", k.horner(r2, taylor(15, 3, 2, true)), r2), r)
	s = k.f64op("add.rn.f64", s, r)
	c := k.horner(r2, taylor(16, 0, 2, true))
	b0, b1 := k.reg("%r"), k.reg("%r")
	k.op("and.b32 %s, %s, 1", b0, qi)
	k.op("and.b32 %s, %s, 2", b1, qi)
	odd := k.setp("ne", ".s32", b0, "0")
	swapS, swapC := k.pickF64(odd, c, s), k.pickF64(odd, s, c)
	// sin negates in quadrants 2,3; cos in quadrants 1,2.
	negS := k.setp("ne", ".s32", b1, "0")
	b01 := k.reg("%r")
	k.op("xor.b32 %s, %s, %s", b01, b0, k.shr1(b1))
	negC := k.setp("ne", ".s32", b01, "0")
	sin = k.pickF64(negS, k.f64op("neg.f64", swapS), swapS)
	cos = k.pickF64(negC, k.f64op("neg.f64", swapC), swapC)
	return sin, cos
}

// twoOverPi holds the bits of 2/pi in 24-bit chunks, most significant first.
var twoOverPi = []uint32{0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB}

// payneHanek reduces an f32 value x (held exactly in an f64 register, |x| >=
// 2^23) by pi/2: with |x| = m*2^E (m the 24-bit significand), x*2/pi mod 4 is
// the sum of m*c_i*2^(E-24(i+1)) over the 24-bit chunks c_i of 2/pi, taken
// in 64-bit fixed point with 62 fraction bits, where the wrap-around of u64
// addition is exactly the mod 4. It returns r (f64, |r| <= pi/4) and the
// quadrant (0..3).
func (k *kernel) payneHanek(x string) (r, quadrant string) {
	f, bits, e, m := k.reg("%f"), k.reg("%r"), k.reg("%r"), k.reg("%r")
	k.op("cvt.rn.f32.f64 %s, %s", f, x)
	k.op("mov.b32 %s, %s", bits, f)
	k.op("shr.u32 %s, %s, 23", e, bits)
	k.op("and.b32 %s, %s, 255", e, e)
	k.op("and.b32 %s, %s, 8388607", m, bits) // 0x7FFFFF
	k.op("or.b32 %s, %s, 8388608", m, m)     // implicit 1
	// sh_i = E - 24(i+1) + 62 with E = e - 150: the left shift of term i.
	sum := k.reg("%rd")
	k.op("mov.u64 %s, 0", sum)
	for i, c := range twoOverPi {
		p, sh, neg, l, rt, lt, t := k.reg("%rd"), k.reg("%r"), k.reg("%r"), k.reg("%r"), k.reg("%r"), k.reg("%rd"), k.reg("%rd")
		k.op("mul.wide.u32 %s, %s, %d", p, m, c)
		k.op("add.s32 %s, %s, %d", sh, e, -150-24*(i+1)+62)
		k.op("neg.s32 %s, %s", neg, sh)
		k.op("max.s32 %s, %s, 0", l, sh)
		k.op("max.s32 %s, %s, 0", rt, neg)
		k.op("shl.b64 %s, %s, %s", lt, p, l) // shifts of 64 or more give 0
		k.op("shr.u64 %s, %s, %s", t, p, rt)
		k.op("selp.b64 %s, %s, %s, %s", t, lt, t, k.setp("ge", ".s32", sh, "0"))
		k.op("add.u64 %s, %s, %s", sum, sum, t)
	}
	// Round to the nearest quadrant: q = top two bits (+1 when the fraction
	// is >= 1/2, which then becomes negative).
	q64, frac, q := k.reg("%rd"), k.reg("%rd"), k.reg("%r")
	k.op("shr.u64 %s, %s, 62", q64, sum)
	k.op("and.b64 %s, %s, 4611686018427387903", frac, sum)  // 2^62-1
	up := k.setp("ge", ".u64", frac, "2305843009213693952") // 2^61
	fneg := k.reg("%rd")
	k.op("sub.s64 %s, %s, 4611686018427387904", fneg, frac)
	k.op("selp.b64 %s, %s, %s, %s", frac, fneg, frac, up)
	k.op("cvt.u32.u64 %s, %s", q, q64)
	inc := k.reg("%r")
	k.op("selp.u32 %s, 1, 0, %s", inc, up)
	k.op("add.s32 %s, %s, %s", q, q, inc)
	r = k.f64op("cvt.rn.f64.s64", frac)
	r = k.f64op("mul.rn.f64", r, d(0x1p-62*pio2a))
	// Negative x: sin(-a) = -sin(a), i.e. r -> -r and q -> -q (mod 4).
	neg := k.setp("lt", ".f64", x, d(0))
	r = k.pickF64(neg, k.f64op("neg.f64", r), r)
	nq := k.reg("%r")
	k.op("neg.s32 %s, %s", nq, q)
	k.op("selp.b32 %s, %s, %s, %s", q, nq, q, neg)
	k.op("and.b32 %s, %s, 3", q, q)
	return r, q
}

// shr1 returns a 32-bit register shifted right by one.
func (k *kernel) shr1(a string) string {
	r := k.reg("%r")
	k.op("shr.u32 %s, %s, 1", r, a)
	return r
}

// expm164 returns e^x - 1, by Taylor to degree 14 for |x| < 0.5 (no
// cancellation) and exp64(x) - 1 elsewhere.
func (k *kernel) expm164(x string) string {
	p := k.f64op("mul.rn.f64", k.horner(x, taylor(14, 1, 1, false)), x)
	big := k.f64op("sub.rn.f64", k.exp64(x), d(1))
	small := k.setp("lt", ".f64", k.f64op("abs.f64", x), d(0.5))
	return k.pickF64(small, p, big)
}

// log1p64 returns ln(1+x) as log(u)*x/(u-1) with u = 1+x, which cancels the
// rounding of u; x itself when u rounds to 1.
func (k *kernel) log1p64(x string) string {
	u := k.f64op("add.rn.f64", x, d(1))
	um1 := k.f64op("sub.rn.f64", u, d(1))
	l := k.f64op("mul.rn.f64", k.log64(u), k.f64op("div.rn.f64", x, um1))
	l = k.pickF64(k.setp("eq", ".f64", x, d(math.Inf(1))), x, l)
	l = k.pickF64(k.setp("eq", ".f64", x, d(-1)), d(math.Inf(-1)), l)
	return k.pickF64(k.setp("eq", ".f64", u, d(1)), x, l)
}

// tanh64 returns tanh x = sign(x) * t/(t+2) with t = expm1(2|x|); ±1 past 20.
func (k *kernel) tanh64(x string) string {
	a := k.f64op("abs.f64", x)
	t := k.expm164(k.f64op("add.rn.f64", a, a))
	r := k.f64op("div.rn.f64", t, k.f64op("add.rn.f64", t, d(2)))
	r = k.pickF64(k.setp("gt", ".f64", a, d(tanhHi)), d(1), r)
	r = k.pickF64(k.setp("lt", ".f64", x, d(0)), k.f64op("neg.f64", r), r)
	return k.pickF64(k.setp("nan", ".f64", x, x), x, r)
}

// pow64 returns x^y = exp(y*ln|x|), negated for negative x and odd integer
// y, NaN for negative x and non-integer y, and 1 for y = 0.
func (k *kernel) pow64(x, y string) string {
	r := k.exp64(k.f64op("mul.rn.f64", y, k.log64(k.f64op("abs.f64", x))))
	ty := k.f64op("cvt.rzi.f64.f64", y)
	yint := k.setp("eq", ".f64", ty, y)
	half := k.f64op("mul.rn.f64", y, d(0.5))
	odd := k.setp("ne", ".f64", k.f64op("cvt.rzi.f64.f64", half), half)
	neg := k.setp("lt", ".f64", x, d(0))
	negOdd, negFrac := k.reg("%p"), k.reg("%p")
	k.op("and.pred %s, %s, %s", negOdd, neg, odd)
	k.op("and.pred %s, %s, %s", negOdd, negOdd, yint)
	k.op("and.pred %s, %s, %s", negFrac, neg, k.notPred(yint))
	r = k.pickF64(negOdd, k.f64op("neg.f64", r), r)
	r = k.pickF64(negFrac, d(math.NaN()), r)
	return k.pickF64(k.setp("eq", ".f64", y, d(0)), d(1), r)
}

// transcendental applies prim (sin cos tan tanh exp log log1p expm1
// logistic rsqrt) to a float value, computing in f64.
func (k *kernel) transcendental(prim string, v value) value {
	x := v.reg
	if v.t == ir.Float32 {
		x = k.f64op("cvt.f64.f32", v.reg)
	}
	var r string
	switch prim {
	case ir.Sin:
		r, _ = k.sincosOf(v, x)
	case ir.Cos:
		_, r = k.sincosOf(v, x)
	case ir.Tan:
		s, c := k.sincosOf(v, x)
		r = k.f64op("div.rn.f64", s, c)
	case ir.Tanh:
		r = k.tanh64(x)
	case ir.Exp:
		r = k.exp64(x)
	case ir.Log:
		r = k.log64(x)
	case ir.Log1p:
		r = k.log1p64(x)
	case ir.Expm1:
		r = k.expm164(x)
	case ir.Logistic:
		e := k.exp64(k.f64op("neg.f64", x))
		r = k.f64op("rcp.rn.f64", k.f64op("add.rn.f64", e, d(1)))
	case ir.Rsqrt:
		r = k.f64op("rcp.rn.f64", k.f64op("sqrt.rn.f64", x))
	}
	return k.fromF64(r, v.t)
}

// sincosOf returns sin and cos of value v (x is v in f64), reusing the
// registers of an earlier sin/cos/tan of the same value in this kernel
// (heavy's sin(y)*cos(y) reduces y once).
func (k *kernel) sincosOf(v value, x string) (string, string) {
	if sc, ok := k.sincos[v.reg]; ok {
		return sc[0], sc[1]
	}
	s, c := k.sincos64(x, v.t == ir.Float32)
	if k.sincos == nil {
		k.sincos = map[string][2]string{}
	}
	k.sincos[v.reg] = [2]string{s, c}
	return s, c
}

// fromF64 rounds an f64 register to dtype t (f32 or f64).
func (k *kernel) fromF64(r string, t ir.DType) value {
	if t == ir.Float32 {
		f := k.reg("%f")
		k.op("cvt.rn.f32.f64 %s, %s", f, r)
		return value{f, t}
	}
	return value{r, t}
}
