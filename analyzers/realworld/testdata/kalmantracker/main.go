// kalmantracker follows targets moving at near-constant velocity in the
// plane from a stream of noisy position fixes, with a linear Kalman filter
// whose predict and update steps are jitted.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Model holds the filter's matrices (a pytree argument).
type Model struct {
	Shift, H, Q, R jit.Array // Shift: dx/dt = Shift x; H: position rows
}

// State is a target's mean and covariance.
type State struct{ X, P jit.Array }

func eye(n int) []float32 {
	m := make([]float32, n*n)
	for i := 0; i < n; i++ {
		m[i*n+i] = 1
	}
	return m
}

func newModel(q, r float32) Model {
	shift := []float32{0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}
	h := []float32{1, 0, 0, 0, 0, 1, 0, 0}
	qm := eye(4)
	for i := range qm {
		qm[i] *= q
	}
	rm := []float32{r, 0, 0, r}
	return Model{jit.FromSlice(shift, 4, 4), jit.FromSlice(h, 2, 4), jit.FromSlice(qm, 4, 4), jit.FromSlice(rm, 2, 2)}
}

// inv2 inverts a 2x2 matrix.
func inv2(s jit.Array) jit.Array {
	at := func(i, j int) jit.Array { return s.Slice([]int{i, j}, []int{i + 1, j + 1}).Reshape(1) }
	det := at(0, 0).Mul(at(1, 1)).Sub(at(0, 1).Mul(at(1, 0)))
	adj := jit.Concatenate(0, at(1, 1), at(0, 1).Neg(), at(1, 0).Neg(), at(0, 0))
	return adj.Reshape(2, 2).Div(det.Reshape())
}

// Predict advances a state by a traced time step dt.
func (m Model) Predict(dt jit.Array, s State) State {
	f := m.Shift.Mul(dt).Add(jit.FromSlice(eye(4), 4, 4))
	return State{f.MatMul(s.X), f.MatMul(s.P).MatMul(f.Transpose()).Add(m.Q.Mul(dt))}
}

// PredictFixed advances a state by a Go time step, specialised per dt.
func PredictFixed(dt float64, m Model, s State) State {
	return m.Predict(jit.Full(dt, jit.Float32), s)
}

// innovation returns the residual, its covariance's inverse and the gain.
func (m Model) innovation(s State, z jit.Array) (jit.Array, jit.Array, jit.Array) {
	y := z.Sub(m.H.MatMul(s.X))
	sInv := inv2(m.H.MatMul(s.P).MatMul(m.H.Transpose()).Add(m.R))
	k := s.P.MatMul(m.H.Transpose()).MatMul(sInv)
	return y, sInv, k
}

func (m Model) correct(s State, y, k jit.Array) State {
	ikh := jit.FromSlice(eye(4), 4, 4).Sub(k.MatMul(m.H))
	return State{s.X.Add(k.MatMul(y)), ikh.MatMul(s.P)}
}

var innovations []jit.Array

// Update folds one fix into the state.
func (m Model) Update(s State, z jit.Array) State {
	y, _, k := m.innovation(s, z)
	innovations = append(innovations, y) // want traceeffect
	return m.correct(s, y, k)
}

// GatedUpdate skips fixes whose normalised innovation squared is above 9,
// with a host if on the traced statistic.
func (m Model) GatedUpdate(s State, z jit.Array) State {
	y, sInv, k := m.innovation(s, z)
	if y.MatMul(sInv).MatMul(y).Item() > 9 { // want tracedbool
		return s
	}
	return m.correct(s, y, k)
}

// SafeGatedUpdate is the same gate written with Where.
func (m Model) SafeGatedUpdate(s State, z jit.Array) State {
	y, sInv, k := m.innovation(s, z)
	ok := y.MatMul(sInv).MatMul(y).Lt(9)
	c := m.correct(s, y, k)
	return State{jit.Where(ok, c.X, s.X), jit.Where(ok, c.P, s.P)}
}

// UpdateAll folds one fix per target into every target's state.
func UpdateAll(m Model, xs, ps, zs jit.Array) (jit.Array, jit.Array) {
	n := xs.Shape()[0]
	outX, outP := make([]jit.Array, n), make([]jit.Array, n)
	for i := 0; i < n; i++ { // want unrolledloop
		s := State{xs.Slice([]int{i, 0}, []int{i + 1, 4}).Reshape(4), ps.Slice([]int{i, 0, 0}, []int{i + 1, 4, 4}).Reshape(4, 4)}
		s = m.Update(s, zs.Slice([]int{i, 0}, []int{i + 1, 2}).Reshape(2))
		outX[i], outP[i] = s.X.Reshape(1, 4), s.P.Reshape(1, 4, 4)
	}
	return jit.Concatenate(0, outX...), jit.Concatenate(0, outP...)
}

