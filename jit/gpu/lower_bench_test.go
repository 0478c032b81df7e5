package gpu

import (
	"testing"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/ir"
)

// Lowering cost (planning + PTX text) of the codelab's functions; the
// driver's JIT comes on top and is measured on the GPU by gpucheck.
func benchLower(b *testing.B, cj *ir.ClosedJaxpr) {
	size := 0
	for b.Loop() {
		ptx, _, err := lowerPTX(cj, 9, 0)
		if err != nil {
			b.Fatal(err)
		}
		size = len(ptx)
	}
	b.ReportMetric(float64(size), "PTX-bytes")
}

func BenchmarkLowerHeavy(b *testing.B)        { benchLower(b, codelab.Heavy(1_000_000, 20)) }
func BenchmarkLowerUnrolled200(b *testing.B)  { benchLower(b, codelab.Unrolled(1024, 200)) }
func BenchmarkLowerUnrolled2000(b *testing.B) { benchLower(b, codelab.Unrolled(1024, 2000)) }
func BenchmarkLowerScan200(b *testing.B)      { benchLower(b, codelab.ScanLoop(1024, 200)) }
func BenchmarkLowerScan2000(b *testing.B)     { benchLower(b, codelab.ScanLoop(1024, 2000)) }
func BenchmarkLowerSumSquares(b *testing.B)   { benchLower(b, codelab.SumSquares(300)) }
