package ir

import (
	"math"
	"strconv"
	"strings"
)

// String prints the literal as JAX ≥ 0.7.2 prints it in a jaxpr: the value
// text followed by its type, e.g. 3.0:f32[], 0.009999999776482582:f32[],
// 1:i32[], True:bool[].
func (l Literal) String() string {
	return l.ValueString() + ":" + l.Aval.String()
}

// ValueString is the literal's value as Python's str(np.asarray(v).item())
// prints it for the literal's dtype: float32 and float16 values print the
// shortest repr of their exact double value (0.01 as float32 prints
// 0.009999999776482582), float64 the shortest repr of the value, integers in
// decimal, bools as True/False. bfloat16 values print like ml_dtypes' str
// (C++ ostream, six significant digits).
func (l Literal) ValueString() string {
	v := l.Value
	switch l.Aval.DType {
	case Bool:
		if v != 0 {
			return "True"
		}
		return "False"
	case Int32, Int64:
		return strconv.FormatInt(int64(v), 10)
	case Float32:
		return PyFloatRepr(float64(float32(v)))
	case Float16:
		return PyFloatRepr(float64(RoundF16(float32(v))))
	case BFloat16:
		return cppFloatString(RoundBF16(float32(v)))
	}
	return PyFloatRepr(v)
}

// PyFloatRepr formats f as Python's repr(float) does: the shortest digits
// that round-trip, positional for exponents in [-4, 16), scientific with a
// signed, at least two-digit exponent otherwise (1e-05, 1e+16), always with a
// decimal point or exponent (3.0), and inf, -inf, nan.
func PyFloatRepr(f float64) string {
	return pyRepr(f, 64)
}

// pyRepr formats f (a value of the given bit size, 32 or 64) with Python's
// repr layout and the shortest digits that identify it at that bit size.
func pyRepr(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	digits, exp, neg := shortestDigits(f, bitSize)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if exp >= -4 && exp < 16 {
		b.WriteString(positional(digits, exp))
		return b.String()
	}
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	b.WriteString(expSuffix(exp, 2))
	return b.String()
}

// shortestDigits returns the shortest decimal digits d1d2... identifying f at
// the given bit size, the decimal exponent of d1, and the sign.
func shortestDigits(f float64, bitSize int) (digits string, exp int, neg bool) {
	s := strconv.FormatFloat(f, 'e', -1, bitSize)
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	mant, e, _ := strings.Cut(s, "e")
	exp, _ = strconv.Atoi(e)
	return strings.Replace(mant, ".", "", 1), exp, neg
}

// positional writes digits d1d2... with d1 at decimal exponent exp in
// positional notation with at least one digit after the point (12.0, 0.001).
func positional(digits string, exp int) string {
	switch {
	case exp < 0:
		return "0." + strings.Repeat("0", -exp-1) + digits
	case exp+1 >= len(digits):
		return digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return digits[:exp+1] + "." + digits[exp+1:]
}

// expSuffix formats a decimal exponent as e+05 / e-12 with at least min digits.
func expSuffix(exp, min int) string {
	sign := "+"
	if exp < 0 {
		sign = "-"
		exp = -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < min {
		e = strings.Repeat("0", min-len(e)) + e
	}
	return "e" + sign + e
}

// cppFloatString formats f as C++'s ostream << float does by default
// (printf %g with six significant digits): 3, 0.0100098, 1e+06, nan, -inf.
func cppFloatString(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "nan"
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	}
	return strconv.FormatFloat(float64(f), 'g', 6, 64)
}
