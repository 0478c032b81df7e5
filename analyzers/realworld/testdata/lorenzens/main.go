// Command lorenzens integrates an ensemble of Lorenz-63 trajectories started
// from slightly perturbed initial conditions and watches them spread apart.
// Each member is burned in, then the whole ensemble is advanced chunk by
// chunk from a host loop while a history of the ensemble mean is kept for
// drift statistics. A long reference run and a final sanity check close the
// experiment.
package main

import (
	"fmt"

	"corpus/odeint"

	"github.com/jitlint/jitlint/jit"
)

const (
	members = 16
	dt      = 0.01
	chunks  = 24
	window  = 8
)

func lorenz(y jit.Array) jit.Array {
	x := y.Slice([]int{0}, []int{1})
	u := y.Slice([]int{1}, []int{2})
	z := y.Slice([]int{2}, []int{3})
	dx := u.Sub(x).Mul(10)
	du := x.Mul(z.Neg().Add(28)).Sub(u)
	dz := x.Mul(u).Sub(z.Mul(8.0 / 3))
	return jit.Concatenate(0, dx, du, dz)
}

func burnIn(y jit.Array) jit.Array {
	return odeint.Integrate(lorenz, y, dt, 8)
}

func advance(y jit.Array) jit.Array {
	spread := y.Abs().MaxReduce()
	return jit.Cond(spread.Gt(40),
		func(y jit.Array) jit.Array { return odeint.Integrate(lorenz, y, dt/2, 2) },
		func(y jit.Array) jit.Array { return odeint.RK4(lorenz, y, dt) },
		y)
}

func chunk(y jit.Array) jit.Array {
	return odeint.Integrate(lorenz, y, dt, 50) // want unrolledloop
}

func reference(y jit.Array) jit.Array {
	return jit.ForiLoop(0, 1200, func(_ jit.Array, y jit.Array) jit.Array { return advance(y) }, y)
}

func meanAndSpread(ens jit.Array) (jit.Array, jit.Array) {
	mean := ens.Mean(0)
	spread := ens.Sub(mean).Pow(2).Sum(1).Mean().Sqrt()
	return mean, spread
}

func drift(hist jit.Array) jit.Array {
	n := hist.Shape()[0]
	first := hist.Slice([]int{0, 0}, []int{1, 3})
	last := hist.Slice([]int{n - 1, 0}, []int{n, 3})
	return last.Sub(first).Pow(2).Sum().Sqrt().Div(float64(n))
}

func validate(y jit.Array) jit.Array {
	if y.Abs().MaxReduce().Item() > 1e3 { // want tracedbool
		panic("ensemble blew up")
	}
	return y
}

func initial() jit.Array {
	vals := make([]float32, 0, members*3)
	for i := 0; i < members; i++ {
		eps := float32(i) * 1e-3
		vals = append(vals, 1+eps, 1, 1-eps)
	}
	return jit.FromSlice(vals, members, 3)
}

func main() {
	burn := jit.Jit(jit.Vmap(burnIn))
	step := jit.Jit(jit.Vmap(chunk))
	stats := jit.Jit(meanAndSpread)
	driftFn := jit.Jit(drift)

	ens := burn.Call(initial())
	for i := 0; i < 3; i++ {
		ens = burn.Call(ens)
	}
	mean, spread := stats.Call(ens)
	hist := mean.Reshape(1, 3)
	fmt.Printf("after burn-in: spread %.5f\n", spread.Item())

	for c := 0; c < chunks; c++ {
		ens = step.Call(ens)
		mean, spread = stats.Call(ens)
		hist = jit.Concatenate(0, hist, mean.Reshape(1, 3))
		total := driftFn.Call(hist) // want shapechurn
		n := hist.Shape()[0]
		if n >= window {
			recent := driftFn.Call(hist.Slice([]int{n - window, 0}, []int{n, 3}))
			fmt.Printf("chunk %2d: spread %8.4f drift %.4f (recent %.4f)\n", c, spread.Item(), total.Item(), recent.Item())
		}
	}

	ref := jit.Jit(reference).Call(initial().Slice([]int{0, 0}, []int{1, 3}).Reshape(3))
	fmt.Println("reference end state:", ref)
	fmt.Println("chunk compiles:", step.Stats().Compiles, "drift signatures:", len(driftFn.Signatures()))
	jit.Jit(validate).Call(ens)
}
