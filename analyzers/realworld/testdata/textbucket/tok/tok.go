// Package tok is a tiny whitespace tokenizer with a closed vocabulary,
// used to turn sentences into integer ids for the embedding encoders.
package tok

import (
	"sort"
	"strings"
)

// Special ids.
const (
	PadID = 0
	UnkID = 1
)

// Vocab maps words to ids and back.
type Vocab struct {
	ids   map[string]int32
	words []string
}

// Build collects every word of the corpus (lower-cased, punctuation
// stripped), most frequent first, after the two special tokens.
func Build(corpus []string, maxSize int) *Vocab {
	counts := map[string]int{}
	for _, s := range corpus {
		for _, w := range Split(s) {
			counts[w]++
		}
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	v := &Vocab{ids: map[string]int32{}, words: []string{"<pad>", "<unk>"}}
	for _, w := range words {
		if len(v.words) >= maxSize {
			break
		}
		v.ids[w] = int32(len(v.words))
		v.words = append(v.words, w)
	}
	return v
}

// Size is the number of ids, specials included.
func (v *Vocab) Size() int { return len(v.words) }

// Split lower-cases s and splits it on whitespace, dropping punctuation.
func Split(s string) []string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(".,;:!?\"'()", r) {
			return -1
		}
		return r
	}, s)
	return strings.Fields(s)
}

// Encode returns the ids of s's words (UnkID for unknown ones).
func (v *Vocab) Encode(s string) []int32 {
	words := Split(s)
	out := make([]int32, len(words))
	for i, w := range words {
		id, ok := v.ids[w]
		if !ok {
			id = UnkID
		}
		out[i] = id
	}
	return out
}

// Bucket returns the smallest bucket size that holds n tokens, or the
// largest bucket when none does (the caller truncates).
func Bucket(n int, buckets []int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	return buckets[len(buckets)-1]
}
