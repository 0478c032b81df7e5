// Command modelhub serves next-token predictions for several small
// language models from one process. Compiled forward functions are cached
// per model config in a registry guarded by a mutex; the default model is
// loaded once with sync.Once. Concurrent clients send prompts with their
// own sampling temperature.
//
// Ported from a JAX service that kept a dict of jitted apply functions
// keyed by the model's config dataclass.
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
	vocab  = 48
	ctxLen = 16 // prompts are left-truncated / right-padded to this
)

// Config describes one model architecture.
type Config struct {
	Name   string
	Hidden int
	Layers int
}

// Params are a model's weights.
type Params struct {
	Emb    jit.Array   // [vocab, hidden]
	Blocks []jit.Array // Layers x [hidden, hidden]
	Out    jit.Array   // [hidden, vocab]
}

func initParams(cfg Config, seed int64) Params {
	r := rand.New(rand.NewSource(seed))
	mk := func(scale float64, shape ...int) jit.Array {
		v := make([]float32, shape[0]*shape[1])
		for i := range v {
			v[i] = float32(r.NormFloat64() * scale)
		}
		return jit.FromSlice(v, shape...)
	}
	p := Params{Emb: mk(0.5, vocab, cfg.Hidden), Out: mk(1/math.Sqrt(float64(cfg.Hidden)), cfg.Hidden, vocab)}
	for l := 0; l < cfg.Layers; l++ {
		p.Blocks = append(p.Blocks, mk(1/math.Sqrt(float64(cfg.Hidden)), cfg.Hidden, cfg.Hidden))
	}
	return p
}

// entry is one loaded model: its params and compiled forward pass.
type entry struct {
	cfg     Config
	params  Params
	forward *jit.Func[func(Params, jit.Array, jit.Array) jit.Array]
}

// Registry caches one compiled forward per config.
type Registry struct {
	mu      sync.Mutex
	models  map[Config]*entry
	traced  map[string][]int // last traced input shape per model, for /debug
	builds  atomic.Int64
	lookups atomic.Int64
}

func NewRegistry() *Registry {
	return &Registry{models: map[Config]*entry{}, traced: map[string][]int{}}
}

// forwardFor builds the forward pass of one architecture: a residual MLP
// over a position-weighted bag of embeddings.
func (r *Registry) forwardFor(cfg Config) func(Params, jit.Array, jit.Array) jit.Array {
	return func(p Params, ids, mask jit.Array) jit.Array {
		r.traced[cfg.Name] = ids.Shape() // want traceeffect
		onehot := ids.Reshape(ctxLen, 1).Eq(jit.Arange(vocab, jit.Int32)).Astype(jit.Float32)
		pos := jit.Arange(ctxLen, jit.Float32).Add(1).Div(ctxLen).Mul(mask) // later tokens weigh more
		h := pos.Reshape(1, ctxLen).MatMul(onehot.MatMul(p.Emb)).Reshape(cfg.Hidden)
		h = h.Div(pos.Sum().Max(1e-3))
		for l := 0; l < cfg.Layers; l++ {
			h = h.Add(h.MatMul(p.Blocks[l]).Tanh())
		}
		return h.MatMul(p.Out) // [vocab] logits
	}
}

// Get returns the loaded model for cfg, building and warming it up on
// first use. Building happens under the lock so two clients asking for the
// same new model compile it once.
func (r *Registry) Get(cfg Config) *entry {
	r.lookups.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.models[cfg]; ok {
		return e
	}
	e := &entry{cfg: cfg, params: initParams(cfg, int64(cfg.Hidden*10+cfg.Layers)), forward: jit.Jit(r.forwardFor(cfg))}
	e.forward.Call(e.params, jit.Zeros(jit.Int32, ctxLen), jit.Zeros(jit.Float32, ctxLen))
	r.models[cfg] = e
	r.builds.Add(1)
	return e
}

var (
	defaultOnce  sync.Once
	defaultModel *entry
)

func defaultEntry(r *Registry) *entry {
	defaultOnce.Do(func() { defaultModel = r.Get(Config{Name: "small", Hidden: 16, Layers: 2}) })
	return defaultModel
}

// Sample draws the next token with the Gumbel-max trick at a temperature.
func Sample(logits, gumbel jit.Array, temperature float64) (jit.Array, jit.Array) {
	scaled := logits.Div(temperature)
	z := scaled.Sub(scaled.MaxReduce())
	probs := z.Exp().Div(z.Exp().Sum())
	return scaled.Add(gumbel), probs
}

// SampleAt is Sample with the temperature as a traced scalar.
func SampleAt(logits, gumbel, temperature jit.Array) (jit.Array, jit.Array) {
	scaled := logits.Div(temperature)
	z := scaled.Sub(scaled.MaxReduce())
	probs := z.Exp().Div(z.Exp().Sum())
	return scaled.Add(gumbel), probs
}

