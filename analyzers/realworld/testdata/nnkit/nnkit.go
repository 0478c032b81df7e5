// Package nnkit holds small, generic building blocks for models written
// against package jit: functional helpers over slices, dense layers, a
// generic layer stack with a builder, model configuration by functional
// options, and a recover wrapper for traced calls.
package nnkit

import (
	"errors"
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Map applies f to every element of xs.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Reduce folds xs from the left, starting at init.
func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

// Range returns [0, 1, ..., n-1], for use with Map and Reduce.
func Range(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// Repeat applies block n times, passing the block index (weight-tied towers,
// fixed-point refinements).
func Repeat(n int, x jit.Array, block func(i int, x jit.Array) jit.Array) jit.Array {
	for i := 0; i < n; i++ {
		x = block(i, x)
	}
	return x
}

// RepeatScan is Repeat for blocks that do not depend on their index, staged
// as one scan.
func RepeatScan(n int, x jit.Array, block func(x jit.Array) jit.Array) jit.Array {
	y, _ := jit.ScanN(func(h jit.Array) (jit.Array, struct{}) {
		return block(h), struct{}{}
	}, x, n)
	return y
}

// Activations is the table of activation functions by name.
var Activations = map[string]func(jit.Array) jit.Array{
	"relu":     jit.Relu,
	"softplus": jit.Softplus,
	"tanh":     jit.Array.Tanh,
	"sigmoid":  jit.Array.Logistic,
	"identity": func(x jit.Array) jit.Array { return x },
	// tanh approximation of GELU, as jax.nn.gelu(approximate=True)
	"gelu": func(x jit.Array) jit.Array {
		inner := x.Add(x.Pow(3).Mul(0.044715)).Mul(math.Sqrt(2 / math.Pi))
		return x.Mul(0.5).Mul(inner.Tanh().Add(1))
	},
}

// Activation looks an activation up by name.
func Activation(name string) (func(jit.Array) jit.Array, error) {
	f, ok := Activations[name]
	if !ok {
		return nil, fmt.Errorf("nnkit: unknown activation %q", name)
	}
	return f, nil
}

// Layer is anything that maps a batch of activations to the next.
type Layer interface {
	Apply(x jit.Array) jit.Array
}

// Dense is an affine layer followed by an activation. The activation's
// name is static: it selects the code, not a value.
type Dense struct {
	W, B jit.Array
	Act  string `jit:"static"`
}

// Apply computes act(x @ W + b).
func (d Dense) Apply(x jit.Array) jit.Array {
	act, err := Activation(d.Act)
	if err != nil {
		panic(err)
	}
	return act(x.MatMul(d.W).Add(d.B))
}

// Stack applies its layers in order.
type Stack[L Layer] struct {
	Layers []L
}

// Apply runs x through every layer.
func (s Stack[L]) Apply(x jit.Array) jit.Array {
	for _, l := range s.Layers {
		x = l.Apply(x)
	}
	return x
}

// Len is the number of layers.
func (s Stack[L]) Len() int { return len(s.Layers) }

// Glorot draws an (in, out) matrix with Glorot-uniform initialisation.
func Glorot(rng *rand.Rand, in, out int) jit.Array {
	lim := math.Sqrt(6 / float64(in+out))
	w := make([]float32, in*out)
	for i := range w {
		w[i] = float32((rng.Float64()*2 - 1) * lim)
	}
	return jit.FromSlice(w, in, out)
}

// Builder assembles a Stack of Dense layers one at a time.
type Builder struct {
	width  int
	rng    *rand.Rand
	layers []Dense
	err    error
}

// NewBuilder starts a stack whose input has the given width.
func NewBuilder(in int, seed int64) *Builder {
	return &Builder{width: in, rng: rand.New(rand.NewSource(seed))}
}

// Dense appends a layer with out units and the named activation.
func (b *Builder) Dense(out int, act string) *Builder {
	if b.err != nil {
		return b
	}
	if _, err := Activation(act); err != nil {
		b.err = err
		return b
	}
	b.layers = append(b.layers, Dense{W: Glorot(b.rng, b.width, out), B: jit.Zeros(jit.Float32, out), Act: act})
	b.width = out
	return b
}

// Build returns the stack, or the first error met while adding layers.
func (b *Builder) Build() (Stack[Dense], error) {
	if b.err != nil {
		return Stack[Dense]{}, b.err
	}
	return Stack[Dense]{Layers: b.layers}, nil
}

// SGD returns params - lr*grads, layer by layer.
func SGD(params, grads Stack[Dense], lr float64) Stack[Dense] {
	out := make([]Dense, len(params.Layers))
	for i, p := range params.Layers {
		g := grads.Layers[i]
		out[i] = Dense{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr)), Act: p.Act}
	}
	return Stack[Dense]{Layers: out}
}

// Config describes a model; it is filled in by Options.
type Config struct {
	In, Hidden, Out int
	Depth           int // hidden layers in the stem
	Blocks          int // residual blocks after the stem
	Act             string
	Seed            int64
	LearningRate    float64
}

// Option sets one field of a Config.
type Option func(*Config)

func WithInput(n int) Option            { return func(c *Config) { c.In = n } }
func WithHidden(n int) Option           { return func(c *Config) { c.Hidden = n } }
func WithOutput(n int) Option           { return func(c *Config) { c.Out = n } }
func WithDepth(n int) Option            { return func(c *Config) { c.Depth = n } }
func WithBlocks(n int) Option           { return func(c *Config) { c.Blocks = n } }
func WithActivation(a string) Option    { return func(c *Config) { c.Act = a } }
func WithSeed(s int64) Option           { return func(c *Config) { c.Seed = s } }
func WithLearningRate(r float64) Option { return func(c *Config) { c.LearningRate = r } }

// NewConfig applies opts over the defaults.
func NewConfig(opts ...Option) Config {
	c := Config{In: 4, Hidden: 16, Out: 1, Depth: 2, Blocks: 2, Act: "relu", Seed: 1, LearningRate: 0.05}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// TryCall runs f and turns a panic with a *jit.Error (how a jitted call
// reports a failed trace) into an error; other panics go on.
func TryCall[T any](f func() T) (out T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var je *jit.Error
			if e, ok := r.(error); ok && errors.As(e, &je) {
				err = je
				return
			}
			panic(r)
		}
	}()
	return f(), nil
}
