// Command warmupcosine trains an MLP regressor with gradient accumulation,
// a linear-warmup + cosine learning-rate schedule, gradient clipping, early
// stopping and checkpoints written to a temporary directory.
package main

import (
	"encoding/binary"
	"fmt"
	"log"
	"math"
	"math/rand"
	"os"
	"path/filepath"

	"corpus/warmupcosine/mlp"

	"github.com/jitlint/jitlint/jit"
)

const (
	inDim        = 4
	batch        = 32
	microBatches = 4
	warmupSteps  = 5
	maxEpochs    = 12
	patience     = 2
	peakLR       = 0.3
)

func accumStep(p mlp.MLP, x, y jit.Array) (jit.Array, mlp.MLP) {
	log.Printf("accumStep: batch %v in %d micro-batches", x.Shape(), microBatches) // want traceeffect
	return mlp.AccumulateGrads(p, x, y, microBatches)
}

func applyUpdate(p, g mlp.MLP, lr float64) mlp.MLP {
	return mlp.Map(p, g, func(w, dw jit.Array) jit.Array { return w.Sub(dw.Mul(lr)) })
}

// clipGlobal rescales g when its global norm exceeds maxNorm.
func clipGlobal(g mlp.MLP, maxNorm float64) mlp.MLP {
	norm := mlp.SqNorm(g).Sqrt()
	if norm.Item() > maxNorm { // want tracedbool
		g = mlp.Scale(g, norm.Pow(-1).Mul(maxNorm))
	}
	return g
}

func clipGlobalSmooth(g mlp.MLP, maxNorm float64) mlp.MLP {
	norm := mlp.SqNorm(g).Sqrt()
	return mlp.Scale(g, jit.Where(norm.Gt(maxNorm), norm.Max(1e-12).Div(maxNorm), 1.0).Pow(-1))
}

func evalLoss(p mlp.MLP, x, y jit.Array) jit.Array {
	l := mlp.Loss(p, x, y)
	jit.DebugPrint("    val loss %v\n", l)
	return l
}

// fullGradNorm is a diagnostic: the gradient norm over the whole training set.
func fullGradNorm(p mlp.MLP, x, y jit.Array) jit.Array {
	_, g := mlp.AccumulateGrads(p, x, y, x.Shape()[0]/8) // want unrolledloop
	return mlp.SqNorm(g).Sqrt()
}

var perExampleGrad = jit.Vmap(jit.Grad[func(mlp.MLP, jit.Array, jit.Array) mlp.MLP](mlp.Loss), jit.InAxes(jit.NotMapped, 0, 0))

// privateGrad clips every example's gradient to clip, then averages (DP-SGD style).
func privateGrad(p mlp.MLP, x, y jit.Array, clip float64) mlp.MLP {
	b := x.Shape()[0]
	g := perExampleGrad(p, x.Reshape(b, 1, inDim), y.Reshape(b, 1))
	sq := jit.Zeros(jit.Float32, b)
	for _, l := range g.Layers {
		sq = sq.Add(l.W.Mul(l.W).Sum(1, 2)).Add(l.B.Mul(l.B).Sum(1))
	}
	scale := sq.Sqrt().Div(clip).Max(1).Pow(-1)
	out := mlp.MLP{Layers: make([]mlp.Layer, len(g.Layers))}
	for k, l := range g.Layers {
		out.Layers[k] = mlp.Layer{W: l.W.Mul(scale.Reshape(b, 1, 1)).Mean(0), B: l.B.Mul(scale.Reshape(b, 1)).Mean(0)}
	}
	return out
}

func schedule(step, total int) float64 {
	if step < warmupSteps {
		return peakLR * float64(step+1) / warmupSteps
	}
	t := float64(step-warmupSteps) / float64(total-warmupSteps)
	return peakLR * 0.5 * (1 + math.Cos(math.Pi*t))
}

func dataset(rng *rand.Rand, n int) ([]float32, []float32) {
	x, y := make([]float32, n*inDim), make([]float32, n)
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < inDim; j++ {
			v := rng.Float64()*2 - 1
			x[i*inDim+j] = float32(v)
			s += v * float64(j+1) * 0.5
		}
		y[i] = float32(math.Sin(s))
	}
	return x, y
}

func saveCheckpoint(dir string, epoch int, p mlp.MLP) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("ckpt-%02d.bin", epoch))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	for _, l := range p.Layers {
		for _, a := range []jit.Array{l.W, l.B} {
			if err := binary.Write(f, binary.LittleEndian, a.Float32s()); err != nil {
				return "", err
			}
		}
	}
	return path, nil
}

