// Command optimizer_sched trains a tiny logistic-regression model with Adam
// and a warmup + cosine learning-rate schedule.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	nFeat   = 5
	nData   = 40
	nSteps  = 24
	warmupN = 4
)

var lrLog []float64

// Adam holds the optimizer state.
type Adam struct {
	M, V jit.Array
	T    jit.Array
}

func loss(w, x, y jit.Array) jit.Array {
	z := x.MatMul(w).Reshape(-1)
	return jit.Softplus(z).Sub(z.Mul(y)).Mean()
}

func adamUpdate(w, g jit.Array, st Adam, lr any) (jit.Array, Adam) {
	t := st.T.Add(1)
	m := st.M.Mul(0.9).Add(g.Mul(0.1))
	v := st.V.Mul(0.999).Add(g.Pow(2).Mul(0.001))
	mh := m.Div(jit.Full(1, jit.Float32).Sub(jit.Full(0.9, jit.Float32).Pow(t)))
	vh := v.Div(jit.Full(1, jit.Float32).Sub(jit.Full(0.999, jit.Float32).Pow(t)))
	step := mh.Div(vh.Sqrt().Add(1e-8))
	switch lr := lr.(type) {
	case float64:
		step = step.Mul(lr)
	case jit.Array:
		step = step.Mul(lr)
	}
	return w.Sub(step), Adam{m, v, t}
}

var grad = jit.Grad[func(w, x, y jit.Array) jit.Array](loss)

// StepStaticLR takes the scheduled learning rate as a static float.
func StepStaticLR(w jit.Array, st Adam, x, y jit.Array, lr float64) (jit.Array, Adam) {
	lrLog = append(lrLog, lr) // want traceeffect
	return adamUpdate(w, grad(w, x, y), st, lr)
}

// StepTracedLR takes it as a traced scalar; warmup (static) clips the
// gradient during the first steps.
func StepTracedLR(w jit.Array, st Adam, x, y, lr jit.Array, warmup bool) (jit.Array, Adam) {
	g := grad(w, x, y)
	if warmup {
		g = g.Max(-1).Min(1)
	}
	return adamUpdate(w, g, st, lr)
}

func schedule(step int) float64 {
	if step < warmupN {
		return 0.1 * float64(step+1) / warmupN
	}
	p := float64(step-warmupN) / float64(nSteps-warmupN)
	return 0.05 * (1 + math.Cos(math.Pi*p))
}

func data() (jit.Array, jit.Array) {
	xs := make([]float32, nData*nFeat)
	ys := make([]float32, nData)
	for i := 0; i < nData; i++ {
		s := 0.0
		for j := 0; j < nFeat; j++ {
			v := math.Sin(float64(i*(j+2)) * 0.21)
			xs[i*nFeat+j] = float32(v)
			s += v * float64(j-2)
		}
		if s > 0 {
			ys[i] = 1
		}
	}
	return jit.FromSlice(xs, nData, nFeat), jit.FromSlice(ys, nData)
}

func newAdam() Adam {
	return Adam{jit.Zeros(jit.Float32, nFeat, 1), jit.Zeros(jit.Float32, nFeat, 1), jit.Zeros(jit.Float32)}
}

func main() {
	x, y := data()
	evalLoss := jit.Jit(loss)

	// Static learning rate: the schedule gives a new value every step.
	stepS := jit.Jit(StepStaticLR, jit.StaticArgnums(4))
	w, st := jit.Zeros(jit.Float32, nFeat, 1), newAdam()
	for s := 0; s < nSteps; s++ {
		w, st = stepS.Call(w, st, x, y, schedule(s)) // want staticargs
	}
	fmt.Printf("static lr: loss %.4f, %d lr values logged\n", evalLoss.Call(w, x, y).Item(), len(lrLog))

	// Traced learning rate, static warmup flag (two values).
	stepT := jit.Jit(StepTracedLR, jit.StaticArgnums(5))
	w, st = jit.Zeros(jit.Float32, nFeat, 1), newAdam()
	for s := 0; s < nSteps; s++ {
		lr := jit.Scalar(float32(schedule(s)))
		w, st = stepT.Call(w, st, x, y, lr, s < warmupN)
	}
	fmt.Printf("traced lr: loss %.4f, compiles %d\n", evalLoss.Call(w, x, y).Item(), stepT.Stats().Compiles)

	// Gradient norms for monitoring: jitting a fresh Grad each step.
	var norms []float64
	for s := 0; s < 8; s++ {
		gnorm := jit.Jit(func(w, x, y jit.Array) jit.Array { return grad(w, x, y).Pow(2).Sum().Sqrt() }) // want staticargs
		norms = append(norms, gnorm.Call(w, x, y).Item())
	}
	// The same, with the wrapper kept.
	gk := jit.Jit(grad)
	for s := 0; s < 8; s++ {
		norms = append(norms, gk.Call(w, x, y).Pow(2).Sum().Sqrt().Item())
	}
	fmt.Printf("grad norm %.5f (%d samples)\n", norms[len(norms)-1], len(norms))
}
