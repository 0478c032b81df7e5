// Command textbatch embeds sentences of different lengths: unpadded, each
// length compiles anew; padded to a fixed length, one compile.
package main

import (
	"fmt"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const maxLen = 32

func embed(ids jit.Array) jit.Array {
	return ids.Astype(jit.Float32).Mul(0.1).Sin().Mean()
}

func embedMasked(ids, mask jit.Array) jit.Array {
	v := ids.Astype(jit.Float32).Mul(0.1).Sin()
	m := mask.Astype(jit.Float32)
	return v.Mul(m).Sum().Div(m.Sum())
}

func tokenize(s string) jit.Array {
	words := strings.Fields(s)
	ids := make([]int32, len(words))
	for i, w := range words {
		ids[i] = int32(len(w))
	}
	return jit.FromSlice(ids)
}

var corpus = []string{
	"the cat sat",
	"a dog ran across the road",
	"birds sing",
	"tracing compiles one program per input shape",
	"padding keeps the shape fixed so the cache hits",
	"one two three four five six seven eight nine ten",
}

func main() {
	f := jit.Jit(embed)
	for _, s := range corpus {
		fmt.Println(f.Call(tokenize(s)).Item()) // want shapechurn
	}
	g := jit.Jit(embedMasked)
	for _, s := range corpus {
		ids, mask, err := jit.PadTo(tokenize(s), maxLen)
		if err != nil {
			panic(err)
		}
		fmt.Println(g.Call(ids, mask).Item())
	}
}
