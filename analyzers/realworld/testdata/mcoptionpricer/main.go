// mcoptionpricer prices European, barrier and Asian options on a
// geometric Brownian motion by Monte Carlo, with paths drawn on the host in
// batches and priced by jitted kernels.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	spot     = 100.0
	rate     = 0.03
	vol      = 0.25
	maturity = 1.0
	batch    = 4096
)

// Contract is the pytree passed to the pricing kernels: market data as
// arrays, contract terms as static fields.
type Contract struct {
	Spot, Rate, Vol jit.Array
	Strike          float64 `jit:"static"`
	Put             bool    `jit:"static"`
}

// Terminal maps standard normals to prices at maturity.
func (c Contract) Terminal(z jit.Array) jit.Array {
	drift := c.Rate.Sub(c.Vol.Mul(c.Vol).Mul(0.5)).Mul(maturity)
	return c.Spot.Mul(drift.Add(c.Vol.Mul(math.Sqrt(maturity)).Mul(z)).Exp())
}

// Price is the discounted mean payoff over one batch of normals.
func (c Contract) Price(z jit.Array) jit.Array {
	st := c.Terminal(z)
	var payoff jit.Array
	if c.Put {
		payoff = st.Sub(c.Strike).Neg().Max(0)
	} else {
		payoff = st.Sub(c.Strike).Max(0)
	}
	return payoff.Mean().Mul(c.Rate.Mul(-maturity).Exp())
}

// MaskedPrice prices a padded batch: mask is 1 for real paths.
func MaskedPrice(c Contract, z, mask jit.Array) jit.Array {
	payoff := c.Terminal(z).Sub(c.Strike).Max(0).Mul(mask)
	return payoff.Sum().Div(mask.Sum().Max(1)).Mul(c.Rate.Mul(-maturity).Exp())
}

// DiscountFactor is exp(-r T).
func DiscountFactor(r jit.Array) jit.Array { return r.Mul(-maturity).Exp() }

var pathsPriced int

// KnockOut prices an up-and-out call on monitored paths z[paths, dates].
func KnockOut(c Contract, z jit.Array, barrier float64) jit.Array {
	dates := z.Shape()[1]
	dt := maturity / float64(dates)
	pathsPriced += z.Shape()[0] // want traceeffect
	steps := c.Rate.Sub(c.Vol.Mul(c.Vol).Mul(0.5)).Mul(dt).Add(c.Vol.Mul(math.Sqrt(dt)).Mul(z))
	logS, _ := jit.Scan(func(acc, dz jit.Array) (jit.Array, jit.Array) {
		next := acc.Add(dz)
		return next, next
	}, jit.Zeros(jit.Float32, z.Shape()[0]), steps.Transpose())
	path := c.Spot.Mul(logS.Exp())
	if path.MaxReduce().Gt(barrier).Bool() { // want tracedbool
		return jit.Zeros(jit.Float32)
	}
	return path.MaxReduce()
}

// AsianArith averages the path over its monitoring dates with a host loop.
func AsianArith(c Contract, z jit.Array) jit.Array {
	dates := z.Shape()[1]
	dt := maturity / float64(dates)
	logS := jit.Zeros(jit.Float32, z.Shape()[0])
	sum := jit.Zeros(jit.Float32, z.Shape()[0])
	for d := 0; d < dates; d++ { // want unrolledloop
		dz := z.Slice([]int{0, d}, []int{z.Shape()[0], d + 1}).Reshape(z.Shape()[0])
		logS = logS.Add(c.Rate.Sub(c.Vol.Mul(c.Vol).Mul(0.5)).Mul(dt)).Add(c.Vol.Mul(math.Sqrt(dt)).Mul(dz))
		sum = sum.Add(c.Spot.Mul(logS.Exp()))
	}
	avg := sum.Div(float64(dates))
	return avg.Sub(c.Strike).Max(0).Mean().Mul(DiscountFactor(c.Rate))
}

