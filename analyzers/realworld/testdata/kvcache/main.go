// Command kvcache serves a toy attention decoder through its methods: the
// encoder's Forward only reads the receiver (its method value is jitted
// once, at construction, and stored in a field); the decoder's Step writes
// its key cache into the receiver (the write happens while tracing, and
// the cache then holds a tracer); a sampler with a value receiver keeps
// its last logits in its own copy; and a scorer re-jits its method for
// every batch.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type encoder struct {
	W   jit.Array
	fwd *jit.Func[func(jit.Array) jit.Array]
}

func newEncoder(dim int) *encoder {
	e := &encoder{W: jit.Full(0.1, jit.Float32, dim, dim)}
	e.fwd = jit.Jit(e.Forward)
	return e
}

// Forward projects the tokens.
func (e *encoder) Forward(x jit.Array) jit.Array {
	return x.MatMul(e.W).Tanh()
}

type decoder struct {
	Wk    jit.Array
	cache jit.Array
	steps int
}

// Step attends from the query to the keys and caches the keys.
func (d *decoder) Step(q, mem jit.Array) jit.Array {
	k := mem.MatMul(d.Wk)
	d.cache = k // want traceeffect
	scores := q.MatMul(k.Transpose(1, 0)).Mul(0.5)
	return scores.Sub(scores.MaxReduce()).Exp().MatMul(mem)
}

type sampler struct {
	temp float64
	last jit.Array
}

// Logits tempers the scores; it keeps them in its own copy of the sampler.
func (s sampler) Logits(h jit.Array) jit.Array {
	s.last = h.Div(s.temp)
	return s.last.Sub(s.last.MaxReduce())
}

type scorer struct {
	bias float64
}

// Score is a pure function of the batch.
func (s *scorer) Score(h jit.Array) jit.Array { return h.Sum(1).Add(s.bias) }

// scoreBatch jits Score anew for each batch it scores.
func (s *scorer) scoreBatch(h jit.Array) jit.Array {
	f := jit.Jit(s.Score) // want staticargs
	return f.Call(h)
}

func tokens(b int) jit.Array {
	data := make([]float32, 4*8)
	for i := range data {
		data[i] = float32((i+b)%9) / 9
	}
	return jit.FromSlice(data, 4, 8)
}

func main() {
	enc := newEncoder(8)
	dec := &decoder{Wk: jit.Full(0.2, jit.Float32, 8, 8)}
	step := jit.Jit(dec.Step)
	smp := sampler{temp: 0.7}
	logits := jit.Jit(smp.Logits)
	sc := &scorer{bias: 0.1}
	for b := range 6 {
		mem := enc.fwd.Call(tokens(b))
		h := step.Call(mem.Slice([]int{0, 0}, []int{1, 8}), mem)
		l := logits.Call(h)
		fmt.Println("batch", b, l.Exp().Sum().Item(), sc.scoreBatch(mem).Sum().Item())
	}
	fmt.Println("cache holds a tracer:", dec.cache.IsTracer(), "sampler temp:", smp.temp)
}
