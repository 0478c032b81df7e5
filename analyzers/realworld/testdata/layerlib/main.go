// layerlib trains a small MLP from the nn sub-package on a synthetic
// regression task, sweeps the depth of a residual tower and fits a
// polynomial basis, reporting losses as it goes.
package main

import (
	"fmt"
	"log"

	"corpus/layerlib/nn"

	"github.com/jitlint/jitlint/jit"
)

const (
	nSamples = 100
	inDim    = 6
	batch    = 32
)

var tracedShapes [][]int

func dataset() (x, y jit.Array) {
	x = jit.Arange(nSamples*inDim, jit.Float32).Mul(0.131).Sin().Reshape(nSamples, inDim)
	y = x.Sum(1).Mul(0.5).Tanh().Reshape(nSamples, 1)
	return x, y
}

func rows(a jit.Array, lo, hi int) jit.Array {
	s := a.Shape()
	return a.Slice([]int{lo, 0}, []int{hi, s[1]})
}

// loss is the regularised training objective.
func loss(m nn.MLP, x, y jit.Array) jit.Array {
	tracedShapes = append(tracedShapes, x.Shape()) // want traceeffect
	reg := jit.Zeros(jit.Float32)
	for _, l := range m.Layers {
		reg = reg.Add(l.W.Mul(l.W).Sum())
	}
	return nn.MSE(m, x, y).Add(reg.Mul(1e-4))
}

func train(m nn.MLP, x, y jit.Array) nn.MLP {
	grad := jit.Jit(jit.Grad[func(nn.MLP, jit.Array, jit.Array) nn.MLP](loss))
	for epoch := 0; epoch < 4; epoch++ {
		for lo := 0; lo < nSamples; lo += batch {
			hi := min(lo+batch, nSamples)
			g := grad.Call(m, rows(x, lo, hi), rows(y, lo, hi))
			m = nn.SGD(m, g, 0.1)
		}
		fwd := jit.Jit(m.Forward) // want staticargs
		pred := fwd.Call(x)
		d := pred.Sub(y)
		log.Printf("epoch %d: mse %.5f", epoch, d.Mul(d).Mean().Item())
	}
	log.Printf("loss traced for batch shapes %v", tracedShapes)
	return m
}

func evaluate(m nn.MLP, x, y jit.Array) {
	total := 0.0
	for lo := 0; lo < nSamples; lo += batch {
		hi := min(lo+batch, nSamples)
		pred := jit.Jit(nn.Predict).Call(m, rows(x, lo, hi))
		d := pred.Sub(rows(y, lo, hi))
		total += d.Mul(d).Sum().Item()
	}
	fmt.Printf("eval mse %.5f\n", total/nSamples)
}

func sweepDepth(x jit.Array) {
	w := nn.NewDense(inDim, inDim, 3).W
	tower := jit.Jit(nn.ResidualTower, jit.StaticArgnums(2))
	for _, depth := range []int{4, 8, 16, 48} {
		h := tower.Call(x, w, depth) // want staticargs
		fmt.Printf("depth %2d: mean activation %.4f\n", depth, h.Mean().Item())
	}
}

func fitPoly() {
	const degree = 32
	basis := jit.Jit(nn.PolyBasis, jit.StaticArgnums(1))
	norm := jit.Jit(nn.RowNormalize)
	acc := 0.0
	for step := 0; step < 20; step++ {
		t := jit.Arange(16, jit.Float32).Div(16).Add(float64(step) * 0.01)
		feats := basis.Call(t, degree)
		acc += norm.Call(feats).Sum().Item()
	}
	fmt.Printf("poly features: mean row sum %.4f\n", acc/20)
}

// standardize centres the inputs and scales them to unit norm, leaving
// an all-constant design matrix alone.
func standardize(x jit.Array) jit.Array {
	c := x.Sub(x.Mean(0))
	n := c.Mul(c).Sum().Sqrt()
	if n.Item() < 1e-6 { // want tracedbool
		return c
	}
	return c.Div(n)
}

func main() {
	x, y := dataset()
	m := nn.NewMLP("tanh", inDim, 16, 16, 1)
	m = train(m, x, y)
	evaluate(m, x, y)
	sweepDepth(x)
	fitPoly()
	jit.Jit(standardize).Call(x).BlockUntilReady()
}
