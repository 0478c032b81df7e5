// Command moerouting trains a top-1 mixture-of-experts layer: the host routes
// tokens to experts with a capacity limit, the experts run as one vmapped
// batch, and a load-balancing loss keeps the router honest.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	dModel    = 6
	dHidden   = 12
	nExperts  = 4
	nTokens   = 32
	capacity  = 12
	auxWeight = 0.01
	maxTokens = 40
)

// Expert is one feed-forward expert; in MoE the same struct holds all
// experts stacked along a leading axis.
type Expert struct {
	W1, B1, W2 jit.Array
}

type MoE struct {
	Gate    jit.Array // [d, E]
	Experts Expert    // W1 [E,d,h], B1 [E,h], W2 [E,h,d]
}

var jitter = rand.New(rand.NewSource(99))

func expertFFN(p Expert, x jit.Array) jit.Array {
	return jit.Relu(x.MatMul(p.W1).Add(p.B1)).MatMul(p.W2)
}

func softmaxRows(l jit.Array) jit.Array {
	n := l.Shape()[0]
	e := l.Sub(l.MaxReduce(1).Reshape(n, 1)).Exp()
	return e.Div(e.Sum(1).Reshape(n, 1))
}

func gateLogits(gate, x jit.Array) jit.Array { return x.MatMul(gate) }

func noisyGate(gate, x jit.Array) jit.Array {
	eps := jitter.NormFloat64() * 0.01 // want traceeffect
	return softmaxRows(gateLogits(gate, x).Add(eps))
}

// moeLoss: dispatch is [E, C, N], the one-hot slot assignment of each token.
func moeLoss(p MoE, x, y, dispatch jit.Array) jit.Array {
	probs := noisyGate(p.Gate, x) // [N, E]
	xin := dispatch.MatMul(x)     // [E, C, d]
	out := jit.Vmap(expertFFN)(p.Experts, xin)
	weights := dispatch.Mul(probs.Transpose().Reshape(nExperts, 1, nTokens))
	yhat := weights.Transpose(0, 2, 1).MatMul(out).Sum(0) // [N, d]
	diff := yhat.Sub(y)
	mse := diff.Mul(diff).Mean()
	frac := dispatch.Sum(1, 2).Div(nTokens)
	aux := frac.Mul(probs.Mean(0)).Sum().Mul(nExperts)
	// confidence penalty, token by token
	conf := jit.Zeros(jit.Float32)
	for n := 0; n < nTokens; n++ {
		conf = conf.Add(probs.Slice([]int{n, 0}, []int{n + 1, nExperts}).MaxReduce())
	}
	return mse.Add(aux.Mul(auxWeight)).Add(conf.Mul(1e-3 / nTokens))
}

var moeGrad = jit.ValueAndGrad[func(MoE, jit.Array, jit.Array, jit.Array) (jit.Array, MoE)](moeLoss)

func trainStep(p MoE, x, y, dispatch jit.Array) (MoE, jit.Array) {
	l, g := moeGrad(p, x, y, dispatch)
	lr := 0.2
	return MoE{Gate: p.Gate.Sub(g.Gate.Mul(lr)), Experts: Expert{
		W1: p.Experts.W1.Sub(g.Experts.W1.Mul(lr)), B1: p.Experts.B1.Sub(g.Experts.B1.Mul(lr)), W2: p.Experts.W2.Sub(g.Experts.W2.Mul(lr))}}, l
}

// routeInGraph tries to do the top-1 assignment inside the compiled program.
func routeInGraph(gate, x jit.Array) jit.Array {
	probs := softmaxRows(gateLogits(gate, x)).Float32s() // want tracedbool
	_ = probs
	return x
}

func expertLoad(dispatch jit.Array, e int) jit.Array {
	return dispatch.Slice([]int{e, 0, 0}, []int{e + 1, capacity, nTokens}).Sum()
}

func randn(rng *rand.Rand, scale float64, shape ...int) jit.Array {
	size := 1
	for _, s := range shape {
		size *= s
	}
	d := make([]float32, size)
	for k := range d {
		d[k] = float32(rng.NormFloat64() * scale)
	}
	return jit.FromSlice(d, shape...)
}

// tokens draws n tokens from nExperts clusters; targets depend on the cluster.
func tokens(rng *rand.Rand, n int) (jit.Array, jit.Array) {
	x, y := make([]float32, n*dModel), make([]float32, n*dModel)
	for t := 0; t < n; t++ {
		c := rng.Intn(nExperts)
		for j := 0; j < dModel; j++ {
			v := rng.NormFloat64()*0.3 + math.Cos(float64(c*dModel+j))
			x[t*dModel+j] = float32(v)
			y[t*dModel+j] = float32(math.Tanh(v * float64(c-1)))
		}
	}
	return jit.FromSlice(x, n, dModel), jit.FromSlice(y, n, dModel)
}

