// Package batches packs variable-length sequences into dense arrays.
package batches

import "github.com/jitlint/jitlint/jit"

// Batch is a group of sequences padded to MaxLen.
type Batch struct {
	Items  [][]int32
	MaxLen int
}

// Dense packs b into an array of len(b.Items) rows of b.MaxLen.
func Dense(b Batch) jit.Array {
	ids := make([]int32, len(b.Items)*b.MaxLen)
	for i, seq := range b.Items {
		copy(ids[i*b.MaxLen:], seq)
	}
	return jit.FromSlice(ids, len(b.Items), b.MaxLen)
}
