// Command lencollator batches variable-length token sequences for an
// encoder: the collator sorts by length, then pads each batch either to its
// own longest sequence or to a bucket, and the encoder mean-pools a small
// projection of the tokens.
package main

import (
	"fmt"
	"sort"
	"strings"

	"corpus/lencollator/collate"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab = 16
	dim   = 4
)

// shapesTraced remembers which batch shapes the encoder was built for.
var shapesTraced = map[string]int{}

// Encode embeds [b, t] ids and mean-pools the real positions.
func Encode(ids, mask, table jit.Array) jit.Array {
	shapesTraced[fmt.Sprint(ids.Shape())]++ // want traceeffect
	return pool(ids, mask, table)
}

func pool(ids, mask, table jit.Array) jit.Array {
	b, t := ids.Shape()[0], ids.Shape()[1]
	oh := ids.Reshape(b, t, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, 1, vocab)).Astype(jit.Float32)
	e := oh.MatMul(table).Mul(mask.Reshape(b, t, 1))
	return e.Sum(1).Div(mask.Sum(1).Max(1).Reshape(b, 1))
}

// EncodeBucketed is Encode for bucket-padded batches.
func EncodeBucketed(ids, mask, table jit.Array) jit.Array {
	local := map[string]bool{}
	local[fmt.Sprint(ids.Shape())] = true
	return pool(ids, mask, table).Mul(float64(len(local)))
}

// EncodeChecked validates the batch first.
func EncodeChecked(ids, mask, table jit.Array) jit.Array {
	collate.RequireTokens(mask) // want tracedbool
	return pool(ids, mask, table)
}

// Downsample pools the embedded sequence over time in a few levels.
func Downsample(ids, mask, table jit.Array) jit.Array {
	b, t := ids.Shape()[0], ids.Shape()[1]
	oh := ids.Reshape(b, t, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, 1, vocab)).Astype(jit.Float32)
	e := oh.MatMul(table).Mul(mask.Reshape(b, t, 1))
	return collate.Pyramid(e, 3).Sum(1)
}

// Pooler is a configured pooling head.
type Pooler struct{ scale float64 }

func newPooler(scale float64) *Pooler { return &Pooler{scale: scale} }

func (p *Pooler) Pool(v jit.Array) jit.Array { return v.Mul(p.scale).Tanh() }

// MeanPool squashes pooled vectors into one score per row.
func MeanPool(v jit.Array) jit.Array { return v.Mean(1) }

// describe prints a summary; it is also called on tracers by Summarize.
func describe(v jit.Array) string {
	if v.IsTracer() {
		return fmt.Sprintf("traced %v", v.Shape())
	}
	return fmt.Sprintf("mean %.4f", v.Mean().Item())
}

// Summarize returns v unchanged, labelled for logs.
func Summarize(v jit.Array) jit.Array {
	_ = describe(v)
	return v.Add(0)
}

func bucket(n int) int {
	for _, b := range []int{8, 16, 32} {
		if n <= b {
			return b
		}
	}
	return n
}

func corpus() [][]int32 {
	var out [][]int32
	lens := []int{3, 17, 5, 9, 12, 2, 7, 21, 14, 4, 11, 6, 19, 8, 10, 13}
	for i, n := range lens {
		seq := make([]int32, n)
		for j := range seq {
			seq[j] = int32((i*7 + j*3 + 1) % vocab)
		}
		out = append(out, seq)
	}
	return out
}

func main() {
	data := corpus()
	table := jit.Arange(vocab*dim, jit.Float32).Reshape(vocab, dim).Mul(0.41).Sin()
	seqLen := func(s []int32) int { return len(s) }

	// Tight padding: every batch has its own length.
	enc := jit.Jit(Encode)
	tight := collate.SortByLen(data, 2, seqLen, func(n int) int { return n })
	for i, b := range tight {
		ids, mask := collate.Dense(b)
		v := enc.Call(ids, mask, table) // want shapechurn
		fmt.Printf("tight batch %d: pad %2d -> %v\n", i, b.MaxLen, v.Slice([]int{0, 0}, []int{1, dim}))
	}
	keys := make([]string, 0, len(shapesTraced))
	for k := range shapesTraced {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println("encoder traced for:", strings.Join(keys, " "))

	// Bucketed padding: three programs for the whole corpus.
	encB := jit.Jit(EncodeBucketed)
	compiled := map[int]bool{}
	bucketed := collate.SortByLen(data, 2, seqLen, bucket)
	var pooled []jit.Array
	for _, b := range bucketed {
		ids, mask := collate.Dense(b)
		pooled = append(pooled, encB.Call(ids, mask, table))
		compiled[b.MaxLen] = true
	}
	fmt.Printf("bucketed: %d batches, %d buckets, compiles=%d\n", len(bucketed), len(compiled), encB.Stats().Compiles)

	// Heads: a configured pooler per batch, and a shared named function.
	for i, v := range pooled {
		head := jit.Jit(newPooler(0.5).Pool) // want staticargs
		score := jit.Jit(MeanPool).Call(head.Call(v))
		fmt.Printf("batch %d scores %v\n", i, score)
	}

	sum := jit.Jit(Summarize)
	fmt.Println("eager:", describe(pooled[0]), "| jitted:", describe(sum.Call(pooled[0])))

	down := jit.Jit(Downsample)
	ids, mask := collate.Dense(bucketed[0])
	fmt.Println("downsampled:", down.Call(ids, mask, table).Slice([]int{0, 0}, []int{1, dim}))

	checked := jit.Jit(EncodeChecked)
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("checked encode failed:", strings.SplitN(fmt.Sprint(r), "\n", 2)[0])
			}
		}()
		checked.Call(ids, mask, table)
	}()
	lens := collate.Map(bucketed[0].Items, seqLen)
	fmt.Println("host check of lengths:", lens, mask.Sum(1).MinReduce().Item() > 0)
}
