// Command dataloader trains a bag-of-embeddings classifier from a simple
// batching data loader: fixed-size tabular batches (the last one smaller)
// and variable-length token batches.
package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab    = 32
	embedDim = 8
	batch    = 32
)

var stepsTraced int

// Params of the classifier.
type Params struct {
	Embed jit.Array // [vocab, embedDim]
	Head  jit.Array // [embedDim, 1]
}

func loss(p Params, onehot, mask, y jit.Array) jit.Array {
	// onehot: [B, L, vocab]; mask: [B, L]
	emb := onehot.MatMul(p.Embed)                                               // [B, L, D]
	pooled := emb.Mul(mask.Reshape(mask.Shape()[0], mask.Shape()[1], 1)).Sum(1) // [B, D]
	logits := pooled.MatMul(p.Head).Reshape(-1)
	return jit.Softplus(logits.Mul(y.Mul(-2).Add(1))).Mean()
}

var gradLoss = jit.ValueAndGrad[func(Params, jit.Array, jit.Array, jit.Array) (jit.Array, Params)](loss)

// TrainStep is one SGD step over a token batch.
func TrainStep(p Params, onehot, mask, y jit.Array) (Params, jit.Array) {
	stepsTraced++ // want traceeffect
	l, g := gradLoss(p, onehot, mask, y)
	return Params{
		Embed: p.Embed.Sub(g.Embed.Mul(0.5)),
		Head:  p.Head.Sub(g.Head.Mul(0.5)),
	}, l
}

// Standardize is used on tabular batches.
func Standardize(x jit.Array) jit.Array {
	mu := x.Mean(0)
	sd := x.Sub(mu).Pow(2).Mean(0).Add(1e-5).Sqrt()
	return x.Sub(mu).Div(sd)
}

type example struct {
	tokens []int
	label  float32
}

func makeDataset(n int) []example {
	ds := make([]example, n)
	for i := range ds {
		l := 3 + (i*7)%13
		toks := make([]int, l)
		pos := 0
		for j := range toks {
			toks[j] = (i*j + 3*j + i) % vocab
			if toks[j] < vocab/2 {
				pos++
			}
		}
		ds[i] = example{toks, 0}
		if pos*2 > l {
			ds[i].label = 1
		}
	}
	return ds
}

// collate builds one-hot, mask and labels padded to padLen.
func collate(exs []example, padLen int) (jit.Array, jit.Array, jit.Array) {
	b := len(exs)
	oh := make([]float32, b*padLen*vocab)
	mask := make([]float32, b*padLen)
	ys := make([]float32, b)
	for i, ex := range exs {
		for j, t := range ex.tokens {
			oh[(i*padLen+j)*vocab+t] = 1
			mask[i*padLen+j] = 1
		}
		ys[i] = ex.label
	}
	return jit.FromSlice(oh, b, padLen, vocab), jit.FromSlice(mask, b, padLen), jit.FromSlice(ys, b)
}

func maxLen(exs []example) int {
	m := 0
	for _, e := range exs {
		m = max(m, len(e.tokens))
	}
	return m
}

// batches yields consecutive slices of the dataset; the last may be short.
func batches[T any](ds []T, size int) [][]T {
	var out [][]T
	for i := 0; i < len(ds); i += size {
		out = append(out, ds[i:min(i+size, len(ds))])
	}
	return out
}

func initParams() Params {
	e := make([]float32, vocab*embedDim)
	for i := range e {
		e[i] = float32(math.Sin(float64(i)*1.3)) * 0.1
	}
	h := make([]float32, embedDim)
	for i := range h {
		h[i] = 0.1
	}
	return Params{jit.FromSlice(e, vocab, embedDim), jit.FromSlice(h, embedDim, 1)}
}

func main() {
	// Tabular batches: 7 full batches and one short one: two shapes.
	std := jit.Jit(Standardize)
	rows := make([]float32, 232*4)
	for i := range rows {
		rows[i] = float32(i%17) * 0.5
	}
	var total float64
	for _, b := range batches(rows, batch*4) {
		x := jit.FromSlice(b, len(b)/4, 4)
		total += std.Call(x).Abs().Sum().Item()
	}
	fmt.Printf("tabular: %d compiles, |z| sum %.1f\n", std.Stats().Compiles, total)

	// Token batches, a different batch length per batch.
	ds := makeDataset(48)
	// Sort by length so each batch wastes little padding.
	sort.SliceStable(ds, func(i, j int) bool { return len(ds[i].tokens) < len(ds[j].tokens) })
	step := jit.Jit(TrainStep)
	p := initParams()
	small := batches(ds, 4)
	for epoch := 0; epoch < 1; epoch++ {
		for _, b := range small {
			oh, mask, y := collate(b, maxLen(b))
			var l jit.Array
			p, l = step.Call(p, oh, mask, y) // want shapechurn
			_ = l
		}
	}
	fmt.Printf("dynamic padding: %d compiles over %d batches\n", step.Stats().Compiles, len(small))

	// Bucketed padding: every batch padded to 16 tokens.
	stepB := jit.Jit(TrainStep)
	var last jit.Array
	for epoch := 0; epoch < 3; epoch++ {
		for _, b := range small {
			oh, mask, y := collate(b, 16)
			p, last = stepB.Call(p, oh, mask, y)
		}
	}
	fmt.Printf("bucketed: loss %.4f, %d traces total\n", last.Item(), stepsTraced)
}
