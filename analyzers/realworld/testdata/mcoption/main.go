// Command mcoption prices options by Monte Carlo under geometric Brownian
// motion, ported from a NumPy notebook (and its jax.jit rewrite):
//
//   - an arithmetic-average Asian option, paths simulated with lax.scan over
//     the monitoring dates, priced in fixed-size chunks of paths;
//   - a convergence study of the Asian price in the number of paths;
//   - a European strike ladder checked against Black–Scholes;
//   - pathwise deltas with vmap(grad(payoff)) and bump-and-revalue deltas.
//
// Normals are drawn on the host with a seeded generator so runs repeat.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"

	"corpus/numkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	nDates    = 32   // monitoring dates of the Asian option
	chunkSize = 4096 // paths per device call
	spot      = 100.0
	rate      = 0.03
	vol       = 0.25
)

// Market holds the model parameters as scalars (bumped for the greeks).
type Market struct {
	S0, Rate, Vol, T jit.Array
}

func newMarket(s0, r, sigma, t float64) Market {
	f := func(v float64) jit.Array { return jit.Scalar(float32(v)) }
	return Market{S0: f(s0), Rate: f(r), Vol: f(sigma), T: f(t)}
}

type pathState struct {
	S, Sum jit.Array
}

// AsianSums simulates one chunk of paths (z is [nDates, nPaths], w the
// per-path weights, 0 for padding) and returns the weighted sum of the
// discounted payoffs and of their squares, for a host-side mean and
// standard error. kind is "call" or "put".
func AsianSums(kind string, strike float64, z, w jit.Array, m Market) (jit.Array, jit.Array) {
	steps := z.Shape()[0]
	dt := m.T.Div(float64(steps))
	drift := m.Rate.Sub(m.Vol.Mul(m.Vol).Mul(0.5)).Mul(dt)
	diffusion := m.Vol.Mul(dt.Sqrt())
	s0 := jit.Full(1, z.Dtype(), z.Shape()[1]).Mul(m.S0)
	init := pathState{S: s0, Sum: jit.Zeros(z.Dtype(), z.Shape()[1])}
	final, _ := jit.Scan(func(c pathState, x jit.Array) (pathState, struct{}) {
		s := c.S.Mul(drift.Add(diffusion.Mul(x)).Exp())
		return pathState{S: s, Sum: c.Sum.Add(s)}, struct{}{}
	}, init, z)
	avg := final.Sum.Div(float64(steps))
	var payoff jit.Array
	if kind == "call" {
		payoff = jit.Relu(avg.Sub(strike))
	} else {
		payoff = jit.Relu(avg.Neg().Add(strike))
	}
	disc := payoff.Mul(m.Rate.Mul(m.T).Neg().Exp()).Mul(w)
	return disc.Sum(), disc.Mul(disc).Sum()
}

// EuropeanCall prices a European call with one lognormal step per path.
// The strike is a static argument: it only enters the payoff.
func EuropeanCall(strike float64, z jit.Array, m Market) jit.Array {
	st := terminal(m.S0, z, m)
	return jit.Relu(st.Sub(strike)).Mean().Mul(m.Rate.Mul(m.T).Neg().Exp())
}

// terminal is S_T = S0 exp((r - σ²/2) T + σ √T z).
func terminal(s0, z jit.Array, m Market) jit.Array {
	drift := m.Rate.Sub(m.Vol.Mul(m.Vol).Mul(0.5)).Mul(m.T)
	return s0.Mul(drift.Add(m.Vol.Mul(m.T.Sqrt()).Mul(z)).Exp())
}

// callPayoff is the discounted payoff of one path as a function of S0,
// for the pathwise (likelihood-free) delta.
func callPayoff(s0, z, strike jit.Array, m Market) jit.Array {
	return jit.Relu(terminal(s0, z, m).Sub(strike)).Mul(m.Rate.Mul(m.T).Neg().Exp())
}

// pathwiseDelta is d payoff / d S0 for every path.
var pathwiseDelta = jit.Vmap(
	jit.Grad[func(s0, z, strike jit.Array, m Market) jit.Array](callPayoff),
	jit.InAxes(jit.NotMapped, 0, jit.NotMapped, jit.NotMapped))

// MeanDelta averages the pathwise deltas.
func MeanDelta(z, strike jit.Array, m Market) jit.Array {
	return pathwiseDelta(m.S0, z, strike, m).Mean()
}

// blackScholesCall is the closed form price and delta.
func blackScholesCall(s, k, r, sigma, t float64) (price, delta float64) {
	ncdf := func(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }
	d1 := (math.Log(s/k) + (r+sigma*sigma/2)*t) / (sigma * math.Sqrt(t))
	d2 := d1 - sigma*math.Sqrt(t)
	return s*ncdf(d1) - k*math.Exp(-r*t)*ncdf(d2), ncdf(d1)
}

