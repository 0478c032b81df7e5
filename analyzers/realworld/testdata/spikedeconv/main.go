// Command spikedeconv recovers a sparse spike train from a blurred, noisy
// fluorescence trace. The forward model is a convolution with an
// exponential kernel, written as a matrix; residuals are weighted by the
// inverse square root of the observed intensity. Amplitudes are fitted by
// gradient descent under a bridge penalty (|w|^0.5) and an elastic penalty
// (|w|^1.5), and by iterative soft-thresholding (ISTA) as a baseline.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const n = 24

func blurMatrix(tau float64) jit.Array {
	a := make([]float32, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			a[i*n+j] = float32(math.Exp(-float64(i-j) / tau))
		}
	}
	return jit.FromSlice(a, n, n)
}

type Problem struct {
	A, Y jit.Array
}

func (p Problem) weightedResidual(w jit.Array) jit.Array {
	wt := jit.Where(p.Y.Gt(0), p.Y.Rsqrt(), 1)
	return p.A.MatMul(w).Sub(p.Y).Mul(wt)
}

func bridgeObjective(w jit.Array, p Problem) jit.Array {
	r := p.weightedResidual(w)
	pen := jit.Where(w.Ne(0), w.Abs().Pow(0.5), 0) // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
	return r.Mul(r).Sum().Mul(0.5).Add(pen.Sum().Mul(0.05))
}

func elasticObjective(w jit.Array, p Problem) jit.Array {
	r := p.weightedResidual(w)
	pen := jit.Where(w.Ne(0), w.Abs().Pow(1.5), 0)
	return r.Mul(r).Sum().Mul(0.5).Add(pen.Sum().Mul(0.05))
}

type objective = func(jit.Array, Problem) jit.Array

func descend(obj objective) *jit.Func[func(jit.Array, Problem) jit.Array] {
	g := jit.Grad[func(jit.Array, Problem) jit.Array](obj)
	return jit.Jit(func(w jit.Array, p Problem) jit.Array {
		return w.Sub(g(w, p).Mul(0.02))
	})
}

// ista runs a fixed number of soft-thresholding steps in one call.
func ista(p Problem, lam jit.Array) jit.Array {
	w := jit.Zeros(jit.Float32, n)
	at := p.A.Transpose()
	for it := 0; it < 40; it++ { // want unrolledloop
		grad := at.MatMul(p.A.MatMul(w).Sub(p.Y))
		z := w.Sub(grad.Mul(0.01))
		w = z.Sign().Mul(z.Abs().Sub(lam).Max(0))
	}
	return w
}

func main() {
	truth := make([]float32, n)
	truth[3], truth[10], truth[11], truth[18] = 1.5, 0.8, 0.6, 1.2
	A := blurMatrix(3)
	clean := A.MatMul(jit.FromSlice(truth))
	noise := make([]float32, n)
	for i := range noise {
		noise[i] = float32(0.05 * math.Sin(float64(i)*2.3))
	}
	p := Problem{A: A, Y: clean.Add(jit.FromSlice(noise)).Max(0)}
	w0 := jit.Zeros(jit.Float32, n)

	for _, obj := range []struct {
		name string
		fn   objective
	}{{"bridge", bridgeObjective}, {"elastic", elasticObjective}} {
		g := jit.Grad[func(jit.Array, Problem) jit.Array](obj.fn)(w0, p)
		fmt.Printf("%-7s gradient at w=0: %v\n", obj.name, g.Slice([]int{0}, []int{6}))
		step := descend(obj.fn)
		w := w0
		for it := 0; it < 150; it++ {
			w = step.Call(w, p)
		}
		fmt.Printf("%-7s objective %.4f\n        spikes %v\n", obj.name, obj.fn(w, p).Item(), w)
	}

	lam := jit.Scalar(float32(0.002))
	fmt.Println("ista    spikes", jit.Jit(ista).Call(p, lam))
	fmt.Println("truth         ", jit.FromSlice(truth))
}
