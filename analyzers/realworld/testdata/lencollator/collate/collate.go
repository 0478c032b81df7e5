// Package collate groups variable-length sequences into batches: sorted by
// length, then either padded to the batch's own maximum or to a bucket.
package collate

import (
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// Batch is a group of items with the padded length they share.
type Batch[T any] struct {
	Items  []T
	MaxLen int
}

// Map applies f to every element of xs.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// SortByLen returns batches of size n over xs sorted by length (longest
// first), each padded to `pad(maxLen)`.
func SortByLen[T any](xs []T, n int, length func(T) int, pad func(int) int) []Batch[T] {
	s := append([]T(nil), xs...)
	sort.SliceStable(s, func(a, b int) bool { return length(s[a]) > length(s[b]) })
	var out []Batch[T]
	for i := 0; i < len(s); i += n {
		items := s[i:min(i+n, len(s))]
		m := 0
		for _, it := range items {
			m = max(m, length(it))
		}
		out = append(out, Batch[T]{Items: items, MaxLen: pad(m)})
	}
	return out
}

// Dense packs a batch of int32 sequences into [len(items), MaxLen] ids and a
// float32 mask.
func Dense(b Batch[[]int32]) (jit.Array, jit.Array) {
	ids := make([]int32, len(b.Items)*b.MaxLen)
	mask := make([]float32, len(ids))
	for i, seq := range b.Items {
		for j, t := range seq {
			ids[i*b.MaxLen+j], mask[i*b.MaxLen+j] = t, 1
		}
	}
	return jit.FromSlice(ids, len(b.Items), b.MaxLen), jit.FromSlice(mask, len(b.Items), b.MaxLen)
}

// RequireTokens fails when some row of the mask is empty.
func RequireTokens(mask jit.Array) {
	if mask.Sum(1).MinReduce().Item() == 0 {
		panic("collate: empty sequence in batch")
	}
}

// Pyramid halves the time axis `levels` times by averaging pairs.
func Pyramid(x jit.Array, levels int) jit.Array {
	for l := 0; l < levels; l++ {
		b, t, d := x.Shape()[0], x.Shape()[1], x.Shape()[2]
		x = x.Reshape(b, t/2, 2, d).Mean(2)
	}
	return x
}
