// gradaccum fits an MLP regressor with gradient accumulation: the effective
// batch is split into micro-batches whose gradients are summed before one
// optimizer update, as with PyTorch's `loss.backward()` per micro-batch and
// `optimizer.step()` every k micro-batches, or optax.MultiSteps in JAX.
//
// Three trainers share the model:
//   - the PyTorch port: host loop over micro-batches, SGD update per step;
//   - the JAX port: lax.scan over micro-batches inside one jitted step, Adam;
//   - a "large batch" fused step for the final fine-tuning phase.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"corpus/lrsched"

	"github.com/jitlint/jitlint/jit"
)

const (
	inDim    = 8
	hidden   = 32
	clipNorm = 1.0
)

// Dense is one layer; Params is the MLP's layer list.
type Dense struct{ W, B jit.Array }
type Params struct{ Layers []Dense }

func initParams(rng *rand.Rand, sizes ...int) Params {
	var p Params
	for i := 0; i+1 < len(sizes); i++ {
		in, out := sizes[i], sizes[i+1]
		w := make([]float32, in*out)
		std := math.Sqrt(2.0 / float64(in)) // He init for the relu layers
		for j := range w {
			w[j] = float32(rng.NormFloat64() * std)
		}
		p.Layers = append(p.Layers, Dense{W: jit.FromSlice(w, in, out), B: jit.Zeros(jit.Float32, out)})
	}
	return p
}

// mapTree applies f leaf by leaf to trees of the same structure.
func mapTree(f func(xs ...jit.Array) jit.Array, trees ...Params) Params {
	var out Params
	for i := range trees[0].Layers {
		ws := make([]jit.Array, len(trees))
		bs := make([]jit.Array, len(trees))
		for t := range trees {
			ws[t], bs[t] = trees[t].Layers[i].W, trees[t].Layers[i].B
		}
		out.Layers = append(out.Layers, Dense{W: f(ws...), B: f(bs...)})
	}
	return out
}

func addTrees(a, b Params) Params {
	return mapTree(func(x ...jit.Array) jit.Array { return x[0].Add(x[1]) }, a, b)
}

func scaleTree(a Params, s float64) Params {
	return mapTree(func(x ...jit.Array) jit.Array { return x[0].Mul(s) }, a)
}

// Forward runs the MLP: relu hidden layers, linear output.
func Forward(p Params, x jit.Array) jit.Array {
	h := x
	for i, l := range p.Layers {
		h = h.MatMul(l.W).Add(l.B)
		if i < len(p.Layers)-1 {
			h = jit.Relu(h)
		}
	}
	return h.Reshape(x.Shape()[0])
}

// MSE is the mean squared error of one micro-batch.
func MSE(p Params, x, y jit.Array) jit.Array {
	d := Forward(p, x).Sub(y)
	return d.Mul(d).Mean()
}

var mseGrad = jit.ValueAndGrad[func(Params, jit.Array, jit.Array) (jit.Array, Params)](MSE)

// MicroGrad is the loss and gradient of one micro-batch.
func MicroGrad(p Params, x, y jit.Array) (jit.Array, Params) { return mseGrad(p, x, y) }

// SGDUpdate applies clipped SGD with the step's learning rate.
func SGDUpdate(p, g Params, lr float64) Params {
	var sq jit.Array = jit.Scalar(float32(0))
	for _, l := range g.Layers {
		sq = sq.Add(l.W.Mul(l.W).Sum()).Add(l.B.Mul(l.B).Sum())
	}
	scale := jit.Scalar(float32(clipNorm)).Div(sq.Sqrt().Max(clipNorm))
	return mapTree(func(x ...jit.Array) jit.Array { return x[0].Sub(x[1].Mul(scale).Mul(lr)) }, p, g)
}

// AdamState is the optimizer state of the JAX trainer.
type AdamState struct {
	Params Params
	M, V   Params
	Count  jit.Array // i32[]
}

