// Command hparams tunes a linear model with a hyper-parameter struct whose
// static fields configure the trace: the activation and the number of
// inner steps are fixed across trials, the learning rate changes on every
// trial (one compile per trial); the fix passes it inside an array field.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type hparams struct {
	LR         float64 `jit:"static"`
	Activation string  `jit:"static"`
	Inner      int     `jit:"static"`
}

type tunable struct {
	LR         jit.Array
	Activation string `jit:"static"`
	Inner      int    `jit:"static"`
}

func act(name string, x jit.Array) jit.Array {
	switch name {
	case "relu":
		return jit.Relu(x)
	case "tanh":
		return x.Tanh()
	}
	return x
}

// train takes hp.Inner gradient steps on a least-squares loss.
func train(hp hparams, w, x, y jit.Array) jit.Array {
	for range hp.Inner {
		g := x.Transpose(1, 0).MatMul(act(hp.Activation, x.MatMul(w)).Sub(y))
		w = w.Sub(g.Mul(hp.LR))
	}
	return w
}

// trainArr is train with the learning rate as an array leaf.
func trainArr(hp tunable, w, x, y jit.Array) jit.Array {
	for range hp.Inner {
		g := x.Transpose(1, 0).MatMul(act(hp.Activation, x.MatMul(w)).Sub(y))
		w = w.Sub(g.Mul(hp.LR))
	}
	return w
}

func loss(w, x, y jit.Array) jit.Array {
	d := x.MatMul(w).Sub(y)
	return d.Mul(d).Mean()
}

func main() {
	x := jit.FromSlice([]float32{1, 0, 0, 1, 1, 1, 0.5, 0.2}, 4, 2)
	y := jit.FromSlice([]float32{1, 0, 1, 0.6}, 4, 1)
	base := hparams{Activation: "tanh", Inner: 5}
	tr, ls := jit.Jit(train), jit.Jit(loss)
	lrs := []float64{0.3, 0.1, 0.03, 0.01, 0.003}
	for _, lr := range lrs {
		hp := base
		hp.LR = lr
		w := tr.Call(hp, jit.Zeros(jit.Float32, 2, 1), x, y) // want staticargs
		fmt.Println("lr", lr, "loss", ls.Call(w, x, y).Item())
	}

	// The fixed configuration reused for every restart: one compile.
	fixed := hparams{LR: 0.1, Activation: "relu", Inner: 5}
	for seed := range 5 {
		w0 := jit.Full(0.1*float64(seed), jit.Float32, 2, 1)
		w := tr.Call(fixed, w0, x, y)
		fmt.Println("restart", seed, ls.Call(w, x, y).Item())
	}

	ta := jit.Jit(trainArr)
	for _, lr := range lrs {
		hp := tunable{LR: jit.Scalar(float32(lr)), Activation: "tanh", Inner: 5}
		w := ta.Call(hp, jit.Zeros(jit.Float32, 2, 1), x, y)
		fmt.Println("array lr", lr, ls.Call(w, x, y).Item())
	}
	fmt.Println("compiles: static lr", tr.Stats().Compiles, "array lr", ta.Stats().Compiles)
}
