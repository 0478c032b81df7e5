// Command lrwarmup trains a small linear regressor with several learning-rate
// schedules (linear warmup + cosine, step decay) and compares the ways the
// rate can reach a jitted SGD step: as a static argument, as a traced scalar,
// or captured by a closure.
package main

import (
	"fmt"
	"log"
	"math/rand"

	"corpus/lrwarmup/sched"

	"github.com/jitlint/jitlint/jit"
)

const (
	nFeatures  = 4
	batchSize  = 16
	numBatches = 48
	microSteps = 32
	maxLR      = 0.2
)

// Params is the model: y = x W + b.
type Params struct {
	W jit.Array // [nFeatures, 1]
	B jit.Array // [1]
}

// Batch is one minibatch of inputs and targets.
type Batch struct {
	X jit.Array // [batchSize, nFeatures]
	Y jit.Array // [batchSize, 1]
}

// Loss is the mean squared error of the model on a batch.
func Loss(p Params, x, y jit.Array) jit.Array {
	pred := x.MatMul(p.W).Add(p.B)
	return pred.Sub(y).Pow(2).Mean()
}

var gradLoss = jit.Grad[func(Params, jit.Array, jit.Array) Params](Loss)

func applyGrads(p, g Params, lr any) Params {
	return Params{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}
}

// SGDStatic is one SGD step whose learning rate is a static Go number.
func SGDStatic(p Params, x, y jit.Array, lr float64) Params {
	return applyGrads(p, gradLoss(p, x, y), lr)
}

// SGDTraced is one SGD step whose learning rate is a traced scalar.
func SGDTraced(p Params, x, y, lr jit.Array) Params {
	log.Printf("sgd step: batch %v, lr %v", x.Shape(), lr) // want traceeffect
	return applyGrads(p, gradLoss(p, x, y), lr)
}

// ClippedSGD caps the learning rate at maxLR before stepping.
func ClippedSGD(p Params, x, y, lr jit.Array) Params {
	return applyGrads(p, gradLoss(p, x, y), lr.Min(maxLR))
}

// TrainEpoch runs one SGD step per minibatch of xs/ys ([numBatches, batchSize, ...])
// at a fixed rate, fused into one program.
func TrainEpoch(p Params, xs, ys, lr jit.Array) Params {
	n := xs.Shape()[0]
	for b := 0; b < n; b++ { // want unrolledloop
		x := xs.Slice([]int{b, 0, 0}, []int{b + 1, batchSize, nFeatures}).Reshape(batchSize, nFeatures)
		y := ys.Slice([]int{b, 0, 0}, []int{b + 1, batchSize, 1}).Reshape(batchSize, 1)
		p = applyGrads(p, gradLoss(p, x, y), lr)
	}
	return p
}

// TrainEpochScan is TrainEpoch with the minibatch loop as a scan.
func TrainEpochScan(p Params, xs, ys, lr jit.Array) Params {
	p, _ = jit.Scan(func(p Params, b Batch) (Params, struct{}) {
		return applyGrads(p, gradLoss(p, b.X, b.Y), lr), struct{}{}
	}, p, Batch{X: xs, Y: ys})
	return p
}

// AccumulatedStep averages the gradients of microSteps slices of one large
// batch before taking a single step.
func AccumulatedStep(p Params, x, y, lr jit.Array) Params {
	rows := x.Shape()[0] / microSteps
	acc := Params{W: jit.Zeros(jit.Float32, nFeatures, 1), B: jit.Zeros(jit.Float32, 1)}
	for k := 0; k < microSteps; k++ {
		xk := x.Slice([]int{k * rows, 0}, []int{(k + 1) * rows, nFeatures})
		yk := y.Slice([]int{k * rows, 0}, []int{(k + 1) * rows, 1})
		g := gradLoss(p, xk, yk)
		acc = Params{W: acc.W.Add(g.W), B: acc.B.Add(g.B)}
	}
	acc = Params{W: acc.W.Div(microSteps), B: acc.B.Div(microSteps)}
	return applyGrads(p, acc, lr)
}

func makeData(rng *rand.Rand, rows int) (jit.Array, jit.Array) {
	trueW := []float32{1.5, -2, 0.5, 3}
	xs := make([]float32, rows*nFeatures)
	ys := make([]float32, rows)
	for i := 0; i < rows; i++ {
		s := float32(0.7)
		for j := 0; j < nFeatures; j++ {
			v := float32(rng.NormFloat64())
			xs[i*nFeatures+j] = v
			s += trueW[j] * v
		}
		ys[i] = s + 0.05*float32(rng.NormFloat64())
	}
	return jit.FromSlice(xs, rows, nFeatures), jit.FromSlice(ys, rows, 1)
}

