// earlystop trains a small MLP classifier with the usual training-loop
// furniture: one jitted program per epoch (a scan over the epoch's
// batches), bf16 compute with f32 master weights, an evaluation pass per
// epoch, early stopping on the validation loss, checkpoints of the best
// weights and a JSONL metrics log, then a calibration report on the test
// split with the restored best checkpoint.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"

	"corpus/lrsched"
	"corpus/trainkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	features  = 8
	hiddenDim = 32
	batchSize = 16
	numBatch  = 40 // batches per epoch
	maxEpochs = 30
)

// Params is the parameter dict (f32 master weights).
type Params = map[string]jit.Array

// Precision is the mixed-precision policy (jmp.Policy): parameters stay in
// f32, matmuls run in Compute, the loss is scaled by LossScale before the
// backward pass and the gradients unscaled after it.
type Precision struct {
	Compute   jit.DType `jit:"static"`
	LossScale float64   `jit:"static"`
}

func initParams(rng *rand.Rand) Params {
	mat := func(in, out int) jit.Array {
		v := make([]float32, in*out)
		for i := range v {
			v[i] = float32(rng.NormFloat64() / math.Sqrt(float64(in)))
		}
		return jit.FromSlice(v, in, out)
	}
	return Params{
		"w1": mat(features, hiddenDim), "b1": jit.Zeros(jit.Float32, hiddenDim),
		"w2": mat(hiddenDim, 1), "b2": jit.Zeros(jit.Float32, 1),
	}
}

// logits runs the MLP with the policy's compute dtype.
func logits(p Params, x jit.Array, prec Precision) jit.Array {
	c := prec.Compute
	h := x.Astype(c).MatMul(p["w1"].Astype(c)).Astype(jit.Float32).Add(p["b1"])
	h = jit.Relu(h)
	z := h.Astype(c).MatMul(p["w2"].Astype(c)).Astype(jit.Float32).Add(p["b2"])
	return z.Reshape(x.Shape()[0])
}

func bce(z, y jit.Array) jit.Array {
	return jit.Softplus(z).Sub(y.Mul(z)).Mean()
}

var stepLosses []jit.Array

// TrainEpoch runs SGD with momentum over every batch of the epoch in one
// scan; xs is [numBatch, batch, features] and ys [numBatch, batch].
func TrainEpoch(p, vel Params, xs, ys, lr jit.Array, prec Precision) (Params, Params, jit.Array) {
	type state struct{ P, V Params }
	type xy struct{ X, Y jit.Array }
	scaled := func(p Params, x, y jit.Array) jit.Array {
		return bce(logits(p, x, prec), y).Mul(prec.LossScale)
	}
	vg := jit.ValueAndGrad[func(Params, jit.Array, jit.Array) (jit.Array, Params)](scaled)
	final, losses := jit.Scan(func(s state, b xy) (state, jit.Array) {
		l, g := vg(s.P, b.X, b.Y)
		l = l.Div(prec.LossScale)
		stepLosses = append(stepLosses, l) // want traceeffect
		next := state{P: Params{}, V: Params{}}
		for k, w := range s.P {
			v := s.V[k].Mul(0.9).Add(g[k].Div(prec.LossScale))
			next.V[k] = v
			next.P[k] = w.Sub(v.Mul(lr))
		}
		return next, l
	}, state{P: p, V: vel}, xy{X: xs, Y: ys})
	return final.P, final.V, losses.Mean()
}

// Evaluate is the eval pass: loss, accuracy and a 10-bin calibration error.
func Evaluate(p Params, x, y jit.Array, prec Precision) (jit.Array, jit.Array, jit.Array) {
	z := logits(p, x, prec)
	prob := z.Logistic()
	acc := prob.Gt(0.5).Astype(jit.Float32).Eq(y).Astype(jit.Float32).Mean()
	loss := bce(z, y)
	jit.DebugPrint("  eval: mean p=%v", prob.Mean())
	return loss, acc, trainkit.ECE(prob, y, 10)
}

// CalibrationReport is the fine-grained reliability number for the paper
// table: ECE over 50 bins, plus the Brier score.
func CalibrationReport(p Params, x, y jit.Array, prec Precision) (jit.Array, jit.Array) {
	prob := logits(p, x, prec).Logistic()
	d := prob.Sub(y)
	return trainkit.ECE(prob, y, 50), d.Mul(d).Mean() // want unrolledloop
}

