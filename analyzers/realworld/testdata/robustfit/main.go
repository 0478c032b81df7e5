// Command robustfit scores a fitted line against noisy observations with
// per-point robust losses, vectorized over points with jit.Vmap. Each point
// gets a loss that is quadratic near zero and switches to a heavier-tailed
// penalty for large residuals; the tail family is a global setting, each
// point carries a sensor class that picks its noise model, and each point's
// scale is refined with a few fixed-point iterations.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const delta = 1.0

func quadratic(r jit.Array) jit.Array { return r.Mul(r).Mul(0.5) }

func huberTail(r jit.Array) jit.Array { return r.Abs().Sub(0.5 * delta).Mul(delta) }

// pointLoss is the loss of one residual r for a point of sensor class cls;
// with cauchy set, the Huber loss l is flattened further to log(1 + 2l).
func pointLoss(r, cls, cauchy jit.Array) jit.Array {
	big := r.Abs().Gt(delta)
	base := jit.Cond(big, huberTail, quadratic, r) // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
	robust := jit.Cond(cauchy,
		func(l jit.Array) jit.Array { return l.Mul(2).Log1p() },
		func(l jit.Array) jit.Array { return l },
		base)
	noise := []func(jit.Array) jit.Array{
		func(l jit.Array) jit.Array { return l },
		func(l jit.Array) jit.Array { return l.Mul(0.25) },
		func(l jit.Array) jit.Array { return l.Sqrt() },
	}
	return jit.Switch(cls, noise, robust) // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
}

type scaleState struct {
	S, Iter jit.Array
}

// pointScale refines a robust scale estimate for residual r with a fixed
// number of fixed-point steps.
func pointScale(r jit.Array) jit.Array {
	out := jit.WhileLoop(
		func(c scaleState) jit.Array { return c.Iter.Lt(6) },
		func(c scaleState) scaleState {
			s := c.S.Add(r.Abs().Div(c.S)).Mul(0.5)
			return scaleState{S: s, Iter: c.Iter.Add(1)}
		},
		scaleState{S: jit.Scalar(float32(1)), Iter: jit.Scalar(int32(0))})
	return out.S
}

func observations() (res, cls jit.Array) {
	rs := make([]float32, 10)
	cs := make([]int32, 10)
	for i := range rs {
		rs[i] = float32(2.5 * math.Sin(float64(i)*1.9))
		cs[i] = int32(i % 3)
	}
	return jit.FromSlice(rs), jit.FromSlice(cs)
}

func main() {
	res, cls := observations()
	losses := jit.Vmap(pointLoss, jit.InAxes(0, 0, jit.NotMapped))
	batchLoss := jit.Jit(losses)
	for _, c := range []bool{false, true} {
		l := batchLoss.Call(res, cls, jit.Scalar(c))
		fmt.Printf("cauchy=%v losses: %.3f\n", c, l.Float32s())
	}
	jx, err := jit.MakeJaxpr(losses)(res, cls, jit.Scalar(true))
	if err != nil {
		panic(err)
	}
	fmt.Println(jx)

	scales := jit.Vmap(pointScale)
	fmt.Printf("scales: %.3f\n", scales(res).Float32s())
	js, err := jit.MakeJaxpr(scales)(res)
	if err != nil {
		panic(err)
	}
	fmt.Println(js)
}
