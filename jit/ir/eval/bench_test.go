package eval

import (
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// BenchmarkApplySinF32_1M measures eager sin on a million float32 elements.
func BenchmarkApplySinF32_1M(b *testing.B) {
	x := seq(ir.Float32, 1<<20)
	args := []*ir.Buffer{x}
	b.SetBytes(4 << 20)
	for b.Loop() {
		if _, err := Apply(ir.Sin, nil, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyAddF32_1M measures eager add (with a broadcast scalar) on a
// million float32 elements.
func BenchmarkApplyAddF32_1M(b *testing.B) {
	args := []*ir.Buffer{seq(ir.Float32, 1<<20), scalar(ir.Float32, 1.5)}
	b.SetBytes(4 << 20)
	for b.Loop() {
		if _, err := Apply(ir.Add, nil, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDotGeneralF32_128 measures a 128×128 by 128×128 matmul.
func BenchmarkDotGeneralF32_128(b *testing.B) {
	args := []*ir.Buffer{seq(ir.Float32, 128, 128), seq(ir.Float32, 128, 128)}
	params := ir.Params{"dimension_numbers": ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}}}
	for b.Loop() {
		if _, err := Apply(ir.DotGeneral, params, args); err != nil {
			b.Fatal(err)
		}
	}
}
