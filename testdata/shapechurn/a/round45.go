package a

import (
	"bytes"

	"github.com/jitlint/jitlint/jit"
)

// Chunks of a fixed size from a helper, windows whose width is limit -
// start, and padding sizes that a bucket chooser picks.

// R45Loss is a loss over a sequence of ids.
func R45Loss(ids jit.Array) jit.Array { return ids.Mul(0.01).Tanh().Sum() }

// r45Chunk cuts data into chunks of size bytes, the last one shorter.
func r45Chunk(data []byte, size int) [][]byte {
	var out [][]byte
	for off := 0; off < len(data); off += size {
		out = append(out, data[off:min(off+size, len(data))])
	}
	return out
}

// r45Grow cuts data into chunks that grow by one byte each.
func r45Grow(data []byte) [][]byte {
	var out [][]byte
	for n := 1; n*(n+1)/2 <= len(data); n++ {
		out = append(out, data[n*(n-1)/2:n*(n+1)/2])
	}
	return out
}

// r45IDs turns bytes into an array of ids scaled to [0, 1].
func r45IDs(b []byte) jit.Array {
	f := make([]float32, len(b))
	for i := range f {
		f[i] = float32(b[i]) / 255
	}
	return jit.FromSlice(f)
}

func r45Text(text []byte) {
	f := jit.Jit(R45Loss)
	for _, c := range r45Chunk(text, 128) { // full chunks and one short last one: two shapes
		f.Call(r45IDs(c))
	}
	for _, line := range bytes.Split(text, []byte("\n")) {
		f.Call(r45IDs(line)) // want `argument ids has a different shape on each iteration`
	}
	for _, c := range r45Grow(text) {
		f.Call(r45IDs(c)) // want `argument ids has a different shape on each iteration`
	}
}

func r45Windows(y jit.Array, lookback, horizon int) {
	f := jit.Jit(R45Loss)
	for t := lookback; t < lookback+horizon; t++ {
		f.Call(y.Slice([]int{t - lookback}, []int{t})) // lookback wide, whatever t
	}
	for t := 1; t < lookback+horizon; t++ {
		f.Call(y.Slice([]int{max(0, t-lookback)}, []int{t})) // a warm-up: at most lookback widths
	}
	for t := 1; t <= horizon; t++ {
		f.Call(y.Slice([]int{0}, []int{t})) // want `argument ids has a different shape on each iteration`
	}
	for t := 1; t <= horizon; t++ {
		f.Call(y.Slice([]int{t}, []int{2 * t})) // want `argument ids has a different shape on each iteration`
	}
}

// r45Pow2 pads to the next power of two, capped at 1024.
func r45Pow2(n int) int {
	p := 8
	for p < n && p < 1024 {
		p *= 2
	}
	return p
}

// r45RoundUp8 rounds up to a multiple of 8: a new size every 8 lengths.
func r45RoundUp8(n int) int { return (n + 7) / 8 * 8 }

func r45Padding(docs [][]float32) {
	f := jit.Jit(MaskedMean)
	for _, d := range docs {
		x, mask, _ := jit.PadTo(jit.FromSlice(d), r45Pow2(len(d)))
		f.Call(x, mask)
	}
	for _, d := range docs {
		x, mask, _ := jit.PadTo(jit.FromSlice(d), r45RoundUp8(len(d)))
		f.Call(x, mask) // want `argument x has a different shape on each iteration` `argument mask has a different shape on each iteration`
	}
}
