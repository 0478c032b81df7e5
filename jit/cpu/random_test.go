package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// TestRandomJaxprsMatchEval compares the CPU backend with the evaluator on
// many random jaxprs: elementwise chains over every dtype, broadcasts,
// reductions, selects, converts, layout operations and control flow, on
// small shapes and on shapes spanning several blocks (and goroutines).
func TestRandomJaxprsMatchEval(t *testing.T) {
	seeds := 600
	if testing.Short() {
		seeds = 100
	}
	configs := []randjaxpr.Options{
		{NumEqns: 10, DTypes: allDTypes},
		{NumEqns: 8, DTypes: []ir.DType{ir.Float32, ir.Int32, ir.Bool}, ControlFlow: true, Layout: true},
		{NumEqns: 12, MaxRank: 3, MaxDim: 40, DTypes: []ir.DType{ir.Float32, ir.Float64, ir.Int64}},
		{NumEqns: 6, MaxRank: 2, MaxDim: 300, DTypes: []ir.DType{ir.Float32, ir.BFloat16}, Layout: true},
	}
	fused := 0
	for seed := 0; seed < seeds; seed++ {
		opts := configs[seed%len(configs)]
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		j, args := randjaxpr.New(r, opts)
		cj := &ir.ClosedJaxpr{Jaxpr: j}
		want, werr := eval.Closed(cj, args)
		ex, l := compileCJ(t, cj)
		for _, s := range l.prog.steps {
			if _, ok := s.(*kernel); ok {
				fused++
			}
		}
		got, gerr := ex.Execute(args)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("seed %d: errors differ: cpu %v, eval %v\n%s", seed, gerr, werr, l.Text())
		}
		if werr != nil {
			continue
		}
		if err := sameBuffers(got, want, 0); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, l.Text())
		}
	}
	if fused < seeds {
		t.Errorf("only %d fused kernels over %d random jaxprs: the kernels are not exercised", fused, seeds)
	}
}

// TestRandomProductsMatchEval compares the CPU backend with the evaluator
// on random dot_generals (random dimension numbers and batch dimensions,
// products transposed, random fused epilogues), with the assembly
// micro-kernels and with the Go ones: exactly for small-integer inputs,
// and for real inputs within the bound the summation order gives (gemm.go):
// the product's element has passed through at most d = min(K, kc) +
// ⌈K/kc⌉ - 1 roundings of the compute type's unit roundoff u, so its error
// is at most d·u·Σ|a·b| ≤ d·u·4K for inputs in [-2, 2); the epilogue is
// 1-Lipschitz and adds one rounding of the result type (unit u_out) per
// operation on values bounded by 4K + 4 (bias and residual inputs), and
// the final results of both sides are rounded to the result type:
// tolerance (d·u + (ops + 2)·u_out)·(4K + 4).
func TestRandomProductsMatchEval(t *testing.T) {
	seeds := 300
	if testing.Short() || raceEnabled {
		seeds = 60
	}
	// Every kernel set this CPU runs (the chosen assembly ones, and the
	// AVX2 ones on AVX-512 machines), then the Go ones.
	kernels := append(hostKernelSets(), kernelSet{"go", goKernelF32, goKernelF64})
	defer func(f32 microKernel[float32], f64 microKernel[float64]) { kernelF32, kernelF64 = f32, f64 }(kernelF32, kernelF64)
	products, fusedEpilogues := 0, 0
	for _, k := range kernels {
		kernelF32, kernelF64 = k.f32, k.f64
		for seed := 0; seed < seeds; seed++ {
			r := rand.New(rand.NewPCG(uint64(seed), 21))
			opts := randjaxpr.ProductOptions{DTypes: []ir.DType{ir.Float32, ir.Float64, ir.BFloat16, ir.Float16}, MaxDim: 12, Integers: seed%3 == 0}
			if seed%5 == 4 {
				opts.MaxDim = 90 // several blocks, tasks and kc panels
				opts.DTypes = []ir.DType{ir.Float32, ir.Float64}
			}
			j, args := randjaxpr.Products(r, opts)
			cj := &ir.ClosedJaxpr{Jaxpr: j}
			want, werr := eval.Closed(cj, args)
			if werr != nil {
				t.Fatalf("seed %d: eval: %v", seed, werr)
			}
			ex, l := compileCJ(t, cj)
			for _, s := range l.prog.steps {
				if d, ok := s.(*dotStep); ok {
					products++
					if d.epi != nil {
						fusedEpilogues++
					}
				}
			}
			got, err := ex.Execute(args)
			if err != nil {
				t.Fatalf("seed %d (%s kernels): %v\n%s", seed, k.name, err, l.Text())
			}
			tol := 0.0
			if !opts.Integers {
				tol = productTolerance(j)
			}
			if err := withinAbs(got[0], want[0], tol); err != nil {
				t.Fatalf("seed %d (%s kernels, tolerance %g): %v\n%s", seed, k.name, tol, err, l.Text())
			}
		}
	}
	if products < seeds || fusedEpilogues < seeds/4 {
		t.Errorf("%d product steps and %d fused epilogues over %d random jaxprs: the products are not exercised", products, fusedEpilogues, len(kernels)*seeds)
	}
}

// productTolerance is TestRandomProductsMatchEval's bound for a jaxpr of
// randjaxpr.Products.
func productTolerance(j *ir.Jaxpr) float64 {
	e := j.Eqns[0]
	for _, x := range j.Eqns {
		if x.Prim == ir.DotGeneral {
			e = x
		}
	}
	d := e.Params["dimension_numbers"].(ir.DotDims)
	k := 1
	for _, a := range d.LhsContract {
		k *= e.In[0].Type().Shape[a]
	}
	dt := e.Out[0].Aval.DType
	u, kc := 0x1p-24, blockingF32.kc
	if dt == ir.Float64 {
		u, kc = 0x1p-53, blockingF64.kc
	}
	uOut := map[ir.DType]float64{ir.Float32: 0x1p-24, ir.Float64: 0x1p-53, ir.BFloat16: 0x1p-8, ir.Float16: 0x1p-11}[dt]
	rounds := float64(min(k, kc) + (k+kc-1)/kc - 1)
	ops := float64(len(j.Eqns) - 1)
	return (rounds*u + (ops+2)*uOut) * float64(4*k+4)
}

// withinAbs reports the first element of got farther than tol from want
// (NaN matching NaN; exact equality when tol is 0).
func withinAbs(got, want *ir.Buffer, tol float64) error {
	if !got.Aval().TypeMatch(want.Aval()) {
		return fmt.Errorf("type %s, want %s", got.Aval(), want.Aval())
	}
	for i := range got.Len() {
		x, y := got.At(i), want.At(i)
		if x != x && y != y || math.Abs(x-y) <= tol {
			continue
		}
		return fmt.Errorf("element %d: got %v, want %v", i, x, y)
	}
	return nil
}
