package ptxsim

import (
	"fmt"
	"math"
	"strings"
)

// compute returns the semantics of a register-to-register instruction whose
// opcode is split into parts (e.g. ["add","rn","f32"]).
func compute(parts []string, n int) (func(v []uint64) uint64, error) {
	base, typ := parts[0], parts[len(parts)-1]
	mods := strings.Join(parts[1:len(parts)-1], ".")
	bad := fmt.Errorf("unsupported instruction %s", strings.Join(parts, "."))
	isF := typ == "f32" || typ == "f64"
	rd := func(v uint64) float64 {
		if typ == "f32" {
			return f32(v)
		}
		return f64(v)
	}
	wr := func(x float64) uint64 {
		if typ == "f32" {
			return pf32(x)
		}
		return pf64(x)
	}
	signed := typ[0] == 's'
	bits := typeBits(typ)
	ival := func(v uint64) int64 { // sign- or zero-extend to 64 bits
		switch {
		case bits == 64:
			return int64(v)
		case signed:
			return int64(int32(uint32(v)))
		}
		return int64(uint32(v))
	}
	mask := func(x int64) uint64 {
		if bits == 32 {
			return uint64(uint32(x))
		}
		if bits == 1 {
			return uint64(x) & 1
		}
		return uint64(x)
	}
	fbin := func(f func(a, b float64) float64) func(v []uint64) uint64 {
		return func(v []uint64) uint64 { return wr(f(rd(v[0]), rd(v[1]))) }
	}
	ibin := func(f func(a, b int64) int64) func(v []uint64) uint64 {
		return func(v []uint64) uint64 { return mask(f(ival(v[0]), ival(v[1]))) }
	}
	switch {
	case base == "mov" && n == 1:
		return func(v []uint64) uint64 { return v[0] }, nil
	case base == "cvta" && n == 1:
		return func(v []uint64) uint64 { return v[0] }, nil
	case (base == "add" || base == "sub" || base == "mul" || base == "div") && isF && n == 2:
		return fbin(map[string]func(a, b float64) float64{
			"add": func(a, b float64) float64 { return a + b },
			"sub": func(a, b float64) float64 { return a - b },
			"mul": func(a, b float64) float64 { return a * b },
			"div": func(a, b float64) float64 { return a / b },
		}[base]), nil
	case base == "add" && n == 2:
		return ibin(func(a, b int64) int64 { return a + b }), nil
	case base == "sub" && n == 2:
		return ibin(func(a, b int64) int64 { return a - b }), nil
	case base == "mul" && mods == "lo" && n == 2:
		return ibin(func(a, b int64) int64 { return a * b }), nil
	case base == "mul" && mods == "wide" && n == 2:
		return func(v []uint64) uint64 { return uint64(ival(v[0]) * ival(v[1])) }, nil
	case base == "mad" && mods == "lo" && n == 3:
		return func(v []uint64) uint64 { return mask(ival(v[0])*ival(v[1]) + ival(v[2])) }, nil
	case (base == "div" || base == "rem") && n == 2:
		return ibin(func(a, b int64) int64 {
			if b == 0 {
				return -1
			}
			if base == "div" {
				return a / b
			}
			return a % b
		}), nil
	case base == "fma" && isF && n == 3:
		return func(v []uint64) uint64 { return wr(math.FMA(rd(v[0]), rd(v[1]), rd(v[2]))) }, nil
	case base == "neg" && n == 1:
		if isF {
			return func(v []uint64) uint64 { return wr(-rd(v[0])) }, nil
		}
		return func(v []uint64) uint64 { return mask(-ival(v[0])) }, nil
	case base == "abs" && n == 1:
		if isF {
			return func(v []uint64) uint64 { return wr(math.Abs(rd(v[0]))) }, nil
		}
		return func(v []uint64) uint64 {
			x := ival(v[0])
			if x < 0 {
				x = -x
			}
			return mask(x)
		}, nil
	case (base == "sqrt" || base == "rcp") && isF && mods == "rn" && n == 1:
		if base == "sqrt" {
			return func(v []uint64) uint64 { return wr(math.Sqrt(rd(v[0]))) }, nil
		}
		return func(v []uint64) uint64 { return wr(1 / rd(v[0])) }, nil
	case (base == "max" || base == "min") && n == 2:
		return minMax(base == "max", mods == "NaN", isF, rd, wr, ival, mask), nil
	case base == "not" && n == 1:
		return func(v []uint64) uint64 { return mask(^int64(v[0])) }, nil
	case (base == "and" || base == "or" || base == "xor") && n == 2:
		return func(v []uint64) uint64 {
			switch base {
			case "and":
				return v[0] & v[1]
			case "or":
				return v[0] | v[1]
			}
			return v[0] ^ v[1]
		}, nil
	case base == "shl" && n == 2:
		return func(v []uint64) uint64 { return mask(int64(v[0] << v[1])) }, nil
	case base == "shr" && n == 2:
		return func(v []uint64) uint64 {
			if signed {
				return mask(ival(v[0]) >> v[1])
			}
			return mask(int64(uint64(ival(v[0])) >> v[1]))
		}, nil
	case base == "setp" && n == 2 && len(parts) == 3:
		return setp(parts[1], typ, rd, ival)
	case base == "selp" && n == 3:
		return func(v []uint64) uint64 {
			if v[2]&1 != 0 {
				return v[0]
			}
			return v[1]
		}, nil
	case base == "cvt" && n == 1:
		return convert(parts)
	}
	return nil, bad
}

