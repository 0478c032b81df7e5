package a

import "github.com/jitlint/jitlint/jit"

// Wrappers that come from caches rather than straight from jit.Jit, host
// slices whose length a helper decides, and padding written by hand.

type r3Fn = func(jit.Array) jit.Array

// R3Small is a model the caches below hold.
func R3Small(x jit.Array) jit.Array { return x.Mul(0.5).Tanh().Sum() }

// r3Registry jits each model the first time it is asked for.
type r3Registry struct {
	cache map[string]*jit.Func[r3Fn]
}

func (r *r3Registry) get(name string) *jit.Func[r3Fn] {
	if f, ok := r.cache[name]; ok {
		return f
	}
	f := jit.Jit(R3Small)
	r.cache[name] = f
	return f
}

// r3Request makes a batch of rows.
func r3Request(rows int) jit.Array {
	data := make([]float32, rows*4)
	for i := range data {
		data[i] = float32(i%9) / 9
	}
	return jit.FromSlice(data, rows, 4)
}

func r3Cached(sizes []int) {
	reg := &r3Registry{cache: map[string]*jit.Func[r3Fn]{}}
	fs := map[string]*jit.Func[r3Fn]{"small": jit.Jit(R3Small)}
	f := fs["small"]
	for _, n := range sizes {
		x := r3Request(n)
		reg.get("small").Call(x) // want `argument x has a different shape on each iteration: one compile per distinct shape \(the number of compiles grows with the distinct lengths in sizes\)`
		fs["small"].Call(x)      // want `argument x has a different shape on each iteration`
		f.Call(r3Request(n))     // want `argument x has a different shape on each iteration`
	}
	// Not reported: the same shape on every iteration.
	for range sizes {
		x := r3Request(8)
		reg.get("small").Call(x)
		fs["small"].Call(x)
		f.Call(r3Request(8))
	}
}

// Host slices built by helpers.

// r3Env is a walk that ends when it leaves [-limit, limit].
type r3Env struct {
	pos, limit float64
}

// Step moves the walker and reports the reward and whether it is done.
func (e *r3Env) Step(action float64) (float64, bool) {
	e.pos += action
	return -e.pos * e.pos, e.pos > e.limit || e.pos < -e.limit
}

// r3Rollout plays an episode until it ends: as many rewards as steps.
func r3Rollout(e *r3Env) []float32 {
	var rewards []float32
	for {
		r, done := e.Step(0.1)
		rewards = append(rewards, float32(r))
		if done {
			return rewards
		}
	}
}

// r3Collect returns n values.
func r3Collect(n int) []float32 {
	var out []float32
	for i := range n {
		out = append(out, float32(i))
	}
	return out
}

func r3Episodes(lengths []int) {
	ret := jit.Jit(R3Small)
	for episode := range 5 {
		e := &r3Env{limit: 0.5 + 1.5*float64(episode)}
		rewards := r3Rollout(e)
		ret.Call(jit.FromSlice(rewards)) // want `argument x has a different shape on each iteration: one compile per distinct shape \(up to 5 compiles, one per iteration\)`
	}
	for _, n := range lengths {
		ret.Call(jit.FromSlice(r3Collect(n))) // want `argument x has a different shape on each iteration`
	}
	// Not reported: sixteen values every time, and episodes of one walk
	// that starts and ends at the same places every time.
	for range lengths {
		ret.Call(jit.FromSlice(r3Collect(16)))
		e := &r3Env{limit: 2}
		ret.Call(jit.FromSlice(r3Rollout(e)))
	}
}

// Padding by hand to a few bucket sizes.

func r3Padded(sizes []int) {
	model := jit.Jit(R3Small)
	for _, n := range sizes {
		x := r3Request(n)
		b := lengthBucket(n)
		// Not reported: n + (b - n) = b rows, one of four sizes, and
		// bucket(n) rows, one of three.
		model.Call(jit.Concatenate(0, x, jit.Zeros(jit.Float32, b-n, 4)))
		model.Call(jit.Concatenate(0, x, jit.Zeros(jit.Float32, bucket(n)-n, 4)))
		// Twice the rows, or four more: 2n and n+4 vary with n.
		model.Call(jit.Concatenate(0, x, jit.Zeros(jit.Float32, 2*n-n, 4))) // want `argument x has a different shape on each iteration`
		model.Call(jit.Concatenate(0, x, x))                                // want `argument x has a different shape on each iteration`
		model.Call(jit.Concatenate(0, x, jit.Zeros(jit.Float32, 4, 4)))     // want `argument x has a different shape on each iteration`
	}
}
