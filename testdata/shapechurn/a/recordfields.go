package a

import "github.com/jitlint/jitlint/jit"

// A field of a record that a loop stores at each index is, read at an
// index, that record's field: a loop over the records sees each one's
// array in turn.

type rfRecord struct {
	name string
	x    jit.Array
}

func rfRecords(lengths []int) []rfRecord {
	out := make([]rfRecord, len(lengths))
	for i, n := range lengths {
		out[i] = rfRecord{"rec", jit.FromSlice(make([]float32, n))}
	}
	return out
}

func rfScan() {
	f := jit.Jit(SumSquares)
	for _, r := range rfRecords([]int{97, 120, 150, 64, 200}) {
		f.Call(r.x) // want `argument x has a different shape on each iteration: one compile per distinct shape \(5 iterations → 5 compiles\)`
	}
	for _, r := range rfRecords([]int{64, 64, 64, 64, 64}) {
		f.Call(r.x) // not reported: one length
	}
}