// NLL is the next-token negative log-likelihood; in training mode it adds
// an L2 penalty on the output layer.
func NLL(logits, target jit.Array, outW jit.Array, training bool) jit.Array {
	z := logits.Sub(logits.MaxReduce())
	logp := z.Sub(z.Exp().Sum().Log())
	nll := logp.Mul(jit.Arange(vocab, jit.Int32).Eq(target).Astype(jit.Float32)).Sum().Neg()
	if training {
		nll = nll.Add(outW.Mul(outW).Mean().Mul(1e-2))
	}
	return nll
}

func encode(prompt string) (jit.Array, jit.Array) {
	ids := make([]int32, ctxLen)
	mask := make([]float32, ctxLen)
	b := []byte(prompt)
	if len(b) > ctxLen {
		b = b[len(b)-ctxLen:]
	}
	for i, c := range b {
		ids[i], mask[i] = int32(c)%vocab, 1
	}
	return jit.FromSlice(ids), jit.FromSlice(mask)
}

func gumbelNoise(r *rand.Rand) jit.Array {
	g := make([]float32, vocab)
	for i := range g {
		g[i] = float32(-math.Log(-math.Log(r.Float64()*0.999998 + 1e-6)))
	}
	return jit.FromSlice(g)
}

func argmax(v []float32) int {
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return best
}

type request struct {
	Client      int
	Model       Config
	Prompt      string
	Temperature float64
}

func main() {
	reg := NewRegistry()
	sample := jit.Jit(Sample, jit.StaticArgnums(2))
	base := Config{Name: "base", Hidden: 32, Layers: 3}

	reqs := []request{
		{0, Config{}, "the quick brown fox", 0.7},
		{1, base, "jumps over the lazy", 0.85},
		{2, Config{}, "hello wor", 1.0},
		{3, base, "once upon a time", 0.6},
		{4, Config{}, "to be or not to", 1.3},
		{5, base, "lorem ipsum dolor", 0.95},
		{6, Config{}, "go is a language", 0.75},
		{7, base, "jit compiles once", 1.1},
	}
	tokens := make([]int, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e *entry
			if req.Model == (Config{}) {
				e = defaultEntry(reg)
			} else {
				e = reg.Get(req.Model)
			}
			ids, mask := encode(req.Prompt)
			logits := e.forward.Call(e.params, ids, mask)
			noise := gumbelNoise(rand.New(rand.NewSource(int64(req.Client))))
			scores, _ := sample.Call(logits, noise, req.Temperature) // want staticargs
			tokens[i] = argmax(scores.Float32s())
		}()
	}
	wg.Wait()
	for i, req := range reqs {
		name := req.Model.Name
		if name == "" {
			name = "small*"
		}
		fmt.Printf("client %d  %-6s T=%.2f  %-22q -> token %2d\n", req.Client, name, req.Temperature, req.Prompt, tokens[i])
	}

	// Temperature sweep for the calibration report, temperature traced.
	sampleAt := jit.Jit(SampleAt)
	e := reg.Get(base)
	ids, mask := encode("temperature sweep")
	logits := e.forward.Call(e.params, ids, mask)
	for _, t := range []float64{0.5, 0.8, 1.0, 1.5, 2.0} {
		_, probs := sampleAt.Call(logits, jit.Zeros(jit.Float32, vocab), jit.Scalar(float32(t)))
		p := probs.Float32s()
		sort.Slice(p, func(a, b int) bool { return p[a] > p[b] })
		fmt.Printf("T=%.1f  top-1 prob %.4f\n", t, p[0])
	}

	// Held-out NLL, alternating a training-mode and an eval-mode pass.
	nll := jit.Jit(NLL, jit.StaticArgnums(3))
	for step, text := range []string{"abcabcabca", "hello hello", "mississippi", "banana band"} {
		ids, mask := encode(text[:len(text)-1])
		target := jit.Scalar(int32(text[len(text)-1]) % vocab)
		logits := e.forward.Call(e.params, ids, mask)
		loss := nll.Call(logits, target, e.params.Out, step%2 == 0)
		fmt.Printf("nll[%q, training=%v] = %.4f\n", text, step%2 == 0, loss.Item())
	}

	fmt.Printf("models built=%d lookups=%d\n", reg.builds.Load(), reg.lookups.Load())
	for _, name := range []string{"small", "base"} {
		fmt.Printf("  %s traced with ids %v\n", name, reg.traced[name])
	}
	fmt.Printf("sample compiles=%d, sampleAt compiles=%d, nll compiles=%d\n",
		sample.Stats().Compiles, sampleAt.Stats().Compiles, nll.Stats().Compiles)
}
