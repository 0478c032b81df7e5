// Command rnnforecast trains a small Elman RNN to predict the next sample of
// a noisy two-tone signal. Training runs on 12-step chunks with a short
// warm-up followed by a cosine learning-rate decay; the model is then
// evaluated on longer 40-step chunks and finally run free, one step at a
// time, to forecast the continuation of the signal.
package main

import (
	"fmt"
	"math"

	"corpus/nnlib"

	"github.com/jitlint/jitlint/jit"
)

const (
	hidden   = 16
	trainLen = 12
	evalLen  = 40
	epochs   = 8
	forecast = 50
)

func signal(n int, offset float64) []float32 {
	r := nnlib.NewRand(uint64(offset*1000) + 3)
	noise := r.Normal(n+1, 0.02)
	xs := make([]float32, n+1)
	for i := range xs {
		t := float64(i) + offset
		xs[i] = float32(math.Sin(0.2*t)+0.5*math.Sin(0.05*t)) + noise[i]
	}
	return xs
}

// chunk returns inputs [n, 1] and next-step targets [n].
func chunk(sig []float32, start, n int) (jit.Array, jit.Array) {
	return jit.FromSlice(sig[start:start+n], n, 1), jit.FromSlice(sig[start+1 : start+n+1])
}

func initParams() nnlib.Params {
	r := nnlib.NewRand(11)
	c := nnlib.NewCell(r, 1, hidden)
	head := nnlib.NewDense(r, hidden, 1)
	return nnlib.Params{"wx": c.Wx, "wh": c.Wh, "b": c.B, "hw": head.W, "hb": head.B}
}

func cellOf(p nnlib.Params) nnlib.Cell { return nnlib.Cell{Wx: p["wx"], Wh: p["wh"], B: p["b"]} }

func readout(p nnlib.Params, states []jit.Array) jit.Array {
	hs := jit.Concatenate(0, states...).Reshape(len(states), hidden)
	return hs.MatMul(p["hw"]).Add(p["hb"]).Reshape(len(states))
}

func loss(p nnlib.Params, xs, ys jit.Array) jit.Array {
	_, states := nnlib.Unroll(cellOf(p), jit.Zeros(jit.Float32, hidden), xs, trainLen)
	return nnlib.MSE(readout(p, states), ys)
}

var gradLoss = jit.ValueAndGrad[func(nnlib.Params, jit.Array, jit.Array) (jit.Array, nnlib.Params)](loss)

func trainStep(p nnlib.Params, xs, ys jit.Array, lr float64) (nnlib.Params, jit.Array) {
	l, g := gradLoss(p, xs, ys)
	return nnlib.SGD(p, g, jit.Full(lr, jit.Float32)), l
}

func evalLong(p nnlib.Params, xs, ys jit.Array) jit.Array {
	_, states := nnlib.Unroll(cellOf(p), jit.Zeros(jit.Float32, hidden), xs, evalLen) // want unrolledloop
	return nnlib.MSE(readout(p, states), ys)
}

func main() {
	sig := signal(600, 0)
	p := initParams()
	step := jit.Jit(trainStep, jit.StaticArgnums(3))

	for epoch := 0; epoch < epochs; epoch++ {
		lr := 0.05
		if epoch < 3 {
			lr = 0.01
		}
		var l jit.Array
		for s := 0; s+trainLen < 240; s += trainLen {
			xs, ys := chunk(sig, s, trainLen)
			p, l = step.Call(p, xs, ys, lr)
		}
		fmt.Printf("warm-up epoch %d lr %.3f loss %.4f\n", epoch, lr, l.Item())
	}

	for epoch := 0; epoch < epochs; epoch++ {
		lr := 0.05 * 0.5 * (1 + math.Cos(math.Pi*float64(epoch)/epochs))
		xs, ys := chunk(sig, 240+epoch*trainLen, trainLen)
		var l jit.Array
		p, l = step.Call(p, xs, ys, lr) // want staticargs
		fmt.Printf("decay epoch %d lr %.4f loss %.4f\n", epoch, lr, l.Item())
	}

	eval := jit.Jit(evalLong)
	test := signal(200, 600)
	for s := 0; s+evalLen < len(test); s += evalLen {
		xs, ys := chunk(test, s, evalLen)
		fmt.Printf("eval chunk at %3d: mse %.4f\n", s, eval.Call(p, xs, ys).Item())
	}

	cellStep := jit.Jit(nnlib.Step)
	head := jit.Jit(nnlib.Dense.Apply)
	cell := cellOf(p)
	h := jit.Zeros(jit.Float32, hidden)
	for _, x := range test[:evalLen] {
		h = cellStep.Call(cell, h, jit.FromSlice([]float32{x}))
	}
	x := test[evalLen]
	var out []float32
	for t := 0; t < forecast; t++ {
		h = cellStep.Call(cell, h, jit.FromSlice([]float32{x}))
		x = head.Call(nnlib.Dense{W: p["hw"], B: p["hb"]}, h).Float32s()[0]
		out = append(out, x)
	}
	fmt.Printf("forecast: first %.3f last %.3f (true %.3f, %.3f); step compiled %d time(s)\n",
		out[0], out[forecast-1], test[evalLen+1], test[evalLen+forecast], cellStep.Stats().Compiles)
	fmt.Println("train-step signatures:", len(step.Signatures()))
}