// minMax implements max/min; with nanProp (max.NaN) a NaN operand gives NaN,
// otherwise the other operand.
func minMax(isMax, nanProp, isF bool, rd func(uint64) float64, wr func(float64) uint64, ival func(uint64) int64, mask func(int64) uint64) func(v []uint64) uint64 {
	if !isF {
		return func(v []uint64) uint64 {
			a, b := ival(v[0]), ival(v[1])
			if (a > b) == isMax {
				return mask(a)
			}
			return mask(b)
		}
	}
	return func(v []uint64) uint64 {
		a, b := rd(v[0]), rd(v[1])
		switch {
		case math.IsNaN(a) && math.IsNaN(b):
			return wr(math.NaN())
		case math.IsNaN(a) || math.IsNaN(b):
			if nanProp {
				return wr(math.NaN())
			}
			if math.IsNaN(a) {
				return wr(b)
			}
			return wr(a)
		case isMax:
			return wr(math.Max(a, b))
		}
		return wr(math.Min(a, b))
	}
}

// setp implements comparisons into a predicate.
func setp(cmp, typ string, rd func(uint64) float64, ival func(uint64) int64) (func(v []uint64) uint64, error) {
	b := func(x bool) uint64 {
		if x {
			return 1
		}
		return 0
	}
	if typ == "f32" || typ == "f64" {
		var f func(a, b float64) bool
		switch cmp {
		case "eq":
			f = func(a, b float64) bool { return a == b }
		case "ne":
			f = func(a, b float64) bool { return a != b && !math.IsNaN(a) && !math.IsNaN(b) }
		case "neu":
			f = func(a, b float64) bool { return a != b }
		case "lt":
			f = func(a, b float64) bool { return a < b }
		case "le":
			f = func(a, b float64) bool { return a <= b }
		case "gt":
			f = func(a, b float64) bool { return a > b }
		case "ge":
			f = func(a, b float64) bool { return a >= b }
		case "nan":
			f = func(a, b float64) bool { return math.IsNaN(a) || math.IsNaN(b) }
		default:
			return nil, fmt.Errorf("unsupported comparison setp.%s.%s", cmp, typ)
		}
		return func(v []uint64) uint64 { return b(f(rd(v[0]), rd(v[1]))) }, nil
	}
	unsigned := typ[0] == 'u' || typ[0] == 'b'
	return func(v []uint64) uint64 {
		x, y := ival(v[0]), ival(v[1])
		lt := x < y
		if unsigned {
			lt = uint64(x) < uint64(y)
		}
		switch cmp {
		case "eq":
			return b(x == y)
		case "ne":
			return b(x != y)
		case "lt":
			return b(lt)
		case "le":
			return b(lt || x == y)
		case "gt":
			return b(!lt && x != y)
		case "ge":
			return b(!lt)
		}
		return 0
	}, validIntCmp(cmp, typ)
}

func validIntCmp(cmp, typ string) error {
	switch cmp {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return nil
	}
	return fmt.Errorf("unsupported comparison setp.%s.%s", cmp, typ)
}

// convert implements cvt[.mode].dst.src.
func convert(parts []string) (func(v []uint64) uint64, error) {
	if len(parts) < 3 {
		return nil, fmt.Errorf("malformed cvt")
	}
	dst, src := parts[len(parts)-2], parts[len(parts)-1]
	mode := ""
	if len(parts) == 4 {
		mode = parts[1]
	}
	srcF, dstF := src[0] == 'f', dst[0] == 'f'
	round := map[string]func(float64) float64{
		"rni": math.RoundToEven, "rzi": math.Trunc, "rmi": math.Floor, "rpi": math.Ceil,
		"rn": func(x float64) float64 { return x }, "": func(x float64) float64 { return x },
	}[mode]
	if round == nil {
		return nil, fmt.Errorf("unsupported rounding .%s", mode)
	}
	readF := func(v uint64) float64 {
		if src == "f32" {
			return f32(v)
		}
		return f64(v)
	}
	writeF := func(x float64) uint64 {
		if dst == "f32" {
			return pf32(x)
		}
		return pf64(x)
	}
	readI := func(v uint64) int64 {
		switch src {
		case "s32":
			return int64(int32(uint32(v)))
		case "u32":
			return int64(uint32(v))
		}
		return int64(v)
	}
	writeI := func(x int64) uint64 {
		if typeBits(dst) == 32 {
			return uint64(uint32(x))
		}
		return uint64(x)
	}
	lo, hi := math.MinInt32, math.MaxInt32
	if typeBits(dst) == 64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	switch {
	case srcF && dstF:
		return func(v []uint64) uint64 { return writeF(round(readF(v[0]))) }, nil
	case srcF:
		return func(v []uint64) uint64 { // saturating, NaN to 0
			x := round(readF(v[0]))
			switch {
			case math.IsNaN(x):
				return 0
			case x <= float64(lo):
				return writeI(int64(lo))
			case x >= float64(hi):
				return writeI(int64(hi))
			}
			return writeI(int64(x))
		}, nil
	case dstF:
		return func(v []uint64) uint64 { return writeF(float64(readI(v[0]))) }, nil
	}
	return func(v []uint64) uint64 { return writeI(readI(v[0])) }, nil
}
