// particlebox drops particles into a box under gravity with bouncing walls,
// choosing the number of substeps per frame from the fastest particle, and
// runs Conway's Game of Life on a torus as a second, grid-based system.
package main

import (
	"fmt"
	"math"

	"corpus/particlebox/integrate"

	"github.com/jitlint/jitlint/jit"
)

const (
	frameDt = 0.02
	maxMove = 0.02 // no particle may move more than this per substep
)

// Box is the container: gravity as data, wall properties static.
type Box struct {
	Gravity     jit.Array
	Restitution float64 `jit:"static"`
	Size        float64 `jit:"static"`
}

// Particles is the simulation state: positions and velocities, [n, 2].
type Particles struct{ Pos, Vel jit.Array }

// Step moves every particle by dt and reflects it off the walls.
func (b Box) Step(p Particles, dt jit.Array) Particles {
	vel := p.Vel.Add(b.Gravity.Mul(dt))
	pos := p.Pos.Add(vel.Mul(dt))
	low, high := pos.Lt(0), pos.Gt(b.Size)
	pos = jit.Where(low, pos.Neg(), jit.Where(high, pos.Neg().Add(2*b.Size), pos))
	vel = jit.Where(low.Or(high), vel.Mul(-b.Restitution), vel)
	return Particles{pos, vel}
}

var tracedSizes = map[int]int{}

// StepMasked steps a padded buffer; mask [n, 1] is 1 for live particles.
func (b Box) StepMasked(p Particles, mask, dt jit.Array) Particles {
	tracedSizes[p.Pos.Shape()[0]]++ // want traceeffect
	next := b.Step(p, dt)
	return Particles{next.Pos.Mul(mask), next.Vel.Mul(mask)}
}

// Advance runs span seconds of simulated time as n equal substeps.
func Advance(n int, b Box, p Particles, span jit.Array) Particles {
	dt := span.Div(float64(n))
	return integrate.Repeat(func(q Particles) Particles { return b.Step(q, dt) }, p, n)
}

// lifeStep is one generation of Conway's Game of Life (cells are 0/1).
func lifeStep(g jit.Array) jit.Array {
	neighbours := jit.Zeros(jit.Float32, g.Shape()...)
	for k := 0; k < 9; k++ {
		dy, dx := k/3-1, k%3-1
		if dy == 0 && dx == 0 {
			continue
		}
		neighbours = neighbours.Add(integrate.Roll(integrate.Roll(g, dy, 0), dx, 1))
	}
	born := neighbours.Eq(3)
	stays := g.Gt(0.5).And(neighbours.Eq(2))
	return jit.Where(born.Or(stays), 1.0, 0.0)
}

// Life runs generations generations with a Go loop.
func Life(generations int, g jit.Array) jit.Array {
	for i := 0; i < generations; i++ { // want unrolledloop
		g = lifeStep(g)
	}
	return g
}

// LifeScan runs generations generations as one scan.
func LifeScan(generations int, g jit.Array) jit.Array {
	out, _ := jit.ScanN(func(c jit.Array) (jit.Array, struct{}) { return lifeStep(c), struct{}{} }, g, generations)
	return out
}

// LifeUntilExtinct stops early when no cell is alive, NumPy style.
func LifeUntilExtinct(g jit.Array) jit.Array {
	for i := 0; i < 4; i++ {
		if g.Sum().Int() == 0 { // want tracedbool
			break
		}
		g = lifeStep(g)
	}
	return g
}

func maxSpeed(v jit.Array) float64 {
	m := 0.0
	for _, x := range v.Float32s() {
		m = math.Max(m, math.Abs(float64(x)))
	}
	return m
}

func glider(n int) jit.Array {
	cells := make([]float32, n*n)
	for _, rc := range [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}} {
		cells[rc[0]*n+rc[1]] = 1
	}
	return jit.FromSlice(cells, n, n)
}

