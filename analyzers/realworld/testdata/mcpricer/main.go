// Command mcpricer prices European options by Monte Carlo under geometric
// Brownian motion and computes pathwise Greeks with Grad.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Market is the pricing environment; Maturity is fixed per run.
type Market struct {
	Spot, Vol, Rate jit.Array
	Maturity        float64 `jit:"static"`
}

var lastPriced time.Time

// terminal maps standard normal shocks z to terminal prices.
func terminal(m Market, z jit.Array) jit.Array {
	drift := m.Rate.Sub(m.Vol.Pow(2).Mul(0.5)).Mul(m.Maturity)
	return m.Spot.Mul(drift.Add(m.Vol.Mul(z).Mul(math.Sqrt(m.Maturity))).Exp())
}

// callPrice is the discounted mean payoff of a call struck at k.
func callPrice(m Market, k, z jit.Array) jit.Array {
	lastPriced = time.Now() // want traceeffect
	payoff := terminal(m, z).Sub(k).Max(0)
	return payoff.Mean().Mul(m.Rate.Neg().Mul(m.Maturity).Exp())
}

// bumpedPrice prices with a randomly bumped spot, for a noisy finite difference.
func bumpedPrice(m Market, k, z jit.Array) jit.Array {
	bump := 1e-3 * (1 + rand.Float64()) // want traceeffect
	m.Spot = m.Spot.Mul(1 + bump)
	return callPrice(m, k, z)
}

// logContract pays log(S_T/S_0) on paths that were not knocked out.
func logContract(m Market, z, alive jit.Array) jit.Array {
	st := terminal(m, z).Mul(alive)
	return jit.Where(st.Gt(0), st.Div(m.Spot).Log(), 0).Mean() // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
}

// logContractSafe is the same payoff with a double where.
func logContractSafe(m Market, z, alive jit.Array) jit.Array {
	st := terminal(m, z).Mul(alive)
	ok := st.Gt(0)
	return jit.Where(ok, jit.Where(ok, st, m.Spot).Div(m.Spot).Log(), 0).Mean()
}

// strikeValue values one strike: in the money by intrinsic value plus
// simulation, out of the money by simulation only.
func strikeValue(m Market, k, z jit.Array) jit.Array {
	mc := func(k jit.Array) jit.Array { return callPrice(m, k, z) }
	itm := func(k jit.Array) jit.Array { return m.Spot.Sub(k).Add(callPrice(m, m.Spot, z)) }
	v := jit.Cond(k.Lt(m.Spot), itm, mc, k) // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
	return jit.Cond(m.Vol.Gt(1), func(v jit.Array) jit.Array { return v.Mul(0) }, func(v jit.Array) jit.Array { return v }, v)
}

type greeks = func(Market, jit.Array, jit.Array) Market

func main() {
	rng := rand.New(rand.NewSource(11))
	const paths = 4096
	zs, alive := make([]float32, paths), make([]float32, paths)
	for i := range zs {
		zs[i] = float32(rng.NormFloat64())
		alive[i] = 1
		if i%97 == 0 {
			alive[i] = 0
		}
	}
	z, live := jit.FromSlice(zs), jit.FromSlice(alive)
	m := Market{Spot: jit.Scalar(float32(100)), Vol: jit.Scalar(float32(0.2)), Rate: jit.Scalar(float32(0.03)), Maturity: 1}

	price := jit.Jit(callPrice)
	bumped := jit.Jit(bumpedPrice)
	start := time.Now()
	for _, k := range []float32{90, 100, 110, 90, 100, 110} {
		p := price.Call(m, jit.Scalar(k), z).Item()
		fd := (bumped.Call(m, jit.Scalar(k), z).Item() - p) / (100 * 1e-3)
		fmt.Printf("K=%5.1f  price %7.3f  fd-delta %.3f\n", k, p, fd)
	}
	fmt.Printf("priced in %v (last trace at %s)\n", time.Since(start).Round(time.Millisecond), lastPriced.Format("15:04:05"))

	delta := jit.Jit(jit.Grad[greeks](callPrice))
	g := delta.Call(m, jit.Scalar(float32(100)), z)
	fmt.Printf("pathwise delta %.4f  vega %.4f\n", g.Spot.Item(), g.Vol.Item())

	naive := jit.Grad[greeks](logContract)(m, z, live)
	safe := jit.Grad[greeks](logContractSafe)(m, z, live)
	fmt.Printf("log contract dV/dvol: naive %v  double-where %.4f\n", naive.Vol.Item(), safe.Vol.Item())

	ladder := jit.Jit(jit.Vmap(strikeValue, jit.InAxes(jit.NotMapped, 0, jit.NotMapped)))
	ks := jit.FromSlice([]float32{80, 90, 100, 110, 120})
	fmt.Println("strike ladder:", ladder.Call(m, ks, z))
}
