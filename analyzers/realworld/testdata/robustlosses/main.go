// Command robustfit fits a few robust estimators by gradient descent: the
// geometric median of a point cloud, a Poisson rate model and a
// relative-error regression, and checks their gradients before training.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type lossFn = func(theta, x, y jit.Array) jit.Array
type gradFn = func(theta, x, y jit.Array) jit.Array

var traceCount int

// geomedian is the mean Euclidean distance from theta to the points x.
func geomedian(theta, x, _ jit.Array) jit.Array {
	d2 := x.Sub(theta).Pow(2).Sum(1)
	return jit.Where(d2.Gt(0), d2.Sqrt(), 0).Mean() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

// geomedianSafe guards the square root with a double where.
func geomedianSafe(theta, x, _ jit.Array) jit.Array {
	d2 := x.Sub(theta).Pow(2).Sum(1)
	pos := d2.Gt(0)
	return jit.Where(pos, jit.Where(pos, d2, 1).Sqrt(), 0).Mean()
}

// poissonNLL is the negative log-likelihood of counts y with rate x·theta.
func poissonNLL(theta, x, y jit.Array) jit.Array {
	lam := x.MatMul(theta)
	return jit.Where(lam.Gt(0), lam.Sub(y.Mul(lam.Log())), 0).Mean() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

// poissonSoft uses a softplus link, so the rate is never zero.
func poissonSoft(theta, x, y jit.Array) jit.Array {
	lam := jit.Softplus(x.MatMul(theta)).Add(1e-6)
	return jit.Where(lam.Gt(1e-3), lam.Sub(y.Mul(lam.Log())), lam).Mean()
}

// relErr is the mean absolute relative error, skipping zero targets.
func relErr(theta, x, y jit.Array) jit.Array {
	pred := x.MatMul(theta)
	return jit.Where(y.Ne(0), pred.Sub(y).Div(y), 0).Abs().Mean() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

// relErrSafe divides by a denominator that is never zero.
func relErrSafe(theta, x, y jit.Array) jit.Array {
	pred := x.MatMul(theta)
	den := jit.Where(y.Ne(0), y, 1)
	return jit.Where(y.Ne(0), pred.Sub(y).Div(den), 0).Abs().Mean()
}

// descend builds a jitted gradient-descent step for a loss.
func descend(loss lossFn) *jit.Func[func(theta, x, y jit.Array, lr float64) jit.Array] {
	g := jit.Grad[gradFn](loss)
	return jit.Jit(func(theta, x, y jit.Array, lr float64) jit.Array {
		traceCount++ // want traceeffect
		return theta.Sub(g(theta, x, y).Mul(lr))
	}, jit.StaticArgnums(3))
}

// diagnose refuses to continue when the gradient explodes.
func diagnose(theta, x, y jit.Array) jit.Array {
	g := jit.Grad[gradFn](relErrSafe)(theta, x, y)
	if g.Abs().MaxReduce().Gt(1e3).Bool() { // want tracedbool
		return jit.Zeros(jit.Float32, 2)
	}
	return g
}

func hasNaN(a jit.Array) bool {
	for _, v := range a.Float32s() {
		if math.IsNaN(float64(v)) {
			return true
		}
	}
	return false
}

func main() {
	cloud := jit.FromSlice([]float32{0, 0, 1, 0, 0, 1, 4, 4, -1, 2}, 5, 2)
	design := jit.FromSlice([]float32{1, 0.5, 0, 0, 1, 2, 2, 1, 0.5, 0.5}, 5, 2)
	counts := jit.FromSlice([]float32{1, 0, 4, 3, 1})
	targets := jit.FromSlice([]float32{1.2, 0, 2.9, 2.1, 0.6})

	problems := []struct {
		name string
		loss lossFn
		x, y jit.Array
		init []float32
	}{
		{"geomedian", geomedian, cloud, counts, []float32{0, 0}},
		{"geomedian/safe", geomedianSafe, cloud, counts, []float32{0, 0}},
		{"poisson", poissonNLL, design, counts, []float32{1, 1}},
		{"poisson/softplus", poissonSoft, design, counts, []float32{1, 1}},
		{"relerr", relErr, design, targets, []float32{0.5, 0.5}},
		{"relerr/safe", relErrSafe, design, targets, []float32{0.5, 0.5}},
	}
	for _, p := range problems {
		theta := jit.FromSlice(p.init)
		g := jit.Grad[gradFn](p.loss)(theta, p.x, p.y)
		fmt.Printf("%-17s grad at init %v  nan=%v\n", p.name, g, hasNaN(g))
		if hasNaN(g) {
			continue
		}
		step := descend(p.loss)
		for it := 0; it < 40; it++ {
			theta = step.Call(theta, p.x, p.y, 0.05)
		}
		fmt.Printf("%-17s theta %v  loss %.4f\n", p.name, theta, p.loss(theta, p.x, p.y).Item())
	}
	fmt.Println("step traces:", traceCount)
	fmt.Println("final gradient check:", jit.Jit(diagnose).Call(jit.FromSlice([]float32{0.9, 0.7}), design, targets))
}
