// Command decode decodes greedily until an end token: the prefix grows by
// one token per step and is passed whole to the jitted step.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const eos = 7

// next scores the prefix and returns the next token.
func next(prefix jit.Array) jit.Array {
	s := prefix.Astype(jit.Float32).Sum()
	return s.Mul(3).Add(1).Astype(jit.Int32).Sub(prefix.Astype(jit.Float32).Sum().Mul(3).Astype(jit.Int32)).Add(prefix.Shape()[0])
}

func main() {
	step := jit.Jit(next)
	tokens := []int32{1}
	for len(tokens) < 16 {
		tok := step.Call(jit.FromSlice(tokens)) // want shapechurn
		t := int32(tok.Int())
		tokens = append(tokens, t)
		if t == eos {
			break
		}
	}
	fmt.Println(tokens)
}
