// Command tokembed tokenizes a handful of sentences with a whitespace
// vocabulary, embeds them with a small table and mean-pools each sentence
// into one vector, first the naive way (one call per raw sentence) and then
// with length buckets and masks.
package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"corpus/tokembed/embed"

	"github.com/jitlint/jitlint/jit"
)

const dim = 8

var buckets = []int{8, 16}

// tracesSeen counts how often the naive pooler was (re)traced.
var tracesSeen int

// Map applies f to every element of xs.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Vocab maps words to ids; id 0 is <unk>.
type Vocab struct {
	ids   map[string]int32
	words []string
}

func BuildVocab(docs []string) *Vocab {
	v := &Vocab{ids: map[string]int32{"<unk>": 0}, words: []string{"<unk>"}}
	var all []string
	for _, d := range docs {
		all = append(all, strings.Fields(strings.ToLower(d))...)
	}
	sort.Strings(all)
	for _, w := range all {
		if _, ok := v.ids[w]; !ok {
			v.ids[w] = int32(len(v.words))
			v.words = append(v.words, w)
		}
	}
	return v
}

func (v *Vocab) Encode(s string) []int32 {
	return Map(strings.Fields(strings.ToLower(s)), func(w string) int32 { return v.ids[w] })
}

// MeanPoolRaw embeds an unpadded sentence and averages its positions.
func MeanPoolRaw(ids, table jit.Array) jit.Array {
	tracesSeen++ // want traceeffect
	return embed.Lookup(ids, table).Mean(0)
}

// MeanPoolMasked embeds a padded sentence and averages the real positions.
func MeanPoolMasked(ids, mask, table jit.Array) jit.Array {
	e := embed.Lookup(ids, table)
	n := ids.Shape()[0]
	w := mask.Reshape(n, 1)
	return e.Mul(w).Sum(0).Div(mask.Sum().Max(1))
}

// CheckedPool refuses ids outside the table before pooling.
func CheckedPool(ids, table jit.Array) jit.Array {
	if ids.MaxReduce().Int() >= table.Shape()[0] { // want tracedbool
		panic("id out of range")
	}
	return embed.Lookup(ids, table).Mean(0)
}

// Contextualize mixes each position with its neighbours, passes times.
func Contextualize(e jit.Array, passes int) jit.Array {
	return embed.Smooth(e, passes).Tanh() // want unrolledloop
}

const fullPasses = 32

// ContextualizeFull is the fixed-depth variant used for the index.
func ContextualizeFull(e jit.Array) jit.Array {
	return embed.Smooth(e, fullPasses).Tanh()
}

// padToBucket right-pads ids to the smallest bucket that fits.
func padToBucket(ids []int32) (jit.Array, jit.Array) {
	size := buckets[len(buckets)-1]
	for _, b := range buckets {
		if len(ids) <= b {
			size = b
			break
		}
	}
	padded, mask, err := jit.PadTo(jit.FromSlice(ids), size)
	if err != nil {
		panic(err)
	}
	return padded, mask.Astype(jit.Float32)
}

func norm(v []float32) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func main() {
	docs := []string{
		"the cat sat",
		"the cat sat on the mat",
		"a dog ran",
		"a dog ran after the cat in the yard",
		"birds sing",
		"the quick brown fox jumps over the lazy dog",
		"rain again today",
		"the mat is red and the yard is green",
		"one",
		"we read the paper then we wrote the code and ran it",
	}
	vocab := BuildVocab(docs)
	table := jit.Arange(len(vocab.words)*dim, jit.Float32).Reshape(len(vocab.words), dim).Mul(0.37).Sin()
	fmt.Printf("vocab size %d, dim %d\n", len(vocab.words), dim)

	encoded := Map(docs, vocab.Encode)

	// Naive: every sentence length is its own program.
	raw := jit.Jit(MeanPoolRaw)
	for i, ids := range encoded {
		vec := raw.Call(jit.FromSlice(ids), table) // want shapechurn
		fmt.Printf("raw %d (len %2d): |v| = %.4f\n", i, len(ids), norm(vec.Float32s()))
	}
	fmt.Printf("raw pooler: traces=%d compiles=%d\n", tracesSeen, raw.Stats().Compiles)

	// Bucketed: two programs for every length.
	masked := jit.Jit(MeanPoolMasked)
	for i, ids := range encoded {
		padded, mask := padToBucket(ids)
		vec := masked.Call(padded, mask, table)
		fmt.Printf("bucketed %d (pad %2d): |v| = %.4f first=%.4f\n", i, padded.Shape()[0], norm(vec.Float32s()), vec.Slice([]int{0}, []int{1}).Item())
	}
	fmt.Printf("bucketed pooler: compiles=%d\n", masked.Stats().Compiles)

	// The range check cannot be done on a tracer; check on the host instead.
	checked := jit.Jit(CheckedPool)
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("checked pool failed:", strings.SplitN(fmt.Sprint(r), "\n", 2)[0])
			}
		}()
		checked.Call(jit.FromSlice(encoded[0]), table)
	}()
	if mx := jit.FromSlice(encoded[3]).MaxReduce().Int(); mx < len(vocab.words) {
		fmt.Println("host range check ok, max id", mx)
	}

	// Contextual smoothing of one sentence; the pass count is static.
	smooth := jit.Jit(Contextualize, jit.StaticArgnums(1))
	e := embed.Lookup(jit.FromSlice(encoded[9]), table)
	light := smooth.Call(e, 4)
	heavy := smooth.Call(e, 40)
	fmt.Printf("smoothed: light=%.4f heavy=%.4f\n", light.MaxReduce().Item(), heavy.MaxReduce().Item())
	full := jit.Jit(ContextualizeFull).Call(e)
	fmt.Printf("smoothed %d passes: %.4f\n", fullPasses, full.MaxReduce().Item())
}
