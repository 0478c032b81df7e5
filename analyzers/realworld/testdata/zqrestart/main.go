// Command zqrestart searches for low-energy configurations of a small 2-D
// Lennard-Jones cluster. The energy surface has many local minima, so the
// optimiser is restarted from several perturbed ring configurations.
package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand"

	"corpus/zqrestart/optim"

	"github.com/jitlint/jitlint/jit"
)

const (
	nAtoms    = 6
	nParams   = 2 * nAtoms
	nRestarts = 8
)

var eye, offDiag = pairMasks()

func pairMasks() (jit.Array, jit.Array) {
	e := make([]float32, nAtoms*nAtoms)
	o := make([]float32, nAtoms*nAtoms)
	for i := 0; i < nAtoms; i++ {
		for j := 0; j < nAtoms; j++ {
			if i == j {
				e[i*nAtoms+j] = 1
			} else {
				o[i*nAtoms+j] = 1
			}
		}
	}
	return jit.FromSlice(e, nAtoms, nAtoms), jit.FromSlice(o, nAtoms, nAtoms)
}

// energy is the Lennard-Jones energy (epsilon = sigma = 1) of flat 2-D coordinates.
func energy(x jit.Array) jit.Array {
	p := x.Reshape(nAtoms, 2)
	d := p.Reshape(nAtoms, 1, 2).Sub(p.Reshape(1, nAtoms, 2))
	r2 := d.Mul(d).Sum(2).Add(eye)
	inv6 := jit.Scalar(float32(1)).Div(r2.Mul(r2).Mul(r2))
	return inv6.Mul(inv6).Sub(inv6).Mul(offDiag).Sum().Mul(2)
}

func solveScan(x0 jit.Array) (jit.Array, jit.Array) {
	fmt.Println("starting restart from", x0) // want traceeffect
	return optim.MinimizeScan(energy, x0, optim.Defaults)
}

func solveWith(x0 jit.Array, o optim.Options) (jit.Array, jit.Array) {
	return optim.MinimizeScan(energy, x0, o)
}

// warmStart relaxes a start a little before the expensive solves.
func warmStart(x0 jit.Array) jit.Array {
	o := optim.Defaults
	o.Iters = 12
	x, _ := optim.Minimize(energy, x0, o)
	return x
}

// quickSolve is the "fast path" used for the preview render.
func quickSolve(x0 jit.Array) (jit.Array, jit.Array) {
	o := optim.Defaults
	o.Iters = 48
	return optim.Minimize(energy, x0, o) // want unrolledloop
}

func refine(x jit.Array) jit.Array {
	return optim.Polish(energy, x, 4) // want tracedbool
}

func ringStarts(rng *rand.Rand) [][]float32 {
	starts := make([][]float32, nRestarts)
	for r := range starts {
		starts[r] = make([]float32, nParams)
		radius := 1.0 + 0.05*float64(r)
		for a := 0; a < nAtoms; a++ {
			th := 2 * math.Pi * float64(a) / nAtoms
			starts[r][2*a] = float32(radius*math.Cos(th) + 0.15*rng.NormFloat64())
			starts[r][2*a+1] = float32(radius*math.Sin(th) + 0.15*rng.NormFloat64())
		}
	}
	return starts
}

func flatten(rows [][]float32) []float32 {
	var out []float32
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

func argmin(v []float32) int {
	best := 0
	for i := range v {
		if v[i] < v[best] {
			best = i
		}
	}
	return best
}

func main() {
	rng := rand.New(rand.NewSource(5))
	starts := ringStarts(rng)

	// All restarts at once.
	batched := jit.Jit(jit.Vmap(func(x0 jit.Array) (jit.Array, jit.Array) {
		return optim.MinimizeScan(energy, x0, optim.Defaults)
	}))
	xs, es := batched.Call(jit.FromSlice(flatten(starts), nRestarts, nParams))
	ev := es.Float32s()
	b := argmin(ev)
	fmt.Printf("vmapped restarts: energies %.3f, best #%d\n", ev, b)
	best := xs.Slice([]int{b, 0}, []int{b + 1, nParams}).Reshape(nParams)

	// One restart at a time, with a warm start (e.g. to stream progress).
	energies := make([]float64, 0, nRestarts)
	for r, s := range starts {
		x0 := jit.Jit(warmStart).Call(jit.FromSlice(s))
		_, e := jit.Jit(solveScan).Call(x0)
		energies = append(energies, e.Item())
		fmt.Printf("restart %d: E=%.4f\n", r, e.Item())
	}

	// Learning-rate schedule across restarts.
	sweep := jit.Jit(solveWith, jit.StaticArgnums(1))
	for r, s := range starts {
		o := optim.Defaults
		o.LR = 0.1 * math.Pow(0.8, float64(r))
		_, e := sweep.Call(jit.FromSlice(s), o) // want staticargs
		fmt.Printf("lr=%.4f: E=%.4f\n", o.LR, e.Item())
	}

	// Coarse-to-fine per restart: two option sets only.
	coarse, fine := optim.Defaults, optim.Defaults
	coarse.Iters, fine.Iters, fine.LR = 20, 60, 0.01
	for _, s := range starts {
		x := jit.FromSlice(s)
		for _, o := range []optim.Options{coarse, fine} {
			x, _ = sweep.Call(x, o)
		}
	}
	fmt.Printf("sweep compiles=%d hits=%d\n", sweep.Stats().Compiles, sweep.Stats().Hits)

	px, pe := jit.Jit(quickSolve).Call(jit.FromSlice(starts[0]))
	fmt.Printf("preview: E=%.4f |x|=%.3f\n", pe.Item(), px.Mul(px).Sum().Sqrt().Item())

	func() {
		defer func() {
			if r := recover(); r != nil {
				var je *jit.Error
				if err, ok := r.(error); !ok || !errors.As(err, &je) {
					panic(r)
				}
				fmt.Println("jitted refine failed:", je.Kind)
			}
		}()
		jit.Jit(refine).Call(best)
	}()
	polished := optim.Polish(energy, best, 4)
	fmt.Printf("polished best: E=%.5f (from %.5f)\n", energy(polished).Item(), energy(best).Item())
}
