package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Static arguments read from the rows of a table, and jit.Jit of method
// values.

func Sample(temp float64, k int, x jit.Array) jit.Array { return x.Mul(temp).Add(float64(k)) }

var sample = jit.Jit(Sample, jit.StaticArgnums(0, 1))

func tableRows(x jit.Array) {
	requests := []struct {
		temp float64
		k    int
	}{{0.7, 40}, {1.0, 40}, {0.7, 40}, {1.0, 40}}
	// Not reported: two temperatures and one k over forty calls.
	for _, req := range requests {
		for range 10 {
			sample.Call(req.temp, req.k, x)
		}
	}
	ramps := []struct{ temp float64 }{{0.1}, {0.2}, {0.3}, {0.4}}
	for _, r := range ramps {
		sample.Call(r.temp, 1, x) // want `static argument temp takes a new value on every iteration: each call traces and compiles again \(4 iterations → 4 compiles\)`
	}
}

var byRegion = jit.Jit(func(region string, x jit.Array) jit.Array { return x.Mul(float64(len(region))) }, jit.StaticArgnums(0))

type buyer struct{ name, region string }

func days(x jit.Array) {
	buyers := []buyer{{"ada", "EUR"}, {"bo", "GBP"}, {"chen", "JPY"}, {"dana", "EUR"}, {"eli", "GBP"}, {"fay", "JPY"}}
	// Not reported: three regions, compiled on the first day, hit on the
	// four after it (three compiles for thirty calls).
	for range 5 {
		for _, b := range buyers {
			byRegion.Call(b.region, x)
		}
	}
	// Reported: once over the buyers, three regions for six calls.
	for _, b := range buyers {
		byRegion.Call(b.region, x) // want `static argument region takes a new value on every iteration: each call traces and compiles again \(3 values over 6 iterations → 3 compiles\)`
	}
}

type scorer struct{ w float64 }

func (s scorer) Score(x jit.Array) jit.Array { return x.Mul(s.w) }

type monitor struct{ ref float64 }

func (m *monitor) Drift(x jit.Array) jit.Array { return x.Sub(m.ref) }

func methodValues(x jit.Array, fixed scorer) {
	// Reported: each iteration makes a new receiver, and a new wrapper of
	// the same method, which compiles again.
	for i := range 3 {
		s := scorer{w: float64(i)}
		fmt.Println(jit.Jit(s.Score).Call(x)) // want `jit.Jit is called on every iteration of this loop, on a function made of the loop's values: .* jit the method expression`
	}
	// Reported: the same receiver every time.
	for range 3 {
		fmt.Println(jit.Jit(fixed.Score).Call(x)) // want `jit.Jit is called on every iteration of this loop`
	}
	// Reported: receivers kept in a map, the same ones on every round.
	monitors := map[string]*monitor{"a": {1}, "b": {2}}
	for range 4 {
		for _, name := range []string{"a", "b"} {
			fmt.Println(jit.Jit(monitors[name].Drift).Call(x)) // want `jit.Jit is called on every iteration of this loop`
		}
	}
}
