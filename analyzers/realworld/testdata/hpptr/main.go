// Command hpptr anneals a softmax policy with a hyper-parameter struct
// passed by pointer: the temperature is a static field, so cooling it on
// every step recompiles every step; halving it every ten steps is three
// compiles; the step size lives in an array field and may change freely.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type hyper struct {
	Step   jit.Array
	Temp   float64 `jit:"static"`
	Greedy bool    `jit:"static"`
}

// policyStep sharpens the logits towards the rewards.
func policyStep(hp *hyper, logits, reward jit.Array) jit.Array {
	z := logits.Div(hp.Temp)
	p := z.Sub(z.MaxReduce()).Exp()
	p = p.Div(p.Sum())
	if hp.Greedy {
		p = p.Mul(p)
	}
	return logits.Add(reward.Sub(p.Mul(reward).Sum()).Mul(hp.Step))
}

func main() {
	reward := jit.FromSlice([]float32{0.1, 0.5, 0.2, 0.9})
	f := jit.Jit(policyStep)

	hp := &hyper{Step: jit.Scalar(float32(0.5)), Temp: 2}
	logits := jit.Zeros(jit.Float32, 4)
	for range 10 {
		logits = f.Call(hp, logits, reward) // want staticargs
		hp.Temp *= 0.9
	}
	fmt.Println("cooled every step: compiles", f.Stats().Compiles)

	g := jit.Jit(policyStep)
	hp = &hyper{Step: jit.Scalar(float32(0.5)), Temp: 2}
	logits = jit.Zeros(jit.Float32, 4)
	for s := range 30 {
		if s > 0 && s%10 == 0 {
			hp.Temp *= 0.5
		}
		hp.Step = jit.Scalar(float32(0.5 / float64(s+1)))
		logits = g.Call(hp, logits, reward)
	}
	fmt.Println("cooled every 10 steps: compiles", g.Stats().Compiles)

	h := jit.Jit(policyStep)
	hp = &hyper{Step: jit.Scalar(float32(0.5)), Temp: 1}
	for s := range 12 {
		hp.Greedy = s%2 == 1
		logits = h.Call(hp, logits, reward)
	}
	fmt.Println("greedy toggled: compiles", h.Stats().Compiles, logits)
}