// route picks each token's top expert on the host; over-capacity tokens are dropped.
func route(logits []float32, n int) (assign [][]int, dispatch jit.Array) {
	assign = make([][]int, nExperts)
	d := make([]float32, nExperts*capacity*n)
	for t := 0; t < n; t++ {
		best := 0
		for e := 1; e < nExperts; e++ {
			if logits[t*nExperts+e] > logits[t*nExperts+best] {
				best = e
			}
		}
		if c := len(assign[best]); c < capacity {
			d[(best*capacity+c)*n+t] = 1
		}
		assign[best] = append(assign[best], t)
	}
	return assign, jit.FromSlice(d, nExperts, capacity, n)
}

func padRows(x jit.Array, rows int) jit.Array {
	n := x.Shape()[0]
	if n == rows {
		return x
	}
	return jit.Concatenate(0, x, jit.Zeros(jit.Float32, rows-n, dModel))
}

func expertAt(p Expert, e int) Expert {
	return Expert{
		W1: p.W1.Slice([]int{e, 0, 0}, []int{e + 1, dModel, dHidden}).Reshape(dModel, dHidden),
		B1: p.B1.Slice([]int{e, 0}, []int{e + 1, dHidden}).Reshape(dHidden),
		W2: p.W2.Slice([]int{e, 0, 0}, []int{e + 1, dHidden, dModel}).Reshape(dHidden, dModel),
	}
}

func main() {
	rng := rand.New(rand.NewSource(5))
	p := MoE{Gate: randn(rng, 0.5, dModel, nExperts), Experts: Expert{
		W1: randn(rng, 0.4, nExperts, dModel, dHidden), B1: jit.Zeros(jit.Float32, nExperts, dHidden), W2: randn(rng, 0.3, nExperts, dHidden, dModel)}}

	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("in-graph routing not possible:", r.(*jit.Error).Kind, "- routing on the host")
			}
		}()
		x, _ := tokens(rng, nTokens)
		jit.Jit(routeInGraph).Call(p.Gate, x)
	}()

	step := jit.Jit(trainStep)
	load := jit.Jit(expertLoad, jit.StaticArgnums(1))
	for it := 0; it < 8; it++ {
		x, y := tokens(rng, nTokens)
		logits := jit.Jit(gateLogits).Call(p.Gate, x).Float32s()
		assign, dispatch := route(logits, nTokens)
		var l jit.Array
		p, l = step.Call(p, x, y, dispatch)
		counts := make([]int, nExperts)
		for e := 0; e < nExperts; e++ {
			counts[e] = load.Call(dispatch, e).Int()
		}
		if it%2 == 1 {
			fmt.Printf("step %d loss %.4f kept per expert %v (wanted %d %d %d %d)\n", it, l.Item(), counts,
				len(assign[0]), len(assign[1]), len(assign[2]), len(assign[3]))
		}
	}

	// Per-expert check on a capacity-sized slab of tokens.
	probe, _ := tokens(rng, capacity)
	for e := 0; e < nExperts; e++ {
		ex := expertAt(p.Experts, e)
		f := jit.Jit(func(x jit.Array) jit.Array { return expertFFN(ex, x).Abs().Mean() }) // want staticargs
		fmt.Printf("expert %d mean |out| %.4f\n", e, f.Call(probe).Item())
	}

	// Dropless inference: every expert gets exactly the tokens routed to it.
	ffn := jit.Jit(expertFFN)
	for b := 0; b < 5; b++ {
		n := 20 + 5*b
		x, y := tokens(rng, n)
		// route a fixed-size (padded) block so the router compiles once
		logits := jit.Jit(gateLogits).Call(p.Gate, padRows(x, maxTokens)).Float32s()
		assign, _ := route(logits[:n*nExperts], n)
		var sq float64
		for e := 0; e < nExperts; e++ {
			if len(assign[e]) == 0 {
				continue
			}
			rows := make([]jit.Array, len(assign[e]))
			for k, t := range assign[e] {
				rows[k] = x.Slice([]int{t, 0}, []int{t + 1, dModel})
			}
			out := ffn.Call(expertAt(p.Experts, e), jit.Concatenate(0, rows...)) // want shapechurn
			for k, t := range assign[e] {
				d := out.Slice([]int{k, 0}, []int{k + 1, dModel}).Sub(y.Slice([]int{t, 0}, []int{t + 1, dModel}))
				sq += d.Mul(d).Sum().Item()
			}
		}
		fmt.Printf("dropless batch %d (%d tokens): mse %.4f\n", b, n, sq/float64(n*dModel))
	}
	fmt.Println("expert ffn compiles:", ffn.Stats().Compiles, "load compiles:", load.Stats().Compiles)
}
