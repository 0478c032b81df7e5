// Command charlm generates text from a small character-level GRU language
// model with several decoding strategies: greedy, top-k sampling with an
// annealed temperature, and the same sampler with the temperature passed as
// an array. The first version of the generator re-encoded the whole prefix
// for every new character (as calling model(prefix) in a loop does); the
// current one carries the GRU state from step to step, and a fully compiled
// greedy decoder runs the whole loop as one WhileLoop.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"corpus/seqkit"

	"github.com/jitlint/jitlint/jit"
)

// alphabet: index 0 is the start token, index 1 the end token.
const alphabet = "^$ abcdefghilmnorstu."

const (
	bos    = 0
	eos    = 1
	maxNew = 12
	hidden = 24
)

func encodeText(s string) []int32 {
	out := []int32{bos}
	for _, r := range s {
		out = append(out, int32(strings.IndexRune(alphabet, r)))
	}
	return out
}

func decodeText(toks []int32) string {
	var b strings.Builder
	for _, t := range toks {
		if t == eos {
			b.WriteString("⏎")
			continue
		}
		b.WriteByte(alphabet[t])
	}
	return b.String()
}

// stepMetrics counts decoder steps for the throughput report.
var stepMetrics struct {
	Steps int
}

// DecodeStep feeds one token to the model and returns the new state and the
// next-token logits, printing the predictive entropy as it runs.
func DecodeStep(lm seqkit.LM, h, tok jit.Array) (jit.Array, jit.Array) {
	h, logits := lm.Next(h, tok)
	p := seqkit.Softmax(logits)
	entropy := p.Mul(p.Add(1e-9).Log()).Sum().Neg()
	jit.DebugPrint("    entropy %v", entropy)
	stepMetrics.Steps++ // want traceeffect
	return h, logits
}

// SampleToken draws from the top-k logits at temperature temp.
func SampleToken(logits, u jit.Array, temp float64, k int) jit.Array {
	return seqkit.Categorical(seqkit.Softmax(seqkit.TopK(logits, k).Div(temp)), u)
}

// SampleTokenAt is SampleToken with the temperature as an array.
func SampleTokenAt(logits, u, temp jit.Array, k int) jit.Array {
	return seqkit.Categorical(seqkit.Softmax(seqkit.TopK(logits, k).Div(temp)), u)
}

// Greedy picks the most likely token.
func Greedy(logits jit.Array) jit.Array { return seqkit.Argmax(logits) }

// picker chooses the token after step i from the logits.
type picker func(logits jit.Array, i int) int32

var (
	greedyJ    = jit.Jit(Greedy)
	sampleJ    = jit.Jit(SampleToken, jit.StaticArgnums(2, 3))
	sampleAtJ  = jit.Jit(SampleTokenAt, jit.StaticArgnums(3))
	encodeJ    = jit.Jit(seqkit.LM.Encode)
	logitsJ    = jit.Jit(seqkit.LM.Logits)
	decodeStep = jit.Jit(DecodeStep)
)

func greedyPicker() picker {
	return func(logits jit.Array, _ int) int32 {
		return int32(greedyJ.Call(logits).Int())
	}
}

// annealedPicker samples the top k with temperature t0 * decay**i.
func annealedPicker(seed int64, k int, t0, decay float64) picker {
	rng := rand.New(rand.NewSource(seed))
	return func(logits jit.Array, i int) int32 {
		temp := t0 * math.Pow(decay, float64(i))
		u := jit.Scalar(float32(rng.Float64()))
		return int32(sampleJ.Call(logits, u, temp, k).Int()) // want staticargs
	}
}

// annealedArrayPicker is annealedPicker with the temperature traced.
func annealedArrayPicker(seed int64, k int, t0, decay float64) picker {
	rng := rand.New(rand.NewSource(seed))
	return func(logits jit.Array, i int) int32 {
		temp := jit.Scalar(float32(t0 * math.Pow(decay, float64(i))))
		u := jit.Scalar(float32(rng.Float64()))
		return int32(sampleAtJ.Call(logits, u, temp, k).Int())
	}
}

