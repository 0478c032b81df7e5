package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

var allDTypes = []ir.DType{ir.Float32, ir.Float64, ir.BFloat16, ir.Float16, ir.Int32, ir.Int64, ir.Bool}

// special values cycled through test inputs: ordinary, tiny, huge and
// non-finite arguments.
var floatVals = []float64{0, math.Copysign(0, -1), 1, -1.5, 2.5, 3, 1e-30, 1e-40, 1e6, -1e6, 1e30, 65504, 70000,
	math.Inf(1), math.Inf(-1), math.NaN(), 0.5, 100, -7.25, 1e-5, 123456.7, 0.999, -3, 8}
var intVals = []float64{0, 1, -1, 7, -7, math.MaxInt32, math.MinInt32, 100, 3, -100, 2, 31, 5, 12345}

// testInput returns n values of dtype dt cycling through the special
// values, starting at offset.
func testInput(dt ir.DType, n, offset int, shape ...int) *ir.Buffer {
	if shape == nil {
		shape = []int{n}
	}
	b := ir.NewBuffer(dt, shape)
	for i := 0; i < b.Len(); i++ {
		j := i + offset
		switch {
		case dt.IsFloat():
			v := floatVals[j%len(floatVals)]
			if j >= len(floatVals) && !math.IsInf(v, 0) && v == v {
				v *= 1 + float64(j%13)/7 // more distinct values past the specials
			}
			b.Set(i, v)
		case dt.IsInt():
			b.Set(i, intVals[j%len(intVals)]+float64(j/len(intVals)%5))
		default:
			b.Set(i, float64((j*7/3)%2))
		}
	}
	return b
}

const testN = 2*4096 + 77 // more than one block, with a ragged tail

func TestUnaryAllDTypes(t *testing.T) {
	prims := []string{ir.Neg, ir.Sign, ir.Abs, ir.Sin, ir.Cos, ir.Tan, ir.Tanh, ir.Exp, ir.Log, ir.Log1p,
		ir.Expm1, ir.Sqrt, ir.Rsqrt, ir.Floor, ir.Ceil, ir.Logistic, ir.Not, ir.IntegerPow}
	for _, dt := range allDTypes {
		for _, prim := range prims {
			t.Run(fmt.Sprintf("%s_%s", prim, dt), func(t *testing.T) {
				for _, y := range []int{0, 2, 3, -2} {
					if prim != ir.IntegerPow && y != 0 {
						continue
					}
					var b ir.Builder
					x := b.Input(av(dt, testN))
					var p ir.Params
					if prim == ir.IntegerPow {
						p = ir.Params{"y": y}
					}
					out := b.Op(prim, p, av(dt, testN), x)
					checkAgainstEval(t, b.Done("", out), []*ir.Buffer{testInput(dt, testN, 0)}, 0)
				}
			})
		}
	}
}

func TestBinaryAllDTypes(t *testing.T) {
	prims := []string{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Pow, ir.Max, ir.Min, ir.Rem, ir.And, ir.Or,
		ir.Gt, ir.Ge, ir.Lt, ir.Le, ir.Eq, ir.Ne}
	for _, dt := range allDTypes {
		for _, prim := range prims {
			t.Run(fmt.Sprintf("%s_%s", prim, dt), func(t *testing.T) {
				odt := dt
				if ir.IsCompare(prim) {
					odt = ir.Bool
				}
				// array op array
				var b ir.Builder
				x, y := b.Input(av(dt, testN)), b.Input(av(dt, testN))
				checkAgainstEval(t, b.Done("", b.Op(prim, nil, av(odt, testN), x, y)),
					[]*ir.Buffer{testInput(dt, testN, 0), testInput(dt, testN, 5)}, 0)
				// literal op array, array op 0-d input
				var c ir.Builder
				x = c.Input(av(dt, testN))
				s := c.Input(av(dt))
				l := c.Op(prim, nil, av(odt, testN), lit(dt, 3), x)
				r := c.Op(prim, nil, av(odt, testN), x, s)
				checkAgainstEval(t, c.Done("", l, r), []*ir.Buffer{testInput(dt, testN, 0), testInput(dt, 1, 4, []int{}...)}, 0)
			})
		}
	}
}

func TestConvertAllPairs(t *testing.T) {
	for _, from := range allDTypes {
		for _, to := range allDTypes {
			var b ir.Builder
			x := b.Input(av(from, testN))
			out := b.Op(ir.ConvertElementType, ir.Params{"new_dtype": to, "weak_type": false}, av(to, testN), x)
			t.Run(fmt.Sprintf("%s_to_%s", from, to), func(t *testing.T) {
				checkAgainstEval(t, b.Done("", out), []*ir.Buffer{testInput(from, testN, 0)}, 0)
			})
		}
	}
}