func normals(rng *rand.Rand, shape ...int) jit.Array {
	n := 1
	for _, s := range shape {
		n *= s
	}
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(rng.NormFloat64())
	}
	return jit.FromSlice(xs, shape...)
}

func blackScholesCall(k float64) float64 {
	d1 := (math.Log(spot/k) + (rate+vol*vol/2)*maturity) / (vol * math.Sqrt(maturity))
	d2 := d1 - vol*math.Sqrt(maturity)
	n := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	return spot*n(d1) - k*math.Exp(-rate*maturity)*n(d2)
}

func main() {
	rng := rand.New(rand.NewSource(7))
	mkt := Contract{Spot: jit.Scalar[float32](spot), Rate: jit.Scalar[float32](rate), Vol: jit.Scalar[float32](vol)}
	price := jit.Jit(Contract.Price)

	// A strike ladder: the strike is a static field, so each rung compiles.
	z := normals(rng, batch)
	for k := 80.0; k <= 120; k += 10 {
		c := mkt
		c.Strike = k
		mc := price.Call(c, z).Item() // want staticargs
		fmt.Printf("K=%5.1f  MC %.3f  BS %.3f\n", k, mc, blackScholesCall(k))
	}

	// Call and put at the money, alternating: two programs for 16 calls.
	parity := 0.0
	for i := 0; i < 16; i++ {
		c := mkt
		c.Strike, c.Put = 100, i%2 == 1
		v := price.Call(c, normals(rng, batch)).Item()
		if c.Put {
			parity -= v
		} else {
			parity += v
		}
	}
	fmt.Printf("mean call-put over 8 pairs %.3f (parity %.3f)\n", parity/8, spot-100*math.Exp(-rate*maturity))

	// Adaptive sampling: grow the batch until the estimate settles.
	c := mkt
	c.Strike = 100
	prev := 0.0
	for n := 1000; n <= 6000; n += 1000 {
		est := price.Call(c, normals(rng, n)).Item() // want shapechurn
		fmt.Printf("n=%d estimate %.3f change %.3f\n", n, est, est-prev)
		prev = est
	}

	// The same adaptive loop padded to one batch size: one program.
	masked := jit.Jit(MaskedPrice)
	for n := 1000; n <= 4000; n += 1000 {
		zp, mask, err := jit.PadTo(normals(rng, n), batch)
		if err != nil {
			panic(err)
		}
		fmt.Printf("padded n=%d estimate %.3f\n", n, masked.Call(c, zp, mask).Item())
	}
	fmt.Printf("masked compiles %d\n", masked.Stats().Compiles)

	// One pricer per desk request, each a fresh closure.
	for _, k := range []float64{95, 100, 105} {
		strike := k
		quote := jit.Jit(func(c Contract, z jit.Array) jit.Array { // want staticargs
			return c.Terminal(z).Sub(strike).Max(0).Mean()
		})
		df := jit.Jit(DiscountFactor).Call(mkt.Rate).Item()
		fmt.Printf("desk quote K=%.0f %.3f\n", k, quote.Call(mkt, z).Item()*df)
	}

	// Barrier option: the knock-out test is a host if on a traced value.
	ko := jit.Jit(KnockOut, jit.StaticArgnums(2))
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("knock-out pricing failed:", r.(*jit.Error).Kind)
			}
		}()
		ko.Call(c, normals(rng, 512, 12), 130.0)
	}()
	fmt.Printf("paths priced (per trace): %d\n", pathsPriced)

	// Asian options: 64 monthly-ish fixings unrolled, then 16 fixings.
	asian := jit.Jit(AsianArith)
	fmt.Printf("asian 64 fixings %.3f\n", asian.Call(c, normals(rng, 1024, 64)).Item())
	fmt.Printf("asian 16 fixings %.3f\n", asian.Call(c, normals(rng, 1024, 16)).Item())
}
