// Package model is a tiny single-head transformer decoder with a key/value
// cache, written against the jit package in the style of a JAX port.
package model

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	DModel  = 64
	Vocab   = 32
	NLayers = 2
	MaxLen  = 64
	Chunk   = 16
)

// Layer holds one attention block's projections.
type Layer struct {
	Wq, Wk, Wv, Wo jit.Array // f32[DModel, DModel]
}

// Params are the decoder weights.
type Params struct {
	Embed   jit.Array // f32[Vocab, DModel]
	Layers  []Layer
	Unembed jit.Array // f32[DModel, Vocab]
}

// Cache holds the per-layer keys and values seen so far.
type Cache struct {
	K, V []jit.Array // f32[T, DModel] each
}

// Init builds deterministic weights.
func Init() Params {
	mat := func(r, c int, seed float64) jit.Array {
		d := make([]float32, r*c)
		for i := range d {
			d[i] = float32(math.Sin(seed+float64(i)*0.37) / math.Sqrt(float64(r)))
		}
		return jit.FromSlice(d, r, c)
	}
	p := Params{Embed: mat(Vocab, DModel, 0.1), Unembed: mat(DModel, Vocab, 0.7)}
	for l := 0; l < NLayers; l++ {
		s := float64(l+1) * 1.3
		p.Layers = append(p.Layers, Layer{mat(DModel, DModel, s), mat(DModel, DModel, s+0.2), mat(DModel, DModel, s+0.4), mat(DModel, DModel, s+0.6)})
	}
	return p
}

// EmptyCache returns a cache of zero-filled key/value buffers of length n.
func EmptyCache(n int) Cache {
	c := Cache{}
	for l := 0; l < NLayers; l++ {
		c.K = append(c.K, jit.Zeros(jit.Float32, n, DModel))
		c.V = append(c.V, jit.Zeros(jit.Float32, n, DModel))
	}
	return c
}

// Grow copies a cache into buffers of length n (n at least the old length).
func Grow(c Cache, n int) Cache {
	out := Cache{}
	for l := range c.K {
		t := c.K[l].Shape()[0]
		pad := jit.Zeros(jit.Float32, n-t, DModel)
		out.K = append(out.K, jit.Concatenate(0, c.K[l], pad))
		out.V = append(out.V, jit.Concatenate(0, c.V[l], pad))
	}
	return out
}

// ropeTable returns the cos and sin tables of the rotary embedding at the
// traced position pos.
func ropeTable(pos jit.Array) (cos, sin jit.Array) {
	half := DModel / 2
	p := pos.Astype(jit.Float32)
	angs := make([]jit.Array, 0, half)
	for i := 0; i < half; i++ {
		freq := math.Pow(10000, -2*float64(i)/float64(DModel))
		angs = append(angs, p.Mul(freq).Reshape(1))
	}
	ang := jit.Concatenate(0, angs...)
	return ang.Cos(), ang.Sin()
}

// rotary rotates the two halves of x by the angles in the tables.
func rotary(x, c, s jit.Array) jit.Array {
	half := DModel / 2
	x1 := x.Slice([]int{0}, []int{half})
	x2 := x.Slice([]int{half}, []int{DModel})
	return jit.Concatenate(0, x1.Mul(c).Sub(x2.Mul(s)), x1.Mul(s).Add(x2.Mul(c)))
}

func softmax(s jit.Array) jit.Array {
	e := s.Sub(s.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

func project(x, w jit.Array) jit.Array {
	return x.Reshape(1, DModel).MatMul(w).Reshape(DModel)
}

// StepGrow runs one decoding step, appending this token's key and value to
// the cache, and returns the next-token logits and the longer cache.
func StepGrow(p Params, c Cache, x jit.Array) (jit.Array, Cache) {
	t := c.K[0].Shape()[0]
	rc, rs := ropeTable(jit.Scalar(int32(t)))
	out := Cache{}
	h := x
	for l, ly := range p.Layers {
		q := rotary(project(h, ly.Wq), rc, rs)
		k := rotary(project(h, ly.Wk), rc, rs)
		v := project(h, ly.Wv)
		K := jit.Concatenate(0, c.K[l], k.Reshape(1, DModel))
		V := jit.Concatenate(0, c.V[l], v.Reshape(1, DModel))
		att := softmax(K.MatMul(q).Div(math.Sqrt(DModel)))
		h = h.Add(project(att.MatMul(V), ly.Wo))
		out.K = append(out.K, K)
		out.V = append(out.V, V)
	}
	return project2(h, p.Unembed), out
}

// StepFixed runs one decoding step against preallocated buffers: the new
// key and value are written at the traced position pos and later slots are
// masked out.
func StepFixed(p Params, c Cache, x, pos jit.Array) (jit.Array, Cache) {
	n := c.K[0].Shape()[0]
	slots := jit.Arange(n, jit.Int32)
	here := slots.Eq(pos).Reshape(n, 1)
	valid := slots.Le(pos)
	rc, rs := ropeTable(pos)
	out := Cache{}
	h := x
	for l, ly := range p.Layers {
		q := rotary(project(h, ly.Wq), rc, rs)
		k := rotary(project(h, ly.Wk), rc, rs)
		v := project(h, ly.Wv)
		K := jit.Where(here, k.Reshape(1, DModel), c.K[l])
		V := jit.Where(here, v.Reshape(1, DModel), c.V[l])
		scores := jit.Where(valid, K.MatMul(q).Div(math.Sqrt(DModel)), -1e9)
		att := softmax(scores)
		h = h.Add(project(att.MatMul(V), ly.Wo))
		out.K = append(out.K, K)
		out.V = append(out.V, V)
	}
	jit.DebugPrint("pos={} |h|={}", pos, h.Abs().MaxReduce())
	return project2(h, p.Unembed), out
}

// StepAtPos is StepFixed with the position as a Go int, attending over the
// filled prefix of the buffers one cached slot at a time.
func StepAtPos(pos int, p Params, c Cache, x jit.Array) (jit.Array, Cache) {
	rc, rs := ropeTable(jit.Scalar(int32(pos)))
	out := Cache{}
	h := x
	for l, ly := range p.Layers {
		q := rotary(project(h, ly.Wq), rc, rs)
		k := rotary(project(h, ly.Wk), rc, rs)
		v := project(h, ly.Wv)
		K := jit.Concatenate(0, c.K[l].Slice([]int{0, 0}, []int{pos, DModel}), k.Reshape(1, DModel), c.K[l].Slice([]int{pos + 1, 0}, []int{MaxLen, DModel}))
		V := jit.Concatenate(0, c.V[l].Slice([]int{0, 0}, []int{pos, DModel}), v.Reshape(1, DModel), c.V[l].Slice([]int{pos + 1, 0}, []int{MaxLen, DModel}))
		scores := make([]jit.Array, 0, pos+1)
		for t := 0; t <= pos; t++ { // want unrolledloop
			kt := K.Slice([]int{t, 0}, []int{t + 1, DModel}).Reshape(DModel)
			scores = append(scores, kt.Mul(q).Sum().Reshape(1))
		}
		att := softmax(jit.Concatenate(0, scores...).Div(math.Sqrt(DModel)))
		prefix := V.Slice([]int{0, 0}, []int{pos + 1, DModel})
		h = h.Add(project(att.MatMul(prefix), ly.Wo))
		out.K = append(out.K, K)
		out.V = append(out.V, V)
	}
	return project2(h, p.Unembed), out
}

func project2(h, w jit.Array) jit.Array {
	return h.Reshape(1, DModel).MatMul(w).Reshape(w.Shape()[1])
}
