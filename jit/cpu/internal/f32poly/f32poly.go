// Package f32poly holds the constants of the CPU backend's float32
// transcendental kernels: range-reduction splits and polynomial
// coefficients. The pure-Go kernels in jit/cpu and the assembly generator
// (jit/cpu/internal/asmgen) both read them from here, so the two paths
// evaluate the very same float64 operations.
//
// Every kernel evaluates in float64 and rounds once to float32; the
// polynomials are Taylor series truncated where the relative error is
// below 2^-33, so the result is within 0.5 + 2^-9 ulp of the true value.
package f32poly

// MagicRound is 1.5·2^52: adding it to |v| < 2^51 rounds v to an integer
// held in the low mantissa bits.
const MagicRound = 0x1.8p52

// Trigonometric reduction: k = round(|x|·2/π), r = |x| - k·(PiO2A+PiO2B+PiO2C).
const (
	TwoOverPi = 0.6366197723675814
	PiO2A     = 1.5707963267948966
	PiO2B     = 6.123233995736766e-17
	PiO2C     = -1.4973849048591698e-33
	// TrigLimit bounds |x| for the reduction above: the first FMA is
	// exact for every float32 below it and k stays far below 2^51. Larger
	// arguments, infinities and NaN take the float64 math package.
	TrigLimit = 0x1p29
)

// Exponential reduction: k = round(x/ln2), r = x - k·(Ln2Hi+Ln2Lo).
const (
	InvLn2 = 1.4426950408889634
	Ln2Hi  = 0.6931471805599453
	Ln2Lo  = 2.3190468138462996e-17
	// ExpClamp bounds the argument of exp and expm1 (beyond it the float32
	// result is 0, -1 or +Inf anyway).
	ExpClamp = 128
	// TanhClamp bounds |x| for tanh (tanh(9.5) rounds to 1 in float32).
	TanhClamp = 9.5
	// Tiny bounds |x| below which expm1(x) and log1p(x) round to x (their
	// relative distance from x is below 2^-30, and 1+x is exact in float64 above it).
	Tiny = 0x1p-29
)

// LogOffset is the bit pattern of √½: log splits x = z·2^e with z in
// [√½, √2).
const LogOffset = 0x3fe6a09e667f3bcd

// Sin holds S1..S5: sin(r) = r + r³·(S1 + S2·r² + … + S5·r⁸), |r| ≤ π/4.
var Sin = []float64{-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800}

// Cos holds C1..C6: cos(r) = 1 + r²·(C1 + C2·r² + … + C6·r¹⁰), |r| ≤ π/4.
var Cos = []float64{-1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800, 1.0 / 479001600}

// Expm1 holds E2..E9: e^r - 1 = r + r²·(E2 + E3·r + … + E9·r⁷), |r| ≤ ln2/2.
var Expm1 = []float64{1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320, 1.0 / 362880}

// Log holds L1..L6: log(z) = 2s + 2s·w·(L1 + L2·w + … + L6·w⁵) with
// s = (z-1)/(z+1), w = s², z in [√½, √2).
var Log = []float64{1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11, 1.0 / 13}
