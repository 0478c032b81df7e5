package a

import "github.com/jitlint/jitlint/jit"

// Loops whose count the trace fixes in less direct ways: counting down
// from len(xs)-1, a counter with an offset in its condition, the length
// of a slice field that a helper fills by appends, and a static field of
// the state that the jitted calls pass.

// Count-down loops from len(xs) - 1.

// r3Schedule returns a schedule of n values.
func r3Schedule(n int) []float64 {
	betas := make([]float64, n)
	for i := range betas {
		betas[i] = 0.01 * float64(i+1)
	}
	return betas
}

func r3CountDown(x0 jit.Array) {
	betas := r3Schedule(40)
	sampler := jit.Jit(func(x jit.Array) jit.Array {
		for t := len(betas) - 1; t >= 0; t-- { // want `unrolled into the trace 40 times \(once per element of betas, which has 40\)`
			x = x.Sub(x.Tanh().Mul(betas[t]))
		}
		return x
	})
	sampler.Call(x0)
	// The same loop over a slice that the traced function makes itself.
	local := jit.Jit(func(x jit.Array) jit.Array {
		outs := make([]jit.Array, 40)
		for t := len(outs) - 1; t >= 0; t-- { // want `unrolled into the trace 40 times \(once per element of outs, which has 40\)`
			x = x.Mul(0.5).Sin()
			outs[t] = x
		}
		return jit.Concatenate(0, outs...)
	})
	local.Call(x0)
	// Not reported: three steps.
	short := r3Schedule(3)
	refine := jit.Jit(func(x jit.Array) jit.Array {
		for t := len(short) - 1; t >= 0; t-- {
			x = x.Sub(x.Tanh().Mul(short[t]))
		}
		steps := make([]jit.Array, 3)
		for t := len(steps) - 1; t >= 0; t-- {
			steps[t] = x.Mul(float64(t))
		}
		return jit.Concatenate(0, steps...)
	})
	refine.Call(x0)
}

// Counters with an offset in the condition: i+k < n runs n-k times.

// R3Offsets runs 63 times, then 10 times (not reported).
func R3Offsets(x jit.Array) jit.Array {
	for i := 0; i+1 < 64; i++ { // want `unrolled into the trace 63 times`
		x = x.Add(x.Mul(float64(i)).Tanh())
	}
	for i := 0; i+30 < 40; i++ {
		x = x.Mul(0.5)
	}
	for i := 0; i+30 <= 40; i++ {
		x = x.Sin()
	}
	return x
}

var r3Offsets = jit.Jit(R3Offsets)

// R3Windows sums each window of three along a signal: one window per
// element of its shape.
func R3Windows(x jit.Array) jit.Array {
	n := x.Shape()[0]
	var cols []jit.Array
	for i := 0; i+3 <= n; i++ { // want `unrolled into the trace once per element of a shape \(n\)`
		cols = append(cols, x.Slice([]int{i}, []int{i + 3}).Sum().Reshape(1))
	}
	return jit.Concatenate(0, cols...)
}

var r3Windows = jit.Jit(R3Windows)

// r3Conv returns a convolution of width k written one output position at a
// time: about one position per element of the shape, whatever k.
func r3Conv(k int) func(x jit.Array) jit.Array {
	return func(x jit.Array) jit.Array {
		n := x.Shape()[0]
		var cols []jit.Array
		for i := 0; i+k <= n; i++ { // want `unrolled into the trace once per element of a shape \(n\)`
			cols = append(cols, x.Slice([]int{i}, []int{i + k}).Sum().Reshape(1))
		}
		return jit.Concatenate(0, cols...)
	}
}

var r3Conv3 = jit.Jit(r3Conv(3))

// Slices held in a struct field.

type r3Graph struct {
	nodes int
	adj   [][]int
}

// r3Ring builds a ring of n nodes by appending one adjacency list per node.
func r3Ring(n int) r3Graph {
	g := r3Graph{nodes: n}
	for i := range n {
		g.adj = append(g.adj, []int{(i + n - 1) % n, (i + 1) % n})
	}
	return g
}