func TestSelectClampIotaBroadcast(t *testing.T) {
	for _, dt := range allDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			// select_n with a bool predicate, and with an int32 index over 3 cases.
			var b ir.Builder
			p := b.Input(av(ir.Bool, testN))
			k := b.Input(av(ir.Int32, testN))
			x, y := b.Input(av(dt, testN)), b.Input(av(dt, testN))
			s2 := b.Op(ir.SelectN, nil, av(dt, testN), p, x, y)
			s3 := b.Op(ir.SelectN, nil, av(dt, testN), k, x, y, s2)
			cl := b.Op(ir.Clamp, nil, av(dt, testN), lit(dt, 0), s3, lit(dt, 5))
			idx := testInput(ir.Int32, testN, 0)
			checkAgainstEval(t, b.Done("", s2, s3, cl), []*ir.Buffer{testInput(ir.Bool, testN, 0), idx,
				testInput(dt, testN, 0), testInput(dt, testN, 3)}, 0)
			// broadcast of a 0-d input and of a literal, stored and not stored.
			var c ir.Builder
			z := c.Input(av(dt))
			bz := c.Op(ir.BroadcastInDim, ir.Params{"shape": []int{7, 300}, "broadcast_dimensions": []int{}}, av(dt, 7, 300), z)
			bl := c.Op(ir.BroadcastInDim, ir.Params{"shape": []int{7, 300}, "broadcast_dimensions": []int{}}, av(dt, 7, 300), lit(dt, 1))
			m := c.Op(ir.Max, nil, av(dt, 7, 300), bz, bl)
			checkAgainstEval(t, c.Done("", bz, m), []*ir.Buffer{testInput(dt, 1, 3, []int{}...)}, 0)
			if dt == ir.Bool {
				return
			}
			for dim := 0; dim < 2; dim++ {
				var d ir.Builder
				io := d.Op(ir.Iota, ir.Params{"dtype": dt, "shape": []int{7, 300}, "dimension": dim}, av(dt, 7, 300))
				checkAgainstEval(t, d.Done("", io), nil, 0)
			}
		})
	}
}

func TestReductions(t *testing.T) {
	for _, dt := range allDTypes {
		for _, prim := range []string{ir.ReduceSum, ir.ReduceMax, ir.ReduceMin} {
			for _, axes := range [][]int{{1}, {0, 1}, {0}, {}} {
				t.Run(fmt.Sprintf("%s_%s_%v", prim, dt, axes), func(t *testing.T) {
					shape := []int{30, 170}
					var out []int
					for d, n := range shape {
						if !containsInt(axes, d) {
							out = append(out, n)
						}
					}
					var b ir.Builder
					x := b.Input(av(dt, shape...))
					pre := x
					if dt != ir.Bool {
						pre = b.Op(ir.Abs, nil, av(dt, shape...), x)
					}
					r := b.Op(prim, ir.Params{"axes": axes}, av(dt, out...), pre)
					checkAgainstEval(t, b.Done("", r, pre), []*ir.Buffer{testInput(dt, 0, 2, shape...)}, 0)
				})
			}
		}
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestEmptyArrays(t *testing.T) {
	var b ir.Builder
	x := b.Input(av(ir.Float32, 3, 0))
	e := b.Op(ir.Exp, nil, av(ir.Float32, 3, 0), x)
	s := b.Op(ir.ReduceSum, ir.Params{"axes": []int{1}}, av(ir.Float32, 3), e)
	m := b.Op(ir.ReduceMax, ir.Params{"axes": []int{1}}, av(ir.Float32, 3), x)
	checkAgainstEval(t, b.Done("", s, m, e), []*ir.Buffer{ir.NewBuffer(ir.Float32, []int{3, 0})}, 0)
}

// TestMultiplyAdd covers the fused a*b ± c patterns (product rounded first),
// with scalar and vector operands, a product used twice (not fused), and
// the product also stored (not fused).
func TestMultiplyAdd(t *testing.T) {
	for _, dt := range []ir.DType{ir.Float32, ir.Float64, ir.BFloat16} {
		a := av(dt, testN)
		var b ir.Builder
		x, y, z := b.Input(a), b.Input(a), b.Input(a)
		m1 := b.Op(ir.Mul, nil, a, x, y)
		r1 := b.Op(ir.Add, nil, a, m1, z) // x*y + z
		m2 := b.Op(ir.Mul, nil, a, x, lit(dt, 3))
		r2 := b.Op(ir.Sub, nil, a, m2, lit(dt, 1)) // x*3 - 1
		m3 := b.Op(ir.Mul, nil, a, r1, r2)
		r3 := b.Op(ir.Sub, nil, a, z, m3) // z - r1*r2
		m4 := b.Op(ir.Mul, nil, a, x, x)
		r4 := b.Op(ir.Add, nil, a, m4, m4) // product used twice
		m5 := b.Op(ir.Mul, nil, a, y, z)
		r5 := b.Op(ir.Sub, nil, a, x, m5) // product stored too
		m6 := b.Op(ir.Mul, nil, a, x, y)
		r6 := b.Op(ir.Sub, nil, a, lit(dt, 1), m6) // 1 - x*y
		m7 := b.Op(ir.Mul, nil, a, z, y)
		r7 := b.Op(ir.Add, nil, a, lit(dt, 2), m7) // 2 + z*y
		cj := b.Done("", r3, r4, r5, m5, r6, r7)
		checkAgainstEval(t, cj, []*ir.Buffer{testInput(dt, testN, 0), testInput(dt, testN, 7), testInput(dt, testN, 11)}, 0)
		if dt == ir.Float32 {
			_, l := compileCJ(t, cj)
			if got := len(l.prog.steps[0].(*kernel).ops); got != 9 {
				t.Errorf("%d ops, want 9 (five multiply-adds fused)", got)
			}
		}
	}
}
