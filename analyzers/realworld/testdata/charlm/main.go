// Command charlm runs a character-level language model: a stack of
// recurrent layers whose weights a helper builds from the model config
// (three layers: the layer loop is structure), a time loop over the
// model's fixed context of 64 characters written as a Go loop (unrolled
// into the trace), and the same model scanned over time with jit.ScanN.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// seqLen is the model's context: every training window has this many
// characters.
const seqLen = 64

type modelConfig struct {
	Layers int
	Hidden int
	Vocab  int
}

var cfg = modelConfig{Layers: 3, Hidden: 8, Vocab: 16}

// cell holds one recurrent layer's weights.
type cell struct {
	Wx, Wh jit.Array
}

// buildLayers makes the weights of cfg.Layers cells.
func buildLayers(c modelConfig) []cell {
	cells := make([]cell, 0, c.Layers)
	for l := range c.Layers {
		in := c.Hidden
		if l == 0 {
			in = c.Vocab
		}
		cells = append(cells, cell{
			Wx: jit.Full(0.05/float64(l+1), jit.Float32, in, c.Hidden),
			Wh: jit.Full(0.02, jit.Float32, c.Hidden, c.Hidden),
		})
	}
	return cells
}

// stack feeds one character through every layer, updating each layer's
// hidden state.
func stack(cells []cell, x jit.Array, hs []jit.Array) []jit.Array {
	out := make([]jit.Array, len(hs))
	for l, c := range cells {
		out[l] = x.MatMul(c.Wx).Add(hs[l].MatMul(c.Wh)).Tanh()
		x = out[l]
	}
	return out
}

func initial() []jit.Array {
	hs := make([]jit.Array, cfg.Layers)
	for l := range hs {
		hs[l] = jit.Zeros(jit.Float32, 1, cfg.Hidden)
	}
	return hs
}

// unrolledLM reads the window one character at a time in a Go loop.
func unrolledLM(cells []cell, window jit.Array) jit.Array {
	hs := initial()
	for t := 0; t < seqLen; t++ { // want unrolledloop
		x := window.Slice([]int{t, 0}, []int{t + 1, cfg.Vocab})
		hs = stack(cells, x, hs)
	}
	return hs[len(hs)-1].Sum()
}

// scannedLM is the same model as one scan over the window's rows.
func scannedLM(cells []cell, window jit.Array) jit.Array {
	type carry struct {
		T  jit.Array
		Hs []jit.Array
	}
	final, _ := jit.ScanN(func(c carry) (carry, jit.Array) {
		x := jit.Where(jit.Arange(seqLen, jit.Float32).Reshape(seqLen, 1).Eq(c.T), window, 0).Sum(0).Reshape(1, cfg.Vocab)
		hs := stack(cells, x, c.Hs)
		return carry{T: c.T.Add(1), Hs: hs}, hs[len(hs)-1].Sum()
	}, carry{T: jit.Scalar(float32(0)), Hs: initial()}, seqLen)
	return final.Hs[len(final.Hs)-1].Sum()
}

func window(offset int) jit.Array {
	data := make([]float32, seqLen*cfg.Vocab)
	for t := range seqLen {
		data[t*cfg.Vocab+(t*7+offset)%cfg.Vocab] = 1
	}
	return jit.FromSlice(data, seqLen, cfg.Vocab)
}

func main() {
	cells := buildLayers(cfg)
	unrolled := jit.Jit(unrolledLM)
	scanned := jit.Jit(scannedLM)
	for batch := range 3 {
		w := window(batch)
		fmt.Println("batch", batch, unrolled.Call(cells, w).Item(), scanned.Call(cells, w).Item())
	}
}
