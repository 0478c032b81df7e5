// Command cnn trains a tiny convolutional classifier for bar orientation
// (horizontal, vertical, diagonal) on synthetic 12x12 images: one 3x3 conv
// layer via im2col, ReLU, 2x2 average pooling and a dense softmax head,
// trained with plain SGD and a step learning-rate schedule. A port of the
// Flax "MNIST from scratch" notebook, shrunk to run in a second.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"corpus/vision"

	"github.com/jitlint/jitlint/jit"
)

const (
	side     = 12
	filters  = 6
	classes  = 3
	batch    = 16
	nTrain   = 96
	nTest    = 48
	epochs   = 4
	pooled   = side / 2
	flatSize = pooled * pooled * filters
)

// Params are the model weights.
type Params struct {
	ConvW  jit.Array // [9, filters]
	ConvB  jit.Array // [filters]
	DenseW jit.Array // [flatSize, classes]
	DenseB jit.Array // [classes]
}

// lossEvals counts forward passes for the training report.
var lossEvals int

// forward returns logits [B, classes] for images x [B, side, side].
func forward(p Params, x jit.Array) jit.Array {
	b := x.Shape()[0]
	cols := vision.Patches3x3(x)                                 // [B, H, W, 9]
	h := jit.Relu(cols.MatMul(p.ConvW).Add(p.ConvB))             // [B, H, W, F]
	h = h.Reshape(b, pooled, 2, pooled, 2, filters).Mean(2, 4)   // [B, H/2, W/2, F]
	return h.Reshape(b, flatSize).MatMul(p.DenseW).Add(p.DenseB) // [B, classes]
}

// logSoftmax is x - logsumexp(x) along the last axis.
func logSoftmax(logits jit.Array) jit.Array {
	m := jit.StopGradient(logits.MaxReduce(1).Reshape(-1, 1))
	z := logits.Sub(m)
	return z.Sub(z.Exp().Sum(1).Log().Reshape(-1, 1))
}

// Loss is the mean cross-entropy against one-hot labels y [B, classes].
func Loss(p Params, x, y jit.Array) jit.Array {
	lossEvals++ // want traceeffect
	return logSoftmax(forward(p, x)).Mul(y).Sum(1).Mean().Neg()
}

var lossAndGrad = jit.ValueAndGrad[func(Params, jit.Array, jit.Array) (jit.Array, Params)](Loss)

// sgdStep takes one SGD step with learning rate lr.
func sgdStep(p Params, x, y jit.Array, lr float64) (Params, jit.Array) {
	loss, g := lossAndGrad(p, x, y)
	return Params{
		ConvW:  p.ConvW.Sub(g.ConvW.Mul(lr)),
		ConvB:  p.ConvB.Sub(g.ConvB.Mul(lr)),
		DenseW: p.DenseW.Sub(g.DenseW.Mul(lr)),
		DenseB: p.DenseB.Sub(g.DenseB.Mul(lr)),
	}, loss
}

// Evaluate returns the accuracy of p on x, y.
func Evaluate(p Params, x, y jit.Array) jit.Array {
	logits := forward(p, x)
	best := logits.MaxReduce(1).Reshape(-1, 1)
	hit := logits.Ge(best).Astype(jit.Float32).Mul(y).Sum(1).Min(1)
	acc := hit.Mean()
	jit.DebugPrint("  eval accuracy %v", acc)
	return acc
}

// schedule is a step decay: 0.5 for the first two epochs, then halved.
func schedule(epoch int) float64 {
	return 0.5 * math.Pow(0.5, float64(epoch/2))
}

func initParams(rng *rand.Rand) Params {
	normal := func(scale float64, shape ...int) jit.Array {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(scale * rng.NormFloat64())
		}
		return jit.FromSlice(v, shape...)
	}
	return Params{
		ConvW:  normal(math.Sqrt(2.0/9), 9, filters),
		ConvB:  jit.Zeros(jit.Float32, filters),
		DenseW: normal(math.Sqrt(1.0/flatSize), flatSize, classes),
		DenseB: jit.Zeros(jit.Float32, classes),
	}
}

// makeSet draws n noisy bar images and their one-hot labels.
func makeSet(n int, rng *rand.Rand) (x, y jit.Array) {
	pix := make([]float32, n*side*side)
	lab := make([]float32, n*classes)
	for i := 0; i < n; i++ {
		c := rng.Intn(classes)
		lab[i*classes+c] = 1
		off := 2 + rng.Intn(side-4)
		for r := 0; r < side; r++ {
			for q := 0; q < side; q++ {
				on := false
				switch c {
				case 0:
					on = r == off || r == off+1
				case 1:
					on = q == off || q == off+1
				case 2:
					on = r-q == off-side/2 || r-q == off-side/2+1
				}
				v := 0.1 * rng.NormFloat64()
				if on {
					v += 1
				}
				pix[(i*side+r)*side+q] = float32(v)
			}
		}
	}
	return jit.FromSlice(pix, n, side, side), jit.FromSlice(lab, n, classes)
}

func batchAt(x, y jit.Array, i int) (jit.Array, jit.Array) {
	s, e := i*batch, (i+1)*batch
	return x.Slice([]int{s, 0, 0}, []int{e, side, side}), y.Slice([]int{s, 0}, []int{e, classes})
}

func main() {
	rng := rand.New(rand.NewSource(42))
	xTrain, yTrain := makeSet(nTrain, rng)
	xTest, yTest := makeSet(nTest, rng)
	params := initParams(rng)

	var history []float64
	for epoch := 0; epoch < epochs; epoch++ {
		lr := schedule(epoch)
		step := jit.Jit(func(p Params, x, y jit.Array) (Params, jit.Array) {
			return sgdStep(p, x, y, lr)
		})
		var epochLoss float64
		for b := 0; b < nTrain/batch; b++ {
			xb, yb := batchAt(xTrain, yTrain, b)
			var loss jit.Array
			params, loss = step.Call(params, xb, yb)
			epochLoss += loss.Item()
		}
		epochLoss /= nTrain / batch
		history = append(history, epochLoss)

		eval := jit.Jit(Evaluate)
		fmt.Printf("epoch %d  lr %.3f  train loss %.4f\n", epoch, lr, epochLoss)
		acc := eval.Call(params, xTest, yTest).Item()
		fmt.Printf("  test accuracy %.3f (eval signatures: %d)\n", acc, len(eval.Signatures()))
	}

	// Serve the test set as requests of eight images with the trained
	// weights, returning the predicted class of each image.
	const reqSize = 8
	var served, correct int
	yt := yTest.Float32s()
	for r := 0; r < nTest/reqSize; r++ {
		xr := xTest.Slice([]int{r * reqSize, 0, 0}, []int{(r + 1) * reqSize, side, side})
		predict := jit.Jit(func(x jit.Array) jit.Array { // want staticargs
			return logSoftmax(forward(params, x)).Exp()
		})
		probs := predict.Call(xr).Float32s()
		for i := 0; i < reqSize; i++ {
			best := 0
			for c := 1; c < classes; c++ {
				if probs[i*classes+c] > probs[i*classes+best] {
					best = c
				}
			}
			if yt[(r*reqSize+i)*classes+best] == 1 {
				correct++
			}
			served++
		}
	}
	fmt.Printf("served %d images, %d correct\n", served, correct)

	fmt.Printf("loss history: %.4f\n", history)
	fmt.Printf("loss evaluations: %d, training steps: %d\n", lossEvals, epochs*nTrain/batch)
}
