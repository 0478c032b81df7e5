// Command particles tracks a 1-D random walk with a bootstrap particle
// filter: the jitted step moves and weighs a fixed number of particles;
// resampling runs on the host between steps. A second port passes the time
// step to the jitted function as a static argument for its noise schedule.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/jitlint/jitlint/jit"
)

const (
	nParticles = 256
	nSensors   = 3
)

// weigh moves the particles by drift plus noise and returns them with
// their normalised likelihood under the sensors' readings.
func weigh(particles, noise, readings jit.Array) (jit.Array, jit.Array) {
	moved := particles.Add(0.1).Add(noise)
	logw := jit.Zeros(jit.Float32, nParticles)
	for s := 0; s < nSensors; s++ {
		r := readings.Slice([]int{s}, []int{s + 1})
		d := moved.Sub(r)
		logw = logw.Sub(d.Mul(d).Mul(0.5))
	}
	w := logw.Sub(logw.MaxReduce()).Exp()
	return moved, w.Div(w.Sum())
}

// weighAt is weigh whose noise shrinks with the step t.
func weighAt(particles, noise, readings jit.Array, t int) (jit.Array, jit.Array) {
	return weigh(particles, noise.Mul(1/math.Sqrt(float64(t+1))), readings)
}

// resample draws nParticles indices in proportion to the weights
// (systematic resampling) on the host.
func resample(particles, weights jit.Array, rng *rand.Rand) jit.Array {
	p, w := particles.Float32s(), weights.Float32s()
	out := make([]float32, nParticles)
	u := rng.Float64() / nParticles
	c, j := float64(w[0]), 0
	for i := 0; i < nParticles; i++ {
		for u > c && j < nParticles-1 {
			j++
			c += float64(w[j])
		}
		out[i] = p[j]
		u += 1.0 / nParticles
	}
	return jit.FromSlice(out)
}

func noise(rng *rand.Rand) jit.Array {
	n := make([]float32, nParticles)
	for i := range n {
		n[i] = float32(rng.NormFloat64() * 0.3)
	}
	return jit.FromSlice(n)
}

func readingsAt(truth float64, rng *rand.Rand) jit.Array {
	r := make([]float32, nSensors)
	for i := range r {
		r[i] = float32(truth + rng.NormFloat64()*0.2)
	}
	return jit.FromSlice(r)
}

func main() {
	rng := rand.New(rand.NewPCG(7, 11))
	step := jit.Jit(weigh)
	stepAt := jit.Jit(weighAt, jit.StaticArgnums(3))
	p := jit.Zeros(jit.Float32, nParticles)
	q := p
	truth := 0.0
	for t := 0; t < 6; t++ {
		truth += 0.1
		obs := readingsAt(truth, rng)
		moved, w := step.Call(p, noise(rng), obs)
		p = resample(moved, w, rng)
		movedQ, wq := stepAt.Call(q, noise(rng), obs, t) // want staticargs
		q = resample(movedQ, wq, rng)
		fmt.Printf("t=%d truth=%.2f filter=%.3f annealed=%.3f\n", t, truth, p.Mean().Item(), q.Mean().Item())
	}
}
