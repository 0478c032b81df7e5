// Command fedavg simulates federated averaging for a linear regression model:
// every round the server fans the current parameters out to one goroutine per
// client shard, each computes its gradient, the gradients are gathered over a
// channel and averaged, and the server applies a step with a stepped learning
// rate schedule. After each round it reports the held-out MSE and a Huber
// loss whose threshold is annealed as training goes on.
package main

import (
	"fmt"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	nShards  = 4
	perShard = 16
	nFeat    = 3
	rounds   = 6
)

type Params struct {
	W jit.Array
	B jit.Array
}

type shard struct {
	x, y jit.Array
}

type shardGrad struct {
	idx int
	g   Params
}

func predict(p Params, x jit.Array) jit.Array {
	return x.MatMul(p.W).Add(p.B)
}

func mseLoss(p Params, x, y jit.Array) jit.Array {
	d := predict(p, x).Sub(y)
	return d.Mul(d).Mean()
}

func meanGrads(gs []Params) Params {
	w, b := gs[0].W, gs[0].B
	for _, g := range gs[1:] {
		w, b = w.Add(g.W), b.Add(g.B)
	}
	return Params{W: w.Div(float64(len(gs))), B: b.Div(float64(len(gs)))}
}

func applyUpdate(p, g Params, lr float64) Params {
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}
}

func huberLoss(p Params, x, y jit.Array, delta float64) jit.Array {
	a := predict(p, x).Sub(y).Abs()
	quad := a.Mul(a).Mul(0.5)
	lin := a.Sub(delta / 2).Mul(delta)
	return jit.Where(a.Le(delta), quad, lin).Mean()
}

func makeShard(seed, n int) shard {
	xs := make([]float32, n*nFeat)
	ys := make([]float32, n)
	trueW := []float32{1.5, -2, 0.5}
	for i := 0; i < n; i++ {
		var t float32 = 0.3
		for j := 0; j < nFeat; j++ {
			v := float32(((seed+1)*(i+3)*(j+7))%11)/5 - 1
			xs[i*nFeat+j] = v
			t += v * trueW[j]
		}
		ys[i] = t
	}
	return shard{x: jit.FromSlice(xs, n, nFeat), y: jit.FromSlice(ys, n)}
}

func main() {
	shards := make([]shard, nShards)
	for i := range shards {
		shards[i] = makeShard(i, perShard)
	}
	val := makeShard(99, 32)

	gradFn := jit.Jit(jit.Grad[func(Params, jit.Array, jit.Array) Params](mseLoss))
	average := jit.Jit(meanGrads)
	huber := jit.Jit(huberLoss, jit.StaticArgnums(3))
	schedule := []float64{0.2, 0.2, 0.2, 0.1, 0.1, 0.1}

	p := Params{W: jit.Zeros(jit.Float32, nFeat), B: jit.Scalar[float32](0)}
	for round := 0; round < rounds; round++ {
		results := make(chan shardGrad, nShards)
		var wg sync.WaitGroup
		for i := range shards {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results <- shardGrad{idx: i, g: gradFn.Call(p, shards[i].x, shards[i].y)}
			}()
		}
		go func() {
			wg.Wait()
			close(results)
		}()
		gs := make([]Params, nShards)
		for r := range results {
			gs[r.idx] = r.g
		}

		step := jit.Jit(applyUpdate, jit.StaticArgnums(2))
		p = step.Call(p, average.Call(gs), schedule[round])

		evaluate := jit.Jit(func(p Params, x, y jit.Array) jit.Array { // want staticargs
			return mseLoss(p, x, y)
		})
		mse := evaluate.Call(p, val.x, val.y).Item()
		delta := 1.0 / float64(round+1)
		hl := huber.Call(p, val.x, val.y, delta).Item() // want staticargs
		fmt.Printf("round %d: val mse %.4f huber(%.2f) %.4f\n", round, mse, delta, hl)
	}
	fmt.Printf("grad traces %d, average traces %d, huber traces %d\n",
		gradFn.Stats().Traces, average.Stats().Traces, huber.Stats().Traces)
	fmt.Println("W =", p.W, "B =", p.B)
}
