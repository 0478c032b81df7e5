package eval

import (
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// TestSelectN checks bool and integer predicates, scalar predicates and index clamping.
func TestSelectN(t *testing.T) {
	c0, c1, c2 := vec(ir.Float32, 1, 2, 3), vec(ir.Float32, 10, 20, 30), vec(ir.Float32, 100, 200, 300)
	wantBuf(t, mustApply(t, ir.SelectN, nil, bvec(true, false, true), c0, c1), ir.Float32, []int{3}, 10, 2, 30)
	wantBuf(t, mustApply(t, ir.SelectN, nil, scalar(ir.Bool, 1), c0, c1), ir.Float32, []int{3}, 10, 20, 30)
	wantBuf(t, mustApply(t, ir.SelectN, nil, i32vec(2, -5, 9), c0, c1, c2), ir.Float32, []int{3}, 100, 2, 300)
	wantBuf(t, mustApply(t, ir.SelectN, nil, scalar(ir.Int32, 1), c0, c1, c2), ir.Float32, []int{3}, 10, 20, 30)
	wantBuf(t, mustApply(t, ir.SelectN, nil, bvec(true, false), i64vec(1, 2), i64vec(3, 4)), ir.Int64, []int{2}, 3, 2)
	wantBuf(t, mustApply(t, ir.SelectN, nil, bvec(true, false), bvec(false, false), bvec(true, true)), ir.Bool, []int{2}, 1, 0)

	_, err := Apply(ir.SelectN, nil, []*ir.Buffer{bvec(true, false), c0, c1})
	wantErr(t, err, "eval select_n", "predicate shape")
	_, err = Apply(ir.SelectN, nil, []*ir.Buffer{bvec(true, false, true), c0, vec(ir.Float64, 1, 2, 3)})
	wantErr(t, err, "eval select_n", "case 1")
	_, err = Apply(ir.SelectN, nil, []*ir.Buffer{bvec(true, false, true), c0, c1, c2})
	wantErr(t, err, "at most 2 cases")
	_, err = Apply(ir.SelectN, nil, []*ir.Buffer{vec(ir.Float32, 1, 0, 1), c0, c1})
	wantErr(t, err, "want bool or int32")
}

// TestClamp checks scalar and array bounds, NaN and integer clamping.
func TestClamp(t *testing.T) {
	x := vec(ir.Float32, -5, 0.5, 7, nan)
	wantBuf(t, mustApply(t, ir.Clamp, nil, scalar(ir.Float32, 0), x, scalar(ir.Float32, 1)), ir.Float32, []int{4}, 0, 0.5, 1, nan)
	lo, hi := vec(ir.Float32, -10, 1, 0, 0), vec(ir.Float32, -6, 2, 8, 1)
	wantBuf(t, mustApply(t, ir.Clamp, nil, lo, x, hi), ir.Float32, []int{4}, -6, 1, 7, nan)
	wantBuf(t, mustApply(t, ir.Clamp, nil, scalar(ir.Int32, 0), i32vec(-4, 3, 9), scalar(ir.Int32, 5)), ir.Int32, []int{3}, 0, 3, 5)
	_, err := Apply(ir.Clamp, nil, []*ir.Buffer{vec(ir.Float32, 0, 0), x, scalar(ir.Float32, 1)})
	wantErr(t, err, "eval clamp", "bound of shape [2]")
}

// TestConvert checks conversions between every pair of kinds: truncation,
// saturation, NaN → 0, bools, integer wrap and float rounding.
func TestConvert(t *testing.T) {
	cv := func(x *ir.Buffer, dt ir.DType) *ir.Buffer {
		return mustApply(t, ir.ConvertElementType, ir.Params{"new_dtype": dt, "weak_type": false, "sharding": nil}, x)
	}
	f := vec(ir.Float64, 2.7, -2.7, nan, inf, -inf, 3e9, -3e9, 0)
	wantBuf(t, cv(f, ir.Int32), ir.Int32, []int{8}, 2, -2, 0, 2147483647, -2147483648, 2147483647, -2147483648, 0)
	wantBuf(t, cv(f, ir.Int64), ir.Int64, []int{8}, 2, -2, 0, 9223372036854775807, -9223372036854775808, 3e9, -3e9, 0)
	wantBuf(t, cv(f, ir.Bool), ir.Bool, []int{8}, 1, 1, 1, 1, 1, 1, 1, 0)
	wantBuf(t, cv(f, ir.Float16), ir.Float16, []int{8}, 2.69921875, -2.69921875, nan, inf, -inf, inf, -inf, 0)
	wantBuf(t, cv(f, ir.BFloat16), ir.BFloat16, []int{8}, 2.703125, -2.703125, nan, inf, -inf, 3003121664, -3003121664, 0)
	wantBuf(t, cv(vec(ir.Float32, 1.5, -0.99), ir.Int64), ir.Int64, []int{2}, 1, 0)
	wantBuf(t, cv(bvec(true, false), ir.Float32), ir.Float32, []int{2}, 1, 0)
	wantBuf(t, cv(bvec(true, false), ir.Int64), ir.Int64, []int{2}, 1, 0)
	wantBuf(t, cv(i32vec(0, -3), ir.Bool), ir.Bool, []int{2}, 0, 1)
	wantBuf(t, cv(i64vec(1<<32+5, -1), ir.Int32), ir.Int32, []int{2}, 5, -1)
	// 2^24+1 is not representable in f32: rounds to even.
	wantBuf(t, cv(i64vec(1<<24+1, 1<<24+3), ir.Float32), ir.Float32, []int{2}, 1<<24, 1<<24+4)
	wantBuf(t, cv(i32vec(257), ir.BFloat16), ir.BFloat16, []int{1}, 256)
	got := cv(i64vec(1<<62+1), ir.Float64)
	if got.Data.([]float64)[0] != float64(1<<62) {
		t.Fatalf("int64→f64: %v", got.Data)
	}
	// Rounding f32 → bf16 → f32 is idempotent; f64 → f32 rounds.
	wantBuf(t, cv(vec(ir.Float64, 0.1), ir.Float32), ir.Float32, []int{1}, float64(float32(0.1)))
	wantBuf(t, cv(vec(ir.Float16, 0.1), ir.Float64), ir.Float64, []int{1}, float64(ir.RoundF16(0.1)))
	_, err := Apply(ir.ConvertElementType, ir.Params{}, []*ir.Buffer{f})
	wantErr(t, err, "eval convert_element_type", "new_dtype")
}
