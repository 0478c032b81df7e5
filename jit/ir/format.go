package ir

import (
	"math"
	"strconv"
	"strings"
)

// numpy's default print options (np.get_printoptions()).
const (
	npLineWidth = 75   // linewidth
	npPrecision = 8    // precision
	npThreshold = 1000 // arrays with more elements are summarised
	npEdgeItems = 3    // items shown at each end of a summarised axis
)

// String formats the buffer as numpy's (≥ 2.3) str(np.asarray(x)) does
// with the default print options: scalars as 2.0 / 3 / True; arrays in
// brackets with elements padded to a common width ([0.  0.5 1. ], [1 2 3],
// [ True False]), one row per line for 2-D arrays, [] when empty, lines
// wrapped at 75 columns, and arrays of more than 1000 elements summarised
// with "..." keeping 3 items at each end of every axis. Floats print the
// shortest digits that identify the value at the buffer's precision, at most
// 8 after the point, switching all elements to scientific notation when a
// nonzero magnitude is below 1e-4 or at least 1e8 (float64), 1e6 (float32)
// or 1e3 (float16), or the largest is more than 1000 times the smallest.
// bfloat16 elements print unpadded with six significant digits, as numpy
// prints ml_dtypes values.
func (b *Buffer) String() string {
	if len(b.Shape) == 0 {
		return b.scalarString()
	}
	if b.Len() == 0 {
		return "[]"
	}
	af := &arrayFormatter{b: b, summarize: b.Len() > npThreshold}
	af.strides = make([]int, len(b.Shape))
	stride := 1
	for i := len(b.Shape) - 1; i >= 0; i-- {
		af.strides[i] = stride
		stride *= b.Shape[i]
	}
	af.elem = af.elementFormatter(af.shownOffsets(0, 0, nil))
	return af.recurse(0, 0, " ", npLineWidth)
}

// scalarString formats a 0-d buffer as str() of the numpy scalar.
func (b *Buffer) scalarString() string {
	switch d := b.Data.(type) {
	case []bool:
		if d[0] {
			return "True"
		}
		return "False"
	case []int32:
		return strconv.FormatInt(int64(d[0]), 10)
	case []int64:
		return strconv.FormatInt(d[0], 10)
	}
	v := b.At(0)
	if b.DType == BFloat16 {
		return cppFloatString(float32(v))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return pyRepr(v, 64)
	}
	digits, exp, neg := dtypeDigits(v, b.DType)
	s := ""
	if neg {
		s = "-"
	}
	if v == 0 || (math.Abs(v) >= 1e-4 && math.Abs(v) < maxPositional(b.DType, 1e16)) {
		return s + positional(digits, exp)
	}
	s += digits[:1]
	if len(digits) > 1 {
		s += "." + digits[1:]
	}
	return s + expSuffix(exp, 2)
}

// maxPositional is the magnitude from which numpy (≥ 2.3) prints values of
// dtype dt in scientific notation: 1e3 for float16, 1e6 for float32, and
// limit64 for float64 (1e16 for scalars, 1e8 in arrays).
func maxPositional(dt DType, limit64 float64) float64 {
	switch dt {
	case Float16:
		return 1e3
	case Float32:
		return 1e6
	}
	return limit64
}

// arrayFormatter lays out an n-d buffer like numpy's _formatArray.
type arrayFormatter struct {
	b         *Buffer
	strides   []int
	summarize bool
	elem      func(off int) string
}

