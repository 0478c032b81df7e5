package a

import "github.com/jitlint/jitlint/jit"

// SumSquares is the codelab's step 5.
func SumSquares(x jit.Array) jit.Array { return x.Pow(2).Sum() }

var sumSq = jit.Jit(SumSquares)

// MaskedMean is the codelab's step 8a.
func MaskedMean(x, mask jit.Array) jit.Array { return x.Mul(mask).Sum().Div(mask.Sum()) }

var maskedMean = jit.Jit(MaskedMean)

func churn(batches [][]float32) {
	x := jit.Arange(300, jit.Float32)
	for _, n := range []int{100, 200, 100, 200, 300} {
		sumSq.Call(x.Slice([]int{0}, []int{n})) // want `argument x has a different shape on each iteration: one compile per distinct shape \(3 shapes over 5 iterations → 3 compiles\). Pad to a fixed size with jit.PadTo and pass a mask`
	}
	for i := 1; i < 5; i++ {
		sumSq.Call(jit.Arange(i, jit.Float32)) // want `argument x has a different shape`
		y := jit.Zeros(jit.Float32, i, 2)
		sumSq.Call(y.Sin()) // want `argument x has a different shape`
		z := x.Reshape(i, -1)
		sumSq.Call(z) // want `argument x has a different shape`
	}
	for _, b := range batches {
		sumSq.Call(jit.FromSlice(b)) // want `argument x has a different shape`
	}
	data := []float32{1, 2, 3, 4}
	for i := range 4 {
		sumSq.Call(jit.FromSlice(data[:i+1])) // want `argument x has a different shape`
	}
}

// ---- not reported ----

func steady(batches [][]float32) {
	x := jit.Arange(300, jit.Float32)
	for _, n := range []int{100, 200, 100, 200, 300} {
		p, m, _ := jit.PadTo(x.Slice([]int{0}, []int{n}), 300)
		maskedMean.Call(p, m)
	}
	for i := 0; i < 5; i++ {
		sumSq.Call(x.Add(i))
		sumSq.Call(x.Slice([]int{0}, []int{100}))
		x = sumSq.Call(x)
	}
	for _, b := range batches {
		sumSq.Call(jit.FromSlice(b, 4))
	}
	// Outside any loop: three compiles, but that is the lesson of step 3.
	sumSq.Call(jit.Arange(4, jit.Float32))
	sumSq.Call(jit.Arange(5, jit.Float32))
}