func main() {
	box := Box{Gravity: jit.FromSlice([]float32{0, -9.8}), Restitution: 0.8, Size: 1}
	stats := make(chan float64, 64)
	done := make(chan float64)
	go func() {
		total := 0.0
		for e := range stats {
			total += e
		}
		done <- total
	}()

	// Emitter: one new particle per frame, the state grows by one row.
	step := jit.Jit(Box.Step)
	var pos, vel []float32
	p := Particles{}
	dt := jit.Scalar[float32](frameDt)
	for f := 0; f < 8; f++ {
		if f > 0 {
			pos, vel = p.Pos.Float32s(), p.Vel.Float32s()
		}
		pos, vel = append(pos, 0.5, 0.9), append(vel, float32(f)*0.1-0.4, 0)
		n := len(pos) / 2
		p = step.Call(box, Particles{jit.FromSlice(pos, n, 2), jit.FromSlice(vel, n, 2)}, dt) // want shapechurn
		stats <- maxSpeed(p.Vel)
	}
	fmt.Printf("emitter: %d particles, step compiles %d\n", p.Pos.Shape()[0], step.Stats().Compiles)

	// The same emitter with the buffer padded to power-of-two buckets.
	masked := jit.Jit(Box.StepMasked)
	pos, vel = p.Pos.Float32s(), p.Vel.Float32s()
	for f := 0; f < 40; f++ {
		pos, vel = append(pos, 0.5, 0.9), append(vel, 0.01*float32(f%7), 0)
		n := len(pos) / 2
		cap := integrate.NextBucket(n)
		pp, pv, m := make([]float32, 2*cap), make([]float32, 2*cap), make([]float32, cap)
		copy(pp, pos)
		copy(pv, vel)
		for i := 0; i < n; i++ {
			m[i] = 1
		}
		out := masked.Call(box, Particles{jit.FromSlice(pp, cap, 2), jit.FromSlice(pv, cap, 2)}, jit.FromSlice(m, cap, 1), dt)
		pos, vel = out.Pos.Float32s()[:2*n], out.Vel.Float32s()[:2*n]
	}
	fmt.Printf("bucketed emitter: %d particles, compiles %d, buckets traced %d\n", len(pos)/2, masked.Stats().Compiles, len(tracedSizes))

	// Fast-forward playback: each frame covers more simulated time, with
	// enough substeps (at most 32) that the fastest particle moves < maxMove.
	advance := jit.Jit(Advance, jit.StaticArgnums(0))
	drop := Particles{jit.FromSlice(pos, len(pos)/2, 2), jit.FromSlice(vel, len(vel)/2, 2)}
	for f := 0; f < 6; f++ {
		span := frameDt * float64(f+1)
		n := min(32, int(math.Ceil((maxSpeed(drop.Vel)+2)*span/maxMove)))
		fmt.Printf("frame %d: %d substeps\n", f, n)
		drop = advance.Call(n, box, drop, jit.Scalar(float32(span))) // want staticargs
	}
	fmt.Printf("adaptive substeps: compiles %d\n", advance.Stats().Compiles)

	// Quantised to a coarse or a fine substep count: two programs.
	fine := 0
	for f := 0; f < 30; f++ {
		n := 4
		if maxSpeed(drop.Vel) > 3.2 {
			n, fine = 8, fine+1
		}
		drop = advance.Call(n, box, drop, jit.Scalar[float32](frameDt))
		stats <- maxSpeed(drop.Vel)
	}
	close(stats)
	fmt.Printf("quantised substeps: %d fine frames, compiles %d, summed max speeds %.2f\n", fine, advance.Stats().Compiles, <-done)

	// Game of Life: 40 generations unrolled, then 120 as a scan.
	g := glider(16)
	g = jit.Jit(Life, jit.StaticArgnums(0)).Call(40, g)
	fmt.Printf("life after 40 generations: %.0f cells alive\n", g.Sum().Item())
	g = jit.Jit(LifeScan, jit.StaticArgnums(0)).Call(120, g)
	fmt.Printf("life after 160 generations: %.0f cells alive\n", g.Sum().Item())

	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("early-exit life:", r.(*jit.Error).Kind)
			}
		}()
		jit.Jit(LifeUntilExtinct).Call(g)
	}()
}