// ScanAccumStep sums the gradients of the micro-batches xs[k], ys[k] with a
// scan and applies one Adam update with learning rate lr.
func ScanAccumStep(s AdamState, xs, ys, lr jit.Array) (AdamState, jit.Array) {
	type carry struct {
		G    Params
		Loss jit.Array
	}
	zero := mapTree(func(x ...jit.Array) jit.Array { return x[0].Mul(0) }, s.Params)
	type mb struct{ X, Y jit.Array }
	k := float64(xs.Shape()[0])
	final, _ := jit.Scan(func(c carry, b mb) (carry, struct{}) {
		l, g := mseGrad(s.Params, b.X, b.Y)
		return carry{G: addTrees(c.G, g), Loss: c.Loss.Add(l)}, struct{}{}
	}, carry{G: zero, Loss: jit.Scalar(float32(0))}, mb{X: xs, Y: ys})
	g := scaleTree(final.G, 1/k)

	const b1, b2, eps = 0.9, 0.999, 1e-8
	count := s.Count.Add(1)
	t := count.Astype(jit.Float32)
	c1 := jit.Scalar(float32(1)).Sub(jit.Scalar(float32(b1)).Pow(t))
	c2 := jit.Scalar(float32(1)).Sub(jit.Scalar(float32(b2)).Pow(t))
	m := mapTree(func(x ...jit.Array) jit.Array { return x[0].Mul(b1).Add(x[1].Mul(1 - b1)) }, s.M, g)
	v := mapTree(func(x ...jit.Array) jit.Array { return x[0].Mul(b2).Add(x[1].Mul(x[1]).Mul(1 - b2)) }, s.V, g)
	p := mapTree(func(x ...jit.Array) jit.Array {
		mhat, vhat := x[1].Div(c1), x[2].Div(c2)
		return x[0].Sub(mhat.Div(vhat.Sqrt().Add(eps)).Mul(lr))
	}, s.Params, m, v)
	return AdamState{Params: p, M: m, V: v, Count: count}, final.Loss.Div(k)
}

// FusedAccumStep is the large-batch step: every micro-batch's gradient is
// taken on its slice of the [k*mb, d] batch, then averaged and applied with
// plain SGD at a fixed rate.
func FusedAccumStep(p Params, x, y jit.Array) (Params, jit.Array) {
	const micro = 8
	n := x.Shape()[0]
	k := n / micro
	acc := mapTree(func(x ...jit.Array) jit.Array { return x[0].Mul(0) }, p)
	total := jit.Scalar(float32(0))
	for i := 0; i < k; i++ { // want unrolledloop
		xb := x.Slice([]int{i * micro, 0}, []int{(i + 1) * micro, inDim})
		yb := y.Slice([]int{i * micro}, []int{(i + 1) * micro})
		l, g := mseGrad(p, xb, yb)
		acc = addTrees(acc, g)
		total = total.Add(l)
	}
	g := scaleTree(acc, 1/float64(k))
	return mapTree(func(x ...jit.Array) jit.Array { return x[0].Sub(x[1].Mul(0.01)) }, p, g), total.Div(float64(k))
}

func makeData(rng *rand.Rand, n int) (jit.Array, jit.Array) {
	xs := make([]float32, n*inDim)
	ys := make([]float32, n)
	for i := 0; i < n; i++ {
		var a, b float64
		for j := 0; j < inDim; j++ {
			v := rng.NormFloat64()
			xs[i*inDim+j] = float32(v)
			a += v * float64(j+1) / inDim
			b += v * float64(inDim-j) / inDim
		}
		ys[i] = float32(math.Sin(a) + 0.1*b*b + 0.05*rng.NormFloat64())
	}
	return jit.FromSlice(xs, n, inDim), jit.FromSlice(ys, n)
}

