// Command genserver is the Go port of a small streaming generation server:
// requests are grouped by prompt length into padded buckets, batched, and fed
// through channels to one worker goroutine per model; each worker streams the
// generated tokens back on the request's own channel. A second job scores
// prompts (log-likelihood) the way the old offline script did.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	Vocab     = 48
	BatchSize = 4
	MaxNew    = 6
)

var buckets = []int{8, 16, 32}

// serverMetrics is exported on /metrics in the real server.
var serverMetrics struct {
	tokensOut   atomic.Int64
	decodeSteps atomic.Int64
	batches     atomic.Int64
}

// Params of an Elman RNN language model.
type Params struct {
	Embed, Wh, Out jit.Array // [V,H], [H,H], [H,V]
}

func newParams(rng *rand.Rand, hidden int) Params {
	mat := func(r, c int, s float64) jit.Array {
		w := make([]float32, r*c)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * s)
		}
		return jit.FromSlice(w, r, c)
	}
	return Params{Embed: mat(Vocab, hidden, 1), Wh: mat(hidden, hidden, 0.9/math.Sqrt(float64(hidden))), Out: mat(hidden, Vocab, 1)}
}

func onehot(tok jit.Array) jit.Array {
	// [..., 1] == [V] broadcasts to [..., V].
	return tok.Reshape(append(tok.Shape(), 1)...).Eq(jit.Arange(Vocab, jit.Int32)).Astype(jit.Float32)
}

func rowArgmax(logits jit.Array) jit.Array {
	b := logits.Shape()[0]
	m := logits.MaxReduce(1).Reshape(b, 1)
	return jit.Where(logits.Eq(m), jit.Arange(Vocab, jit.Int32).Reshape(1, Vocab), Vocab).MinReduce(1)
}

type rnnCarry struct {
	H jit.Array
	T jit.Array
}

// Prefill runs the padded prompts tokens [B, L] (real lengths [B]) and
// returns the last hidden state and the first generated token of each row.
func Prefill(p Params, tokens, lengths jit.Array) (jit.Array, jit.Array) {
	b, hidden := tokens.Shape()[0], p.Wh.Shape()[0]
	init := rnnCarry{H: jit.Zeros(jit.Float32, b, hidden), T: jit.Scalar(int32(0))}
	c, _ := jit.Scan(func(c rnnCarry, x jit.Array) (rnnCarry, struct{}) {
		h := onehot(x).MatMul(p.Embed).Add(c.H.MatMul(p.Wh)).Tanh()
		live := c.T.Lt(lengths).Reshape(b, 1)
		return rnnCarry{H: jit.Where(live, h, c.H), T: c.T.Add(1)}, struct{}{}
	}, init, tokens.Transpose())
	return c.H, rowArgmax(c.H.MatMul(p.Out))
}

// Step feeds the last tokens [B] and returns the new state and next tokens.
func Step(p Params, h, tok jit.Array) (jit.Array, jit.Array) {
	h = onehot(tok).MatMul(p.Embed).Add(h.MatMul(p.Wh)).Tanh()
	serverMetrics.decodeSteps.Add(1) // want traceeffect
	return h, rowArgmax(h.MatMul(p.Out))
}

type scoreCarry struct {
	H, LogLik jit.Array
}

type scoreIn struct {
	Tok, Mask jit.Array
}

// LogLikelihood is sum_t log p(x_t | x_<t) over tokens [L], masked by mask.
func LogLikelihood(p Params, tokens, mask jit.Array) jit.Array {
	hidden := p.Wh.Shape()[0]
	init := scoreCarry{H: jit.Zeros(jit.Float32, hidden), LogLik: jit.Scalar(float32(0))}
	c, _ := jit.Scan(func(c scoreCarry, in scoreIn) (scoreCarry, struct{}) {
		logits := c.H.MatMul(p.Out)
		lse := logits.Sub(logits.MaxReduce()).Exp().Sum().Log().Add(logits.MaxReduce())
		lp := logits.Mul(onehot(in.Tok)).Sum().Sub(lse)
		h := onehot(in.Tok).MatMul(p.Embed).Add(c.H.MatMul(p.Wh)).Tanh()
		return scoreCarry{H: jit.Where(in.Mask.Gt(0), h, c.H), LogLik: c.LogLik.Add(lp.Mul(in.Mask))}, struct{}{}
	}, init, scoreIn{Tok: tokens, Mask: mask})
	return c.LogLik
}

type request struct {
	id     int
	model  string
	prompt []int32
	stream chan int32
}

type batch struct {
	bucket int
	reqs   []*request
}

type worker struct {
	name    string
	params  Params
	in      chan batch
	prefill *jit.Func[func(Params, jit.Array, jit.Array) (jit.Array, jit.Array)]
	step    *jit.Func[func(Params, jit.Array, jit.Array) (jit.Array, jit.Array)]
}

