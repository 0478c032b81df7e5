// Command methodexpr builds small models as Go structs and jits their
// methods: through method expressions such as jit.Jit((*MLP).Forward),
// whose compile cache is shared by every model, and through method values
// such as jit.Jit(s.Score), bound to one receiver. An ensemble is built in
// a loop, scored, and its best member is then used for many predictions.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	inDim     = 6
	hidden    = 16
	outDim    = 3
	batch     = 8
	ensemble  = 5
	deepDepth = 40
)

// Dense is an affine layer.
type Dense struct {
	W jit.Array // [in, out]
	B jit.Array // [out]
}

// Apply returns x W + b.
func (d Dense) Apply(x jit.Array) jit.Array { return x.MatMul(d.W).Add(d.B) }

// MLP is a one-hidden-layer perceptron; Act picks the nonlinearity.
type MLP struct {
	Hidden, Out Dense
	Act         string `jit:"static"`
}

// Forward returns the logits for x [batch, inDim].
func (m *MLP) Forward(x jit.Array) jit.Array {
	h := m.Hidden.Apply(x)
	if m.Act == "relu" {
		h = jit.Relu(h)
	} else {
		h = h.Tanh()
	}
	return m.Out.Apply(h)
}

// ResStack is a stack of residual tanh blocks of constant width.
type ResStack struct {
	Blocks []Dense
}

// Forward applies every block with a skip connection.
func (s ResStack) Forward(x jit.Array) jit.Array {
	for _, b := range s.Blocks { // want unrolledloop
		x = x.Add(b.Apply(x).Tanh().Mul(0.1))
	}
	return x
}

// Sampler turns logits into a tempered softmax distribution.
type Sampler struct {
	Head        Dense
	Temperature float64 `jit:"static"`
}

// Probs returns softmax(head(x) / T) row by row.
func (s Sampler) Probs(x jit.Array) jit.Array {
	z := s.Head.Apply(x).Div(s.Temperature)
	z = z.Sub(z.MaxReduce(1).Reshape(batch, 1))
	e := z.Exp()
	return e.Div(e.Sum(1).Reshape(batch, 1))
}

// Scorer wraps a model for validation scoring and keeps its own bookkeeping.
type Scorer struct {
	model  *MLP
	name   string
	traces int
}

// Score returns the mean probability that the model assigns to the labels
// (one-hot, [batch, outDim]).
func (s *Scorer) Score(x, labels jit.Array) jit.Array {
	s.traces++ // want traceeffect
	logits := s.model.Forward(x)
	z := logits.Sub(logits.MaxReduce(1).Reshape(batch, 1)).Exp()
	p := z.Div(z.Sum(1).Reshape(batch, 1))
	return p.Mul(labels).Sum(1).Mean()
}

func randn(rng *rand.Rand, scale float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(scale * rng.NormFloat64())
	}
	return jit.FromSlice(v, shape...)
}

func dense(rng *rand.Rand, in, out int) Dense {
	return Dense{W: randn(rng, 1/math.Sqrt(float64(in)), in, out), B: jit.Zeros(jit.Float32, out)}
}

func newMLP(rng *rand.Rand, act string) *MLP {
	return &MLP{Hidden: dense(rng, inDim, hidden), Out: dense(rng, hidden, outDim), Act: act}
}

func oneHot(rng *rand.Rand) jit.Array {
	v := make([]float32, batch*outDim)
	for i := 0; i < batch; i++ {
		v[i*outDim+rng.Intn(outDim)] = 1
	}
	return jit.FromSlice(v, batch, outDim)
}

func main() {
	rng := rand.New(rand.NewSource(5))
	x := randn(rng, 1, batch, inDim)
	labels := oneHot(rng)

	// Build the ensemble; every member runs through the shared method expression.
	models := make([]*MLP, 0, ensemble)
	for i := 0; i < ensemble; i++ {
		m := newMLP(rng, "tanh")
		models = append(models, m)
		fwd := jit.Jit((*MLP).Forward)
		logits := fwd.Call(m, x)
		fmt.Printf("member %d: logits[0] = %.3f\n", i, logits.Slice([]int{0, 0}, []int{1, outDim}).Float32s())
	}

	// Validation scores, one scorer per member.
	bestIdx, bestScore := 0, -1.0
	scorers := make([]*Scorer, len(models))
	for i, m := range models {
		scorers[i] = &Scorer{model: m, name: fmt.Sprintf("member-%d", i)}
		sc := scorers[i]
		score := jit.Jit(func(x, labels jit.Array) jit.Array { return sc.Score(x, labels) }) // want staticargs
		s := score.Call(x, labels).Item()
		if s > bestScore {
			bestIdx, bestScore = i, s
		}
	}
	best := scorers[bestIdx]
	fmt.Printf("best: %s with score %.3f\n", best.name, bestScore)

	// Serve the best member: one wrapper, many batches.
	predict := jit.Jit(best.Score)
	total := 0.0
	for i := 0; i < 30; i++ {
		total += predict.Call(randn(rng, 1, batch, inDim), oneHot(rng)).Item()
	}
	fmt.Printf("served 30 batches, mean score %.3f, traces of %s: %d\n", total/30, best.name, best.traces)

	// A relu variant through the same method expression.
	relu := newMLP(rng, "relu")
	fwd := jit.Jit((*MLP).Forward)
	for i := 0; i < 10; i++ {
		_ = fwd.Call(relu, randn(rng, 1, batch, inDim))
	}
	fmt.Println("forward signatures:", len(fwd.Signatures()))

	// Deep residual feature extractor.
	deep := ResStack{}
	for i := 0; i < deepDepth; i++ {
		deep.Blocks = append(deep.Blocks, dense(rng, inDim, inDim))
	}
	feats := jit.Jit(ResStack.Forward)
	f := feats.Call(deep, x)
	fmt.Printf("deep features: %v, mean %.3f\n", f.Shape(), f.Mean().Item())

	// Tempered sampling: anneal the temperature every call.
	head := dense(rng, inDim, outDim)
	probs := jit.Jit(Sampler.Probs)
	temp := 2.0
	for i := 0; i < 8; i++ {
		p := probs.Call(Sampler{Head: head, Temperature: temp}, x) // want staticargs
		fmt.Printf("T=%.3f: p[0] = %.3f\n", temp, p.Slice([]int{0, 0}, []int{1, outDim}).Float32s())
		temp *= 0.8
	}

	// Evaluation alternates between sampling and near-greedy decoding.
	evalProbs := jit.Jit(Sampler.Probs)
	entropy := 0.0
	for i := 0; i < 40; i++ {
		t := 1.0
		if i%2 == 1 {
			t = 0.25
		}
		p := evalProbs.Call(Sampler{Head: head, Temperature: t}, randn(rng, 1, batch, inDim))
		entropy += p.Mul(p.Max(1e-6).Log()).Sum(1).Mean().Neg().Item()
	}
	fmt.Printf("mean entropy %.3f, compiles %d\n", entropy/40, evalProbs.Stats().Compiles)
}
