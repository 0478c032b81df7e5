package a

import "github.com/jitlint/jitlint/jit"

// Shapes that a helper makes with the function value it is given (a
// generic map over items with a conversion): not known in the helper, known
// where it is called with the conversion and the items.

func mapAllHelper[T any](f *jit.Func[func(jit.Array) jit.Array], items []T, conv func(T) jit.Array) []jit.Array {
	out := make([]jit.Array, 0, len(items))
	for _, it := range items {
		out = append(out, f.Call(conv(it))) // want `argument x has a different shape`
	}
	return out
}

func mapPlainHelper(f *jit.Func[func(jit.Array) jit.Array], items [][]float32, conv func([]float32) jit.Array) []jit.Array {
	out := make([]jit.Array, 0, len(items))
	for _, it := range items {
		out = append(out, f.Call(conv(it))) // want `argument x has a different shape`
	}
	return out
}

func mapDirectHelper(f *jit.Func[func(jit.Array) jit.Array], items [][]float32) []jit.Array {
	out := make([]jit.Array, 0, len(items))
	for _, it := range items {
		out = append(out, f.Call(jit.FromSlice(it))) // want `argument x has a different shape`
	}
	return out
}

func runMapHelpers() {
	records := [][]float32{{1, 2, 3}, {4, 5, 6, 7, 8}, {1, 1, 2, 3, 5, 8, 13}, {2, 4}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, {3, 1, 4}}
	safe := jit.Jit(SumSquares)
	mapAllHelper(safe, records, func(r []float32) jit.Array { return jit.FromSlice(r) })
	mapPlainHelper(safe, records, func(r []float32) jit.Array { return jit.FromSlice(r) })
	mapDirectHelper(safe, records)
}

// A helper called only with a conversion that pads to one size: one shape.
func mapPaddedHelper[T any](f *jit.Func[func(jit.Array) jit.Array], items []T, conv func(T) jit.Array) []jit.Array {
	out := make([]jit.Array, 0, len(items))
	for _, it := range items {
		out = append(out, f.Call(conv(it)))
	}
	return out
}

func runMapHelperPadded() {
	records := [][]float32{{1, 2, 3}, {4, 5, 6, 7, 8}, {1, 1, 2, 3, 5, 8, 13}, {2, 4}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, {3, 1, 4}}
	safe := jit.Jit(SumSquares)
	mapPaddedHelper(safe, records, func(r []float32) jit.Array {
		padded := make([]float32, 16)
		copy(padded, r)
		return jit.FromSlice(padded)
	})
}
