package a

import "github.com/jitlint/jitlint/jit"

// A grid of configurations that a helper builds by appending struct
// literals, in one loop or in nested ones: a field of its elements takes
// the values that field has in the literals appended, however many
// elements the grid has; a field made of the loops' values takes one per
// element. A static struct chosen by a test on a counter between two
// literals, in a loop over a channel, takes two.

type gfConfig struct {
	LR     float64
	Hidden int
	Act    string
}

func gfApply(x jit.Array, act string) jit.Array {
	if act == "relu" {
		return jit.Relu(x)
	}
	return x.Tanh()
}

func gfScale(x jit.Array, lr float64) jit.Array { return x.Mul(lr) }

var (
	gfAct   = jit.Jit(gfApply, jit.StaticArgnums(1))
	gfLR    = jit.Jit(gfScale, jit.StaticArgnums(1))
	gfBands = jit.Jit(gfBand, jit.StaticArgnums(1))
)

// gfFlat pairs each rate with two activations.
func gfFlat() []gfConfig {
	var out []gfConfig
	for _, lr := range []float64{0.05, 0.2, 0.5} {
		out = append(out, gfConfig{lr, 8, "tanh"}, gfConfig{lr, 16, "relu"})
	}
	return out
}

// gfNested is the grid of rates, decays and activations.
func gfNested() []gfConfig {
	var out []gfConfig
	for _, lr := range []float64{0.05, 0.2, 0.5} {
		for _, l2 := range []float64{0, 1e-3} {
			out = append(out, gfConfig{lr + l2, 8, "tanh"}, gfConfig{lr, 16, "relu"})
		}
	}
	return out
}

// gfSweep is a rate per step of 0.01.
func gfSweep() []gfConfig {
	var out []gfConfig
	for i := 1; i <= 40; i++ {
		out = append(out, gfConfig{float64(i) * 0.01, 8, "tanh"})
	}
	return out
}

func gridFields(x jit.Array) {
	for _, c := range gfFlat() {
		gfAct.Call(x, c.Act) // not reported: two activations
	}
	for _, c := range gfNested() {
		gfAct.Call(x, c.Act) // not reported: two activations
	}
	for _, c := range gfNested() {
		gfLR.Call(x, c.LR) // not reported: six rates over twelve calls, each twice
	}
	for _, c := range gfSweep() {
		gfLR.Call(x, c.LR) // want `static argument lr takes a new value on every iteration`
	}
}

type gfRange struct{ Lo, Hi int }

func gfBand(x jit.Array, r gfRange) jit.Array { return x.Slice([]int{r.Lo}, []int{r.Hi}) }

func alternatingStructs(xs <-chan jit.Array) {
	n := 0
	for x := range xs {
		r := gfRange{Lo: 0, Hi: 2}
		if n%2 == 1 {
			r = gfRange{Lo: 2, Hi: 4}
		}
		gfBands.Call(x, r) // not reported: two bands
		n++
	}
}
