// Command nbody advances a gravitational n-body system; the pairwise
// forces are summed by a Go loop over the bodies, whose count comes from
// the array's shape.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// accel sums the pull of every body on every other one.
func accel(pos jit.Array) jit.Array {
	n := pos.Shape()[0]
	acc := jit.Zeros(jit.Float32, n, 2)
	for i := 0; i < n; i++ { // want unrolledloop
		other := pos.Slice([]int{i, 0}, []int{i + 1, 2})
		d := other.Sub(pos)
		r2 := d.Pow(2).Sum(1).Add(0.01).Reshape(n, 1)
		acc = acc.Add(d.Div(r2.Pow(1.5)))
	}
	for dim := 0; dim < pos.Ndim(); dim++ {
		acc = acc.Mul(0.999)
	}
	return acc
}

func leapfrog(pos, vel jit.Array) (jit.Array, jit.Array) {
	vel = vel.Add(accel(pos).Mul(0.01))
	return pos.Add(vel.Mul(0.01)), vel
}

func main() {
	const n = 40
	p := make([]float32, 2*n)
	for i := range p {
		p[i] = float32(i%7) - float32(i%5)
	}
	pos, vel := jit.FromSlice(p, n, 2), jit.Zeros(jit.Float32, n, 2)
	step := jit.Jit(leapfrog)
	for range 5 {
		pos, vel = step.Call(pos, vel)
	}
	fmt.Println(pos.Sum())
}