// MeanSpeed is the mean speed over a track's fixes.
func MeanSpeed(track jit.Array) jit.Array {
	n := track.Shape()[0]
	d := track.Slice([]int{1, 0}, []int{n, 2}).Sub(track.Slice([]int{0, 0}, []int{n - 1, 2}))
	return d.Mul(d).Sum(1).Sqrt().Mean()
}

// Track is one target being followed.
type Track struct {
	model Model
	state State
}

func (t *Track) Step(dt jit.Array, z jit.Array) State {
	return t.model.Update(t.model.Predict(dt, t.state), z)
}

func fix(rng *rand.Rand, t float64, noise float64) []float32 {
	return []float32{float32(3*t + noise*rng.NormFloat64()), float32(1 + 2*t + noise*rng.NormFloat64())}
}

func main() {
	rng := rand.New(rand.NewSource(3))
	model := newModel(0.01, 0.25)
	s0 := State{jit.Zeros(jit.Float32, 4), jit.FromSlice(eye(4), 4, 4)}
	predict := jit.Jit(Model.Predict)
	update := jit.Jit(Model.Update)
	predictFixed := jit.Jit(PredictFixed, jit.StaticArgnums(0))

	// Regular stream: dt as an array, one program for every step.
	s, t := s0, 0.0
	var residuals []float64
	for i := 0; i < 30; i++ {
		t += 0.1
		s = update.Call(model, predict.Call(model, jit.Scalar[float32](0.1), s), jit.FromSlice(fix(rng, t, 0.5)))
		residuals = append(residuals, float64(s.X.Float32s()[0])-3*t)
	}
	fmt.Printf("regular: x=%.2f vx=%.2f last residual %.3f\n", s.X.Float32s()[0], s.X.Float32s()[2], residuals[len(residuals)-1])

	// Irregular timestamps with dt static: a new program per gap.
	for i := 0; i < 6; i++ {
		dt := 0.05 + 0.01*float64(i)
		t += dt
		s = predictFixed.Call(dt, model, s) // want staticargs
		s = update.Call(model, s, jit.FromSlice(fix(rng, t, 0.5)))
	}
	fmt.Printf("irregular: x=%.2f y=%.2f\n", s.X.Float32s()[0], s.X.Float32s()[1])

	// Two radars with their own fixed sampling periods: two programs.
	for i := 0; i < 20; i++ {
		dt := []float64{0.1, 0.2}[i%2]
		t += dt
		s = update.Call(model, predictFixed.Call(dt, model, s), jit.FromSlice(fix(rng, t, 0.5)))
	}
	fmt.Printf("two radars: vx=%.2f vy=%.2f, innovations logged while tracing: %d\n", s.X.Float32s()[2], s.X.Float32s()[3], len(innovations))

	// Gating with a host if fails while tracing; the Where version runs.
	gated := jit.Jit(Model.GatedUpdate)
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("gated update:", r.(*jit.Error).Kind)
			}
		}()
		gated.Call(model, s, jit.FromSlice([]float32{100, 100}))
	}()
	safe := jit.Jit(Model.SafeGatedUpdate)
	kept := safe.Call(model, s, jit.FromSlice([]float32{100, 100}))
	fmt.Printf("outlier rejected: x stays %.2f\n", kept.X.Float32s()[0])

	// A swarm of 40 targets, updated by a Go loop over targets.
	const nt = 40
	xs, ps, zs := make([]float32, 0, nt*4), make([]float32, 0, nt*16), make([]float32, 0, nt*2)
	for i := 0; i < nt; i++ {
		xs = append(xs, 0, 0, 1, 1)
		ps = append(ps, eye(4)...)
		zs = append(zs, float32(i%5)*0.1, float32(i%3)*0.1)
	}
	ux, _ := jit.Jit(UpdateAll).Call(model, jit.FromSlice(xs, nt, 4), jit.FromSlice(ps, nt, 4, 4), jit.FromSlice(zs, nt, 2))
	fmt.Printf("swarm: first target x=%.3f\n", ux.Float32s()[0])

	// New tracks spawn with their own jitted step bound to the track.
	for i := 0; i < 4; i++ {
		tr := &Track{model: model, state: s0}
		step := jit.Jit(func(dt, z jit.Array) State { return tr.Step(dt, z) }) // want staticargs
		tr.state = step.Call(jit.Scalar[float32](0.1), jit.FromSlice([]float32{float32(i), 0}))
		fmt.Printf("track %d: x=%.3f\n", i, tr.state.X.Float32s()[0])
	}

	// Mean speed over the history, recomputed as the history grows.
	speed := jit.Jit(MeanSpeed)
	var hist []float32
	for i := 0; i < 8; i++ {
		hist = append(hist, fix(rng, 0.1*float64(i), 0.05)...)
		if i == 0 {
			continue
		}
		v := speed.Call(jit.FromSlice(hist, i+1, 2)).Item() // want shapechurn
		if i == 7 {
			fmt.Printf("mean speed over %d fixes %.2f (true %.2f)\n", i+1, v/0.1, math.Sqrt(13))
		}
	}
}
