// Command heatsolver integrates the 1-D heat equation u_t = alpha*u_xx with
// explicit finite differences and runs a small grid-convergence study.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const stepsPerFrame = 48

// snapshots collects intermediate fields for plotting.
var snapshots []jit.Array

// laplacian is the second difference with zero (Dirichlet) boundaries.
func laplacian(u jit.Array) jit.Array {
	n := u.Shape()[0]
	left := u.Slice([]int{0}, []int{n - 2})
	mid := u.Slice([]int{1}, []int{n - 1})
	right := u.Slice([]int{2}, []int{n})
	inner := left.Add(right).Sub(mid.Mul(2))
	zero := jit.Zeros(jit.Float32, 1)
	return jit.Concatenate(0, zero, inner, zero)
}

// frameUnrolled advances one frame with a Go loop; alpha is static.
func frameUnrolled(u jit.Array, alpha float64) jit.Array {
	if alpha > 0.5 {
		panic("explicit scheme unstable for alpha > 0.5")
	}
	for i := 0; i < stepsPerFrame; i++ { // want unrolledloop
		u = u.Add(laplacian(u).Mul(alpha))
	}
	return u
}

// frameLoop advances one frame with a staged loop.
func frameLoop(u jit.Array, alpha float64) jit.Array {
	return jit.ForiLoop(0, stepsPerFrame, func(i jit.Array, v jit.Array) jit.Array {
		return v.Add(laplacian(v).Mul(alpha))
	}, u)
}

// frameRecorded keeps every frame it produces.
func frameRecorded(u jit.Array, alpha float64) jit.Array {
	out := frameLoop(u, alpha)
	snapshots = append(snapshots, out) // want traceeffect
	return out
}

// energy is the discrete L2 norm of the field, guarded against blow-up.
func energy(u jit.Array) jit.Array {
	e := u.Pow(2).Sum()
	if e.Item() > 1e6 { // want tracedbool
		return jit.Full(math.Inf(1), jit.Float32)
	}
	return e
}

// bump is a sine bump on n points.
func bump(n int) jit.Array {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(math.Sin(math.Pi * float64(i) / float64(n-1)))
	}
	return jit.FromSlice(xs)
}

func main() {
	const alpha = 0.25
	unrolled := jit.Jit(frameUnrolled, jit.StaticArgnums(1))
	looped := jit.Jit(frameLoop, jit.StaticArgnums(1))
	recorded := jit.Jit(frameRecorded, jit.StaticArgnums(1))

	u := bump(64)
	v := u
	for frame := 0; frame < 6; frame++ {
		u = unrolled.Call(u, alpha)
		v = looped.Call(v, alpha)
		fmt.Printf("frame %d  peak %.5f  (unrolled %.5f)\n", frame, v.MaxReduce().Item(), u.MaxReduce().Item())
	}

	w := bump(64)
	for frame := 0; frame < 4; frame++ {
		w = recorded.Call(w, alpha)
	}
	fmt.Printf("recorded %d snapshot(s) over 4 frames\n", len(snapshots))

	// Grid-convergence study: every resolution is a new shape.
	var prev float64
	for k := 0; k < 8; k++ {
		n := 33 + 16*k
		peak := looped.Call(bump(n), alpha).MaxReduce().Item() // want shapechurn
		fmt.Printf("n=%3d  peak %.6f  change %+.2e\n", n, peak, peak-prev)
		prev = peak
	}

	// Alternating between two production grids only compiles twice.
	grids := []int{64, 128}
	for rep := 0; rep < 10; rep++ {
		n := grids[rep%2]
		looped.Call(bump(n), alpha)
	}
	fmt.Printf("looped compiles %d, unrolled compiles %d\n", looped.Stats().Compiles, unrolled.Stats().Compiles)

	fmt.Println("energy:", jit.Jit(energy).Call(v))
}
