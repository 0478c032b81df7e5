package cpu

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkF32Kernels measures each float32 kernel on one block (2048
// lanes, in L1, arguments in [-10, 10], positive for log, log1p, sqrt,
// rsqrt and pow's base) and reports cycles per element, counting cycles
// with a chain of dependent 64-bit multiplies (3 cycles each on every x86
// since 2008) timed in the same run, and that clock (ns/cycle). Both are
// timed in process CPU time, which a loaded machine's preemptions do not
// inflate. bench/cpu/kernels.sh turns the output into the table of
// bench/RESULTS.md.
func BenchmarkF32Kernels(b *testing.B) {
	ns := nsPerCycle()
	r := rand.New(rand.NewPCG(5, 6))
	a, pos, d := make([]float32, blockSize), make([]float32, blockSize), make([]float32, blockSize)
	for i := range a {
		a[i] = float32(r.Float64()*20 - 10)
		pos[i] = float32(r.Float64()*10 + 1e-3)
	}
	names := make([]string, 0, len(f32Unaries))
	for prim := range f32Unaries {
		names = append(names, prim)
	}
	sort.Strings(names)
	for _, prim := range names {
		f := f32Unaries[prim]
		in := a
		if prim == "log" || prim == "log1p" || prim == "sqrt" || prim == "rsqrt" {
			in = pos
		}
		b.Run(prim, func(b *testing.B) {
			c0 := processCPUTime()
			for i := 0; i < b.N; i++ {
				f.block(d, in)
			}
			b.ReportMetric(float64(processCPUTime()-c0)/float64(b.N*len(in))/ns, "cycles/elem")
			b.ReportMetric(ns, "ns/cycle")
		})
	}
	b.Run("pow", func(b *testing.B) {
		c0 := processCPUTime()
		for i := 0; i < b.N; i++ {
			f32PowKernel.block(d, pos, a)
		}
		b.ReportMetric(float64(processCPUTime()-c0)/float64(b.N*len(a))/ns, "cycles/elem")
	})
}

// mulSink keeps nsPerCycle's chain alive.
var mulSink uint64

// nsPerCycle times a chain of dependent multiplies (latency 3 cycles).
func nsPerCycle() float64 {
	const n = 50_000_000
	x := uint64(time.Now().UnixNano()) | 1
	m := x | 3 // not a constant: the compiler must not fold the chain
	best := 0.0
	for range 3 {
		t := processCPUTime()
		for i := 0; i < n; i += 4 {
			x *= m
			x *= m
			x *= m
			x *= m
		}
		v := float64(processCPUTime()-t) / (3 * n)
		if best == 0 || v < best {
			best = v
		}
	}
	mulSink = x
	return best
}

// TestKernelInstructionCounts prints the instructions in each AVX2
// kernel's loop (eight lanes per iteration) for bench/RESULTS.md, and checks
// that every kernel has a loop.
func TestKernelInstructionCounts(t *testing.T) {
	src, err := os.ReadFile("f32math_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?s)TEXT ·(\w+)AVX2\(SB\).*?\nloop:\n(.*?)\ndone:`)
	found := 0
	for _, m := range text.FindAllStringSubmatch(string(src), -1) {
		if f32Unaries[m[1]] == nil && m[1] != "pow" {
			continue // a multiply-add kernel
		}
		found++
		t.Log(fmt.Sprintf("%-9s %d instructions per 8 lanes", m[1], strings.Count(m[2], "\n")+1))
	}
	if found != len(f32Unaries)+1 {
		t.Fatalf("%d math kernels with a loop in f32math_amd64.s, want %d", found, len(f32Unaries)+1)
	}
}