// r3Gather returns a closure that sums each node's neighbours, one node
// at a time.
func r3Gather(g r3Graph) func(h jit.Array) jit.Array {
	return func(h jit.Array) jit.Array {
		var rows []jit.Array
		for _, nbrs := range g.adj { // want `unrolled into the trace 40 times \(once per element of g.adj, which has 40\)`
			acc := jit.Zeros(jit.Float32, 1, 4)
			for _, j := range nbrs {
				acc = acc.Add(h.Slice([]int{j, 0}, []int{j + 1, 4}))
			}
			rows = append(rows, acc)
		}
		return jit.Concatenate(0, rows...)
	}
}

// r3GatherSmall is r3Gather's loop, made only for small graphs.
func r3GatherSmall(g r3Graph) func(h jit.Array) jit.Array {
	return func(h jit.Array) jit.Array {
		acc := jit.Zeros(jit.Float32, 1, 4)
		for _, nbrs := range g.adj {
			acc = acc.Add(h.Slice([]int{nbrs[0], 0}, []int{nbrs[0] + 1, 4}))
		}
		return acc
	}
}

// r3Degrees counts the rows of a graph whose adjacency is a literal.
func r3Degrees(g r3Graph) func(h jit.Array) jit.Array {
	return func(h jit.Array) jit.Array {
		acc := jit.Zeros(jit.Float32, 1, 4)
		for i := range g.adj { // want `unrolled into the trace 40 times \(once per element of g.adj, which has 40\)`
			acc = acc.Add(h.Slice([]int{i, 0}, []int{i + 1, 4}))
		}
		return acc
	}
}

func r3Graphs(h jit.Array) {
	big := r3Ring(40)
	jit.Jit(r3Gather(big)).Call(h)
	// Not reported: three nodes.
	tiny := r3Ring(3)
	jit.Jit(r3GatherSmall(tiny)).Call(h)
	jit.Jit(r3Degrees(r3Graph{nodes: 40, adj: make([][]int, 40)})).Call(h)
}

// Static fields of the state passed at the jitted calls.

type r3Options struct {
	Substeps int     `jit:"static"`
	Dt       float64 `jit:"static"`
}

type r3State struct {
	Pos, Vel jit.Array
	Opts     r3Options
}

// r3Verlet takes Substeps steps of the state.
func r3Verlet(s r3State) r3State {
	h := s.Opts.Dt / float64(s.Opts.Substeps)
	for range s.Opts.Substeps { // want `unrolled into the trace up to 64 times \(s.Opts.Substeps is 64\)`
		s.Pos = s.Pos.Add(s.Vel.Mul(h))
		s.Vel = s.Vel.Sub(s.Pos.Mul(h))
	}
	return s
}

// r3Leapfrog is called with a literal state of 48 substeps.
func r3Leapfrog(s r3State) r3State {
	for i := 0; i < s.Opts.Substeps; i++ { // want `unrolled into the trace up to 48 times \(s.Opts.Substeps is 48\)`
		s.Vel = s.Vel.Sub(s.Pos.Mul(s.Opts.Dt))
		s.Pos = s.Pos.Add(s.Vel.Mul(s.Opts.Dt))
	}
	return s
}

// r3Euler is r3Verlet's loop, only ever called with 4 substeps.
func r3Euler(s r3State) r3State {
	for i := 0; i < s.Opts.Substeps; i++ {
		s.Pos = s.Pos.Add(s.Vel.Mul(s.Opts.Dt))
	}
	return s
}

func r3Integrate(pos, vel jit.Array) {
	fine := r3State{Pos: pos, Vel: vel, Opts: r3Options{Substeps: 64, Dt: 0.05}}
	step := jit.Jit(r3Verlet)
	for range 5 {
		fine = step.Call(fine)
	}
	// Not reported: 4 substeps, carried through the loop.
	coarse := r3State{Pos: pos, Vel: vel, Opts: r3Options{Substeps: 4, Dt: 0.05}}
	euler := jit.Jit(r3Euler)
	for range 5 {
		coarse = euler.Call(coarse)
	}
	euler.Call(r3State{Pos: pos, Vel: vel, Opts: r3Options{Substeps: 4}})
	jit.Jit(r3Leapfrog).Call(r3State{Pos: pos, Vel: vel, Opts: r3Options{Substeps: 48, Dt: 0.01}})
}
