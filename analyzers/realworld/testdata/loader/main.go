// Command loader feeds a jitted model from a data-loader struct: its
// Next method returns each batch at its own length; a second loader pads
// each batch to a bucket chosen by a switch.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Loader serves batches of a token stream, each batch a sentence.
type Loader struct {
	lengths []int
	pos     int
}

// Next returns the next sentence and whether there was one.
func (l *Loader) Next() (jit.Array, bool) {
	if l.pos == len(l.lengths) {
		return jit.Array{}, false
	}
	n := l.lengths[l.pos]
	l.pos++
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i%5) / 5
	}
	return jit.FromSlice(data), true
}

// bucket rounds a length up to one of three sizes.
func bucket(n int) int {
	switch {
	case n <= 16:
		return 16
	case n <= 32:
		return 32
	default:
		return 64
	}
}

func encode(x jit.Array) jit.Array { return x.Mul(2).Sin().Sum() }

func encodeMasked(x, mask jit.Array) jit.Array { return x.Mul(2).Sin().Mul(mask).Sum() }

func lengths(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 5 + (i*7)%50
	}
	return out
}

func main() {
	f := jit.Jit(encode)
	raw := &Loader{lengths: lengths(8)}
	total := 0.0
	for x, ok := raw.Next(); ok; x, ok = raw.Next() {
		total += f.Call(x).Item() // want shapechurn
	}
	fmt.Println("raw:", total, "compiles:", f.Stats().Compiles)

	g := jit.Jit(encodeMasked)
	padded := &Loader{lengths: lengths(24)}
	total = 0
	for {
		x, ok := padded.Next()
		if !ok {
			break
		}
		px, mask, err := jit.PadTo(x, bucket(x.Shape()[0]))
		if err != nil {
			panic(err)
		}
		total += g.Call(px, mask).Item()
	}
	fmt.Println("bucketed:", total, "compiles:", g.Stats().Compiles)
}