// shown returns the indices of an axis of length n that are printed: all,
// or the first and last npEdgeItems when summarising.
func (af *arrayFormatter) shown(n int) []int {
	if !af.summarize || n <= 2*npEdgeItems {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	idx := make([]int, 0, 2*npEdgeItems)
	for i := range npEdgeItems {
		idx = append(idx, i)
	}
	for i := n - npEdgeItems; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

// shownOffsets appends the flat offsets of every printed element.
func (af *arrayFormatter) shownOffsets(axis, base int, out []int) []int {
	if axis == len(af.b.Shape) {
		return append(out, base)
	}
	for _, i := range af.shown(af.b.Shape[axis]) {
		out = af.shownOffsets(axis+1, base+i*af.strides[axis], out)
	}
	return out
}

// recurse formats the sub-array at flat offset base starting at axis, as
// numpy's recurser(index, hanging_indent, curr_width).
func (af *arrayFormatter) recurse(axis, base int, hanging string, width int) string {
	n := af.b.Shape[axis]
	axesLeft := len(af.b.Shape) - axis
	nextHanging := hanging + " "
	nextWidth := width - 1
	summary := af.summarize && n > 2*npEdgeItems
	lead, trail := 0, n
	if summary {
		lead, trail = npEdgeItems, npEdgeItems
	}
	item := func(i int) string {
		off := base + i*af.strides[axis]
		if axesLeft == 1 {
			return af.elem(off)
		}
		return af.recurse(axis+1, off, nextHanging, nextWidth)
	}
	var s strings.Builder
	if axesLeft == 1 {
		elemWidth := width - 1
		line := hanging
		add := func(word string) {
			if len(line)+len(word) > elemWidth && len(line) > len(hanging) {
				s.WriteString(strings.TrimRight(line, " ") + "\n")
				line = hanging
			}
			line += word
		}
		for i := range lead {
			add(item(i))
			line += " "
		}
		if summary {
			add("...")
			line += " "
		}
		for i := trail; i > 1; i-- {
			add(item(n - i))
			line += " "
		}
		add(item(n - 1))
		s.WriteString(line)
	} else {
		sep := strings.Repeat("\n", axesLeft-1)
		for i := range lead {
			s.WriteString(hanging + item(i) + sep)
		}
		if summary {
			s.WriteString(hanging + "..." + sep)
		}
		for i := trail; i > 1; i-- {
			s.WriteString(hanging + item(n-i) + sep)
		}
		s.WriteString(hanging + item(n-1))
	}
	return "[" + s.String()[len(hanging):] + "]"
}

// elementFormatter returns the formatter of single elements, fitted (like
// numpy's FloatingFormat / IntegerFormat / BoolFormat) to the printed
// elements at offs.
func (af *arrayFormatter) elementFormatter(offs []int) func(int) string {
	switch d := af.b.Data.(type) {
	case []bool:
		return func(off int) string {
			if d[off] {
				return " True"
			}
			return "False"
		}
	case []int32:
		return intFormatter(offs, func(off int) int64 { return int64(d[off]) })
	case []int64:
		return intFormatter(offs, func(off int) int64 { return d[off] })
	}
	if af.b.DType == BFloat16 {
		// ml_dtypes' bfloat16 is not a numpy floating type: numpy prints
		// each element with repr() (C++ ostream), unpadded.
		return func(off int) string { return cppFloatString(float32(af.b.At(off))) }
	}
	vals := make([]float64, len(offs))
	for i, off := range offs {
		vals[i] = af.b.At(off)
	}
	ff := newFloatFormat(vals, af.b.DType)
	return func(off int) string { return ff.format(af.b.At(off)) }
}

// intFormatter right-aligns integers to the width of the widest printed one.
func intFormatter(offs []int, at func(int) int64) func(int) string {
	width := 0
	for _, off := range offs {
		width = max(width, len(strconv.FormatInt(at(off), 10)))
	}
	return func(off int) string {
		s := strconv.FormatInt(at(off), 10)
		return strings.Repeat(" ", width-len(s)) + s
	}
}

// floatFormat is numpy's FloatingFormat in its default 'maxprec' mode,
// fitted to a set of values: every element is padded to the same integer and
// fraction widths (or, in scientific mode, the same number of fraction and
// exponent digits).
type floatFormat struct {
	dt                DType
	sci               bool
	padLeft, padRight int
	precision         int // scientific mode: fraction digits of every element
	expDigits         int // scientific mode: exponent digits of every element
}

// newFloatFormat fits the format to the printed values (numpy's fillFormat).
func newFloatFormat(vals []float64, dt DType) *floatFormat {
	ff := &floatFormat{dt: dt}
	var finite []float64
	minAbs, maxAbs := math.Inf(1), 0.0
	negInf := false
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			negInf = negInf || math.IsInf(v, -1)
			continue
		}
		finite = append(finite, v)
		if a := math.Abs(v); a != 0 {
			minAbs, maxAbs = min(minAbs, a), max(maxAbs, a)
		}
	}
	if maxAbs > 0 {
		ratio := maxAbs / minAbs
		if dt != Float64 {
			ratio = float64(float32(maxAbs) / float32(minAbs))
		}
		ff.sci = maxAbs >= maxPositional(dt, 1e8) || minAbs < 1e-4 || ratio > 1000
	}
	for _, v := range finite {
		if ff.sci {
			intPart, frac, exp := ff.scientific(v)
			ff.padLeft = max(ff.padLeft, len(intPart))
			ff.precision = max(ff.precision, len(frac))
			ff.expDigits = max(ff.expDigits, len(exp))
		} else {
			intPart, frac := ff.positional(v)
			ff.padLeft = max(ff.padLeft, len(intPart))
			ff.padRight = max(ff.padRight, len(frac))
		}
	}
	if ff.sci && len(finite) > 0 {
		ff.padRight = ff.expDigits + 1 + ff.precision
	}
	if len(finite) < len(vals) {
		offset := ff.padRight + 1
		extra := 0
		if negInf {
			extra = 1
		}
		ff.padLeft = max(ff.padLeft, len("nan")-offset, len("inf")+extra-offset)
	}
	return ff
}

