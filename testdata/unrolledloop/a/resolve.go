package a

import "github.com/jitlint/jitlint/jit"

// Bounds and lengths that reach a loop through a few hops: fields of
// configuration literals, helpers' parameters, traced callees' parameters,
// local copies, closure factories, fixed tables, min, and slices that the
// traced code makes itself.

type rsDecoder struct {
	Len   int
	Beams int
}

// rsSteps allocates one output per time step.
func rsSteps(cfg rsDecoder) []jit.Array { return make([]jit.Array, cfg.Len) }

// rsDecode is traced through a closure that captures its config; its
// length comes through the helper's parameter, its beams are a bound.
func rsDecode(cfg rsDecoder, enc jit.Array) jit.Array {
	outs := rsSteps(cfg)
	h := enc
	for t := range outs { // want `unrolled into the trace 48 times \(once per element of outs, which has 48\) → about \d+ equations`
		h = h.Add(enc.Mul(float64(t))).Tanh()
		outs[t] = h
	}
	for b := 0; b < cfg.Beams; b++ { // want `unrolled into the trace up to 40 times \(cfg.Beams is 40\) → about \d+ equations`
		h = h.Max(enc.Mul(float64(b)))
	}
	return jit.Concatenate(0, outs...)
}

func runDecode() {
	cfg := rsDecoder{Len: 48, Beams: 40}
	dec := jit.Jit(func(enc jit.Array) jit.Array { return rsDecode(cfg, enc) })
	dec.Call(jit.Zeros(jit.Float32, 1, 4))
}

// rsDecodeShort unrolls a short config's steps and beams: not reported.
func rsDecodeShort(cfg rsDecoder, enc jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32, 1, 4)
	for _, o := range rsSteps(cfg) {
		acc = acc.Sub(o.Neg())
	}
	for b := range cfg.Beams {
		acc = acc.Add(enc.Pow(float64(b)))
	}
	return acc
}

func runDecodeShort() {
	cfg := rsDecoder{Len: 4, Beams: 3}
	dec := jit.Jit(func(enc jit.Array) jit.Array { return rsDecodeShort(cfg, enc) })
	dec.Call(jit.Zeros(jit.Float32, 1, 4))
}

type rsLoss struct {
	Order int
	Scale float64
}

// A local copy of a captured config's field.
func runLocalCopy() {
	cfg := rsLoss{Order: 36}
	f := jit.Jit(func(w jit.Array) jit.Array {
		order := cfg.Order
		for n := 0; n < order; n++ { // want `unrolled into the trace up to 36 times \(order is 36\)`
			w = w.Mul(w).Div(float64(n + 1))
		}
		return w
	})
	f.Call(jit.Ones(jit.Float32, 3))
	small := rsLoss{Order: 6}
	g := jit.Jit(func(w jit.Array) jit.Array {
		order := small.Order
		for n := 0; n < order; n++ { // six terms: not reported
			w = w.Mul(w).Div(float64(n + 1))
		}
		return w
	})
	g.Call(jit.Ones(jit.Float32, 3))
}

// rsMakePenalty returns a closure that sums cfg.Order Taylor terms.
func rsMakePenalty(cfg rsLoss) func(w jit.Array) jit.Array {
	return func(w jit.Array) jit.Array {
		term, sum := w, w
		for n := 2; n <= cfg.Order; n++ { // want `unrolled into the trace up to 39 times \(cfg.Order is 40\)`
			term = term.Mul(w).Div(float64(n))
			sum = sum.Add(term)
		}
		return sum.Sum()
	}
}

// rsMakeShortPenalty returns a closure that applies cfg.Order smoothing
// steps; it is made with Order 5 and 3 only: not reported.
func rsMakeShortPenalty(cfg rsLoss) func(w jit.Array) jit.Array {
	return func(w jit.Array) jit.Array {
		for range cfg.Order {
			w = w.Sin().Mul(cfg.Scale)
		}
		return w.Mean()
	}
}

// rsMakeDecoder returns a closure that fills cfg.Len outputs; it is made
// with 4 and with 48.
func rsMakeDecoder(cfg rsDecoder) func(x jit.Array) jit.Array {
	return func(x jit.Array) jit.Array {
		outs := make([]jit.Array, cfg.Len)
		for t := range outs { // want `unrolled into the trace 48 times \(once per element of outs, which has 48\)`
			outs[t] = x.Mul(float64(t)).Tanh()
		}
		return jit.Concatenate(0, outs...)
	}
}

