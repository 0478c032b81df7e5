// Command hornschunckflow estimates dense optical flow between synthetic
// frames of a drifting blob with the Horn-Schunck method, using a fixed
// iteration count, a data-dependent stopping rule, and a coarse warm start.
package main

import (
	"fmt"
	"math"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const size = 32

// Flow is the (u, v) displacement field.
type Flow struct{ U, V jit.Array }

// Solver holds the regularisation settings. Both are static: they select
// constants baked into the program.
type Solver struct {
	Alpha float64 `jit:"static"`
	Iters int     `jit:"static"`
}

// frame renders a Gaussian blob centred at (cx, cy).
func frame(cx, cy float64) jit.Array {
	px := make([]float32, size*size)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			px[y*size+x] = float32(math.Exp(-(dx*dx + dy*dy) / 40))
		}
	}
	return jit.FromSlice(px, size, size)
}

// roll shifts x by one pixel along axis (periodic boundary).
func roll(x jit.Array, axis, dir int) jit.Array {
	n := x.Shape()[axis]
	cut := 1
	if dir < 0 {
		cut = n - 1
	}
	lo, hi := []int{0, 0}, []int{size, size}
	hi[axis] = n - cut
	a := x.Slice(lo, hi)
	lo2, hi2 := []int{0, 0}, []int{size, size}
	lo2[axis] = n - cut
	b := x.Slice(lo2, hi2)
	return jit.Concatenate(axis, b, a)
}

func neighbourMean(x jit.Array) jit.Array {
	return roll(x, 0, 1).Add(roll(x, 0, -1)).Add(roll(x, 1, 1)).Add(roll(x, 1, -1)).Mul(0.25)
}

// gradients returns Ix, Iy, It of the frame pair.
func gradients(a, b jit.Array) (jit.Array, jit.Array, jit.Array) {
	m := a.Add(b).Mul(0.5)
	ix := roll(m, 1, -1).Sub(roll(m, 1, 1)).Mul(0.5)
	iy := roll(m, 0, -1).Sub(roll(m, 0, 1)).Mul(0.5)
	return ix, iy, b.Sub(a)
}

// update is one Jacobi sweep of Horn-Schunck.
func update(alpha float64, ix, iy, it jit.Array, f Flow) Flow {
	ub, vb := neighbourMean(f.U), neighbourMean(f.V)
	num := ix.Mul(ub).Add(iy.Mul(vb)).Add(it)
	den := ix.Mul(ix).Add(iy.Mul(iy)).Add(alpha * alpha)
	k := num.Div(den)
	return Flow{U: ub.Sub(ix.Mul(k)), V: vb.Sub(iy.Mul(k))}
}

// Solve runs s.Iters sweeps inside one scan.
func (s Solver) Solve(a, b jit.Array) Flow {
	ix, iy, it := gradients(a, b)
	zero := jit.Zeros(jit.Float32, size, size)
	f, _ := jit.ScanN(func(f Flow) (Flow, jit.Array) {
		return update(s.Alpha, ix, iy, it, f), jit.Scalar[float32](0)
	}, Flow{zero, zero}, s.Iters)
	return f
}

// SolveUnrolled is the straight port of the NumPy loop.
func (s Solver) SolveUnrolled(a, b jit.Array) Flow {
	ix, iy, it := gradients(a, b)
	f := Flow{jit.Zeros(jit.Float32, size, size), jit.Zeros(jit.Float32, size, size)}
	for i := 0; i < s.Iters; i++ { // want unrolledloop
		f = update(s.Alpha, ix, iy, it, f)
	}
	return f
}

// SolveAdaptive stops when the update becomes small, with a cap.
func (s Solver) SolveAdaptive(a, b jit.Array, tol jit.Array) (Flow, jit.Array) {
	ix, iy, it := gradients(a, b)
	zero := jit.Zeros(jit.Float32, size, size)
	type state struct {
		F     Flow
		Delta jit.Array
		N     jit.Array
	}
	out := jit.WhileLoop(func(st state) jit.Array {
		return st.Delta.Gt(tol).And(st.N.Lt(s.Iters))
	}, func(st state) state {
		nf := update(s.Alpha, ix, iy, it, st.F)
		d := nf.U.Sub(st.F.U).Abs().MaxReduce().Max(nf.V.Sub(st.F.V).Abs().MaxReduce())
		return state{nf, d, st.N.Add(1)}
	}, state{Flow{zero, zero}, jit.Scalar[float32](1e9), jit.Scalar[int32](0)})
	return out.F, out.N
}