// format formats one element with the fitted widths.
func (ff *floatFormat) format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		s := pyRepr(v, 64)
		return strings.Repeat(" ", max(0, ff.padLeft+ff.padRight+1-len(s))) + s
	}
	if ff.sci {
		intPart, frac, exp := ff.scientific(v)
		frac += strings.Repeat("0", ff.precision-len(frac))
		sign := exp[:1]
		exp = exp[1:]
		exp = strings.Repeat("0", max(0, ff.expDigits-1-len(exp))) + exp
		return pad(intPart, ff.padLeft) + "." + frac + "e" + sign + exp
	}
	intPart, frac := ff.positional(v)
	return pad(intPart, ff.padLeft) + "." + frac + strings.Repeat(" ", ff.padRight-len(frac))
}

// pad right-aligns s in width columns.
func pad(s string, width int) string {
	return strings.Repeat(" ", max(0, width-len(s))) + s
}

// positional returns the integer and fraction digits of v's shortest
// representation, rounded to at most npPrecision fraction digits, trailing
// zeros removed (numpy's dragon4_positional, unique, trim='.').
func (ff *floatFormat) positional(v float64) (intPart, frac string) {
	digits, exp, neg := dtypeDigits(v, ff.dt)
	var s string
	if len(digits)-(exp+1) > npPrecision {
		s = strconv.FormatFloat(math.Abs(v), 'f', npPrecision, 64)
	} else {
		s = positional(digits, exp)
	}
	intPart, frac, _ = strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	if neg {
		intPart = "-" + intPart
	}
	return intPart, frac
}

// scientific returns the integer digit, fraction digits (at most
// npPrecision, trailing zeros removed) and signed exponent ("+05", "-12") of
// v's shortest representation (numpy's dragon4_scientific, unique, trim='.').
func (ff *floatFormat) scientific(v float64) (intPart, frac, exp string) {
	digits, e, neg := dtypeDigits(v, ff.dt)
	if len(digits)-1 > npPrecision {
		digits, e, _ = shortestDigits(roundSig(math.Abs(v), npPrecision+1), 64)
	}
	intPart, frac = digits[:1], strings.TrimRight(digits[1:], "0")
	if neg {
		intPart = "-" + intPart
	}
	return intPart, frac, expSuffix(e, 2)[1:]
}

// roundSig rounds v to n significant decimal digits.
func roundSig(v float64, n int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', n-1, 64), 64)
	return r
}

// dtypeDigits returns the shortest decimal digits that identify v among the
// values of dtype dt, the decimal exponent of the first digit, and the sign.
func dtypeDigits(v float64, dt DType) (digits string, exp int, neg bool) {
	switch dt {
	case Float32:
		return shortestDigits(v, 32)
	case Float16, BFloat16:
		want := float32(v)
		for p := 1; p < 17; p++ {
			s := strconv.FormatFloat(v, 'e', p-1, 64)
			if r, err := strconv.ParseFloat(s, 64); err == nil && RoundTo(dt, r) == want {
				return shortestDigits(r, 64)
			}
		}
	}
	return shortestDigits(v, 64)
}
