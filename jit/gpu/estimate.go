package gpu

import (
	"context"
	"fmt"
	"time"

	"github.com/jitlint/jitlint/jit/ir"
)

// CompileEstimate is what compiling a program for a GPU is estimated to
// cost on a machine without one: generating its PTX plus assembling that
// PTX with NVIDIA's offline assembler, ptxas, which runs the same compiler
// the driver's JIT runs when it loads PTX.
type CompileEstimate struct {
	// Target is the architecture assembled for ("sm_90").
	Target string
	// Generate is the time spent planning and generating the PTX.
	Generate time.Duration
	// Assemble is ptxas's wall time.
	Assemble time.Duration
	// Registers is the most registers any kernel uses.
	Registers int
}

// Total is the estimated compile time: Generate + Assemble.
func (e *CompileEstimate) Total() time.Duration { return e.Generate + e.Assemble }

// String is a one-line summary that says it is an estimate and how it was
// made, e.g. "gpu sm_90 ≈ 41.2 ms (estimate: PTX 1.3 ms + offline ptxas 39.9 ms)".
func (e *CompileEstimate) String() string {
	return fmt.Sprintf("gpu %s ≈ %s (estimate: PTX %s + offline ptxas %s)", e.Target, ms(e.Total()), ms(e.Generate), ms(e.Assemble))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// EstimateCompile estimates the GPU compile cost of cj where no GPU can be
// used: when the GPU backend cannot open (no driver or no working device)
// and a ptxas is found ($JITLINT_PTXAS, PATH, or the folder
// scripts/ptxas.sh fills), it generates cj's PTX for sm_90 (DefaultTarget)
// and assembles it, timing both. Where the GPU backend works it returns
// nil and no error: the measured compile time is the figure. It fails when
// no ptxas is found, when cj cannot be lowered, or when ptxas rejects the
// PTX.
func EstimateCompile(cj *ir.ClosedJaxpr) (*CompileEstimate, error) {
	if ok, _ := Available(); ok {
		return nil, nil
	}
	ptxas, err := findPtxas()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	ptx, _, err := lowerPTX(cj, DefaultTarget/10, DefaultTarget%10)
	generate := time.Since(start)
	if err != nil {
		return nil, err
	}
	a, err := assemble(context.Background(), ptxas, ptx, DefaultTarget)
	if err != nil {
		return nil, err
	}
	e := &CompileEstimate{Target: fmt.Sprintf("sm_%d", DefaultTarget), Generate: generate, Assemble: a.elapsed}
	for _, k := range a.kernels {
		e.Registers = max(e.Registers, k.registers)
	}
	return e, nil
}
