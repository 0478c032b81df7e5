// Command particlefilter tracks an object bouncing in a one-dimensional box
// with a bootstrap particle filter. Observations arrive at irregular times;
// each particle is moved by a vectorized motion model that bounces it off
// the walls and, when wind is on, adds a steady drift.
// Particles are reweighted by a Gaussian observation likelihood whose width
// depends on the sensor mode, resampled systematically on the host, and the
// posterior mean is printed for every observation.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	wall      = 10.0
	particles = 128
)

type State struct {
	Pos, Vel jit.Array
}

// bounce reflects a particle that left the box [0, wall].
func bounce(s State) State {
	side := s.Pos.Gt(wall).Astype(jit.Int32).Sub(s.Pos.Lt(0).Astype(jit.Int32)).Add(1)
	return jit.Switch(side, []func(State) State{ // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		func(s State) State { return State{s.Pos.Neg(), s.Vel.Neg()} },
		func(s State) State { return s },
		func(s State) State { return State{s.Pos.Neg().Add(2 * wall), s.Vel.Neg()} },
	}, s)
}

func move(s State, noise, wind jit.Array, dt float64) State {
	vel := jit.Cond(wind, func(v jit.Array) jit.Array { return v.Add(0.3 * dt) },
		func(v jit.Array) jit.Array { return v }, s.Vel)
	pos := s.Pos.Add(vel.Mul(dt)).Add(noise.Mul(math.Sqrt(dt)))
	return bounce(State{pos, vel})
}

var moveAll = jit.Vmap(move, jit.InAxes(0, 0, jit.NotMapped, jit.NotMapped))

func predict(s State, noise, wind jit.Array, dt float64) State {
	return moveAll(s, noise, wind, dt)
}

func likelihood(pos, obs jit.Array, sigma float64) jit.Array {
	w := pos.Sub(obs).Div(sigma).Pow(2).Mul(-0.5).Exp()
	return w.Div(w.Sum().Add(1e-30))
}

func resample(s State, w []float32, u float64) State {
	pos, vel := s.Pos.Float32s(), s.Vel.Float32s()
	np, nv := make([]float32, particles), make([]float32, particles)
	cum, j := float64(w[0]), 0
	for i := 0; i < particles; i++ {
		t := (float64(i) + u) / particles
		for cum < t && j < particles-1 {
			j++
			cum += float64(w[j])
		}
		np[i], nv[i] = pos[j], vel[j]
	}
	return State{jit.FromSlice(np), jit.FromSlice(nv)}
}

func main() {
	r := rand.New(rand.NewSource(21))
	predictJit := jit.Jit(predict, jit.StaticArgnums(3))
	weigh := jit.Jit(likelihood, jit.StaticArgnums(2))

	p0, v0 := make([]float32, particles), make([]float32, particles)
	for i := range p0 {
		p0[i], v0[i] = float32(r.Float64()*wall), float32(r.NormFloat64()*2)
	}
	s := State{jit.FromSlice(p0), jit.FromSlice(v0)}
	wind := jit.Scalar(true)

	truePos, trueVel, t := 3.0, 1.7, 0.0
	for k := 0; k < 10; k++ {
		dt := 0.2 + 0.6*r.Float64()
		t += dt
		truePos += trueVel * dt
		if truePos > wall {
			truePos, trueVel = 2*wall-truePos, -trueVel
		}
		noise := make([]float32, particles)
		for i := range noise {
			noise[i] = float32(r.NormFloat64() * 0.3)
		}
		s = predictJit.Call(s, jit.FromSlice(noise), wind, dt) // want staticargs
		sigma := []float64{0.5, 1.5}[k%2]
		obs := truePos + r.NormFloat64()*sigma
		w := weigh.Call(s.Pos, jit.Scalar(float32(obs)), sigma)
		est := s.Pos.Mul(w).Sum().Item()
		fmt.Printf("t=%.2f obs %6.3f  true %6.3f  estimate %6.3f\n", t, obs, truePos, est)
		s = resample(s, w.Float32s(), r.Float64())
	}

	cj, err := jit.MakeJaxpr(moveAll, jit.StaticArgnums(3))(s, jit.Zeros(jit.Float32, particles), wind, 0.5)
	if err != nil {
		panic(err)
	}
	fmt.Println(cj)
}
