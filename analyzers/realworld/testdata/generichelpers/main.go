// Command generic_helpers runs feature preprocessing through small generic
// helpers: a typed memo of jitted functions, a generic batch mapper and
// helpers from a shared package.
package main

import (
	"fmt"

	"corpus/generichelpers/lib"
	"github.com/jitlint/jitlint/jit"
)

// Preprocess logs and standardizes.
func Preprocess(x jit.Array) jit.Array {
	lib.Logf("preprocess %v", x.Shape()) // want traceeffect
	return lib.Standardize(x)            // want tracedbool
}

// PreprocessSafe uses only traceable helpers.
func PreprocessSafe(x jit.Array) jit.Array {
	return lib.StandardizeSafe(lib.Flatten2D(x))
}

// Score is a simple per-row feature score.
func Score(x jit.Array) jit.Array {
	return lib.Flatten2D(x).Tanh().Sum(1)
}

// mapAll applies a jitted function to every item, converting each with conv.
func mapAll[T any](f *jit.Func[func(jit.Array) jit.Array], items []T, conv func(T) jit.Array) []jit.Array {
	out := make([]jit.Array, 0, len(items))
	for _, it := range items {
		out = append(out, f.Call(conv(it))) // want shapechurn
	}
	return out
}

// Memo keeps one jitted function per key.
type Memo[K comparable] struct {
	fns  map[K]*jit.Func[func(jit.Array) jit.Array]
	make func(K) *jit.Func[func(jit.Array) jit.Array]
}

func NewMemo[K comparable](mk func(K) *jit.Func[func(jit.Array) jit.Array]) *Memo[K] {
	return &Memo[K]{fns: map[K]*jit.Func[func(jit.Array) jit.Array]{}, make: mk}
}

func (m *Memo[K]) Get(k K) *jit.Func[func(jit.Array) jit.Array] {
	f, ok := m.fns[k]
	if !ok {
		f = m.make(k)
		m.fns[k] = f
	}
	return f
}

// padTo pads a ragged record to a bucket length.
func padTo(v []float32, n int) []float32 {
	out := make([]float32, n)
	copy(out, v)
	return out
}

func bucketOf(n int) int {
	if n <= 8 {
		return 8
	}
	return 32
}

func main() {
	records := [][]float32{
		{1, 2, 3},
		{4, 5, 6, 7, 8},
		{1, 1, 2, 3, 5, 8, 13},
		{2, 4},
		{9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
		{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8},
	}

	safe := jit.Jit(PreprocessSafe)
	raw := mapAll(safe, records, func(r []float32) jit.Array { return jit.FromSlice(r) })
	fmt.Println("ragged outputs:", len(raw))

	// Bucketed: a memo of one jitted Score per bucket (two buckets).
	memo := NewMemo(func(b int) *jit.Func[func(jit.Array) jit.Array] { return jit.Jit(Score) })
	for round := 0; round < 3; round++ {
		for _, r := range records {
			b := bucketOf(len(r))
			s := memo.Get(b).Call(jit.FromSlice(padTo(r, b)).Reshape(1, b))
			_ = s
		}
	}
	fmt.Println("score signatures:", memo.Get(8).Signatures())

	// Last, the legacy preprocessing path (its trace fails).
	pre := jit.Jit(Preprocess)
	fmt.Println("legacy preprocess:", pre.Call(jit.FromSlice(records[0])))
}