func initParams() Params {
	return Params{W: jit.Zeros(jit.Float32, nFeatures, 1), B: jit.Zeros(jit.Float32, 1)}
}

func lr32(v float64) jit.Array { return jit.Scalar(float32(v)) }

func main() {
	rng := rand.New(rand.NewSource(7))
	x, y := makeData(rng, batchSize)
	lossFn := jit.Jit(Loss)

	// Warmup + cosine with the rate as a static argument.
	warm := sched.WarmupCosine(0.1, 0.001, 4, 12)
	sgdStatic := jit.Jit(SGDStatic, jit.StaticArgnums(3))
	p := initParams()
	for step := 0; step < 12; step++ {
		p = sgdStatic.Call(p, x, y, warm(step)) // want staticargs
	}
	fmt.Printf("warmup-cosine (static lr): loss %.4f, compiles %d\n", lossFn.Call(p, x, y).Item(), sgdStatic.Stats().Compiles)

	// Step decay: only three distinct rates over the whole run.
	decay := sched.StepDecay(0.05, 0.5, 25, 2)
	decayStep := jit.Jit(SGDStatic, jit.StaticArgnums(3))
	p = initParams()
	for step := 0; step < 90; step++ {
		p = decayStep.Call(p, x, y, decay(step))
	}
	fmt.Printf("step decay (static lr): loss %.4f, compiles %d\n", lossFn.Call(p, x, y).Item(), decayStep.Stats().Compiles)

	// The same warmup-cosine schedule as a traced scalar.
	sgdTraced := jit.Jit(SGDTraced)
	p = initParams()
	for step := 0; step < 40; step++ {
		p = sgdTraced.Call(p, x, y, lr32(warm(step)))
	}
	fmt.Printf("warmup-cosine (traced lr): loss %.4f, compiles %d\n", lossFn.Call(p, x, y).Item(), sgdTraced.Stats().Compiles)

	// A rate captured by a closure, rebuilt per epoch.
	p = initParams()
	for epoch := 0; epoch < 4; epoch++ {
		rate := decay(epoch * 25)
		step := jit.Jit(func(p Params, x, y jit.Array) Params { // want staticargs
			return applyGrads(p, gradLoss(p, x, y), rate)
		})
		p = step.Call(p, x, y)
	}
	fmt.Printf("closure per epoch: loss %.4f\n", lossFn.Call(p, x, y).Item())

	// Weight decay captured once.
	const weightDecay = 1e-3
	shrink := jit.Jit(func(p Params) Params {
		return Params{W: p.W.Mul(1 - weightDecay), B: p.B}
	})
	for i := 0; i < 10; i++ {
		p = shrink.Call(p)
	}

	// Clipping the rate on the device.
	clipped := jit.Jit(ClippedSGD)
	for step := 0; step < 20; step++ {
		p = clipped.Call(p, x, y, lr32(warm(step)*3))
	}
	l := lossFn.Call(p, x, y).Item()
	status := "ok"
	if l > 1 {
		status = "diverged"
	}
	fmt.Printf("clipped: loss %.4f (%s)\n", l, status)

	// Fused epochs.
	bigX, bigY := makeData(rng, numBatches*batchSize)
	xs := bigX.Reshape(numBatches, batchSize, nFeatures)
	ys := bigY.Reshape(numBatches, batchSize, 1)
	epochUnrolled := jit.Jit(TrainEpoch)
	epochScan := jit.Jit(TrainEpochScan)
	pa, pb := initParams(), initParams()
	for epoch := 0; epoch < 3; epoch++ {
		lr := lr32(decay(epoch * 25))
		pa = epochUnrolled.Call(pa, xs, ys, lr)
		pb = epochScan.Call(pb, xs, ys, lr)
	}
	fmt.Printf("fused epochs: unrolled loss %.4f, scan loss %.4f\n",
		lossFn.Call(pa, x, y).Item(), lossFn.Call(pb, x, y).Item())

	// Gradient accumulation over one large batch.
	accum := jit.Jit(AccumulatedStep)
	pc := initParams()
	for step := 0; step < 30; step++ {
		pc = accum.Call(pc, bigX.Slice([]int{0, 0}, []int{microSteps * 8, nFeatures}),
			bigY.Slice([]int{0, 0}, []int{microSteps * 8, 1}), lr32(warm(step)))
	}
	fmt.Printf("accumulated: loss %.4f, compiles %d\n", lossFn.Call(pc, x, y).Item(), accum.Stats().Compiles)
}
