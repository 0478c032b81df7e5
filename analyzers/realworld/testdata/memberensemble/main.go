// ensemble trains a deep ensemble of small MLPs jointly (Vmap over the
// members), reports predictive mean and spread with Vmap(Vmap(...)) over
// members and inputs, distils a large ensemble and calibrates the spread.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const (
	members = 6
	inDim   = 4
	hidden  = 8
	nTrain  = 24
)

// Member holds the parameters of every member, stacked on axis 0.
type Member struct {
	W1, B1, W2, B2 jit.Array
}

// Summary is the ensemble's predictive distribution per input.
type Summary struct {
	Mean, Std jit.Array
}

var inferenceTime time.Duration

func initMembers(m int, seed float64) Member {
	w := func(n int, s float64, shape ...int) jit.Array {
		return jit.Arange(n, jit.Float32).Mul(0.613).Add(s).Sin().Mul(0.5).Reshape(shape...)
	}
	return Member{
		W1: w(m*inDim*hidden, seed, m, inDim, hidden),
		B1: jit.Zeros(jit.Float32, m, hidden),
		W2: w(m*hidden, seed+1, m, hidden),
		B2: jit.Zeros(jit.Float32, m),
	}
}

// forward is one member on one input: x [inDim] -> scalar.
func forward(p Member, x jit.Array) jit.Array {
	h := x.MatMul(p.W1).Add(p.B1).Tanh()
	return h.MatMul(p.W2).Add(p.B2)
}

// batchForward is one member on a batch: x [n, inDim] -> [n].
func batchForward(p Member, x jit.Array) jit.Array {
	return x.MatMul(p.W1).Add(p.B1).Tanh().MatMul(p.W2).Add(p.B2)
}

var (
	perMember = jit.Vmap(batchForward, jit.InAxes(0, jit.NotMapped))
	grid      = jit.Vmap(jit.Vmap(forward, jit.InAxes(jit.NotMapped, 0)), jit.InAxes(0, jit.NotMapped))
)

func ensembleLoss(p Member, x, y jit.Array) jit.Array {
	d := perMember(p, x).Sub(y)
	return d.Mul(d).Mean()
}

func trainStep(p Member, x, y, lr jit.Array) Member {
	g := jit.Grad[func(Member, jit.Array, jit.Array) Member](ensembleLoss)(p, x, y)
	return Member{
		W1: p.W1.Sub(g.W1.Mul(lr)), B1: p.B1.Sub(g.B1.Mul(lr)),
		W2: p.W2.Sub(g.W2.Mul(lr)), B2: p.B2.Sub(g.B2.Mul(lr)),
	}
}

func summarize(p Member, x jit.Array) Summary {
	t0 := time.Now() // want traceeffect
	preds := grid(p, x)
	mean := preds.Mean(0)
	d := preds.Sub(mean)
	s := Summary{Mean: mean, Std: d.Mul(d).Mean(0).Sqrt()}
	inferenceTime += time.Since(t0) // want traceeffect
	return s
}

func member(p Member, k int) Member {
	pick := func(a jit.Array) jit.Array {
		s := a.Shape()
		start := make([]int, len(s))
		limit := append([]int{}, s...)
		start[0], limit[0] = k, k+1
		return a.Slice(start, limit).Reshape(s[1:]...)
	}
	return Member{W1: pick(p.W1), B1: pick(p.B1), W2: pick(p.W2), B2: pick(p.B2)}
}

// topKMean averages the first k members' predictions.
func topKMean(p Member, x jit.Array, k int) jit.Array {
	acc := jit.Zeros(jit.Float32, x.Shape()[0])
	for i := 0; i < k; i++ {
		acc = acc.Add(batchForward(member(p, i), x))
	}
	return acc.Div(k)
}

// distillTargets averages every member of a large ensemble.
func distillTargets(big Member, x jit.Array) jit.Array {
	n := big.W1.Shape()[0]
	acc := jit.Zeros(jit.Float32, x.Shape()[0])
	for i := 0; i < n; i++ { // want unrolledloop
		acc = acc.Add(batchForward(member(big, i), x))
	}
	return acc.Div(n)
}

// calibrate rescales the spread to a target coverage.
func calibrate(p Member, x, y jit.Array) jit.Array {
	s := summarize(p, x)
	z := y.Sub(s.Mean).Abs().Div(s.Std.Add(1e-6))
	if z.Mean().Item() > 3 { // want tracedbool
		return s.Std.Mul(z.Mean().Div(3))
	}
	return s.Std
}

func data(n int, phase float64) (x, y jit.Array) {
	x = jit.Arange(n*inDim, jit.Float32).Mul(0.377).Add(phase).Sin().Reshape(n, inDim)
	y = x.Sum(1).Mul(1.3).Sin()
	return x, y
}

func main() {
	p := initMembers(members, 0)
	x, y := data(nTrain, 0)

	step := jit.Jit(trainStep)
	for it := 0; it < 30; it++ {
		lr := jit.Scalar(float32(0.3 * math.Pow(0.97, float64(it))))
		p = step.Call(p, x, y, lr)
	}
	fmt.Printf("ensemble loss after training: %.5f\n", jit.Jit(ensembleLoss).Call(p, x, y).Item())

	rng := rand.New(rand.NewSource(7))
	boot := make([]float32, nTrain)
	for i := range boot {
		boot[i] = float32(rng.Intn(nTrain))
	}
	fmt.Printf("bootstrap draw mean index %.2f\n", jit.FromSlice(boot).Mean().Item())

	summ := jit.Jit(summarize)
	pool, _ := data(4, 10)
	for round := 0; round < 5; round++ {
		s := summ.Call(p, pool) // want shapechurn
		fmt.Printf("round %d: %d pool points, mean spread %.4f\n", round, pool.Shape()[0], s.Std.Mean().Item())
		more, _ := data(3, float64(round)*2.3)
		pool = jit.Concatenate(0, pool, more)
	}
	fmt.Println("inference time recorded:", inferenceTime > 0)

	top := jit.Jit(topKMean, jit.StaticArgnums(2))
	agree := 0.0
	for i := 0; i < 40; i++ {
		k := 3
		if i >= 20 {
			k = 5
		}
		xi, _ := data(8, float64(i)*0.1)
		agree += top.Call(p, xi, k).Mean().Item()
	}
	fmt.Printf("committee mean prediction %.4f\n", agree/40)

	big := initMembers(40, 3)
	targets := jit.Jit(distillTargets).Call(big, x)
	fmt.Printf("distillation targets: %v, mean %.4f\n", targets.Shape(), targets.Mean().Item())

	jit.Jit(calibrate).Call(p, x, y).BlockUntilReady()
}
