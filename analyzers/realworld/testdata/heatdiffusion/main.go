// heatdiffusion integrates the nonlinear heat equation u_t = (k(u) u_x)_x on a
// rod with explicit finite differences, k(u) = k0 (1 + u^2), and a time step
// limited by the CFL condition dt <= 0.4 dx^2 / max k.
package main

import (
	"errors"
	"fmt"
	"math"

	"corpus/heatdiffusion/stencil"

	"github.com/jitlint/jitlint/jit"
)

const (
	nx = 96
	dx = 1.0 / (nx - 1)
	k0 = 0.02
)

// Rod is the solver state: the field and the jitted kernels that advance it.
type Rod struct {
	u        jit.Array
	stepDt   *jit.Func[func(float64, jit.Array) jit.Array]
	stepArr  *jit.Func[func(jit.Array, jit.Array) jit.Array]
	frame    *jit.Func[func(int, jit.Array, jit.Array) jit.Array]
	bounded  *jit.Func[func(string, jit.Array, jit.Array) jit.Array]
	maxKappa *jit.Func[func(jit.Array) jit.Array]
	checked  *jit.Func[func(float64, jit.Array) jit.Array]
}

func kappa(u jit.Array) jit.Array { return u.Mul(u).Add(1).Mul(k0) }

// euler is one explicit step with a traced dt.
func euler(dt, u jit.Array) jit.Array {
	lo, hi := stencil.Ends(u)
	n := u.Shape()[0]
	k := kappa(u).Slice([]int{1}, []int{n - 1})
	inner := u.Slice([]int{1}, []int{n - 1}).Add(k.Mul(stencil.Laplacian(u, dx)).Mul(dt))
	return stencil.WithEnds(inner, lo, hi)
}

// EulerStatic is the same step with dt baked into the program.
func EulerStatic(dt float64, u jit.Array) jit.Array {
	return euler(jit.Full(dt, jit.Float32), u)
}

// Frame advances one output frame of substeps explicit steps.
func Frame(substeps int, dt, u jit.Array) jit.Array {
	step := func(v jit.Array) jit.Array { return euler(dt, v) }
	return stencil.Run(step, u, substeps) // want unrolledloop
}

// Bounded applies a boundary kind after a step: "dirichlet" keeps the ends,
// "neumann" copies the neighbouring interior value.
func Bounded(kind string, dt, u jit.Array) jit.Array {
	v := euler(dt, u)
	if kind == "neumann" {
		n := v.Shape()[0]
		inner := v.Slice([]int{1}, []int{n - 1})
		return stencil.WithEnds(inner, inner.Slice([]int{0}, []int{1}).Reshape(), inner.Slice([]int{n - 3}, []int{n - 2}).Reshape())
	}
	return v
}

// Relax runs exactly 32 smoothing sweeps, one per Go iteration.
func Relax(dt, u jit.Array) jit.Array {
	for i := 0; i < 32; i++ {
		u = euler(dt, u)
	}
	fmt.Printf("relax traced for %v\n", u.Shape()) // want traceeffect
	return u
}

// Checked refuses a dt that breaks the CFL limit, the NumPy way.
func Checked(dt float64, u jit.Array) jit.Array {
	limit := 0.5 * dx * dx / kappa(u).MaxReduce().Item() // want tracedbool
	if dt > limit {
		panic("dt above CFL limit")
	}
	return EulerStatic(dt, u)
}

func newRod() *Rod {
	xs := make([]float32, nx)
	for i := range xs {
		x := float64(i) * dx
		xs[i] = float32(2 * math.Exp(-60*(x-0.5)*(x-0.5)))
	}
	return &Rod{
		u:        jit.FromSlice(xs),
		stepDt:   jit.Jit(EulerStatic, jit.StaticArgnums(0)),
		stepArr:  jit.Jit(euler),
		frame:    jit.Jit(Frame, jit.StaticArgnums(0)),
		bounded:  jit.Jit(Bounded, jit.StaticArgnums(0)),
		maxKappa: jit.Jit(func(u jit.Array) jit.Array { return kappa(u).MaxReduce() }),
		checked:  jit.Jit(Checked, jit.StaticArgnums(0)),
	}
}

// cflDt is the largest stable step for the current field, computed on the host
// from the jitted reduction's result.
func (r *Rod) cflDt() float64 {
	return 0.4 * dx * dx / r.maxKappa.Call(r.u).Item()
}

func energy(u jit.Array) float64 {
	s := 0.0
	for _, v := range u.Float32s() {
		s += float64(v) * float64(v)
	}
	return s * dx
}

// try runs f and turns a jit panic into an error.
func try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(*jit.Error); ok {
				err = je
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

func main() {
	r := newRod()
	fmt.Printf("initial energy %.5f\n", energy(r.u))

	// 1. Adaptive dt as a static argument: every new dt is a new program.
	for i := 0; i < 6; i++ {
		dt := r.cflDt()
		r.u = r.stepDt.Call(dt, r.u) // want staticargs
	}
	fmt.Printf("after static-dt steps: energy %.5f compiles %d\n", energy(r.u), r.stepDt.Stats().Compiles)

	// 2. The same loop with dt as a traced scalar compiles once.
	for i := 0; i < 20; i++ {
		dt := jit.Scalar(float32(r.cflDt()))
		r.u = r.stepArr.Call(dt, r.u)
		if i%10 == 0 {
			fmt.Printf("step %2d energy %.5f\n", i, energy(r.u))
		}
	}

	// 3. Frames of substeps: 40 substeps per frame are unrolled by stencil.Run.
	dt := jit.Scalar(float32(r.cflDt() * 0.5))
	for f := 0; f < 3; f++ {
		r.u = r.frame.Call(40, dt, r.u)
	}
	r.u = r.frame.Call(8, dt, r.u)
	fmt.Printf("after frames: energy %.5f\n", energy(r.u))

	// 4. Exactly 32 relaxation sweeps in a host loop under the trace.
	relax := jit.Jit(Relax)
	for i := 0; i < 2; i++ {
		r.u = relax.Call(dt, r.u)
	}
	fmt.Printf("after relax: energy %.5f\n", energy(r.u))

	// 5. Boundary kind alternates between two values: two programs, many calls.
	kinds := []string{"dirichlet", "neumann"}
	for i := 0; i < 20; i++ {
		r.u = r.bounded.Call(kinds[i%2], dt, r.u)
	}
	fmt.Printf("after boundary sweep: energy %.5f compiles %d\n", energy(r.u), r.bounded.Stats().Compiles)

	// 6. A host-side CFL check inside the traced step fails while tracing.
	err := try(func() { r.u = r.checked.Call(0.3*dx*dx/k0, r.u) })
	var je *jit.Error
	if errors.As(err, &je) {
		fmt.Println("checked step:", je.Kind)
	}

	// 7. Progress report from the compiled program, at run time.
	report := jit.Jit(func(u jit.Array) jit.Array {
		e := u.Mul(u).Sum().Mul(dx)
		jit.DebugPrint("energy in program: %v", e)
		return e
	})
	for i := 0; i < 2; i++ {
		fmt.Printf("reported %.4f\n", report.Call(r.u).Item())
	}
}