func dataset(rng *rand.Rand, n int) (jit.Array, jit.Array) {
	xs := make([]float32, n*features)
	ys := make([]float32, n)
	for i := 0; i < n; i++ {
		r := 0.0
		for j := 0; j < features; j++ {
			v := rng.NormFloat64()
			xs[i*features+j] = float32(v)
			if j < 3 {
				r += v * v
			}
		}
		// inside vs. outside a sphere in the first three features, with label noise
		if (r > 2.4) != (rng.Float64() < 0.08) {
			ys[i] = 1
		}
	}
	return jit.FromSlice(xs, n, features), jit.FromSlice(ys, n)
}

func zerosLike(p Params) Params {
	out := Params{}
	for k, v := range p {
		out[k] = jit.Zeros(v.Dtype(), v.Shape()...)
	}
	return out
}

func main() {
	rng := rand.New(rand.NewSource(5))
	xtr, ytr := dataset(rng, numBatch*batchSize)
	xval, yval := dataset(rng, 256)
	xte, yte := dataset(rng, 256)
	xs := xtr.Reshape(numBatch, batchSize, features)
	ys := ytr.Reshape(numBatch, batchSize)

	dir, err := os.MkdirTemp("", "earlystop-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ckpt := &trainkit.Checkpointer{Dir: dir, Keep: 2}
	mlog, err := trainkit.OpenMetrics(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		panic(err)
	}

	prec := Precision{Compute: jit.BFloat16, LossScale: 1}
	sched := lrsched.StepDecay(0.2, 0.5, 6)
	trainEpoch := jit.Jit(TrainEpoch)
	evaluate := jit.Jit(Evaluate)
	stopper := &trainkit.EarlyStopping{Patience: 4, MinDelta: 1e-3}

	p, vel := initParams(rng), zerosLike(initParams(rng))
	var best string
	history := map[string][]float64{}
	epoch := 0
	for ; epoch < maxEpochs; epoch++ {
		var trainLoss jit.Array
		p, vel, trainLoss = trainEpoch.Call(p, vel, xs, ys, sched.Value(epoch), prec)
		vloss, vacc, vece := evaluate.Call(p, xval, yval, prec)
		m := map[string]float64{
			"train_loss": trainLoss.Item(), "val_loss": vloss.Item(),
			"val_acc": vacc.Item(), "val_ece": vece.Item(), "lr": sched(epoch),
		}
		for k, v := range m {
			history[k] = append(history[k], v)
		}
		if err := mlog.Write(epoch, m); err != nil {
			panic(err)
		}
		improved, stop := stopper.Update(epoch, m["val_loss"])
		fmt.Printf("epoch %2d lr %.3f train %.4f val %.4f acc %.3f ece %.3f%s\n", epoch, m["lr"],
			m["train_loss"], m["val_loss"], m["val_acc"], m["val_ece"], map[bool]string{true: " *", false: ""}[improved])
		if improved {
			if best, err = ckpt.Save(epoch, p); err != nil {
				panic(err)
			}
		}
		if stop {
			fmt.Printf("early stop after epoch %d: best val loss %.4f at epoch %d\n", epoch, stopper.Best, stopper.BestStep)
			break
		}
	}
	n, err := mlog.Close()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d metric records, %d checkpoints kept, %d step losses recorded\n", n, len(ckpt.Saved()), len(stepLosses))
	fmt.Printf("epoch program compiled %d time(s), eval %d time(s)\n", trainEpoch.Stats().Compiles, evaluate.Stats().Compiles)

	step, bestP, err := ckpt.Restore(best)
	if err != nil {
		panic(err)
	}
	tloss, tacc, _ := evaluate.Call(bestP, xte, yte, prec)
	ece, brier := jit.Jit(CalibrationReport).Call(bestP, xte, yte, prec)
	fmt.Printf("test (checkpoint of epoch %d): loss %.4f acc %.3f ece50 %.4f brier %.4f\n",
		step, tloss.Item(), tacc.Item(), ece.Item(), brier.Item())
	fmt.Printf("val loss curve: first %.4f, best %.4f, last %.4f\n",
		history["val_loss"][0], stopper.Best, history["val_loss"][len(history["val_loss"])-1])
}
