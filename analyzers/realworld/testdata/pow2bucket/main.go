// Command pow2bucket embeds documents of many lengths for a search index:
// each document is padded to the next power of two (capped at the
// model's 1024-token limit, longer ones truncated), which leaves a few
// shapes for the whole corpus; a second indexer pads to the next multiple
// of 8 instead, as tensor-core tutorials suggest, which leaves nearly one
// shape per document.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const maxTokens = 1024

// nextPow2 is the smallest power of two >= n, capped at maxTokens.
func nextPow2(n int) int {
	p := 8
	for p < n && p < maxTokens {
		p *= 2
	}
	return p
}

// roundUp8 rounds n up to a multiple of 8.
func roundUp8(n int) int { return (n + 7) / 8 * 8 }

// embed mean-pools the token weights over the real tokens.
func embed(tokens, mask jit.Array) jit.Array {
	h := tokens.Mul(0.01).Tanh().Mul(mask)
	return h.Sum().Div(mask.Sum())
}

// document makes the token ids of document i: lengths spread from a few
// tokens to past the limit.
func document(i int) []float32 {
	n := 5 + (i*i*37+i*101)%1100
	ids := make([]float32, n)
	for t := range ids {
		ids[t] = float32((t*31 + i) % 97)
	}
	return ids
}

// truncate keeps the first maxTokens tokens.
func truncate(ids []float32) []float32 {
	if len(ids) > maxTokens {
		return ids[:maxTokens]
	}
	return ids
}

func main() {
	const docs = 40
	pow2 := jit.Jit(embed)
	shapes := map[int]bool{}
	total := 0.0
	for i := range docs {
		ids := truncate(document(i))
		size := nextPow2(len(ids))
		shapes[size] = true
		x, mask, err := jit.PadTo(jit.FromSlice(ids), size)
		if err != nil {
			panic(err)
		}
		total += pow2.Call(x, mask).Item()
	}
	fmt.Println("pow2:", total, "shapes", len(shapes), "compiles", pow2.Stats().Compiles)

	mult8 := jit.Jit(embed)
	total = 0
	for i := range docs {
		ids := truncate(document(i))
		x, mask, err := jit.PadTo(jit.FromSlice(ids), roundUp8(len(ids)))
		if err != nil {
			panic(err)
		}
		total += mult8.Call(x, mask).Item() // want shapechurn
	}
	fmt.Println("mult8:", total, "compiles", mult8.Stats().Compiles)
}
