package a

import (
	"time"

	"github.com/jitlint/jitlint/jit"

	"fixtures/staticargs/sched"
)

// Values that repeat: what a bucket chooser returns is bounded by the
// program, not by the data, so a static argument taken from it over a long
// data loop is a few compiles, then cache hits.

// r45Bucket picks one of three widths (a switch that returns constants).
func r45Bucket(n int) int {
	switch {
	case n <= 16:
		return 16
	case n <= 64:
		return 64
	}
	return 256
}

// r45Tier returns the first tier at least n (an element of a literal it
// ranges over), or the last one.
func r45Tier(n int) int {
	for _, t := range []int{8, 32, 128} {
		if n <= t {
			return t
		}
	}
	return 512
}

// r45NextPow2 doubles (a shift) up to a cap: at most 8 values (8 …
// 1024).
func r45NextPow2(n int) int {
	size := 8
	for ; size < 1024 && size < n; size <<= 1 {
	}
	return size
}

// r45Grow returns n doubled with no cap: a new value for every n.
func r45Grow(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p * n
}

func r45Choosers(x jit.Array, lengths []int) {
	for step := range 500 {
		power.Call(r45Bucket(step), x)
		power.Call(r45Tier(step), x)
		power.Call(r45NextPow2(step), x)
		size := r45NextPow2(step * 3)
		power.Call(size, x)
		power.Call(r45Grow(step), x) // want `static argument n takes a new value on every iteration: each call traces and compiles again \(500 iterations → 500 compiles\)`
	}
	for _, n := range lengths {
		power.Call(r45Bucket(n), x)
		power.Call(sched.Tier(n), x)
		power.Call(sched.NextPow2(n), x)
		power.Call(n, x) // want `static argument n takes a new value on every iteration`
	}
	for i := range 300 {
		power.Call(1+i%3, x)           // three sizes, whatever the loop's length
		power.Call(i, x)               // want `static argument n takes a new value on every iteration: each call traces and compiles again \(300 iterations → 300 compiles\)`
		scaleLR.Call(sched.Rate(i), x) // three rates from another package
	}
}

// jit.Jit of a method value in helpers: a constructor called from three
// places makes three wrappers of three receivers' methods, each compiled
// once; it is reported as the wrappers are not shared.

type r45Scorer struct {
	bias float64
	fwd  *jit.Func[func(jit.Array) jit.Array]
}

// Score adds the bias to the row sums.
func (s *r45Scorer) Score(h jit.Array) jit.Array { return h.Sum(1).Add(s.bias) }

// r45NewScorer jits the scorer's method once per scorer.
func r45NewScorer(bias float64) *r45Scorer {
	s := &r45Scorer{bias: bias}
	s.fwd = jit.Jit(s.Score) // not reported: a method value of the scorer this call makes, a new function each time
	return s
}

// scoreBatch jits the method on each call, and is called in a loop.
func (s *r45Scorer) scoreBatch(h jit.Array) jit.Array {
	f := jit.Jit(s.Score) // want `jit.Jit runs on every call of scoreBatch, and scoreBatch is called in a loop`
	return f.Call(h)
}

type r45Pool struct {
	cache map[*r45Scorer]*jit.Func[func(jit.Array) jit.Array]
}

// score jits a scorer's method the first time it is asked for it.
func (p *r45Pool) score(s *r45Scorer, h jit.Array) jit.Array {
	f, ok := p.cache[s]
	if !ok {
		f = jit.Jit(s.Score)
		p.cache[s] = f
	}
	return f.Call(h)
}

func r45Serve(h jit.Array) {
	a, b, c := r45NewScorer(0.1), r45NewScorer(0.2), r45NewScorer(0.3)
	pool := &r45Pool{cache: map[*r45Scorer]*jit.Func[func(jit.Array) jit.Array]{}}
	for range 10 {
		a.fwd.Call(h)
		b.scoreBatch(h)
		pool.score(c, h)
	}
}

// jit.Jit in a switch on a mode: a constructor whose callers pass
// different modes runs each branch once.

type r45Server struct {
	fwd *jit.Func[func(jit.Array) jit.Array]
}

// R45Fast is the fast forward pass.
func R45Fast(x jit.Array) jit.Array { return x.Mul(0.5).Tanh() }

// R45Exact is the exact forward pass.
func R45Exact(x jit.Array) jit.Array { return x.Mul(0.5).Exp().Sub(x.Mul(-0.5).Exp()).Div(2) }

// r45NewServer jits the forward pass of its mode.
func r45NewServer(mode string) *r45Server {
	s := &r45Server{}
	switch mode {
	case "fast":
		s.fwd = jit.Jit(R45Fast)
	default:
		s.fwd = jit.Jit(R45Exact)
	}
	return s
}

func r45Modes(x jit.Array) {
	fast, exact := r45NewServer("fast"), r45NewServer("exact")
	modes := []string{"fast", "exact"}
	for i := range 8 {
		fast.fwd.Call(x)
		exact.fwd.Call(x)
		switch modes[i%2] {
		case "fast":
			jit.Jit(R45Fast).Call(x) // not reported: a named function's wrappers share one cache
		default:
			f := jit.Jit(func(x jit.Array) jit.Array { return R45Exact(x) }) // want `jit.Jit is called on every iteration of this loop`
			f.Call(x)
		}
	}
}

// Static fields of a hyper-parameter struct passed by pointer.

type r45Hyper struct {
	Step jit.Array
	Temp float64 `jit:"static"`
}

// R45Policy sharpens the logits by a static temperature.
func R45Policy(hp *r45Hyper, logits jit.Array) jit.Array {
	return logits.Div(hp.Temp).Mul(hp.Step)
}

var r45Policy = jit.Jit(R45Policy)

func r45Anneal(logits jit.Array) {
	hp := &r45Hyper{Step: logits, Temp: 2}
	for range 10 {
		logits = r45Policy.Call(hp, logits) // want `static field Temp of argument hp takes a new value on every iteration`
		hp.Temp *= 0.9
	}
	// Not reported: cooled on every tenth step only (three temperatures),
	// the array field changed freely.
	hp = &r45Hyper{Step: logits, Temp: 2}
	for s := range 30 {
		if s > 0 && s%10 == 0 {
			hp.Temp *= 0.5
		}
		hp.Step = logits.Mul(float64(s))
		logits = r45Policy.Call(hp, logits)
	}
}

// Static values from the clock.

// R45Augment mirrors the image if flip, and adds a seeded offset.
func R45Augment(img jit.Array, flip bool, seed int64) jit.Array {
	if flip {
		img = img.Neg()
	}
	return img.Add(float64(seed%7) * 0.01)
}

var r45Augment = jit.Jit(R45Augment, jit.StaticArgnums(1, 2))

func r45Clock(img jit.Array) {
	for range 10 {
		r45Augment.Call(img, time.Now().Second()%2 == 0, 3) // two values at most
		r45Augment.Call(img, false, time.Now().UnixNano())  // want `static argument seed comes from time.Now and changes on every call`
	}
	r45Augment.Call(img, true, time.Now().UnixNano()) // want `static argument seed comes from time.Now`
}