func rows(a jit.Array, lo, hi int) jit.Array {
	shp := a.Shape()
	start := make([]int, len(shp))
	limit := append([]int(nil), shp...)
	start[0], limit[0] = lo, hi
	return a.Slice(start, limit)
}

func main() {
	rng := rand.New(rand.NewSource(42))
	const microBatch, accumSteps = 16, 4
	const effBatch = microBatch * accumSteps
	X, Y := makeData(rng, 12*effBatch)
	Xval, Yval := makeData(rng, 128)
	eval := jit.Jit(MSE)
	init := initParams(rng, inDim, hidden, hidden, 1)

	// --- PyTorch port: host accumulation loop, SGD with warmup then linear
	// decay (torch's LinearLR after a warmup).
	sched := lrsched.Join([]lrsched.Schedule{
		lrsched.LinearWarmup(0.005, 0.05, 4),
		lrsched.Polynomial(0.05, 0.002, 1, 8),
	}, []int{4})
	microGrad := jit.Jit(MicroGrad)
	sgd := jit.Jit(SGDUpdate, jit.StaticArgnums(2))
	p := init
	for step := 0; step < 12; step++ {
		var acc Params
		var lsum float64
		for m := 0; m < accumSteps; m++ {
			lo := step*effBatch + m*microBatch
			l, g := microGrad.Call(p, rows(X, lo, lo+microBatch), rows(Y, lo, lo+microBatch))
			if m == 0 {
				acc = g
			} else {
				acc = addTrees(acc, g)
			}
			lsum += l.Item()
		}
		p = sgd.Call(p, scaleTree(acc, 1.0/accumSteps), sched(step)) // want staticargs
		if step%4 == 3 {
			fmt.Printf("[torch] step %2d lr %.4f train %.4f val %.4f\n", step, sched(step),
				lsum/accumSteps, eval.Call(p, Xval, Yval).Item())
		}
	}
	fmt.Printf("[torch] micro-grad compiles %d, sgd compiles %d\n", microGrad.Stats().Compiles, sgd.Stats().Compiles)

	// --- JAX port: one jitted step per effective batch, scan over micro-batches.
	cosine := lrsched.WarmupCosine(3e-3, 1e-4, 3, 24)
	adam := jit.Jit(ScanAccumStep)
	zeros := mapTree(func(x ...jit.Array) jit.Array { return x[0].Mul(0) }, init)
	st := AdamState{Params: init, M: zeros, V: zeros, Count: jit.Scalar(int32(0))}
	for step := 0; step < 24; step++ {
		lo := (step % 12) * effBatch
		xs := rows(X, lo, lo+effBatch).Reshape(accumSteps, microBatch, inDim)
		ys := rows(Y, lo, lo+effBatch).Reshape(accumSteps, microBatch)
		var loss jit.Array
		st, loss = adam.Call(st, xs, ys, cosine.Value(step))
		if step%8 == 7 {
			fmt.Printf("[jax] step %2d lr %.5f train %.4f val %.4f\n", step, cosine(step),
				loss.Item(), eval.Call(st.Params, Xval, Yval).Item())
		}
	}
	fmt.Printf("[jax] adam step compiles %d for 24 steps\n", adam.Stats().Compiles)

	// --- Large-batch fine-tuning: 384 examples per update.
	fused := jit.Jit(FusedAccumStep)
	big := 384
	fp := st.Params
	for step := 0; step < 3; step++ {
		lo := step * 256 % (X.Shape()[0] - big + 1)
		var loss jit.Array
		fp, loss = fused.Call(fp, rows(X, lo, lo+big), rows(Y, lo, lo+big))
		fmt.Printf("[large] step %d train %.4f\n", step, loss.Item())
	}
	fs := fused.Stats()
	fmt.Printf("[large] val %.4f, fused step: %d trace(s), %d cache hit(s)\n", eval.Call(fp, Xval, Yval).Item(), fs.Traces, fs.Hits)
}
