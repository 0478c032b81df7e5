// Command garchfit fits a GARCH(1,1) volatility model and an AR(p) mean model
// to simulated daily returns by gradient descent, then refits on an
// expanding window and forecasts variance.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// Params are unconstrained; Constrain maps them to omega > 0, alpha, beta in (0, 1).
type Params struct {
	Omega, Alpha, Beta jit.Array
}

func (p Params) Constrain() (omega, alpha, beta jit.Array) {
	return jit.Softplus(p.Omega).Mul(1e-5), p.Alpha.Logistic().Mul(0.3), p.Beta.Logistic()
}

func (p Params) Update(g Params, lr float64) Params {
	return Params{p.Omega.Sub(g.Omega.Mul(lr)), p.Alpha.Sub(g.Alpha.Mul(lr)), p.Beta.Sub(g.Beta.Mul(lr))}
}

var nllEvals int

// negLogLik is the Gaussian GARCH(1,1) negative log-likelihood; the variance
// recursion is a scan, weighted by mask so padded days do not count.
func negLogLik(p Params, r, mask jit.Array) jit.Array {
	nllEvals++ // want traceeffect
	omega, alpha, beta := p.Constrain()
	s0 := r.Mul(r).Mul(mask).Sum().Div(mask.Sum())
	_, terms := jit.Scan(func(s2 jit.Array, x []jit.Array) (jit.Array, jit.Array) {
		rt, m := x[0], x[1]
		ll := s2.Log().Add(rt.Mul(rt).Div(s2)).Mul(m)
		next := omega.Add(alpha.Mul(rt.Mul(rt))).Add(beta.Mul(s2))
		return jit.Where(m.Gt(0), next, s2), ll
	}, s0, []jit.Array{r, mask})
	return terms.Sum().Mul(0.5).Div(mask.Sum())
}

// arFit regresses r_t on p lags; the lag loop is short and static.
func arLoss(phi, r jit.Array) jit.Array {
	p := phi.Shape()[0]
	n := r.Shape()[0]
	pred := jit.Zeros(jit.Float32, n-p)
	for k := 0; k < p; k++ {
		lag := r.Slice([]int{p - 1 - k}, []int{n - 1 - k})
		pred = pred.Add(lag.Mul(phi.Slice([]int{k}, []int{k + 1})))
	}
	resid := r.Slice([]int{p}, []int{n}).Sub(pred)
	return resid.Mul(resid).Mean()
}

func simulate(n int, rng *rand.Rand) []float32 {
	omega, alpha, beta := 2e-6, 0.08, 0.9
	s2 := omega / (1 - alpha - beta)
	out := make([]float32, n)
	prev := 0.0
	for t := range out {
		e := math.Sqrt(s2) * rng.NormFloat64()
		x := 0.15*prev + e
		out[t] = float32(x)
		prev = x
		s2 = omega + alpha*e*e + beta*s2
	}
	return out
}

func describe(p Params) string {
	o, a, b := p.Constrain()
	return fmt.Sprintf("omega=%.2e alpha=%.3f beta=%.3f", o.Item(), a.Item(), b.Item())
}

