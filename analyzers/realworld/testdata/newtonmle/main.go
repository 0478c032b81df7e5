// newtonmle fits the location of Cauchy samples by maximum likelihood with
// Newton's method. The second derivative comes from jit.Grad of jit.Grad;
// each data set is fitted by a host loop, a fixed-step compiled loop and an
// unrolled one, and the results are compared.
package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"sort"

	"corpus/newtonmle/optim"

	"github.com/jitlint/jitlint/jit"
)

// maxN is the padded length of every data set.
const maxN = 64

// Batch is a data set with a mask (1 for real samples, 0 for padding).
type Batch struct {
	X, Mask jit.Array
}

// NLL is the Cauchy negative log-likelihood (up to constants) of location theta.
func NLL(theta jit.Array, b Batch) jit.Array {
	d := b.X.Sub(theta)
	return d.Mul(d).Log1p().Mul(b.Mask).Sum()
}

type scalarFn = func(jit.Array, Batch) jit.Array

var (
	dNLL  = jit.Grad[scalarFn](NLL)
	d2NLL = jit.Grad[scalarFn](dNLL)
)

// NewtonStep is one safeguarded Newton step: where the curvature is not
// positive (the Cauchy likelihood is not convex) it takes a gradient step.
func NewtonStep(theta jit.Array, data Batch) jit.Array {
	g := dNLL(theta, data)
	h := d2NLL(theta, data)
	newton := theta.Sub(g.Div(h.Max(1e-6)))
	descent := theta.Sub(g.Mul(0.05))
	return jit.Where(h.Gt(1e-6), newton, descent)
}

// NaiveNewtonStep is the first version, straight from the textbook.
func NaiveNewtonStep(theta jit.Array, data Batch) jit.Array {
	g := dNLL(theta, data)
	h := d2NLL(theta, data)
	if h.Item() <= 0 { // want tracedbool
		return theta.Sub(g.Mul(0.05))
	}
	return theta.Sub(g.Div(h))
}

// standardError is 1/sqrt(observed information) at theta.
func standardError(theta jit.Array, data Batch) float64 {
	info := jit.Jit(func(t jit.Array) jit.Array { return d2NLL(t, data) }) // want staticargs
	return 1 / math.Sqrt(info.Call(theta).Item())
}

func sample(rng *rand.Rand, n int, loc float64) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(loc + math.Tan(math.Pi*(rng.Float64()-0.5)))
	}
	return xs
}

// median starts Newton inside the basin: the sample mean of Cauchy data
// can be arbitrarily far off.
func median(xs []float32) float32 {
	c := append([]float32(nil), xs...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	return c[len(c)/2]
}

func tryNaive(theta jit.Array, data Batch) (out jit.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*jit.Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	return jit.Jit(NaiveNewtonStep).Call(theta, data), nil
}

func main() {
	rng := rand.New(rand.NewSource(7))
	locs := []float64{-2, 0.5, 3, 1, -0.75, 4}
	sizes := []int{24, 40, 24, 56, 40, 64}

	fixed := jit.Jit(func(theta jit.Array, data Batch) jit.Array {
		return optim.IterateLoop(func(t jit.Array) jit.Array { return NewtonStep(t, data) }, theta, 100)
	})
	unrolled := jit.Jit(func(theta jit.Array, data Batch) jit.Array {
		return optim.Iterate(func(t jit.Array) jit.Array { return NewtonStep(t, data) }, theta, 40) // want unrolledloop
	})
	polish := jit.Jit(func(theta jit.Array, data Batch) jit.Array {
		return optim.Iterate(func(t jit.Array) jit.Array { return NewtonStep(t, data) }, theta, 8)
	})

	gradAt := jit.Jit(dNLL)
	for k, loc := range locs {
		xs := sample(rng, sizes[k], loc)
		data := Batch{X: jit.FromSlice(xs), Mask: jit.Ones(jit.Float32, len(xs))}
		px, mask, err := jit.PadTo(data.X, maxN)
		if err != nil {
			panic(err)
		}
		padded := Batch{X: px, Mask: mask}
		theta0 := jit.Scalar(median(xs))

		if k == 0 {
			_, err := tryNaive(theta0, data)
			var je *jit.Error
			if errors.As(err, &je) {
				fmt.Printf("naive Newton step cannot be jitted: %v\n", je.Kind)
			}
		}

		steps := 0
		theta, iters := optim.Solve(func(t jit.Array) jit.Array {
			steps++
			return jit.Jit(NewtonStep).Call(t, data)
		}, theta0, optim.HostOptions{MaxIter: 60, Tol: 1e-5})
		host := theta.Item()
		grad := gradAt.Call(theta, padded).Item()

		a := fixed.Call(theta0, data).Item() // want shapechurn
		b := polish.Call(unrolled.Call(theta0, padded), padded).Item()
		se := standardError(theta, data)
		fmt.Printf("set %d (n=%2d, true %5.2f): host %.4f in %2d its | fori %.4f | unrolled %.4f | se %.3f | grad %.1e (%d steps)\n",
			k, sizes[k], loc, host, iters, a, b, se, grad, steps)
	}
	fmt.Printf("compiles: fori %d, unrolled %d, polish %d\n",
		fixed.Stats().Compiles, unrolled.Stats().Compiles, polish.Stats().Compiles)
}