func newWorker(name string, p Params) *worker {
	return &worker{name: name, params: p, in: make(chan batch, 16),
		prefill: jit.Jit(Prefill), step: jit.Jit(Step)}
}

func (w *worker) run(wg *sync.WaitGroup) {
	defer wg.Done()
	for b := range w.in {
		toks := make([]int32, BatchSize*b.bucket)
		lens := make([]int32, BatchSize)
		for i, r := range b.reqs {
			copy(toks[i*b.bucket:], r.prompt)
			lens[i] = int32(len(r.prompt))
		}
		for i := len(b.reqs); i < BatchSize; i++ {
			lens[i] = 1 // padding rows
		}
		h, next := w.prefill.Call(w.params, jit.FromSlice(toks, BatchSize, b.bucket), jit.FromSlice(lens))
		for s := 0; s < MaxNew; s++ {
			ids := next.Int32s()
			for i, r := range b.reqs {
				r.stream <- ids[i]
			}
			serverMetrics.tokensOut.Add(int64(len(b.reqs)))
			if s+1 < MaxNew {
				h, next = w.step.Call(w.params, h, next)
			}
		}
		for _, r := range b.reqs {
			close(r.stream)
		}
		serverMetrics.batches.Add(1)
	}
}

func bucketFor(n int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	return buckets[len(buckets)-1]
}

func main() {
	rng := rand.New(rand.NewSource(11))
	workers := map[string]*worker{
		"rnn-small": newWorker("rnn-small", newParams(rng, 24)),
		"rnn-large": newWorker("rnn-large", newParams(rng, 64)),
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go w.run(&wg)
	}

	var reqs []*request
	for i := 0; i < 64; i++ {
		prompt := make([]int32, 3+rng.Intn(28))
		for j := range prompt {
			prompt[j] = int32(rng.Intn(Vocab))
		}
		model := "rnn-small"
		if i%2 == 1 {
			model = "rnn-large"
		}
		reqs = append(reqs, &request{id: i, model: model, prompt: prompt, stream: make(chan int32, MaxNew)})
	}

	// Group by (model, bucket) and dispatch full batches, then the rest.
	pending := map[string][]*request{}
	key := func(r *request) string { return fmt.Sprintf("%s/%d", r.model, bucketFor(len(r.prompt))) }
	flush := func(k string) {
		rs := pending[k]
		workers[rs[0].model].in <- batch{bucket: bucketFor(len(rs[0].prompt)), reqs: rs}
		delete(pending, k)
	}
	for _, r := range reqs {
		k := key(r)
		pending[k] = append(pending[k], r)
		if len(pending[k]) == BatchSize {
			flush(k)
		}
	}
	rest := make([]string, 0, len(pending))
	for k := range pending {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	for _, k := range rest {
		flush(k)
	}
	for _, w := range workers {
		close(w.in)
	}

	streamed := 0
	outputs := make([][]int32, len(reqs))
	for _, r := range reqs {
		for t := range r.stream {
			outputs[r.id] = append(outputs[r.id], t)
		}
		streamed += len(outputs[r.id])
	}
	wg.Wait()
	for _, r := range reqs[:3] {
		fmt.Printf("request %d (%s, %d tokens): %v\n", r.id, r.model, len(r.prompt), outputs[r.id])
	}
	fmt.Printf("streamed %d tokens in %d batches (metrics: tokens=%d decode_steps=%d)\n",
		streamed, serverMetrics.batches.Load(), serverMetrics.tokensOut.Load(), serverMetrics.decodeSteps.Load())
	for _, name := range []string{"rnn-small", "rnn-large"} {
		w := workers[name]
		fmt.Printf("%s: prefill compiles=%d step compiles=%d\n", name, w.prefill.Stats().Compiles, w.step.Stats().Compiles)
	}

	// Offline scoring job: the old script scored each prompt at its own length.
	small := workers["rnn-small"].params
	score := jit.Jit(LogLikelihood)
	var exact, padded []float64
	for _, r := range reqs[:12] {
		ones := make([]float32, len(r.prompt))
		for i := range ones {
			ones[i] = 1
		}
		ll := score.Call(small, jit.FromSlice(r.prompt), jit.FromSlice(ones)) // want shapechurn
		exact = append(exact, ll.Item())
	}
	exactCompiles := score.Stats().Compiles
	for _, r := range reqs[:12] {
		tok, mask, err := jit.PadTo(jit.FromSlice(r.prompt), bucketFor(len(r.prompt)))
		if err != nil {
			panic(err)
		}
		ll := score.Call(small, tok, mask.Astype(jit.Float32))
		padded = append(padded, ll.Item())
	}
	worst := 0.0
	for i := range exact {
		worst = math.Max(worst, math.Abs(exact[i]-padded[i]))
	}
	fmt.Printf("scored 12 prompts twice: exact-length compiles=%d, bucketed compiles=%d, max diff %.2g\n",
		exactCompiles, score.Stats().Compiles-exactCompiles, worst)
}