func loadCheckpoint(path string, like mlp.MLP) (mlp.MLP, error) {
	f, err := os.Open(path)
	if err != nil {
		return mlp.MLP{}, err
	}
	defer f.Close()
	out := mlp.MLP{Layers: make([]mlp.Layer, len(like.Layers))}
	read := func(a jit.Array) (jit.Array, error) {
		buf := make([]float32, a.Size())
		err := binary.Read(f, binary.LittleEndian, buf)
		return jit.FromSlice(buf, a.Shape()...), err
	}
	for k, l := range like.Layers {
		if out.Layers[k].W, err = read(l.W); err != nil {
			return out, err
		}
		if out.Layers[k].B, err = read(l.B); err != nil {
			return out, err
		}
	}
	return out, nil
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	rng := rand.New(rand.NewSource(21))
	trX, trY := dataset(rng, 320)
	vaX, vaY := dataset(rng, 64)
	xTrain, yTrain := jit.FromSlice(trX, 320, inDim), jit.FromSlice(trY)
	xVal, yVal := jit.FromSlice(vaX, 64, inDim), jit.FromSlice(vaY)
	params := mlp.New(rng, inDim, 16, 16, 1)

	dir, err := os.MkdirTemp("", "warmupcosine-*")
	check(err)
	defer os.RemoveAll(dir)

	fmt.Printf("initial full-batch grad norm %.4f\n", jit.Jit(fullGradNorm).Call(params, xTrain, yTrain).Item())

	clip := jit.Jit(clipGlobalSmooth, jit.StaticArgnums(1))
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("hard clipping needs a concrete norm:", r.(*jit.Error).Kind)
			}
		}()
		_, g := jit.Jit(accumStep).Call(params, xTrain.Slice([]int{0, 0}, []int{batch, inDim}), yTrain.Slice([]int{0}, []int{batch}))
		jit.Jit(clipGlobal, jit.StaticArgnums(1)).Call(g, 1.0)
	}()

	grads := jit.Jit(accumStep)
	update := jit.Jit(applyUpdate, jit.StaticArgnums(2))
	eval := jit.Jit(evalLoss)
	stepsPerEpoch := 320 / batch
	total := maxEpochs * stepsPerEpoch
	best, bestPath, bad, step := math.Inf(1), "", 0, 0
	var checkpoints []string
	for epoch := 0; epoch < maxEpochs; epoch++ {
		for s := 0; s < stepsPerEpoch; s++ {
			xb := xTrain.Slice([]int{s * batch, 0}, []int{(s + 1) * batch, inDim})
			yb := yTrain.Slice([]int{s * batch}, []int{(s + 1) * batch})
			_, g := grads.Call(params, xb, yb)
			g = clip.Call(g, 1.0)
			params = update.Call(params, g, schedule(step, total)) // want staticargs
			step++
		}
		val := eval.Call(params, xVal, yVal).Item()
		fmt.Printf("epoch %d lr %.4f val %.5f\n", epoch, schedule(step-1, total), val)
		if val < best-2e-3 {
			best, bad = val, 0
			bestPath, err = saveCheckpoint(dir, epoch, params)
			check(err)
			checkpoints = append(checkpoints, filepath.Base(bestPath))
		} else if bad++; bad >= patience {
			fmt.Println("early stopping at epoch", epoch)
			break
		}
	}

	restored, err := loadCheckpoint(bestPath, params)
	check(err)
	fmt.Printf("restored %s: val %.5f (best %.5f)\n", filepath.Base(bestPath), eval.Call(restored, xVal, yVal).Item(), best)

	// A short private fine-tune from the restored weights.
	private := jit.Jit(privateGrad, jit.StaticArgnums(3))
	for s := 0; s < 3; s++ {
		xb := xTrain.Slice([]int{s * batch, 0}, []int{(s + 1) * batch, inDim})
		yb := yTrain.Slice([]int{s * batch}, []int{(s + 1) * batch})
		g := private.Call(restored, xb, yb, 0.5)
		restored = mlp.Map(restored, g, func(w, dw jit.Array) jit.Array { return w.Sub(dw.Mul(0.05)) })
	}
	fmt.Printf("after private fine-tune: val %.5f\n", eval.Call(restored, xVal, yVal).Item())
	fmt.Println("checkpoints:", checkpoints, "update compiles:", update.Stats().Compiles, "private compiles:", private.Stats().Compiles)
}
