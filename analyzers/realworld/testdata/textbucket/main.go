// Command textbucket embeds short sentences with a bag-of-embeddings
// encoder: sentences are tokenised, mapped to ids, looked up in an
// embedding table (as a one-hot matmul), given sinusoidal positions and
// mean-pooled under a padding mask. It compares encoding sentences at their
// own lengths with padding them to a few bucket sizes.
package main

import (
	"fmt"
	"math"

	"corpus/textbucket/tok"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocabCap = 64 // rows of the embedding table
	embedDim = 8
)

var buckets = []int{8, 16, 32}

var corpus = []string{
	"The cat sat on the mat.",
	"A dog barked at the mailman all morning long.",
	"Rain again.",
	"We shipped the new tokenizer to production on friday and nothing broke.",
	"Is the model any good?",
	"Padding every batch to the longest sentence wastes compute on short ones.",
	"Buckets keep the number of compiled shapes small.",
	"The mailman did not enjoy the dog.",
	"Cats and dogs.",
	"Embedding tables map token ids to dense vectors that the encoder averages.",
	"Short and sweet.",
	"Nothing here is surprising to anyone who has trained a language model before today.",
}

// tokensEncoded counts the tokens that went through the bucketed encoder.
var tokensEncoded int

// embeddingTable builds a deterministic [vocabCap, embedDim] table.
func embeddingTable() jit.Array {
	data := make([]float32, vocabCap*embedDim)
	for i := range data {
		data[i] = float32(math.Sin(float64(i)*0.37) * 0.5)
	}
	return jit.FromSlice(data, vocabCap, embedDim)
}

// lookup returns table[ids] as a one-hot matmul: ids is i32[L], the result
// f32[L, D].
func lookup(ids, table jit.Array) jit.Array {
	l, v := ids.Shape()[0], table.Shape()[0]
	onehot := ids.Reshape(l, 1).Eq(jit.Arange(v, jit.Int32).Reshape(1, v)).Astype(jit.Float32)
	return onehot.MatMul(table)
}

// addPositions adds sinusoidal position encodings, one row per position.
func addPositions(x jit.Array) jit.Array {
	l, d := x.Shape()[0], x.Shape()[1]
	freqs := jit.Arange(d, jit.Float32).Div(float64(d)).Mul(-math.Log(1000)).Exp()
	rows := make([]jit.Array, 0, l)
	for p := 0; p < l; p++ {
		rows = append(rows, freqs.Mul(float64(p)).Sin().Reshape(1, d))
	}
	return x.Add(jit.Concatenate(0, rows...).Mul(0.1))
}

// EncodeRaw encodes one sentence at its own length.
func EncodeRaw(ids, table jit.Array) jit.Array {
	return addPositions(lookup(ids, table)).Mean(0)
}

// BucketEncode encodes a sentence padded to a bucket, averaging only the
// real tokens.
func BucketEncode(ids, mask, table jit.Array) jit.Array {
	tokensEncoded += ids.Shape()[0] // want traceeffect
	x := addPositions(lookup(ids, table))
	m := mask.Astype(jit.Float32)
	return x.Mul(m.Reshape(-1, 1)).Sum(0).Div(m.Sum().Max(1))
}

// PoolChecked mean-pools embeddings, returning zeros for an empty sentence.
func PoolChecked(x, mask jit.Array) jit.Array {
	n := mask.Sum()
	if n.Eq(0).Bool() { // want tracedbool
		return jit.Zeros(jit.Float32, x.Shape()[1])
	}
	return x.Mul(mask.Reshape(-1, 1)).Sum(0).Div(n)
}

// TermFrequencies counts how often each vocabulary id occurs in a padded
// sentence (padding excluded).
func TermFrequencies(ids, mask jit.Array, vocab int) jit.Array {
	counts := make([]jit.Array, 0, vocab)
	for v := 0; v < vocab; v++ { // want unrolledloop
		counts = append(counts, ids.Eq(int32(v)).Astype(jit.Float32).Mul(mask).Sum().Reshape(1))
	}
	return jit.Concatenate(0, counts...)
}

// Cosine is the cosine similarity of two vectors.
func Cosine(a, b jit.Array) jit.Array {
	return a.Mul(b).Sum().Div(a.Pow(2).Sum().Mul(b.Pow(2).Sum()).Sqrt().Max(1e-6))
}

// padIDs pads a sentence's ids to its bucket.
func padIDs(ids []int32) (jit.Array, jit.Array) {
	b := tok.Bucket(len(ids), buckets)
	if len(ids) > b {
		ids = ids[:b]
	}
	padded, mask, err := jit.PadTo(jit.FromSlice(ids), b)
	if err != nil {
		panic(err)
	}
	return padded, mask
}

// encodeAll encodes every sentence with the bucketed encoder.
func encodeAll(v *tok.Vocab, table jit.Array) []jit.Array {
	enc := jit.Jit(BucketEncode)
	out := make([]jit.Array, len(corpus))
	for i, s := range corpus {
		ids, mask := padIDs(v.Encode(s))
		out[i] = enc.Call(ids, mask, table)
	}
	return out
}

func main() {
	v := tok.Build(corpus, vocabCap)
	table := embeddingTable()
	fmt.Printf("vocabulary: %d words (table has %d rows)\n", v.Size(), vocabCap)

	raw := jit.Jit(EncodeRaw)
	rawVecs := make([]jit.Array, len(corpus))
	for i, s := range corpus {
		rawVecs[i] = raw.Call(jit.FromSlice(v.Encode(s)), table) // want shapechurn
	}
	fmt.Printf("unpadded encoder: %d calls, %d compiles\n", len(corpus), raw.Stats().Compiles)

	var vecs []jit.Array
	for epoch := 0; epoch < 3; epoch++ {
		vecs = encodeAll(v, table)
	}
	be := jit.Jit(BucketEncode)
	fmt.Printf("bucketed encoder: %d calls, %d compiles, %d tokens counted\n",
		3*len(corpus), len(be.Signatures()), tokensEncoded)

	cos := jit.Jit(Cosine)
	best, bestSim := 0, -2.0
	for j := 1; j < len(corpus); j++ {
		sim := cos.Call(vecs[0], vecs[j]).Item()
		if sim > bestSim {
			best, bestSim = j, sim
		}
	}
	fmt.Printf("closest to %q: %q (%.3f)\n", corpus[0], corpus[best], bestSim)
	drift := cos.Call(rawVecs[0], vecs[0]).Item()
	fmt.Printf("padded vs unpadded encoding of sentence 0: cosine %.4f\n", drift)

	tf := jit.Jit(TermFrequencies, jit.StaticArgnums(2))
	ids, mask := padIDs(v.Encode(corpus[1]))
	counts := tf.Call(ids, mask.Astype(jit.Float32), vocabCap).Float32s()
	fmt.Printf("term frequencies of sentence 1 (first 12 ids): %v\n", counts[:12])

	pool := jit.Jit(PoolChecked)
	emb := lookup(ids, table)
	fmt.Println("checked pooling:", pool.Call(emb, mask.Astype(jit.Float32)))
}
