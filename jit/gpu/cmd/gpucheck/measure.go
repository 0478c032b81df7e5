package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit/gpu"
	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// cachedCalls is how many cached calls are averaged (the codelab uses 20).
const cachedCalls = 20

// timing is one function's measured costs.
type timing struct {
	lower, compile, driverJIT, firstExec, first time.Duration
	cached, device                              time.Duration
	ptxBytes, kernels                           int
	out                                         []*ir.Buffer
}

// measure lowers, compiles and runs cj once (the first call), then runs it
// cachedCalls more times.
func measure(g *gpu.Backend, cj *ir.ClosedJaxpr, args []*ir.Buffer, cached int) (*timing, error) {
	var t timing
	start := time.Now()
	low, err := g.Lower(cj)
	if err != nil {
		return nil, err
	}
	t.lower = time.Since(start)
	t.ptxBytes = len(low.Text())
	t.kernels = countKernels(low.Text())
	c0 := time.Now()
	exe, err := low.Compile()
	if err != nil {
		return nil, err
	}
	t.compile = time.Since(c0)
	t.driverJIT = exe.CompileDetail().DriverJIT
	e0 := time.Now()
	if t.out, err = exe.Execute(args); err != nil {
		return nil, err
	}
	t.firstExec = time.Since(e0)
	t.first = time.Since(start)
	if cached > 0 {
		var dev time.Duration
		c := time.Now()
		for range cached {
			if _, err := exe.Execute(args); err != nil {
				return nil, err
			}
			dev += exe.(*gpu.Executable).LastRunTime()
		}
		t.cached = time.Since(c) / time.Duration(cached)
		t.device = dev / time.Duration(cached)
	}
	exe.(*gpu.Executable).Close()
	return &t, nil
}

func countKernels(ptx string) int {
	n := 0
	for i := 0; i+len(".entry ") <= len(ptx); i++ {
		if ptx[i:i+len(".entry ")] == ".entry " {
			n++
		}
	}
	return n
}

// maxRelDiff is max |a-b|/max(1,|b|) over two buffer lists (NaNs equal).
func maxRelDiff(got, want []*ir.Buffer) float64 {
	if len(got) != len(want) {
		return math.Inf(1)
	}
	worst := 0.0
	for k := range want {
		if got[k].Len() != want[k].Len() {
			return math.Inf(1)
		}
		for i := range want[k].Len() {
			a, b := got[k].At(i), want[k].At(i)
			if a == b || math.IsNaN(a) && math.IsNaN(b) {
				continue
			}
			worst = max(worst, math.Abs(a-b)/max(1, math.Abs(b)))
		}
	}
	return worst
}

// headDiff compares the first values of our first output with JAX's.
func headDiff(out *ir.Buffer, head []float64) string {
	if len(head) == 0 {
		return "–"
	}
	worst := 0.0
	for i, h := range head {
		if i >= out.Len() {
			return "shape?"
		}
		worst = max(worst, math.Abs(out.At(i)-h)/max(1, math.Abs(h)))
	}
	return fmt.Sprintf("%.1e", worst)
}

func correctnessAndTimes(out io.Writer, g *gpu.Backend, jax *jaxResults) error {
	fmt.Fprintln(out, "## Codelab functions: correctness and compile/cached times")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Times in ms. first = lower (PTX generation) + compile (driver JIT + allocation) + first execute;")
	fmt.Fprintln(out, "cached = mean wall time of 20 calls (upload arguments, run, download results);")
	fmt.Fprintln(out, "device = CUDA-event time of the launches alone. max rel diff is against the CPU reference evaluator.")
	fmt.Fprintln(out)
	tableHeader(out, "| function | max rel diff vs eval | kernels | lower | driver JIT | compile | first exec | first | cached | device |",
		" JAX first | JAX cached | vs JAX (head) |", jax != nil)
	failures := 0
	for _, c := range codelab.Cases(cfg.n, cfg.steps) {
		want, err := eval.Closed(c.Fn, c.Args)
		if err != nil {
			return fmt.Errorf("%s: eval: %v", c.Name, err)
		}
		t, err := measure(g, c.Fn, c.Args, cachedCalls)
		if err != nil {
			fmt.Fprintf(out, "| %s | **error: %v** |\n", c.Name, err)
			failures++
			continue
		}
		d := maxRelDiff(t.out, want)
		verdict := fmt.Sprintf("%.1e", d)
		if d > 1e-4 {
			verdict = "**" + verdict + " FAIL**"
			failures++
		}
		row := fmt.Sprintf("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |", c.Name, verdict, t.kernels,
			ms(t.lower), ms(t.driverJIT), ms(t.compile), ms(t.firstExec), ms(t.first), ms(t.cached), ms(t.device))
		if jax != nil {
			if jc, ok := jax.Cases[c.Name]; ok {
				row += fmt.Sprintf(" %.3f | %.3f | %s |", jc.FirstMS, jc.CachedMS, headDiff(t.out[0], jc.Head))
			} else {
				row += fmt.Sprintf(" – | – | %s |", jax.Errors[c.Name])
			}
		}
		fmt.Fprintln(out, row)
	}
	fmt.Fprintf(out, "\n%d failure(s).\n\n", failures)
	return nil
}

