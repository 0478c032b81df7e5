// Command poissonglm fits a Poisson regression of daily incident counts on
// three covariates with small generic training and evaluation utilities
// that work for any parameter type with an update rule. It fits the model
// twice, once by maximum likelihood and once by minimizing the deviance,
// then reports the per-district mean deviance of each fit.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

type Batch struct {
	X, Y, Mask jit.Array // X: [n,3], Y: [n], Mask: [n]
}

// Updatable parameters know how to take a gradient step.
type Updatable[P any] interface {
	Step(g P, lr float64) P
}

type GLM struct {
	Beta jit.Array // [3]
	Bias jit.Array // []
}

func (p GLM) Step(g GLM, lr float64) GLM {
	return GLM{p.Beta.Sub(g.Beta.Mul(lr)), p.Bias.Sub(g.Bias.Mul(lr))}
}

func (p GLM) rate(x jit.Array) jit.Array { return x.MatMul(p.Beta).Add(p.Bias).Exp() }

func nll(p GLM, b Batch) jit.Array {
	mu := p.rate(b.X)
	per := jit.Where(b.Mask.Gt(0), mu.Sub(b.Y.Mul(mu.Log())), 0)
	return per.Sum().Div(b.Mask.Sum())
}

func deviance(p GLM, b Batch) jit.Array {
	mu := p.rate(b.X)
	term := jit.Where(b.Y.Gt(0), b.Y.Mul(b.Y.Div(mu).Log()), 0) // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
	per := term.Sub(b.Y.Sub(mu)).Mul(2).Mul(b.Mask)
	return per.Sum().Div(b.Mask.Sum())
}

func devianceStable(p GLM, b Batch) jit.Array {
	mu := p.rate(b.X)
	ylogy := jit.Where(b.Y.Gt(0), b.Y.Mul(b.Y.Log()), 0)
	per := ylogy.Sub(b.Y.Mul(mu.Log())).Sub(b.Y.Sub(mu)).Mul(2).Mul(b.Mask)
	return per.Sum().Div(b.Mask.Sum())
}

// Fit runs full-batch gradient descent over the given batches.
func Fit[P Updatable[P]](name string, loss func(P, Batch) jit.Array, p P, data []Batch, epochs int, lr float64) P {
	vg := jit.Jit(jit.ValueAndGrad[func(P, Batch) (jit.Array, P)](loss))
	for e := 0; e < epochs; e++ {
		total := 0.0
		for _, b := range data {
			v, g := vg.Call(p, b)
			p = p.Step(g, lr)
			total += v.Item()
		}
		if e%10 == 9 {
			fmt.Printf("%s epoch %d: loss %.4f\n", name, e+1, total/float64(len(data)))
		}
	}
	return p
}

// Evaluate returns the metric of every group.
func Evaluate[P any](metric func(P, Batch) jit.Array, p P, groups []Batch) []float64 {
	m := jit.Jit(metric)
	out := make([]float64, 0, len(groups))
	for _, g := range groups {
		out = append(out, m.Call(p, g).Item()) // want shapechurn
	}
	return out
}

func simulate(r *rand.Rand, n int) ([]float32, []float32) {
	xs := make([]float32, 0, 3*n)
	ys := make([]float32, 0, n)
	for i := 0; i < n; i++ {
		a, b, c := r.Float64(), r.Float64()*2-1, r.Float64()
		rate := math.Exp(0.3 + 1.1*a - 0.6*b + 0.2*c)
		k, prod := 0, r.Float64()
		for prod > math.Exp(-rate) {
			k++
			prod *= r.Float64()
		}
		xs = append(xs, float32(a), float32(b), float32(c))
		ys = append(ys, float32(k))
	}
	return xs, ys
}

func padded(xs, ys []float32, size int) Batch {
	n := len(ys)
	mask := make([]float32, size)
	for i := 0; i < n; i++ {
		mask[i] = 1
	}
	x := append(append([]float32{}, xs...), make([]float32, 3*(size-n))...)
	y := append(append([]float32{}, ys...), make([]float32, size-n)...)
	return Batch{jit.FromSlice(x, size, 3), jit.FromSlice(y), jit.FromSlice(mask)}
}

func main() {
	r := rand.New(rand.NewSource(11))
	var train, districts []Batch
	for i := 0; i < 4; i++ {
		xs, ys := simulate(r, 12+i)
		train = append(train, padded(xs, ys, 16))
	}
	for _, n := range []int{5, 9, 12, 7, 15, 4} {
		xs, ys := simulate(r, n)
		districts = append(districts, padded(xs, ys, n))
	}
	p0 := GLM{jit.Zeros(jit.Float32, 3), jit.Scalar(float32(0))}

	type gradOf = func(GLM, Batch) GLM
	fmt.Println("nll gradient at start:", jit.Grad[gradOf](nll)(p0, train[0]))
	fmt.Println("deviance gradient at start:", jit.Grad[gradOf](deviance)(p0, train[0]))
	fmt.Println("stable deviance gradient at start:", jit.Grad[gradOf](devianceStable)(p0, train[0]))

	mle := Fit("nll", nll, p0, train, 30, 0.1)
	dev := Fit("deviance", deviance, p0, train, 30, 0.05)
	fmt.Println("MLE beta:", mle.Beta, "bias:", mle.Bias)
	fmt.Println("deviance-fit beta:", dev.Beta, "bias:", dev.Bias)

	for i, d := range Evaluate(devianceStable, mle, districts) {
		fmt.Printf("district %d: mean deviance %.3f\n", i, d)
	}
}
