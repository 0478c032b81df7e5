package eval

import (
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// seq returns a buffer of dt with values 0, 1, 2, ... in the given shape.
func seq(dt ir.DType, shape ...int) *ir.Buffer {
	b := ir.NewBuffer(dt, shape)
	for i := range b.Len() {
		b.Set(i, float64(i))
	}
	return b
}

// TestBroadcastInDim checks scalar, size-1 and new-dimension broadcasting.
func TestBroadcastInDim(t *testing.T) {
	bc := func(x *ir.Buffer, shape, dims []int) *ir.Buffer {
		return mustApply(t, ir.BroadcastInDim, ir.Params{"shape": shape, "broadcast_dimensions": dims, "sharding": nil}, x)
	}
	wantBuf(t, bc(scalar(ir.Float32, 2), []int{2, 2}, []int{}), ir.Float32, []int{2, 2}, 2, 2, 2, 2)
	wantBuf(t, bc(vec(ir.Int32, 1, 2, 3), []int{2, 3}, []int{1}), ir.Int32, []int{2, 3}, 1, 2, 3, 1, 2, 3)
	wantBuf(t, bc(vec(ir.Int64, 1, 2), []int{2, 3}, []int{0}), ir.Int64, []int{2, 3}, 1, 1, 1, 2, 2, 2)
	wantBuf(t, bc(seq(ir.Float64, 2, 1), []int{2, 3}, []int{0, 1}), ir.Float64, []int{2, 3}, 0, 0, 0, 1, 1, 1)
	wantBuf(t, bc(bvec(true, false), []int{2, 1, 2}, []int{2}), ir.Bool, []int{2, 1, 2}, 1, 0, 1, 0)
	_, err := Apply(ir.BroadcastInDim, ir.Params{"shape": []int{4}, "broadcast_dimensions": []int{0}}, []*ir.Buffer{vec(ir.Float32, 1, 2)})
	wantErr(t, err, "eval broadcast_in_dim", "size 2", "size 4")
	_, err = Apply(ir.BroadcastInDim, ir.Params{"shape": []int{4}, "broadcast_dimensions": []int{}}, []*ir.Buffer{vec(ir.Float32, 1, 2)})
	wantErr(t, err, "rank 1")
}

// TestReshapeSqueeze checks row-major reshape and squeeze.
func TestReshapeSqueeze(t *testing.T) {
	x := seq(ir.Float32, 2, 3)
	wantBuf(t, mustApply(t, ir.Reshape, ir.Params{"new_sizes": []int{3, 1, 2}, "dimensions": nil}, x), ir.Float32, []int{3, 1, 2}, 0, 1, 2, 3, 4, 5)
	wantBuf(t, mustApply(t, ir.Squeeze, ir.Params{"dimensions": []int{0, 2}}, seq(ir.Int32, 1, 3, 1)), ir.Int32, []int{3}, 0, 1, 2)
	wantBuf(t, mustApply(t, ir.Reshape, ir.Params{"new_sizes": []int{}}, seq(ir.Int32, 1, 1)), ir.Int32, []int{}, 0)
	_, err := Apply(ir.Reshape, ir.Params{"new_sizes": []int{4}}, []*ir.Buffer{x})
	wantErr(t, err, "eval reshape", "6 elements", "4 elements")
	_, err = Apply(ir.Squeeze, ir.Params{"dimensions": []int{1}}, []*ir.Buffer{x})
	wantErr(t, err, "eval squeeze", "size 3")
	// The result does not share memory with the operand.
	y := mustApply(t, ir.Reshape, ir.Params{"new_sizes": []int{6}}, x)
	y.Data.([]float32)[0] = 42
	if x.Data.([]float32)[0] != 0 {
		t.Fatal("reshape result aliases its operand")
	}
}

// TestTranspose checks a 2-D and a 3-D permutation against index arithmetic.
func TestTranspose(t *testing.T) {
	wantBuf(t, mustApply(t, ir.Transpose, ir.Params{"permutation": []int{1, 0}}, seq(ir.Float32, 2, 3)), ir.Float32, []int{3, 2}, 0, 3, 1, 4, 2, 5)
	x := seq(ir.Int64, 2, 3, 4)
	got := mustApply(t, ir.Transpose, ir.Params{"permutation": []int{2, 0, 1}}, x)
	var want []float64
	for k := range 4 {
		for i := range 2 {
			for j := range 3 {
				want = append(want, float64(i*12+j*4+k))
			}
		}
	}
	wantBuf(t, got, ir.Int64, []int{4, 2, 3}, want...)
	_, err := Apply(ir.Transpose, ir.Params{"permutation": []int{0, 0}}, []*ir.Buffer{seq(ir.Float32, 2, 2)})
	wantErr(t, err, "eval transpose", "repeats")
}

// TestSlice checks slices with and without strides.
func TestSlice(t *testing.T) {
	x := seq(ir.Float32, 3, 4)
	wantBuf(t, mustApply(t, ir.Slice, ir.Params{"start_indices": []int{1, 1}, "limit_indices": []int{3, 3}, "strides": nil}, x),
		ir.Float32, []int{2, 2}, 5, 6, 9, 10)
	wantBuf(t, mustApply(t, ir.Slice, ir.Params{"start_indices": []int{0, 1}, "limit_indices": []int{3, 4}, "strides": []int{2, 2}}, x),
		ir.Float32, []int{2, 2}, 1, 3, 9, 11)
	wantBuf(t, mustApply(t, ir.Slice, ir.Params{"start_indices": []int{2}, "limit_indices": []int{2}}, vec(ir.Int32, 1, 2, 3)),
		ir.Int32, []int{0})
	_, err := Apply(ir.Slice, ir.Params{"start_indices": []int{0, 0}, "limit_indices": []int{4, 4}}, []*ir.Buffer{x})
	wantErr(t, err, "eval slice", "dimension 0", "out of range")
}

// TestPad checks low/high, interior and negative (cropping) padding.
func TestPad(t *testing.T) {
	pad := func(x, v *ir.Buffer, cfg ...[3]int) *ir.Buffer {
		return mustApply(t, ir.Pad, ir.Params{"padding_config": cfg}, x, v)
	}
	x := vec(ir.Float32, 1, 2, 3)
	wantBuf(t, pad(x, scalar(ir.Float32, 0), [3]int{1, 2, 0}), ir.Float32, []int{6}, 0, 1, 2, 3, 0, 0)
	wantBuf(t, pad(x, scalar(ir.Float32, -1), [3]int{0, 0, 1}), ir.Float32, []int{5}, 1, -1, 2, -1, 3)
	wantBuf(t, pad(x, scalar(ir.Float32, 9), [3]int{-1, 1, 0}), ir.Float32, []int{3}, 2, 3, 9)
	wantBuf(t, pad(x, scalar(ir.Float32, 9), [3]int{-2, -1, 1}), ir.Float32, []int{2}, 2, 9)
	m := seq(ir.Int32, 2, 2)
	wantBuf(t, pad(m, scalar(ir.Int32, 7), [3]int{1, 0, 0}, [3]int{0, 1, 1}), ir.Int32, []int{3, 4},
		7, 7, 7, 7,
		0, 7, 1, 7,
		2, 7, 3, 7)
	_, err := Apply(ir.Pad, ir.Params{"padding_config": [][3]int{{0, 0, 0}}}, []*ir.Buffer{x, scalar(ir.Float64, 0)})
	wantErr(t, err, "eval pad", "padding value")
	_, err = Apply(ir.Pad, ir.Params{"padding_config": [][3]int{{-4, 0, 0}}}, []*ir.Buffer{x, scalar(ir.Float32, 0)})
	wantErr(t, err, "negative size")
}

// TestConcatenate checks concatenation along the first and a middle dimension.
func TestConcatenate(t *testing.T) {
	a, b := seq(ir.Float32, 2, 2), fbuf(ir.Float32, []int{2, 1}, 10, 11)
	wantBuf(t, mustApply(t, ir.Concatenate, ir.Params{"dimension": 1}, a, b), ir.Float32, []int{2, 3}, 0, 1, 10, 2, 3, 11)
	wantBuf(t, mustApply(t, ir.Concatenate, ir.Params{"dimension": 0}, vec(ir.Int32, 1), vec(ir.Int32, 2, 3)), ir.Int32, []int{3}, 1, 2, 3)
	wantBuf(t, mustApply(t, ir.Concatenate, ir.Params{"dimension": 0}, bvec(true), bvec()), ir.Bool, []int{1}, 1)
	_, err := Apply(ir.Concatenate, ir.Params{"dimension": 0}, []*ir.Buffer{a, b})
	wantErr(t, err, "eval concatenate", "operand 1")
}

// TestIota checks iota along each dimension and for each numeric dtype.
func TestIota(t *testing.T) {
	for _, dt := range []ir.DType{ir.Float32, ir.Float64, ir.BFloat16, ir.Float16, ir.Int32, ir.Int64} {
		wantBuf(t, mustApply(t, ir.Iota, ir.Params{"dtype": dt, "shape": []int{2, 3}, "dimension": 1, "sharding": nil}), dt, []int{2, 3}, 0, 1, 2, 0, 1, 2)
		wantBuf(t, mustApply(t, ir.Iota, ir.Params{"dtype": dt, "shape": []int{2, 3}, "dimension": 0}), dt, []int{2, 3}, 0, 0, 0, 1, 1, 1)
	}
	wantBuf(t, mustApply(t, ir.Iota, ir.Params{"dtype": ir.BFloat16, "shape": []int{258}, "dimension": 0}), ir.BFloat16, []int{258}, bf16Iota(258)...)
	_, err := Apply(ir.Iota, ir.Params{"dtype": ir.Int32, "shape": []int{2}, "dimension": 1}, nil)
	wantErr(t, err, "eval iota", "dimension 1 out of range")
}

// bf16Iota is 0..n-1 rounded to bfloat16 (257 → 256).
func bf16Iota(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(ir.RoundBF16(float32(i)))
	}
	return out
}
