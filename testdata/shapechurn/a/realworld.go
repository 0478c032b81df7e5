package a

import "github.com/jitlint/jitlint/jit"

// How data pipelines cut their batches.

func windows(series jit.Array, data []float32, n, w, bs int) {
	// A window of fixed width at a moving offset keeps its shape.
	for off := 0; off+w <= n; off++ {
		sumSq.Call(series.Slice([]int{off}, []int{off + w}))
		sumSq.Call(jit.FromSlice(data[off : off+w]))
	}
	// Batches cut with min: full batches and one short last batch, two compiles.
	for i := 0; i < len(data); i += bs {
		end := min(i+bs, len(data))
		sumSq.Call(jit.FromSlice(data[i:end]))
		sumSq.Call(series.Slice([]int{i}, []int{end}))
	}
	// A few length buckets are a few compiles.
	for _, b := range [][]float32{data, data[:3]} {
		p, m, _ := jit.PadTo(jit.FromSlice(b), bucket(len(b)))
		maskedMean.Call(p, m)
	}
}

// bucket rounds a length up to one of three sizes.
func bucket(n int) int {
	if n <= 64 {
		return 64
	}
	if n <= 256 {
		return 256
	}
	return 1024
}

func growing(series jit.Array, data []float32, lengths []int) {
	// A prefix that grows with the index: one shape per iteration.
	for end := 1; end <= len(data); end++ {
		sumSq.Call(jit.FromSlice(data[:end])) // want `argument x has a different shape on each iteration: one compile per distinct shape \(the number of compiles grows with the data\)`
	}
	// Lengths read from the data.
	for _, n := range lengths {
		sumSq.Call(series.Slice([]int{0}, []int{n})) // want `one compile per distinct shape \(the number of compiles grows with the distinct lengths in lengths\)`
		p, m, _ := jit.PadTo(series.Slice([]int{0}, []int{4}), n)
		maskedMean.Call(p, m) // want `argument x has a different shape on each iteration` `argument mask has a different shape`
	}
}
