// Command samplerlab runs the sampler configurations of our serving stack on
// a toy state-space language model: prompts share system prefixes whose
// states are cached by prefix, decoding uses a temperature schedule with
// nucleus (top-p) filtering per request mode, and a repetition-penalised
// Gumbel-max sampler is compared with the CDF sampler.
package main

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/jitlint/jitlint/jit"

	"corpus/lmkit"
)

const (
	StateDim  = 32
	PromptLen = 32
	Window    = 8
	Steps     = 10
)

const vocabText = `<unk> you are a helpful assistant . answer briefly and politely .
you are a terse code reviewer . point out bugs only .
please summarise the report . what is the capital of france ? explain beam search .
review this function . is the loop correct ? why is it slow ? thanks the model said yes no`

// Model is an exponential-moving-average state model with an MLP readout.
type Model struct {
	Embed   jit.Array // [V, StateDim]
	Readout lmkit.MLP
	Decay   float64 `jit:"static"`
}

type vocab struct {
	ids   map[string]int32
	words []string
}

func newVocab(text string) *vocab {
	v := &vocab{ids: map[string]int32{}}
	for _, w := range strings.Fields(text) {
		if _, ok := v.ids[w]; !ok {
			v.ids[w] = int32(len(v.words))
			v.words = append(v.words, w)
		}
	}
	return v
}

func (v *vocab) encode(s string) []int32 {
	var out []int32
	for _, w := range strings.Fields(s) {
		out = append(out, v.ids[w]) // unknown words are 0, <unk>
	}
	return out
}

func (m Model) vocabSize() int { return m.Embed.Shape()[0] }

func (m Model) update(h, tok jit.Array) jit.Array {
	x := lmkit.OneHot(tok, m.vocabSize()).MatMul(m.Embed).Tanh()
	return h.Mul(m.Decay).Add(x.Mul(1 - m.Decay))
}

// Prefill advances state h over the padded tokens (mask 1 for real ones).
func Prefill(m Model, h, tokens, mask jit.Array) jit.Array {
	type in struct{ Tok, Mask jit.Array }
	out, _ := jit.Scan(func(h jit.Array, x in) (jit.Array, struct{}) {
		return jit.Where(x.Mask.Gt(0), m.update(h, x.Tok), h), struct{}{}
	}, h, in{Tok: tokens, Mask: mask})
	jit.DebugPrint("prefill: |h| = %v", out.Mul(out).Sum().Sqrt())
	return out
}

// Step samples the next token at temperature temp with the nucleus of the
// request's mode, a light penalty on the last Window tokens, and advances h.
func Step(m Model, h, recent, temp, u jit.Array, mode string) (jit.Array, jit.Array) {
	topP := 0.95
	if mode == "precise" {
		topP = 0.6
	}
	logits := lmkit.RepetitionPenalty(m.Readout.Apply(h), recent, 1.1)
	tok := lmkit.SampleCDF(lmkit.TopP(lmkit.Softmax(logits.Div(temp)), topP), u)
	return tok, m.update(h, tok)
}

// AnnealStep is the schedule sweep's step: plain softmax sampling at a
// given temperature.
func AnnealStep(m Model, h, u jit.Array, temp float64) (jit.Array, jit.Array) {
	logits := m.Readout.Apply(h).Div(temp)
	tok := lmkit.SampleCDF(lmkit.Softmax(logits), u)
	return tok, m.update(h, tok)
}

var sampleRNG = rand.New(rand.NewSource(99))

// PenalizedStep samples with the repetition penalty over the whole
// transcript window history.
func PenalizedStep(m Model, h, history jit.Array, temp float64) (jit.Array, jit.Array) {
	logits := lmkit.RepetitionPenalty(m.Readout.Apply(h), history, 1.3) // want unrolledloop
	u := sampleRNG.Float32()                                            // want traceeffect
	tok := lmkit.SampleCDF(lmkit.Softmax(logits.Div(temp)), jit.Scalar(u))
	return tok, m.update(h, tok)
}

// GumbelStep is Gumbel-max sampling, argmax(logits + g), with the noise g
// drawn by the caller and a light penalty on the recent window.
func GumbelStep(m Model, h, recent, g jit.Array) (jit.Array, jit.Array) {
	logits := lmkit.RepetitionPenalty(m.Readout.Apply(h), recent, 1.1)
	tok := lmkit.Argmax(logits.Add(g))
	return tok, m.update(h, tok)
}

// schedule is the temperature schedule: a warm start cooled linearly.
func schedule(step int) float64 { return 1.2 - 0.06*float64(step) }

