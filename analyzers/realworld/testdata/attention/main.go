// Command attention runs scaled dot-product attention over padded
// sequences with a padding mask, then a variant that checks the mask with
// a Go if inside the traced function.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// attend masks the padded keys with jit.Where: no host control flow.
func attend(q, k, v, mask jit.Array) jit.Array {
	s := q.MatMul(k.Transpose()).Mul(1 / math.Sqrt(8))
	s = jit.Where(mask, s, -1e9)
	w := s.Sub(s.MaxReduce(1).Reshape(4, 1)).Exp()
	w = w.Div(w.Sum(1).Reshape(4, 1))
	return w.MatMul(v)
}

// attendChecked skips the masking when nothing is padded: the Go if needs
// the mask's value, which a trace does not have.
func attendChecked(q, k, v, mask jit.Array) jit.Array {
	if mask.Not().Astype(jit.Float32).Sum().Item() == 0 { // want tracedbool
		return q.MatMul(k.Transpose()).MatMul(v)
	}
	return attend(q, k, v, mask)
}

func maskFor(valid int) jit.Array {
	m := make([]bool, 4*4)
	for i := range 4 {
		for j := range 4 {
			m[i*4+j] = j < valid
		}
	}
	return jit.FromSlice(m, 4, 4)
}

func main() {
	q := jit.Full(0.5, jit.Float32, 4, 8)
	k := jit.Full(0.25, jit.Float32, 4, 8)
	v := jit.Full(1, jit.Float32, 4, 8)
	f := jit.Jit(attend)
	for valid := 1; valid <= 4; valid++ {
		out := f.Call(q, k, v, maskFor(valid))
		fmt.Println("valid", valid, "out[0,0] =", out.Slice([]int{0, 0}, []int{1, 1}).Sum().Item())
	}
	g := jit.Jit(attendChecked)
	fmt.Println(g.Call(q, k, v, maskFor(4)))
}
