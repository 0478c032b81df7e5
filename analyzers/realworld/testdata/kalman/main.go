// Command kalman filters a noisy 1-D position track with a constant-velocity
// Kalman filter. The first filter ranges over the observations passed as a
// slice (one unrolled update per time step); the scan version traces the
// update once. The fusion step ranges over a few sensors (structure), and
// the gate rejects outliers with jit.Where, not a Go branch.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type state struct {
	X jit.Array // [2]: position, velocity
	P jit.Array // [2, 2] covariance
}

var (
	F = jit.FromSlice([]float32{1, 1, 0, 1}, 2, 2)
	H = jit.FromSlice([]float32{1, 0}, 1, 2)
	Q = jit.FromSlice([]float32{0.01, 0, 0, 0.01}, 2, 2)
)

// update is one predict + correct step for a scalar observation z.
func update(s state, z jit.Array) state {
	x := F.MatMul(s.X.Reshape(2, 1))
	p := F.MatMul(s.P).MatMul(F.Transpose(1, 0)).Add(Q)
	innov := z.Reshape(1, 1).Sub(H.MatMul(x))
	sv := H.MatMul(p).MatMul(H.Transpose(1, 0)).Add(0.5)
	k := p.MatMul(H.Transpose(1, 0)).Div(sv)
	gate := innov.Abs().Lt(3).Astype(jit.Float32)
	x = x.Add(k.MatMul(innov).Mul(gate))
	p = p.Sub(k.MatMul(H).MatMul(p).Mul(gate))
	return state{X: x.Reshape(2), P: p}
}

// filter runs the update over every observation.
func filter(s state, obs []jit.Array) state {
	for _, z := range obs { // want unrolledloop
		s = update(s, z)
	}
	return s
}

// filterScan scans the update over the stacked observations.
func filterScan(s state, obs jit.Array) state {
	out, _ := jit.Scan(func(s state, z jit.Array) (state, jit.Array) {
		s = update(s, z)
		return s, s.X
	}, s, obs)
	return out
}

// fuse averages the readings of the sensors into one observation.
func fuse(sensors []jit.Array, weights []float64) jit.Array {
	total := jit.Zeros(jit.Float32)
	for i, r := range sensors {
		total = total.Add(r.Mul(weights[i]))
	}
	return total
}

func track(n int) []float32 {
	zs := make([]float32, n)
	for t := range zs {
		zs[t] = float32(t)*0.5 + float32(t%3)*0.1
	}
	return zs
}

func main() {
	zs := track(60)
	var obs []jit.Array
	for _, z := range zs {
		obs = append(obs, jit.Scalar(z))
	}
	s0 := state{X: jit.Zeros(jit.Float32, 2), P: jit.Ones(jit.Float32, 2, 2)}
	f := jit.Jit(filter)
	fmt.Println("unrolled filter:", f.Call(s0, obs).X)

	g := jit.Jit(filterScan)
	fmt.Println("scanned filter:", g.Call(s0, jit.FromSlice(zs, len(zs))).X)

	weights := []float64{0.5, 0.3, 0.2}
	fz := jit.Jit(func(sensors []jit.Array) jit.Array { return fuse(sensors, weights) })
	for t := range 5 {
		sensors := []jit.Array{jit.Scalar(zs[t]), jit.Scalar(zs[t] + 0.1), jit.Scalar(zs[t] - 0.1)}
		fmt.Println("fused", t, fz.Call(sensors).Item())
	}

	// A divergence check written as a Go branch on the covariance.
	checked := jit.Jit(func(s state, z jit.Array) state {
		s = update(s, z)
		if s.P.Sum().Item() > 1e6 { // want tracedbool
			return s0
		}
		return s
	})
	fmt.Println(checked.Call(s0, obs[0]).X)
}