// Each factory is used twice: a closure made with a long config unrolls
// its loop that many times, whatever the other one does.
var (
	rsPenalty           = jit.Jit(rsMakePenalty(rsLoss{Order: 40}))
	rsPenaltyAgain      = jit.Jit(rsMakePenalty(rsLoss{Order: 5}))
	rsShortPenalty      = jit.Jit(rsMakeShortPenalty(rsLoss{Order: 5}))
	rsShortPenaltyAgain = jit.Jit(rsMakeShortPenalty(rsLoss{Order: 3}))
	rsShortDecoder      = jit.Jit(rsMakeDecoder(rsDecoder{Len: 4}))
	rsLongDecoder       = jit.Jit(rsMakeDecoder(rsDecoder{Len: 48}))
)

// Static arguments set to an element of a fixed table.

type rsSearch struct {
	Depths [5]int
}

// RsEvaluate applies depth layers; its depths come from a table of small
// values, by index and by value: at most 8, not reported.
func RsEvaluate(x jit.Array, depth int) jit.Array {
	for range depth {
		x = x.Add(x.Mul(0.1).Tanh())
	}
	return x
}

func runSearch(x jit.Array) {
	s := rsSearch{Depths: [5]int{1, 2, 3, 5, 8}}
	eval := jit.Jit(RsEvaluate, jit.StaticArgnums(1))
	for i := range s.Depths {
		eval.Call(x, s.Depths[i])
	}
	for _, d := range s.Depths {
		eval.Call(x, d)
	}
}

// RsEvaluateDeep takes its depths from a table that holds a 64, ranged
// over by value.
func RsEvaluateDeep(x jit.Array, depth int) jit.Array {
	acc := jit.Zeros(jit.Float32)
	for i := 0; i < depth; i++ { // want `unrolled into the trace up to 64 times \(static argument depth is 64 at resolve.go:\d+\)`
		acc = acc.Add(x.Pow(float64(i)).Sum())
	}
	return acc
}

func runDeepSearch(x jit.Array) {
	s := rsSearch{Depths: [5]int{4, 8, 16, 32, 64}}
	eval := jit.Jit(RsEvaluateDeep, jit.StaticArgnums(1))
	for _, d := range s.Depths {
		eval.Call(x, d)
	}
}

// RsCapped caps a static count with min: at most 16, not reported.
func RsCapped(x jit.Array, n int) jit.Array {
	for i := 0; i < min(n, 16); i++ {
		x = x.Sin()
	}
	return x
}

func runCapped(x jit.Array, n int) {
	jit.Jit(RsCapped, jit.StaticArgnums(1)).Call(x, n)
}

// Slices that traced code makes itself.

// RsRows makes one slot per row of its input and ranges over it.
func RsRows(x jit.Array) jit.Array {
	out := make([]jit.Array, x.Shape()[0])
	for t := range out { // want `once per element of out, whose length is a size of an array \(x.Shape\(\)\[0\]\)`
		out[t] = x.Slice([]int{t, 0}, []int{t + 1, x.Shape()[1]}).Tanh()
	}
	return jit.Concatenate(0, out...)
}

var rsRowsJ = jit.Jit(RsRows)

// rsSplit cuts x into its rows.
func rsSplit(x jit.Array) []jit.Array {
	out := make([]jit.Array, x.Shape()[0])
	for t := range out { // want `once per element of out, whose length is a size of an array \(x.Shape\(\)\[0\]\)`
		out[t] = x.Slice([]int{t, 0}, []int{t + 1, x.Shape()[1]})
	}
	return out
}

// RsFeedForward ranges over the rows that a helper returns.
func RsFeedForward(x, w jit.Array) jit.Array {
	var out []jit.Array
	for _, tok := range rsSplit(x) { // want `once per element of rsSplit\(x\), whose length is a size of an array \(x.Shape\(\)\[0\]\)`
		out = append(out, tok.MatMul(w).Tanh())
	}
	return jit.Concatenate(0, out...)
}

var rsFeedForward = jit.Jit(RsFeedForward)

// RsSlots makes 40 slots and fills each one.
func RsSlots(x jit.Array) jit.Array {
	slots := make([]jit.Array, 40)
	for i := range slots { // want `unrolled into the trace 40 times \(once per element of slots, which has 40\)`
		slots[i] = x.Mul(float64(i)).Sin()
	}
	return jit.Concatenate(0, slots...)
}

var rsSlots = jit.Jit(RsSlots)

// RsLayers appends one output per layer of its pytree parameter and ranges
// over them: as many as the layers, structure, not reported.
func RsLayers(x jit.Array, ws []jit.Array) jit.Array {
	var acts []jit.Array
	for _, w := range ws {
		x = x.MatMul(w).Tanh()
		acts = append(acts, x)
	}
	acc := jit.Zeros(jit.Float32)
	for _, a := range acts {
		acc = acc.Add(a.Sum())
	}
	return acc
}

var rsLayers = jit.Jit(RsLayers)
