// Command rodheat simulates heat flow along a batch of thin rods with
// different conductivity profiles, using an explicit finite-difference
// scheme. Every rod is heated by the same source term and has either
// insulated ends or ends held at zero; a rod whose hottest point passes a
// safety limit is quenched at the end of the run. It compares the batched
// solver with a step-by-step reference solver, then tries an adaptive
// variant that picks its own time step.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const (
	cells = 16
	dx    = 1.0 / cells
	limit = 1.2
)

type Solver struct {
	Dt     float64
	Steps  int
	Source func(t jit.Array) jit.Array
}

func heater(center int, power float64) func(jit.Array) jit.Array {
	w := make([]float32, cells)
	for i := range w {
		d := float64(i - center)
		w[i] = float32(power / (1 + d*d))
	}
	profile := jit.FromSlice(w)
	return func(t jit.Array) jit.Array { return profile.Sub(t.Mul(0.1)) }
}

func neighbours(t, insulated jit.Array) (jit.Array, jit.Array) {
	inner := func(t jit.Array) []jit.Array {
		return []jit.Array{t.Slice([]int{0}, []int{cells - 1}), t.Slice([]int{1}, []int{cells})}
	}
	pair := jit.Cond(insulated,
		func(t jit.Array) []jit.Array {
			in := inner(t)
			return []jit.Array{jit.Concatenate(0, t.Slice([]int{0}, []int{1}), in[0]),
				jit.Concatenate(0, in[1], t.Slice([]int{cells - 1}, []int{cells}))}
		},
		func(t jit.Array) []jit.Array {
			in := inner(t)
			z := jit.Zeros(jit.Float32, 1)
			return []jit.Array{jit.Concatenate(0, z, in[0]), jit.Concatenate(0, in[1], z)}
		}, t)
	return pair[0], pair[1]
}

func (s *Solver) step(t, k, insulated jit.Array) jit.Array {
	left, right := neighbours(t, insulated)
	lap := left.Add(right).Sub(t.Mul(2)).Div(dx * dx)
	return t.Add(k.Mul(lap).Add(s.Source(t)).Mul(s.Dt))
}

// Simulate runs the scheme for one rod (t0, k: [cells]).
func (s *Solver) Simulate(t0, k, insulated jit.Array) jit.Array {
	t, _ := jit.ScanN(func(t jit.Array) (jit.Array, struct{}) { return s.step(t, k, insulated), struct{}{} }, t0, s.Steps)
	return jit.Cond(t.MaxReduce().Gt(limit), // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		func(t jit.Array) jit.Array { return t.Mul(0.5) },
		func(t jit.Array) jit.Array { return t }, t)
}

// Reference smooths the initial profile and runs the scheme step by step.
func (s *Solver) Reference(t0, k, insulated jit.Array) jit.Array {
	t := t0
	for pass := 0; pass < 4; pass++ {
		l, r := neighbours(t, insulated)
		t = l.Add(r).Add(t.Mul(2)).Mul(0.25)
	}
	for i := 0; i < s.Steps; i++ { // want unrolledloop
		t = s.step(t, k, insulated)
	}
	return t
}

func stableDt(k jit.Array) float64 {
	return 0.4 * dx * dx / k.MaxReduce().Item() // want tracedbool
}

func (s *Solver) Adaptive(t0, k, insulated jit.Array) jit.Array {
	fine := &Solver{Dt: stableDt(k), Steps: s.Steps, Source: s.Source}
	return fine.Simulate(t0, k, insulated)
}

func main() {
	rods := 3
	kv := make([]float32, 0, rods*cells)
	for r := 0; r < rods; r++ {
		for i := 0; i < cells; i++ {
			kv = append(kv, float32(0.01*(1+float64(r))*(1+0.5*float64(i%4))))
		}
	}
	k := jit.FromSlice(kv, rods, cells)
	t0 := jit.Zeros(jit.Float32, rods, cells)
	insulated := jit.Scalar(true)

	dt := stableDt(k)
	fmt.Printf("stable time step %.5f\n", dt)
	s := &Solver{Dt: dt, Steps: 40, Source: heater(5, 3)}

	batched := jit.Jit(jit.Vmap(s.Simulate, jit.InAxes(0, 0, jit.NotMapped)))
	out := batched.Call(t0, k, insulated)
	fmt.Println("final temperatures:\n", out)
	fmt.Printf("hottest point %.3f\n", out.MaxReduce().Item())

	ref := jit.Jit(s.Reference)
	for r := 0; r < rods; r++ {
		row := func(a jit.Array) jit.Array { return a.Slice([]int{r, 0}, []int{r + 1, cells}).Reshape(cells) }
		fmt.Printf("rod %d reference: %v\n", r, ref.Call(row(t0), row(k), insulated))
	}

	cj, err := jit.MakeJaxpr(jit.Vmap(s.Simulate, jit.InAxes(0, 0, jit.NotMapped)))(t0, k, insulated)
	if err != nil {
		panic(err)
	}
	fmt.Println(cj)

	adaptive := jit.Jit(jit.Vmap(s.Adaptive, jit.InAxes(0, 0, jit.NotMapped)))
	fmt.Println("adaptive:", adaptive.Call(t0, k, insulated))
}
