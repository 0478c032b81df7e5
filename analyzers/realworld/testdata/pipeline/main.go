// Command pipeline feeds variable-length records to a jitted model: padded
// to a few length buckets with jit.PadTo, then, in a second pass, each
// record at its own length.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

func score(x, mask jit.Array) jit.Array {
	return jit.Where(mask, x.Mul(x), 0).Sum()
}

func plain(x jit.Array) jit.Array { return x.Mul(x).Sum() }

func records(n int) []jit.Array {
	var out []jit.Array
	for i := range n {
		size := 3 + (i*5)%29
		data := make([]float32, size)
		for j := range data {
			data[j] = float32(j%4) / 4
		}
		out = append(out, jit.FromSlice(data))
	}
	return out
}

func bucket(n int) int {
	for _, b := range []int{8, 16, 32} {
		if n <= b {
			return b
		}
	}
	return 64
}

func main() {
	f := jit.Jit(score)
	total := 0.0
	for _, r := range records(30) {
		x, mask, err := jit.PadTo(r, bucket(r.Shape()[0]))
		if err != nil {
			panic(err)
		}
		total += f.Call(x, mask).Item()
	}
	fmt.Println("bucketed:", total, "compiles:", f.Stats().Compiles)
	g := jit.Jit(plain)
	total = 0
	for _, r := range records(12) {
		total += g.Call(r).Item() // want shapechurn
	}
	fmt.Println("per length:", total, "compiles:", g.Stats().Compiles)
}
