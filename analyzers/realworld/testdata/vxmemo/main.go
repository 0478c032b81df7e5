// Command vxmemo keeps compiled kernels in small typed LRU caches keyed by
// their configuration, and runs a mixed workload of feature transforms.
package main

import (
	"fmt"
	"log"
	"math"
	"os"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

type Unary = *jit.Func[func(jit.Array) jit.Array]

// ActKey selects a parametric activation.
type ActKey struct {
	Name  string
	Slope float64
}

func buildActivation(k ActKey) Unary {
	slope := k.Slope
	var act func(jit.Array) jit.Array
	switch k.Name {
	case "leaky":
		act = func(x jit.Array) jit.Array { return jit.Where(x.Gt(0), x, x.Mul(slope)) }
	case "softplus":
		act = func(x jit.Array) jit.Array { return jit.Softplus(x.Mul(slope)).Div(slope) }
	default:
		act = func(x jit.Array) jit.Array { return x.Mul(slope).Tanh() }
	}
	return jit.Jit(func(x jit.Array) jit.Array { return act(x).Sub(act(x).Mean()) }) // want staticargs
}

var normTraces atomic.Int64

// buildNorm makes a layer norm for one feature width.
func buildNorm(width int) Unary {
	eps := 1.0 / float64(width*width)
	return jit.Jit(func(x jit.Array) jit.Array {
		normTraces.Add(1) // want traceeffect
		if x.Shape()[len(x.Shape())-1] != width {
			panic(fmt.Sprintf("norm for width %d got %v", width, x.Shape()))
		}
		mu := x.Mean()
		v := x.Sub(mu).Pow(2).Mean()
		return x.Sub(mu).Mul(v.Add(eps).Rsqrt())
	})
}

// residualStack applies depth residual tanh blocks.
func residualStack(depth int, x jit.Array) jit.Array {
	for i := 0; i < depth; i++ {
		x = x.Add(x.Mul(0.5).Tanh().Mul(1 / float64(i+1)))
	}
	return x
}

type Stack = *jit.Func[func(int, jit.Array) jit.Array]

func buildStack(depth int) Stack { return jit.Jit(residualStack, jit.StaticArgnums(0)) }

// FIRConfig is a smoothing filter: Taps weights of a Hann window.
type FIRConfig struct{ Taps int }

func buildFIR(cfg FIRConfig) Unary {
	w := make([]float64, cfg.Taps)
	var total float64
	for k := range w {
		w[k] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(k+1)/float64(cfg.Taps+1))
		total += w[k]
	}
	return jit.Jit(func(x jit.Array) jit.Array {
		n := x.Shape()[0] - cfg.Taps + 1
		acc := jit.Zeros(jit.Float32, n)
		for k := 0; k < cfg.Taps; k++ { // want unrolledloop
			acc = acc.Add(x.Slice([]int{k}, []int{k + n}).Mul(w[k] / total))
		}
		return acc
	})
}

func signal(n int, phase float64) jit.Array {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.Sin(float64(i)*0.3+phase) + 0.2*math.Cos(float64(i)*1.7))
	}
	return jit.FromSlice(v)
}

func main() {
	logger := log.New(os.Stderr, "vxmemo ", 0)
	acts := NewLRU[ActKey, Unary](2)
	acts.OnEvict = func(k ActKey, _ Unary) { logger.Printf("evict activation %v", k) }
	norms := NewLRU[int, Unary](4)
	stacks := NewLRU[int, Stack](2)
	firs := NewLRU[FIRConfig, Unary](4)

	getAct := Memo(acts, buildActivation)
	getNorm := Memo(norms, buildNorm)
	getStack := Memo(stacks, buildStack)
	getFIR := Memo(firs, buildFIR)

	actKeys := []ActKey{{"leaky", 0.1}, {"softplus", 2}, {"tanh", 1.5}}
	widths := []int{16, 32}
	depths := []int{2, 4, 6}

	var checksum float64
	for step := range 9 {
		w := widths[step%2]
		x := signal(w, float64(step))
		h := getNorm(w).Call(x)
		h = getAct(actKeys[step%3]).Call(h)
		d := depths[step%3]
		h = getStack(d).Call(d, h.Slice([]int{0}, []int{16}))
		y := getFIR(FIRConfig{Taps: 12}).Call(signal(64, float64(step)))
		if step == 4 {
			y = getFIR(FIRConfig{Taps: 40}).Call(signal(64, 0))
		}
		s := h.Mean().Item() + y.Sum().Item()
		checksum += s
		fmt.Printf("step %d width=%d act=%s depth=%d score=%.4f\n", step, w, actKeys[step%3].Name, d, s)
	}
	fmt.Printf("checksum %.4f\n", checksum)
	fmt.Printf("activations: hits=%d misses=%d\n", acts.Hits, acts.Misses)
	fmt.Printf("stacks: hits=%d misses=%d, norm traces=%d\n", stacks.Hits, stacks.Misses, normTraces.Load())
}
