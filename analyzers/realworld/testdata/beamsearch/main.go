// Command beamsearch tokenizes a prompt and decodes with a small beam:
// the scorer picks a stop action with jit.Cond inside the trace, the beam
// width is a static argument from a fixed set, prompts of different
// lengths are bucketed, and a last variant stops the search with a host
// if on a traced score.
package main

import (
	"fmt"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

var vocab = map[string]int32{"<pad>": 0, "the": 1, "cat": 2, "sat": 3, "on": 4, "mat": 5, "a": 6, "dog": 7}

// tokenize maps words to ids (unknown words to 0).
func tokenize(s string) []int32 {
	var ids []int32
	for _, w := range strings.Fields(s) {
		ids = append(ids, vocab[w])
	}
	return ids
}

// bucket pads ids to the next of a few lengths.
func bucket(ids []int32) jit.Array {
	for _, b := range []int{4, 8, 16} {
		if len(ids) <= b {
			out := make([]int32, b)
			copy(out, ids)
			return jit.FromSlice(out)
		}
	}
	panic("prompt too long")
}

// score gives each of width beams a score from the prompt.
func score(prompt jit.Array, width int) jit.Array {
	base := prompt.Astype(jit.Float32).Mean()
	beams := jit.Arange(width, jit.Float32).Mul(0.1)
	return beams.Add(base).Tanh()
}

// extend adds a step's log-probability unless the best beam already
// stopped (a traced branch).
func extend(scores jit.Array, stop float64) jit.Array {
	best := scores.MaxReduce()
	return jit.Cond(best.Gt(stop), func(s jit.Array) jit.Array { return s },
		func(s jit.Array) jit.Array { return s.Add(s.Mul(0.5).Logistic().Log()) }, scores)
}

// extendHost is extend with a host if on the traced best score.
func extendHost(scores jit.Array, stop float64) jit.Array {
	if scores.MaxReduce().Gt(stop).Bool() { // want tracedbool
		return scores
	}
	return scores.Add(scores.Mul(0.5).Logistic().Log())
}

func main() {
	prompts := []string{"the cat", "the cat sat on", "a dog sat on the mat", "the dog", "a cat sat on a mat"}
	sc := jit.Jit(score, jit.StaticArgnums(1))
	ext := jit.Jit(extend, jit.StaticArgnums(1))
	widths := [2]int{2, 4}
	for i, p := range prompts {
		s := sc.Call(bucket(tokenize(p)), widths[i%2])
		for range 6 {
			s = ext.Call(s, 0.9)
		}
		fmt.Println(p, "→", s)
	}
	fmt.Println("score compiles", sc.Stats().Compiles)

	host := jit.Jit(extendHost, jit.StaticArgnums(1))
	fmt.Println(host.Call(sc.Call(bucket(tokenize(prompts[0])), 2), 0.9))
}
