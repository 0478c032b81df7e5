package a

import "github.com/jitlint/jitlint/jit"

// Outputs fed back as the next call's inputs: the shape of a loop's state
// after each call is what the jitted function makes of it, so a state that
// grows by a row per call has a new shape on every call, and one that keeps
// its shape (a sliding window, a preallocated cache) has one.

// fbGrow appends a row to x.
func fbGrow(x jit.Array) jit.Array {
	return jit.Concatenate(0, x, x.Slice([]int{0, 0}, []int{1, 4}))
}

// fbCache is a key/value cache.
type fbCache struct{ K, V jit.Array }

// fbGrowCache appends x to both halves of the cache.
func fbGrowCache(x jit.Array, c fbCache) (jit.Array, fbCache) {
	c = fbCache{K: jit.Concatenate(0, c.K, x), V: jit.Concatenate(0, c.V, x)}
	return x.Tanh(), c
}

// fbSlide moves a window of 8 rows on by one.
func fbSlide(x, w jit.Array) (jit.Array, jit.Array) {
	w = jit.Concatenate(0, w.Slice([]int{1, 0}, []int{8, 4}), x)
	return x.Tanh(), w
}

// fbWrite writes x into row pos of a preallocated cache.
func fbWrite(x jit.Array, c fbCache, pos jit.Array) (jit.Array, fbCache) {
	slot := jit.Arange(16, jit.Int32).Eq(pos).Reshape(16, 1)
	return x.Tanh(), fbCache{K: jit.Where(slot, x, c.K), V: jit.Where(slot, x, c.V)}
}

// fbModel is a model whose decoding step is a method.
type fbModel struct{ W jit.Array }

// Step appends the projected token to the cache.
func (m *fbModel) Step(x jit.Array, c fbCache) (jit.Array, fbCache) {
	k := x.MatMul(m.W)
	c = fbCache{K: jit.Concatenate(0, c.K, k), V: jit.Concatenate(0, c.V, k)}
	return k.Tanh(), c
}

func fedBack() {
	g := jit.Jit(fbGrow)
	x := jit.Zeros(jit.Float32, 1, 4)
	for t := 0; t < 12; t++ {
		x = g.Call(x) // want `argument x has a different shape on each iteration: one compile per distinct shape \(12 iterations → 12 compiles\)`
	}
	gc := jit.Jit(fbGrowCache)
	y := jit.Zeros(jit.Float32, 1, 4)
	c := fbCache{K: jit.Zeros(jit.Float32, 1, 4), V: jit.Zeros(jit.Float32, 1, 4)}
	for t := 0; t < 12; t++ {
		y, c = gc.Call(y, c) // want `argument c has a different shape on each iteration`
	}
	m := &fbModel{W: jit.Zeros(jit.Float32, 4, 4)}
	st := jit.Jit(m.Step)
	c = fbCache{K: jit.Zeros(jit.Float32, 1, 4), V: jit.Zeros(jit.Float32, 1, 4)}
	for t := 0; t < 12; t++ {
		y, c = st.Call(y, c) // want `argument c has a different shape on each iteration`
	}
	// Not reported: the window and the preallocated cache keep their shapes.
	sl := jit.Jit(fbSlide)
	w := jit.Zeros(jit.Float32, 8, 4)
	for t := 0; t < 12; t++ {
		y, w = sl.Call(y, w)
	}
	wr := jit.Jit(fbWrite)
	c = fbCache{K: jit.Zeros(jit.Float32, 16, 4), V: jit.Zeros(jit.Float32, 16, 4)}
	for t := 0; t < 12; t++ {
		y, c = wr.Call(y, c, jit.Scalar(int32(t)))
	}
}

// fedBackFrom starts the states from arrays whose dims are not known here
// (a prefill's result, a caller's array): each keeps its rank, so the
// cache still grows by a row per call from whatever it starts at, and the
// window still keeps its shape.
func fedBackFrom(prompt, w jit.Array) {
	g := jit.Jit(fbGrow)
	x := jit.Jit(fbPrefill).Call(prompt)
	for t := 0; t < 12; t++ {
		x = g.Call(x) // want `argument x has a different shape on each iteration: one compile per distinct shape \(12 iterations → 12 compiles\)`
	}
	sl := jit.Jit(fbSlide)
	y := jit.Zeros(jit.Float32, 1, 4)
	for t := 0; t < 12; t++ {
		y, w = sl.Call(y, w)
	}
}

// fbPrefill projects a prompt of any length.
func fbPrefill(prompt jit.Array) jit.Array { return prompt.Tanh() }
