// Command hparam_sweep runs a grid search over learning rate, weight decay,
// hidden width and activation for a small regression MLP, then draws a
// learning curve (validation loss against training-set size) for the best
// configuration. It started as a quick notebook sweep and was later rewritten
// with one jitted epoch function shared by every configuration.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

// Params of a features -> hidden -> 1 MLP.
type Params struct {
	W1, B1, W2 jit.Array
}

// HParams is one point of the grid.
type HParams struct {
	LR, L2 float64
	Hidden int
	Act    string
}

const features = 4

func predict(p Params, x jit.Array, act string) jit.Array {
	h := x.MatMul(p.W1).Add(p.B1)
	if act == "relu" {
		h = jit.Relu(h)
	} else {
		h = h.Tanh()
	}
	return h.MatMul(p.W2).Reshape(-1)
}

func mse(p Params, x, y jit.Array, act string) jit.Array {
	d := predict(p, x, act).Sub(y)
	return d.Mul(d).Mean()
}

var grad = jit.Grad[func(Params, jit.Array, jit.Array, string) Params](mse)

func sgd(p, g Params, lr, l2 any) Params {
	upd := func(w, gw jit.Array) jit.Array { return w.Sub(gw.Add(w.Mul(l2)).Mul(lr)) }
	return Params{W1: upd(p.W1, g.W1), B1: upd(p.B1, g.B1), W2: upd(p.W2, g.W2)}
}

// epoch runs 25 SGD steps as one structured loop.
func epoch(p Params, x, y, lr, l2 jit.Array, act string) Params {
	return jit.ForiLoop(0, 25, func(_ jit.Array, p Params) Params {
		return sgd(p, grad(p, x, y, act), lr, l2)
	}, p)
}

func initParams(hidden int) Params {
	r := rand.New(rand.NewPCG(uint64(hidden), 9))
	w1, w2 := make([]float32, features*hidden), make([]float32, hidden)
	for i := range w1 {
		w1[i] = float32(r.NormFloat64() / math.Sqrt(features))
	}
	for i := range w2 {
		w2[i] = float32(r.NormFloat64() / math.Sqrt(float64(hidden)))
	}
	return Params{W1: jit.FromSlice(w1, features, hidden), B1: jit.Zeros(jit.Float32, hidden), W2: jit.FromSlice(w2, hidden, 1)}
}

func makeData(r *rand.Rand, n int) (jit.Array, jit.Array) {
	xs, ys := make([]float32, n*features), make([]float32, n)
	for i := 0; i < n; i++ {
		row := xs[i*features : (i+1)*features]
		for j := range row {
			row[j] = float32(r.Float64()*2 - 1)
		}
		ys[i] = float32(math.Sin(2*float64(row[0])) + 0.5*float64(row[1]*row[2]) + 0.05*r.NormFloat64())
	}
	return jit.FromSlice(xs, n, features), jit.FromSlice(ys)
}

func grid() []HParams {
	var out []HParams
	for _, lr := range []float64{0.05, 0.2, 0.5} {
		for _, l2 := range []float64{0, 1e-3} {
			out = append(out, HParams{lr, l2, 8, "tanh"}, HParams{lr, l2, 16, "relu"})
		}
	}
	return out
}

func main() {
	r := rand.New(rand.NewPCG(1, 2))
	xTrain, yTrain := makeData(r, 200)
	xVal, yVal := makeData(r, 64)
	evalLoss := jit.Jit(mse, jit.StaticArgnums(3))

	// The notebook version: one closure per configuration.
	quickBest := math.Inf(1)
	for _, hp := range grid() {
		train := jit.Jit(func(p Params, x, y jit.Array) Params { // want staticargs
			return jit.ForiLoop(0, 75, func(_ jit.Array, p Params) Params {
				return sgd(p, grad(p, x, y, hp.Act), hp.LR, hp.L2)
			}, p)
		})
		p := train.Call(initParams(hp.Hidden), xTrain, yTrain)
		quickBest = math.Min(quickBest, evalLoss.Call(p, xVal, yVal, hp.Act).Item())
	}
	fmt.Printf("quick sweep: best val loss %.4f\n", quickBest)

	// The rewrite: hyper-parameters as traced scalars, activation static.
	epochs := map[string]*jit.Func[func(Params, jit.Array, jit.Array, jit.Array, jit.Array, string) Params]{}
	var best HParams
	var bestParams Params
	bestLoss := math.Inf(1)
	for _, hp := range grid() {
		run, ok := epochs[hp.Act]
		if !ok {
			run = jit.Jit(epoch, jit.StaticArgnums(5))
			epochs[hp.Act] = run
		}
		p := initParams(hp.Hidden)
		lr, l2 := jit.Scalar(float32(hp.LR)), jit.Scalar(float32(hp.L2))
		for e := 0; e < 3; e++ {
			p = run.Call(p, xTrain, yTrain, lr, l2, hp.Act)
		}
		if l := evalLoss.Call(p, xVal, yVal, hp.Act).Item(); l < bestLoss {
			best, bestParams, bestLoss = hp, p, l
		}
	}
	fmt.Printf("full sweep: best %+v val loss %.4f (epoch compiles: tanh=%d relu=%d)\n",
		best, bestLoss, epochs["tanh"].Stats().Compiles, epochs["relu"].Stats().Compiles)

	// Learning curve for the best configuration.
	for n := 20; n <= 200; n += 20 {
		xs := xTrain.Slice([]int{0, 0}, []int{n, features})
		ys := yTrain.Slice([]int{0}, []int{n})
		fit := evalLoss.Call(bestParams, xs, ys, best.Act) // want shapechurn
		fmt.Printf("  n=%3d train loss %.4f\n", n, fit.Item())
	}
	fmt.Println("eval signatures:", len(evalLoss.Signatures()))
}
