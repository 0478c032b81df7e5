package cpu

import "github.com/jitlint/jitlint/jit/ir"

// class is the Go storage type of a dtype's elements.
type class uint8

const (
	cF32  class = iota // float32, bfloat16, float16
	cF64               // float64
	cI32               // int32
	cI64               // int64
	cBool              // bool
	nClasses
)

// classOf returns dt's storage class.
func classOf(dt ir.DType) class {
	switch dt {
	case ir.Float64:
		return cF64
	case ir.Int32:
		return cI32
	case ir.Int64:
		return cI64
	case ir.Bool:
		return cBool
	}
	return cF32
}

// nTmp is the number of float64 conversion scratch blocks in a frame.
const nTmp = 3

// frame is one goroutine's register file for a kernel: typed block-sized
// slices. Temporary and scalar registers own their storage; view registers
// are re-pointed at the inputs' and outputs' data for every block.
type frame struct {
	f32 [][]float32
	f64 [][]float64
	i32 [][]int32
	i64 [][]int64
	b   [][]bool
	// tmp are float64 scratch blocks for f32 math and conversions.
	tmp [nTmp][]float64
	// lo is the flat index of the current block's first element.
	lo int
	// acc and accI are a reduction's partial results (float and integer),
	// one per output row this frame touches; row0 is the first such row.
	acc  []float64
	accI []int64
	row0 int
}

// newFrame allocates a frame with n[c] owned registers of each class.
func newFrame(n [nClasses]int, block int) *frame {
	fr := &frame{
		f32: make([][]float32, n[cF32]),
		f64: make([][]float64, n[cF64]),
		i32: make([][]int32, n[cI32]),
		i64: make([][]int64, n[cI64]),
		b:   make([][]bool, n[cBool]),
	}
	for i := range fr.tmp {
		fr.tmp[i] = make([]float64, block)
	}
	return fr
}

// own gives register r of class c its own block of storage.
func (fr *frame) own(c class, r, block int) {
	switch c {
	case cF32:
		fr.f32[r] = make([]float32, block)
	case cF64:
		fr.f64[r] = make([]float64, block)
	case cI32:
		fr.i32[r] = make([]int32, block)
	case cI64:
		fr.i64[r] = make([]int64, block)
	case cBool:
		fr.b[r] = make([]bool, block)
	}
}

// view points register r of class c at data[lo:hi]; nil data drops the
// reference.
func (fr *frame) view(c class, r int, data any, lo, hi int) {
	if data == nil {
		switch c {
		case cF32:
			fr.f32[r] = nil
		case cF64:
			fr.f64[r] = nil
		case cI32:
			fr.i32[r] = nil
		case cI64:
			fr.i64[r] = nil
		case cBool:
			fr.b[r] = nil
		}
		return
	}
	switch c {
	case cF32:
		fr.f32[r] = data.([]float32)[lo:hi]
	case cF64:
		fr.f64[r] = data.([]float64)[lo:hi]
	case cI32:
		fr.i32[r] = data.([]int32)[lo:hi]
	case cI64:
		fr.i64[r] = data.([]int64)[lo:hi]
	case cBool:
		fr.b[r] = data.([]bool)[lo:hi]
	}
}

// fill sets the first n elements of register r of class c to element 0 of
// data (a one-element operand broadcast over the block).
func (fr *frame) fill(c class, r int, data any, n int) {
	switch c {
	case cF32:
		fillN(fr.f32[r][:n], data.([]float32)[0])
	case cF64:
		fillN(fr.f64[r][:n], data.([]float64)[0])
	case cI32:
		fillN(fr.i32[r][:n], data.([]int32)[0])
	case cI64:
		fillN(fr.i64[r][:n], data.([]int64)[0])
	case cBool:
		fillN(fr.b[r][:n], data.([]bool)[0])
	}
}

// fillN sets every element of d to v.
func fillN[T any](d []T, v T) {
	for i := range d {
		d[i] = v
	}
}

// Register file accessors, chosen once per op at compile time.
func regF32(fr *frame) [][]float32 { return fr.f32 }
func regF64(fr *frame) [][]float64 { return fr.f64 }
func regI32(fr *frame) [][]int32   { return fr.i32 }
func regI64(fr *frame) [][]int64   { return fr.i64 }
func regB(fr *frame) [][]bool      { return fr.b }
