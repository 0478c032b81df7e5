// Command impliedvol backs out Black-Scholes implied volatilities for a book
// of quoted European options, vectorized over the book. Newton's method runs
// per quote until the pricing error is below tolerance, with vega taken from
// the gradient of the pricer; a fixed-step bisection gives a second opinion.
// Finally a strip of strikes is priced under a chosen model (Black-Scholes
// or Bachelier).
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

type Quote struct {
	S, K, T, IsCall jit.Array // spot, strike, years, call flag
}

// ncdf is a tanh approximation of the standard normal CDF.
func ncdf(x jit.Array) jit.Array {
	return x.Add(x.Pow(3).Mul(0.044715)).Mul(math.Sqrt(2 / math.Pi)).Tanh().Add(1).Mul(0.5)
}

const rate = 0.02

func callPrice(q Quote, vol jit.Array) jit.Array {
	sq := vol.Mul(q.T.Sqrt())
	d1 := q.S.Div(q.K).Log().Add(vol.Mul(vol).Mul(0.5).Add(rate).Mul(q.T)).Div(sq)
	d2 := d1.Sub(sq)
	disc := q.T.Mul(-rate).Exp()
	return q.S.Mul(ncdf(d1)).Sub(q.K.Mul(disc).Mul(ncdf(d2)))
}

type priced struct {
	Q   Quote
	Vol jit.Array
}

func bsPrice(q Quote, vol jit.Array) jit.Array {
	return jit.Cond(q.IsCall, // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		func(p priced) jit.Array { return callPrice(p.Q, p.Vol) },
		func(p priced) jit.Array { // put-call parity
			return callPrice(p.Q, p.Vol).Sub(p.Q.S).Add(p.Q.K.Mul(p.Q.T.Mul(-rate).Exp()))
		}, priced{q, vol})
}

var vega = jit.Grad[func(jit.Array, Quote) jit.Array](func(vol jit.Array, q Quote) jit.Array { return bsPrice(q, vol) })

type newton struct {
	Vol, Err, Iter jit.Array
}

func impliedNewton(q Quote, price, tol jit.Array) jit.Array {
	init := newton{jit.Scalar(float32(0.3)), jit.Scalar(float32(1)), jit.Scalar(int32(0))}
	out := jit.WhileLoop(func(s newton) jit.Array { return s.Err.Gt(tol).And(s.Iter.Lt(30)) }, // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		func(s newton) newton {
			diff := bsPrice(q, s.Vol).Sub(price)
			v := s.Vol.Sub(diff.Div(vega(s.Vol, q).Max(1e-4))).Max(1e-3)
			return newton{v, diff.Abs(), s.Iter.Add(1)}
		}, init)
	return out.Vol
}

type bracket struct {
	Lo, Hi, Iter jit.Array
}

func impliedBisect(q Quote, price jit.Array, steps jit.Array) jit.Array {
	init := bracket{jit.Scalar(float32(0.01)), jit.Scalar(float32(2)), jit.Scalar(int32(0))}
	out := jit.WhileLoop(func(b bracket) jit.Array { return b.Iter.Lt(steps) },
		func(b bracket) bracket {
			mid := b.Lo.Add(b.Hi).Mul(0.5)
			high := bsPrice(q, mid).Gt(price)
			return bracket{jit.Where(high, b.Lo, mid), jit.Where(high, mid, b.Hi), b.Iter.Add(1)}
		}, init)
	return out.Lo.Add(out.Hi).Mul(0.5)
}

func bachelier(p priced) jit.Array {
	sd := p.Vol.Mul(p.Q.S).Mul(p.Q.T.Sqrt())
	d := p.Q.S.Sub(p.Q.K).Div(sd)
	pdf := d.Mul(d).Mul(-0.5).Exp().Mul(1 / math.Sqrt(2*math.Pi))
	return p.Q.S.Sub(p.Q.K).Mul(ncdf(d)).Add(sd.Mul(pdf))
}

func stripPrice(q Quote, vol, model jit.Array) jit.Array {
	return jit.Switch(model, []func(priced) jit.Array{
		func(p priced) jit.Array { return callPrice(p.Q, p.Vol) },
		bachelier,
	}, priced{q, vol})
}

func main() {
	strikes := []float32{80, 90, 100, 110, 120, 95}
	book := Quote{
		S:      jit.Full(100, jit.Float32, 6),
		K:      jit.FromSlice(strikes),
		T:      jit.FromSlice([]float32{0.5, 0.5, 1, 1, 2, 0.25}),
		IsCall: jit.FromSlice([]bool{false, false, true, true, true, false}),
	}
	trueVol := jit.FromSlice([]float32{0.32, 0.27, 0.22, 0.2, 0.24, 0.25})
	prices := jit.Vmap(bsPrice)(book, trueVol)
	fmt.Println("quoted prices:", prices)

	newtonAll := jit.Jit(jit.Vmap(impliedNewton, jit.InAxes(0, 0, jit.NotMapped)))
	bisectAll := jit.Jit(jit.Vmap(impliedBisect, jit.InAxes(0, 0, jit.NotMapped)))
	tol := jit.Scalar(float32(1e-4))
	fmt.Println("newton vols:   ", newtonAll.Call(book, prices, tol))
	fmt.Println("bisection vols:", bisectAll.Call(book, prices, jit.Scalar(int32(25))))

	strip := Quote{S: jit.Full(100, jit.Float32, 5), K: jit.FromSlice([]float32{90, 95, 100, 105, 110}),
		T: jit.Full(1, jit.Float32, 5), IsCall: jit.FromSlice([]bool{true, true, true, true, true})}
	priceStrip := jit.Vmap(stripPrice, jit.InAxes(0, jit.NotMapped, jit.NotMapped))
	for m, name := range []string{"black-scholes", "bachelier"} {
		fmt.Printf("%-13s strip: %v\n", name, priceStrip(strip, jit.Scalar(float32(0.2)), jit.Scalar(int32(m))))
	}

	for _, show := range []struct {
		name string
		fn   any
		args []any
	}{
		{"newton", jit.Vmap(impliedNewton, jit.InAxes(0, 0, jit.NotMapped)), []any{book, prices, tol}},
		{"bisection", jit.Vmap(impliedBisect, jit.InAxes(0, 0, jit.NotMapped)), []any{book, prices, jit.Scalar(int32(25))}},
		{"strip", priceStrip, []any{strip, jit.Scalar(float32(0.2)), jit.Scalar(int32(0))}},
	} {
		cj, err := jit.MakeJaxpr(show.fn)(show.args...)
		if err != nil {
			panic(err)
		}
		fmt.Printf("jaxpr of vmap(%s):\n%v\n", show.name, cj)
	}
}