func loops(out io.Writer, g *gpu.Backend, jax *jaxResults) error {
	fmt.Fprintln(out, "## Long loops: unrolled vs scan (f32[1024])")
	fmt.Fprintln(out)
	tableHeader(out, "| steps | variant | PTX bytes | kernels | lower | driver JIT | first | cached | same numbers |", " JAX first |", jax != nil)
	x := codelab.Arange(1024, 0.001)
	for _, steps := range []int{cfg.steps, 10 * cfg.steps} {
		var ref []*ir.Buffer
		for _, v := range []struct {
			name string
			fn   *ir.ClosedJaxpr
		}{{"scan_loop", codelab.ScanLoop(1024, steps)}, {"python_for_loop", codelab.Unrolled(1024, steps)}} {
			t, err := measure(g, v.fn, []*ir.Buffer{x}, 5)
			if err != nil {
				fmt.Fprintf(out, "| %d | %s | **error: %v** |\n", steps, v.name, err)
				continue
			}
			same := "–"
			if ref == nil {
				ref = t.out
			} else {
				same = fmt.Sprintf("max rel diff %.1e", maxRelDiff(t.out, ref))
			}
			row := fmt.Sprintf("| %d | %s | %d | %d | %s | %s | %s | %s | %s |", steps, v.name, t.ptxBytes, t.kernels,
				ms(t.lower), ms(t.driverJIT), ms(t.first), ms(t.cached), same)
			if jax != nil {
				row += fmt.Sprintf(" %.3f |", jax.Loops[fmt.Sprintf("%s_%d", v.name, steps)])
			}
			fmt.Fprintln(out, row)
		}
	}
	fmt.Fprintln(out)
	return nil
}

func recompile(out io.Writer, g *gpu.Backend, jax *jaxResults) error {
	fmt.Fprintln(out, "## Shape-recompile loop: sum(x**2) at shapes 100, 200, 100, 200, 300")
	fmt.Fprintln(out)
	tableHeader(out, "| call | shape | compiled? | wall ms |", " JAX ms |", jax != nil)
	cache := map[int]*gpu.Executable{}
	for i, n := range []int{100, 200, 100, 200, 300} {
		start := time.Now()
		exe, hit := cache[n]
		args := []*ir.Buffer{codelab.Arange(n, 0.01)}
		if !hit {
			low, err := g.Lower(codelab.SumSquares(n))
			if err != nil {
				return err
			}
			e, err := low.Compile()
			if err != nil {
				return err
			}
			exe = e.(*gpu.Executable)
			cache[n] = exe
		}
		if _, err := exe.Execute(args); err != nil {
			return err
		}
		row := fmt.Sprintf("| %d | (%d,) | %v | %s |", i+1, n, !hit, ms(time.Since(start)))
		if jax != nil && i < len(jax.Recompile) {
			row += fmt.Sprintf(" %.3f |", jax.Recompile[i])
		}
		fmt.Fprintln(out, row)
	}
	fmt.Fprintln(out)
	return nil
}

// tableHeader writes a markdown table's header and separator rows, with the
// JAX columns appended when JAX results are present.
func tableHeader(out io.Writer, hdr, jaxCols string, withJAX bool) {
	if withJAX {
		hdr += jaxCols
	}
	fmt.Fprintln(out, hdr)
	fmt.Fprintln(out, "|"+strings.Repeat("---|", strings.Count(hdr, "|")-1))
}