func meanFlow(f Flow) (float64, float64) { return f.U.Mean().Item(), f.V.Mean().Item() }

func main() {
	a, b := frame(15, 15), frame(16, 15.5)
	base := Solver{Alpha: 1, Iters: 200}

	// Method expression: one cache for every Solver value with equal settings.
	solve := jit.Jit(Solver.Solve)
	for clip := 0; clip < 3; clip++ {
		s := Solver{Alpha: 1, Iters: 200}
		f := solve.Call(s, a, b)
		u, v := meanFlow(f)
		fmt.Printf("clip %d scan flow: u=%.4f v=%.4f\n", clip, u, v)
	}
	fmt.Printf("scan solver compiles %d\n", solve.Stats().Compiles)

	// The literal port of the reference implementation.
	unrolled := jit.Jit(Solver{Alpha: 1, Iters: 40}.SolveUnrolled)
	u, v := meanFlow(unrolled.Call(a, b))
	fmt.Printf("unrolled 40 sweeps: u=%.4f v=%.4f\n", u, v)

	// Per-clip solver with its settings read from the clip's metadata:
	// a method value of a fresh Solver every time.
	for clip := 0; clip < 3; clip++ {
		s := &Solver{Alpha: 1, Iters: 64}
		adaptive := jit.Jit(s.SolveAdaptive) // want staticargs
		f, n := adaptive.Call(a, b, jit.Scalar[float32](1e-4))
		fmt.Printf("clip %d adaptive: %d sweeps, u=%.4f\n", clip, n.Int(), f.U.Mean().Item())
	}

	// Annealing the smoothness weight: a new static Alpha every stage.
	for stage := 0; stage < 4; stage++ {
		s := Solver{Alpha: 2.0 / float64(stage+1), Iters: 50}
		f := solve.Call(s, a, b) // want staticargs
		fmt.Printf("alpha %.2f: u=%.4f\n", s.Alpha, f.U.Mean().Item())
	}

	// Host-driven iteration with a host convergence test: each step is one
	// cached call, and Item() is on concrete results.
	step := jit.Jit(func(f Flow, a, b jit.Array) (Flow, jit.Array) {
		ix, iy, it := gradients(a, b)
		nf := update(base.Alpha, ix, iy, it, f)
		jit.DebugPrint("sweep residual %v", nf.U.Sub(f.U).Abs().MaxReduce())
		return nf, nf.U.Sub(f.U).Abs().MaxReduce()
	})
	f := Flow{jit.Zeros(jit.Float32, size, size), jit.Zeros(jit.Float32, size, size)}
	var sweeps int
	for sweeps = 1; sweeps <= 3; sweeps++ {
		var d jit.Array
		f, d = step.Call(f, a, b)
		if d.Item() < 1e-3 {
			break
		}
	}
	fmt.Printf("host loop: %d sweeps, step compiles %d\n", sweeps-1, step.Stats().Compiles)

	// Profiling the traced solver from inside: the timer is read at trace time.
	var traceStart time.Time
	timed := jit.Jit(func(a, b jit.Array) Flow {
		traceStart = time.Now() // want traceeffect
		return base.Solve(a, b)
	})
	timed.Call(a, b)
	_ = traceStart

	// Early exit written like the NumPy version.
	early := jit.Jit(func(a, b jit.Array) Flow {
		ix, iy, it := gradients(a, b)
		f := Flow{jit.Zeros(jit.Float32, size, size), jit.Zeros(jit.Float32, size, size)}
		for i := 0; i < 10; i++ {
			nf := update(1, ix, iy, it, f)
			if nf.U.Sub(f.U).Abs().MaxReduce().Item() < 1e-4 { // want tracedbool
				return nf
			}
			f = nf
		}
		return f
	})
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("early exit not traceable; use WhileLoop")
			}
		}()
		early.Call(a, b)
	}()
}