func pad(ids []int32) (jit.Array, jit.Array) {
	toks, mask, err := jit.PadTo(jit.FromSlice(ids), PromptLen)
	if err != nil {
		panic(err)
	}
	return toks, mask.Astype(jit.Float32)
}

type request struct {
	system, user, mode string
}

func main() {
	voc := newVocab(vocabText)
	v := len(voc.words)
	rng := rand.New(rand.NewSource(17))
	emb := make([]float32, v*StateDim)
	for i := range emb {
		emb[i] = float32(rng.NormFloat64())
	}
	model := Model{
		Embed:   jit.FromSlice(emb, v, StateDim),
		Readout: lmkit.NewMLP(rng, StateDim, 64, 64, v),
		Decay:   0.7,
	}

	helpful := "you are a helpful assistant . answer briefly and politely ."
	reviewer := "you are a terse code reviewer . point out bugs only ."
	reqs := []request{
		{helpful, "what is the capital of france ?", "precise"},
		{helpful, "please summarise the report .", "creative"},
		{reviewer, "review this function .", "precise"},
		{helpful, "explain beam search .", "creative"},
		{reviewer, "is the loop correct ?", "precise"},
		{reviewer, "why is it slow ?", "creative"},
	}

	prefill := jit.Jit(Prefill)
	step := jit.Jit(Step, jit.StaticArgnums(5))
	prefixCache := map[string]jit.Array{}
	hits, misses := 0, 0
	var transcript []int32
	for i, r := range reqs {
		state, ok := prefixCache[r.system]
		if ok {
			hits++
		} else {
			misses++
			toks, mask := pad(voc.encode(r.system))
			state = prefill.Call(model, jit.Zeros(jit.Float32, StateDim), toks, mask)
			prefixCache[r.system] = state
		}
		toks, mask := pad(voc.encode(r.user))
		h := prefill.Call(model, state, toks, mask)

		recent := make([]int32, Window)
		for j := range recent {
			recent[j] = -1
		}
		var out []string
		for t := 0; t < Steps; t++ {
			temp := jit.Scalar(float32(schedule(t)))
			var tok jit.Array
			tok, h = step.Call(model, h, jit.FromSlice(recent), temp, jit.Scalar(rng.Float32()), r.mode)
			id := int32(tok.Int())
			recent = append(recent[1:], id)
			transcript = append(transcript, id)
			out = append(out, voc.words[id])
		}
		fmt.Printf("req %d [%s] %q -> %s\n", i, r.mode, r.user, strings.Join(out, " "))
	}
	fmt.Printf("prefix cache: %d hits, %d misses; prefill compiles=%d step compiles=%d\n",
		hits, misses, prefill.Stats().Compiles, step.Stats().Compiles)

	// Schedule sweep on the helpful prefix, plain softmax sampling.
	anneal := jit.Jit(AnnealStep, jit.StaticArgnums(3))
	h := prefixCache[helpful]
	var sweep []string
	for t := 0; t < 12; t++ {
		var tok jit.Array
		tok, h = anneal.Call(model, h, jit.Scalar(rng.Float32()), schedule(t)) // want staticargs
		sweep = append(sweep, voc.words[tok.Int()])
	}
	fmt.Printf("sweep: %s (compiles=%d)\n", strings.Join(sweep, " "), anneal.Stats().Compiles)

	// Penalty over the last 40 transcript tokens.
	history := make([]int32, 40)
	copy(history, transcript[len(transcript)-40:])
	penal := jit.Jit(PenalizedStep, jit.StaticArgnums(3))
	h = prefixCache[reviewer]
	var pen []string
	for t := 0; t < 8; t++ {
		var tok jit.Array
		tok, h = penal.Call(model, h, jit.FromSlice(history), 0.8)
		id := int32(tok.Int())
		history = append(history[1:], id)
		pen = append(pen, voc.words[id])
	}
	fmt.Printf("penalized: %s (compiles=%d)\n", strings.Join(pen, " "), penal.Stats().Compiles)

	// Gumbel-max with host-drawn noise, same window as Step.
	gumbel := jit.Jit(GumbelStep)
	h = prefixCache[helpful]
	recent := jit.Full(-1, jit.Int32, Window)
	var gum []string
	for t := 0; t < 8; t++ {
		var tok jit.Array
		tok, h = gumbel.Call(model, h, recent, lmkit.GumbelNoise(rng, v))
		gum = append(gum, voc.words[tok.Int()])
	}
	fmt.Printf("gumbel: %s (compiles=%d)\n", strings.Join(gum, " "), gumbel.Stats().Compiles)
}
