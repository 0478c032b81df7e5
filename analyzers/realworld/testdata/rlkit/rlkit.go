// Package rlkit holds the small pieces our RL experiments share: array
// helpers that stand in for jnp.argmax / jax.nn.one_hot / jax.nn.softmax,
// a seeded host-side PRNG, a step logger and checkpoint files.
package rlkit

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

// OneHot turns integer indices of any shape into float32 one-hot vectors
// along a new last axis of size n (jax.nn.one_hot).
func OneHot(idx jit.Array, n int) jit.Array {
	shape := append(idx.Shape(), 1)
	classes := jit.Arange(n, jit.Int32)
	return idx.Astype(jit.Int32).Reshape(shape...).Eq(classes).Astype(jit.Float32)
}

// Argmax returns the index of the largest entry along the last axis, the
// first one on ties (jnp.argmax(x, axis=-1)).
func Argmax(x jit.Array) jit.Array {
	n := x.Shape()[x.Ndim()-1]
	keep := append(x.Shape()[:x.Ndim()-1], 1)
	best := x.MaxReduce(-1).Reshape(keep...)
	iota := jit.Arange(n, jit.Int32)
	return jit.Where(x.Eq(best), iota, int32(n)).MinReduce(-1)
}

// TakeAlong picks x[..., idx] along the last axis with a one-hot mask
// (jnp.take_along_axis for a single index per row).
func TakeAlong(x, idx jit.Array) jit.Array {
	n := x.Shape()[x.Ndim()-1]
	return x.Mul(OneHot(idx, n)).Sum(-1)
}

// LogSoftmax is jax.nn.log_softmax over the last axis.
func LogSoftmax(logits jit.Array) jit.Array {
	keep := append(logits.Shape()[:logits.Ndim()-1], 1)
	m := logits.MaxReduce(-1).Reshape(keep...)
	shifted := logits.Sub(m)
	lse := shifted.Exp().Sum(-1).Log().Reshape(keep...)
	return shifted.Sub(lse)
}

// Softmax is jax.nn.softmax over the last axis.
func Softmax(logits jit.Array) jit.Array { return LogSoftmax(logits).Exp() }

// Discount computes rewards-to-go G_t = r_t + gamma * G_{t+1} for a 1-D
// reward vector, walking backwards from the end as the NumPy code did.
func Discount(rewards jit.Array, gamma float64) jit.Array {
	n := rewards.Shape()[0]
	out := make([]jit.Array, n)
	running := jit.Zeros(rewards.Dtype(), 1)
	for t := n - 1; t >= 0; t-- {
		running = rewards.Slice([]int{t}, []int{t + 1}).Add(running.Mul(gamma))
		out[t] = running
	}
	return jit.Concatenate(0, out...)
}

// Normalize standardises x to zero mean and unit variance.
func Normalize(x jit.Array) jit.Array {
	mu := x.Mean()
	sd := x.Sub(mu).Pow(2).Mean().Add(1e-8).Sqrt()
	return x.Sub(mu).Div(sd)
}

// RNG is a splitmix64 generator: small, seedable and identical on every
// platform, so runs are reproducible.
type RNG struct{ state uint64 }

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) *RNG { return &RNG{state: seed*0x9E3779B97F4A7C15 + 1} }

// Uint64 returns the next 64 random bits.
func (r *RNG) Uint64() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Float64 returns a uniform number in [0, 1).
func (r *RNG) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Intn returns a uniform integer in [0, n).
func (r *RNG) Intn(n int) int { return int(r.Uint64() % uint64(n)) }

// Normal returns a standard normal sample (Box-Muller).
func (r *RNG) Normal() float64 {
	u1 := r.Float64()
	for u1 == 0 {
		u1 = r.Float64()
	}
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*r.Float64())
}

// Normals fills a float32 slice of n standard normal samples.
func (r *RNG) Normals(n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.Normal())
	}
	return out
}

// Categorical samples an index from a probability vector.
func (r *RNG) Categorical(p []float32) int {
	u := float32(r.Float64())
	var acc float32
	for i, pi := range p {
		acc += pi
		if u < acc {
			return i
		}
	}
	return len(p) - 1
}

// Logger prints aligned key=value lines for training curves.
type Logger struct {
	W      io.Writer
	Prefix string
	Every  int
}

// Log writes one line when step is a multiple of Every (or Every is 0).
func (l *Logger) Log(step int, kv ...any) {
	if l.Every > 0 && step%l.Every != 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s step %4d", l.Prefix, step)
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case float32, float64:
			fmt.Fprintf(&b, "  %s=%.4f", kv[i], v)
		default:
			fmt.Fprintf(&b, "  %s=%v", kv[i], v)
		}
	}
	fmt.Fprintln(l.W, b.String())
}

// Checkpoint is what we write to disk: a step and named float32 tensors.
type Checkpoint struct {
	Step    int                  `json:"step"`
	Tensors map[string][]float32 `json:"tensors"`
	Shapes  map[string][]int     `json:"shapes"`
}

// Save writes the arrays as dir/ckpt_<step>.json and returns the path.
func Save(dir string, step int, arrays map[string]jit.Array) (string, error) {
	ck := Checkpoint{Step: step, Tensors: map[string][]float32{}, Shapes: map[string][]int{}}
	for k, a := range arrays {
		ck.Tensors[k] = a.Float32s()
		ck.Shapes[k] = a.Shape()
	}
	data, err := json.Marshal(ck)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("ckpt_%06d.json", step))
	return path, os.WriteFile(path, data, 0o644)
}

// Load reads a checkpoint written by Save back into arrays.
func Load(path string) (int, map[string]jit.Array, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, nil, err
	}
	var ck Checkpoint
	if err := json.Unmarshal(data, &ck); err != nil {
		return 0, nil, err
	}
	out := map[string]jit.Array{}
	for k, v := range ck.Tensors {
		out[k] = jit.FromSlice(v, ck.Shapes[k]...)
	}
	return ck.Step, out, nil
}