// generateNaive re-encodes the whole prefix to get each new character.
func generateNaive(lm seqkit.LM, prompt string, n int) string {
	prefix := encodeText(prompt)
	h0 := jit.Zeros(jit.Float32, hidden)
	for i := 0; i < n; i++ {
		h := encodeJ.Call(lm, h0, jit.FromSlice(prefix)) // want shapechurn
		next := int32(seqkit.Argmax(logitsJ.Call(lm, h)).Int())
		prefix = append(prefix, next)
	}
	return decodeText(prefix[1:])
}

// generate encodes the prompt once, then carries the state.
func generate(lm seqkit.LM, prompt string, n int, pick picker) string {
	toks := encodeText(prompt)
	h0 := jit.Zeros(jit.Float32, hidden)
	last := len(toks) - 1
	h := encodeJ.Call(lm, h0, jit.FromSlice(toks[:last]))
	tok := toks[last]
	out := append([]int32{}, toks[1:]...)
	for i := 0; i < n; i++ {
		var logits jit.Array
		h, logits = decodeStep.Call(lm, h, jit.Scalar(tok))
		tok = pick(logits, i)
		out = append(out, tok)
	}
	return decodeText(out)
}

// decodeState is the carry of the compiled greedy decoder.
type decodeState struct {
	H, Tok, Pos, Out jit.Array
}

// GreedyDecode runs greedy decoding to the end token or maxNew tokens in
// one WhileLoop, writing each token into a fixed-size buffer.
func GreedyDecode(lm seqkit.LM, h, tok jit.Array) jit.Array {
	init := decodeState{H: h, Tok: tok, Pos: jit.Scalar(int32(0)), Out: jit.Full(eos, jit.Int32, maxNew)}
	final := jit.WhileLoop(func(s decodeState) jit.Array {
		return s.Pos.Lt(maxNew).And(s.Tok.Ne(eos))
	}, func(s decodeState) decodeState {
		h, logits := lm.Next(s.H, s.Tok)
		next := seqkit.Argmax(logits)
		slot := jit.Arange(maxNew, jit.Int32).Eq(s.Pos)
		return decodeState{H: h, Tok: next, Pos: s.Pos.Add(1), Out: jit.Where(slot, next, s.Out)}
	}, init)
	return final.Out
}

func main() {
	lm := seqkit.NewLM(5, len(alphabet), 8, hidden)
	prompt := "the "

	fmt.Println("naive (re-encode the prefix every step):")
	fmt.Printf("  %q\n", generateNaive(lm, prompt, 8))
	fmt.Printf("  encoder compiled %d time(s)\n", encodeJ.Stats().Compiles)

	strategies := []struct {
		name string
		pick picker
	}{
		{"greedy", greedyPicker()},
		{"top5 annealed", annealedPicker(17, 5, 1.5, 0.85)},
		{"top5 annealed (array temp)", annealedArrayPicker(17, 5, 1.5, 0.85)},
	}
	for _, s := range strategies {
		fmt.Printf("%s:\n", s.name)
		text := generate(lm, prompt, 6, s.pick)
		fmt.Printf("  %q\n", text)
	}
	fmt.Printf("decode step: compiled %d time(s), %d call(s); steps counted: %d\n",
		decodeStep.Stats().Compiles, decodeStep.Stats().Compiles+decodeStep.Stats().Hits, stepMetrics.Steps)
	fmt.Printf("sampler with static temperature: %d compile(s); with array temperature: %d\n",
		sampleJ.Stats().Compiles, sampleAtJ.Stats().Compiles)

	// The compiled decoder, from the same encoded prompt.
	toks := encodeText(prompt)
	last := len(toks) - 1
	h := encodeJ.Call(lm, jit.Zeros(jit.Float32, hidden), jit.FromSlice(toks[:last]))
	compiled := jit.Jit(GreedyDecode)
	out := compiled.Call(lm, h, jit.Scalar(toks[last])).Int32s()
	fmt.Printf("compiled greedy: %q\n", prompt+decodeText(out))
}