// priceAsian prices nPaths paths in chunks of chunkSize; the last chunk is
// padded with zero weights, so every call has the same shapes.
func priceAsian(f *jit.Func[func(string, float64, jit.Array, jit.Array, Market) (jit.Array, jit.Array)],
	rng *rand.Rand, kind string, strike float64, nPaths int, m Market) (mean, se float64) {
	var s1, s2 float64
	for done := 0; done < nPaths; done += chunkSize {
		n := min(chunkSize, nPaths-done)
		z := numkit.Normals(rng, nDates*chunkSize)
		w := make([]float32, chunkSize)
		for i := 0; i < n; i++ {
			w[i] = 1
		}
		a, b := f.Call(kind, strike, jit.FromSlice(z, nDates, chunkSize), jit.FromSlice(w), m)
		s1 += a.Item()
		s2 += b.Item()
	}
	mean = s1 / float64(nPaths)
	variance := s2/float64(nPaths) - mean*mean
	return mean, math.Sqrt(math.Max(variance, 0) / float64(nPaths))
}

func main() {
	rng := rand.New(rand.NewSource(20240611))
	log := numkit.NewRunLog(os.Stdout, 1)
	asian := jit.Jit(AsianSums, jit.StaticArgnums(0, 1))

	// Asian calls and puts across maturities: kind alternates between two
	// values, the maturity is traced.
	fmt.Println("arithmetic Asian options, K=100, 10000 paths each")
	for i, t := range []float64{0.25, 0.5, 1, 2} {
		m := newMarket(spot, rate, vol, t)
		c, cse := priceAsian(asian, rng, "call", 100, 10000, m)
		p, pse := priceAsian(asian, rng, "put", 100, 10000, m)
		log.Step(i, "T=%.2f  call %.4f ± %.4f   put %.4f ± %.4f", t, c, cse, p, pse)
	}
	fmt.Printf("AsianSums compiles=%d hits=%d\n", asian.Stats().Compiles, asian.Stats().Hits)

	// Convergence of the Monte Carlo estimate in the number of paths.
	fmt.Println("convergence study, T=1 call:")
	m1 := newMarket(spot, rate, vol, 1)
	for n := 1000; n <= 32000; n *= 2 {
		z := jit.FromSlice(numkit.Normals(rng, nDates*n), nDates, n)
		a, b := asian.Call("call", 100, z, jit.Ones(jit.Float32, n), m1) // want shapechurn
		mean := a.Item() / float64(n)
		se := math.Sqrt(math.Max(b.Item()/float64(n)-mean*mean, 0) / float64(n))
		fmt.Printf("  n=%6d  price %.4f  stderr %.4f  stderr*sqrt(n) %.2f\n", n, mean, se, se*math.Sqrt(float64(n)))
	}

	// European strike ladder against Black–Scholes.
	// Antithetic pairs: z and -z.
	const nEuro = 1 << 15
	half := numkit.Normals(rng, nEuro/2)
	anti := make([]float32, 0, nEuro)
	anti = append(anti, half...)
	for _, v := range half {
		anti = append(anti, -v)
	}
	zEuro := jit.FromSlice(anti)
	euro := jit.Jit(EuropeanCall, jit.StaticArgnums(0))
	fmt.Println("European calls, T=1:")
	for k := 80.0; k <= 120; k += 5 {
		mc := euro.Call(k, zEuro, m1).Item() // want staticargs
		bs, _ := blackScholesCall(spot, k, rate, vol, 1)
		fmt.Printf("  K=%5.1f  MC %.4f  BS %.4f  diff %+.4f\n", k, mc, bs, mc-bs)
	}
	fmt.Printf("EuropeanCall compiles=%d\n", euro.Stats().Compiles)

	// Deltas at K=100: pathwise (vmap of grad), bump-and-revalue, closed form.
	delta := jit.Jit(MeanDelta)
	pw := delta.Call(zEuro, jit.Scalar(float32(100)), m1).Item()
	const bump = 0.5
	up := euro.Call(100, zEuro, newMarket(spot+bump, rate, vol, 1)).Item()
	down := euro.Call(100, zEuro, newMarket(spot-bump, rate, vol, 1)).Item()
	_, bsDelta := blackScholesCall(spot, 100, rate, vol, 1)
	fmt.Printf("delta: pathwise %.4f  bump %.4f  Black–Scholes %.4f\n", pw, (up-down)/(2*bump), bsDelta)

	// Vega by bumping the volatility.
	for _, dv := range []float64{-0.01, 0.01} {
		p := euro.Call(100, zEuro, newMarket(spot, rate, vol+dv, 1)).Item()
		fmt.Printf("  vol %.2f: price %.4f\n", vol+dv, p)
	}
	fmt.Printf("EuropeanCall compiles=%d hits=%d, MeanDelta compiles=%d\n",
		euro.Stats().Compiles, euro.Stats().Hits, delta.Stats().Compiles)
}