func main() {
	rng := rand.New(rand.NewSource(3))
	series := simulate(512, rng)
	r := jit.FromSlice(series).Mul(100)
	ones := jit.Ones(jit.Float32, r.Shape()[0])

	step := jit.Jit(jit.ValueAndGrad[func(Params, jit.Array, jit.Array) (jit.Array, Params)](negLogLik))
	p := Params{jit.Scalar(float32(1)), jit.Scalar(float32(-1)), jit.Scalar(float32(1.5))}
	for it := 0; it < 120; it++ {
		loss, g := step.Call(p, r.Mul(0.1), ones)
		p = p.Update(g, 0.5)
		if it%40 == 0 {
			fmt.Printf("iter %3d  nll=%.5f  %s\n", it, loss.Item(), describe(p))
		}
	}
	fmt.Println("full-sample fit:", describe(p), "traces of nll:", nllEvals)

	// AR(5) mean model by plain gradient descent; p = 5 lags unrolls five slices.
	arStep := jit.Jit(func(phi, r jit.Array) (jit.Array, jit.Array) {
		loss, g := jit.ValueAndGrad[func(jit.Array, jit.Array) (jit.Array, jit.Array)](arLoss)(phi, r)
		return loss, phi.Sub(g.Mul(0.2))
	})
	phi := jit.Zeros(jit.Float32, 5)
	var arLossV jit.Array
	for it := 0; it < 80; it++ {
		arLossV, phi = arStep.Call(phi, r)
	}
	fmt.Printf("AR(5) mse=%.4f phi=%.3f\n", arLossV.Item(), phi.Float32s())

	// Expanding-window refits. The first attempt passed the raw prefix...
	refitGrad := jit.Jit(jit.Grad[func(Params, jit.Array, jit.Array) Params](negLogLik))
	for end := 400; end < 406; end++ {
		window := r.Slice([]int{0}, []int{end}).Mul(0.1)
		g := refitGrad.Call(p, window, jit.Ones(jit.Float32, end)) // want shapechurn
		p = p.Update(g, 0.1)
	}
	// ...the fix pads every prefix to 512 days with a mask: one signature.
	for end := 406; end < 420; end++ {
		padded, mask, err := jit.PadTo(r.Slice([]int{0}, []int{end}).Mul(0.1), 512)
		if err != nil {
			panic(err)
		}
		p = p.Update(refitGrad.Call(p, padded, mask), 0.1)
	}
	fmt.Println("expanding-window fit:", describe(p))

	// Variance forecast over the last 48 days, written as a host loop over days.
	filter := jit.Jit(func(p Params, r jit.Array) jit.Array {
		omega, alpha, beta := p.Constrain()
		s2 := r.Mul(r).Mean()
		n := r.Shape()[0]
		for t := 0; t < n; t++ { // want unrolledloop
			rt := r.Slice([]int{t}, []int{t + 1}).Reshape()
			s2 = omega.Add(alpha.Mul(rt.Mul(rt))).Add(beta.Mul(s2))
		}
		jit.DebugPrint("filtered variance %v", s2)
		return s2
	})
	tail := r.Slice([]int{464}, []int{512}).Mul(0.1)
	s2 := filter.Call(p, tail)

	// Persistence check: the first version branched on the traced sum.
	horizon := jit.Jit(func(p Params, s2 jit.Array) jit.Array {
		omega, alpha, beta := p.Constrain()
		pers := alpha.Add(beta)
		if pers.Ge(0.999).Bool() { // want tracedbool
			return s2
		}
		longRun := omega.Div(pers.Neg().Add(1))
		return longRun.Add(s2.Sub(longRun).Mul(pers.Pow(10)))
	})
	func() {
		defer func() {
			if e, ok := recover().(*jit.Error); ok {
				fmt.Println("horizon forecast needs jit.Cond:", e.Kind)
			}
		}()
		horizon.Call(p, s2)
	}()
	horizonFixed := jit.Jit(func(p Params, s2 jit.Array) jit.Array {
		omega, alpha, beta := p.Constrain()
		pers := alpha.Add(beta)
		longRun := omega.Div(pers.Neg().Add(1).Max(1e-4))
		return jit.Where(pers.Ge(0.999), s2, longRun.Add(s2.Sub(longRun).Mul(pers.Pow(10))))
	})
	h10 := horizonFixed.Call(p, s2)
	persistent := jit.Jit(func(p Params) jit.Array {
		_, a, b := p.Constrain()
		return a.Add(b).Ge(0.98)
	}).Call(p)
	if persistent.Bool() {
		fmt.Println("volatility is highly persistent")
	}
	fmt.Printf("1-day vol %.4f%%, 10-day-ahead vol %.4f%%\n", math.Sqrt(s2.Item())*10, math.Sqrt(h10.Item())*10)
}
