// Command hparam_sweep sweeps learning rate, weight decay and optimizer for
// a linear regression trained entirely inside one jitted ScanN.
package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

const (
	nSamples = 64
	nFeat    = 6
	nSteps   = 50
)

func mse(w, x, y jit.Array) jit.Array {
	return x.MatMul(w).Sub(y).Pow(2).Mean()
}

var gradMSE = jit.Grad[func(w, x, y jit.Array) jit.Array](mse)

// TrainRun trains for a fixed number of steps; lr and steps are static.
func TrainRun(w0, x, y jit.Array, lr float64, steps int) jit.Array {
	w, _ := jit.ScanN(func(w jit.Array) (jit.Array, jit.Array) {
		return w.Sub(gradMSE(w, x, y).Mul(lr)), mse(w, x, y)
	}, w0, steps)
	return w
}

// TrainRunTraced takes the learning rate as a traced scalar.
func TrainRunTraced(w0, x, y, lr jit.Array, steps int) jit.Array {
	w, _ := jit.ScanN(func(w jit.Array) (jit.Array, jit.Array) {
		return w.Sub(gradMSE(w, x, y).Mul(lr)), mse(w, x, y)
	}, w0, steps)
	return w
}

// Step is one optimizer step; the optimizer name is static.
func Step(w, mom, x, y, lr jit.Array, opt string) (jit.Array, jit.Array) {
	g := gradMSE(w, x, y)
	if opt == "momentum" {
		mom = mom.Mul(0.9).Add(g)
		return w.Sub(mom.Mul(lr)), mom
	}
	return w.Sub(g.Mul(lr)), mom
}

// Evaluate is the validation loss.
func Evaluate(w, x, y jit.Array) jit.Array { return mse(w, x, y) }

func data() (jit.Array, jit.Array) {
	xs := make([]float32, nSamples*nFeat)
	ys := make([]float32, nSamples)
	for i := 0; i < nSamples; i++ {
		var t float64
		for j := 0; j < nFeat; j++ {
			v := math.Sin(float64(i*nFeat+j) * 0.37)
			xs[i*nFeat+j] = float32(v)
			t += v * float64(j+1) * 0.5
		}
		ys[i] = float32(t)
	}
	return jit.FromSlice(xs, nSamples, nFeat), jit.FromSlice(ys, nSamples, 1)
}

type result struct {
	name string
	loss float64
}

func main() {
	x, y := data()
	w0 := jit.Zeros(jit.Float32, nFeat, 1)
	lrs := []float64{0.3, 0.1, 0.03, 0.01, 0.003, 0.001}

	// Sweep 1: lr as a static argument, one compile per value.
	run := jit.Jit(TrainRun, jit.StaticArgnums(3, 4))
	var results []result
	for _, lr := range lrs {
		w := run.Call(w0, x, y, lr, nSteps) // want staticargs
		results = append(results, result{fmt.Sprintf("static lr=%g", lr), jit.Jit(Evaluate).Call(w, x, y).Item()})
	}

	// Sweep 1 again, with lr traced: one compile for all values.
	runT := jit.Jit(TrainRunTraced, jit.StaticArgnums(4))
	for _, lr := range lrs {
		w := runT.Call(w0, x, y, jit.Scalar(float32(lr)), nSteps)
		results = append(results, result{fmt.Sprintf("traced lr=%g", lr), jit.Jit(Evaluate).Call(w, x, y).Item()})
	}

	// Sweep 2: weight decay baked into a fresh closure per value.
	for _, wd := range []float64{0, 1e-4, 1e-3, 1e-2} {
		reg := jit.Jit(func(w, x, y jit.Array) jit.Array { // want staticargs
			return mse(w, x, y).Add(w.Pow(2).Sum().Mul(wd))
		})
		results = append(results, result{fmt.Sprintf("wd=%g", wd), reg.Call(w0, x, y).Item()})
	}

	// Sweep 3: two optimizers, alternating, many steps each.
	step := jit.Jit(Step, jit.StaticArgnums(5))
	ws := map[string]jit.Array{"sgd": w0, "momentum": w0}
	moms := map[string]jit.Array{"sgd": w0, "momentum": w0}
	lr := jit.Scalar(float32(0.05))
	for it := 0; it < 15; it++ {
		for _, opt := range []string{"sgd", "momentum"} {
			ws[opt], moms[opt] = step.Call(ws[opt], moms[opt], x, y, lr, opt)
		}
	}
	for _, opt := range []string{"sgd", "momentum"} {
		results = append(results, result{"opt=" + opt, jit.Jit(Evaluate).Call(ws[opt], x, y).Item()})
	}

	sort.Slice(results, func(i, j int) bool { return results[i].loss < results[j].loss })
	for _, r := range results[:5] {
		fmt.Printf("%-20s loss=%.5f\n", r.name, r.loss)
	}
	fmt.Printf("compiles: static=%d traced=%d step=%d\n", run.Stats().Compiles, runT.Stats().Compiles, step.Stats().Compiles)
}
