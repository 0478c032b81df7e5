// Package lenbuckets is a tiny data pipeline for variable-length token
// sequences: a synthetic corpus, length bucketing (as in tf.data's
// bucket_by_sequence_length) and padding to a bucket with a mask.
package lenbuckets

import (
	"fmt"
	"math/rand"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// Example is one sequence of token ids with a binary label.
type Example struct {
	Tokens []int32
	Label  float32
}

// Synthetic makes n examples over a vocabulary of vocab ids with lengths in
// [minLen, maxLen]. The label is 1 when "positive" tokens (the upper half of
// the vocabulary) are the majority, so a bag-of-embeddings model can learn it.
func Synthetic(rng *rand.Rand, n, vocab, minLen, maxLen int) []Example {
	out := make([]Example, n)
	for i := range out {
		l := minLen + rng.Intn(maxLen-minLen+1)
		toks := make([]int32, l)
		pos := 0
		for j := range toks {
			// token 0 is reserved for padding
			toks[j] = int32(1 + rng.Intn(vocab-1))
			if int(toks[j]) >= vocab/2 {
				pos++
			}
		}
		lab := float32(0)
		if 2*pos > l {
			lab = 1
		}
		out[i] = Example{Tokens: toks, Label: lab}
	}
	return out
}

// Batch is a padded batch: Tokens and Mask are [B, L], Labels is [B].
type Batch struct {
	Tokens jit.Array
	Mask   jit.Array
	Labels jit.Array
	Len    int // the bucket length L
}

// Bucketer groups examples by length into a few padded lengths.
type Bucketer struct {
	Bounds    []int // ascending padded lengths; the last must cover the longest sequence
	BatchSize int
}

// BucketFor returns the smallest bound that holds a sequence of length n.
func (b Bucketer) BucketFor(n int) (int, error) {
	for _, bd := range b.Bounds {
		if n <= bd {
			return bd, nil
		}
	}
	return 0, fmt.Errorf("lenbuckets: sequence of length %d is longer than the largest bucket %d", n, b.Bounds[len(b.Bounds)-1])
}

// Batches shuffles the examples, groups them by bucket and returns full
// batches of BatchSize (a trailing partial batch of a bucket is dropped, as
// with drop_remainder=True), in a shuffled order.
func (b Bucketer) Batches(rng *rand.Rand, exs []Example) ([]Batch, error) {
	groups := map[int][]Example{}
	perm := rng.Perm(len(exs))
	for _, i := range perm {
		bd, err := b.BucketFor(len(exs[i].Tokens))
		if err != nil {
			return nil, err
		}
		groups[bd] = append(groups[bd], exs[i])
	}
	bounds := make([]int, 0, len(groups))
	for bd := range groups {
		bounds = append(bounds, bd)
	}
	sort.Ints(bounds)
	var out []Batch
	for _, bd := range bounds {
		g := groups[bd]
		for s := 0; s+b.BatchSize <= len(g); s += b.BatchSize {
			out = append(out, Pad(g[s:s+b.BatchSize], bd))
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// Pad right-pads every sequence of exs with token 0 to length l.
func Pad(exs []Example, l int) Batch {
	toks := make([]int32, len(exs)*l)
	mask := make([]float32, len(exs)*l)
	labels := make([]float32, len(exs))
	for i, e := range exs {
		for j, t := range e.Tokens {
			toks[i*l+j] = t
			mask[i*l+j] = 1
		}
		labels[i] = e.Label
	}
	return Batch{
		Tokens: jit.FromSlice(toks, len(exs), l),
		Mask:   jit.FromSlice(mask, len(exs), l),
		Labels: jit.FromSlice(labels, len(exs)),
		Len:    l,
	}
}

// Unpadded returns one example as a [1, len] batch with an all-ones mask.
func Unpadded(e Example) Batch {
	return Pad([]Example{e}, len(e.Tokens))
}
