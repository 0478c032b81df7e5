// genericops smooths and summarises noisy signals with generic Go helpers
// (Map, Fold, Pairwise, RoundUp, ToHost, a typed Registry) used both inside
// jitted functions and on the host.
package main

import (
	"fmt"
	"log"

	"github.com/jitlint/jitlint/jit"
)

const sigLen = 64

var seen = NewRegistry[string, string]()

// multiScale averages the signal smoothed at a few scales.
func multiScale(x jit.Array) jit.Array {
	scales := []float64{0.5, 1, 2, 4}
	parts := Map(scales, func(s float64) jit.Array { return x.Mul(s).Tanh().Div(s) })
	return Fold(parts, jit.Zeros(jit.Float32, sigLen), func(acc, p jit.Array) jit.Array { return acc.Add(p) }).Div(len(parts))
}

// fir applies a moving-average filter with the given number of taps.
func fir(x jit.Array, taps int) jit.Array {
	n := x.Shape()[0] - taps + 1
	shifted := Map(Range(taps), func(k int) jit.Array { return x.Slice([]int{k}, []int{k + n}) })
	return Fold(shifted, jit.Zeros(jit.Float32, n), func(acc, s jit.Array) jit.Array { return acc.Add(s) }).Div(taps)
}

// roughness is the mean squared difference of 33 evenly spaced samples.
func roughness(x jit.Array) jit.Array {
	const knots = 33
	step := (sigLen - 1) / (knots - 1)
	pts := Map(Range(knots), func(i int) jit.Array { return x.Slice([]int{i * step}, []int{i*step + 1}) })
	diffs := Pairwise(pts, func(a, b jit.Array) jit.Array { return b.Sub(a).Pow(2) })
	total := jit.Zeros(jit.Float32, 1)
	for _, d := range diffs {
		total = total.Add(d)
	}
	return total.Div(len(diffs)).Reshape()
}

// summary scales and shifts by a static (gain, bias) configuration.
func summary(x jit.Array, cfg Pair[float64, float64]) Pair[jit.Array, jit.Array] {
	seen.Put(fmt.Sprint(cfg), fmt.Sprint(x.Shape()))
	y := x.Mul(cfg.First).Add(cfg.Second)
	return Pair[jit.Array, jit.Array]{First: y.Mean(), Second: y.MaxReduce()}
}

// maskedMean averages the first n entries of a padded sequence.
func maskedMean(x, mask jit.Array) jit.Array {
	return x.Mul(mask).Sum().Div(mask.Sum())
}

// medianish picks a robust centre using host-side sorting.
func medianish(x jit.Array) jit.Array {
	vals := ToHost[float32](x)
	return x.Sub(vals[len(vals)/2])
}

func signal(n int, phase float64) jit.Array {
	t := jit.Arange(n, jit.Float32).Mul(0.3).Add(phase)
	return t.Sin().Add(t.Mul(3.7).Sin().Mul(0.3))
}

func main() {
	x := signal(sigLen, 0)

	ms := jit.Jit(multiScale).Call(x)
	fmt.Printf("multi-scale mean %.4f\n", ms.Mean().Item())

	smooth := jit.Jit(fir, jit.StaticArgnums(1))
	for i := 0; i < 10; i++ {
		y := smooth.Call(signal(sigLen, float64(i)), 48)
		host := ToHost[float32](y)
		fmt.Printf("frame %d: fir[0]=%.4f sum=%.4f\n", i, host[0], Sum(host))
	}

	r := jit.Jit(roughness).Call(x)
	fmt.Printf("roughness %.5f\n", r.Item())

	sum := jit.Jit(summary, jit.StaticArgnums(1))
	for i := 0; i < 40; i++ {
		cfg := Pair[float64, float64]{First: 1, Second: 0}
		if i%10 == 9 {
			cfg = Pair[float64, float64]{First: 2, Second: -1}
		}
		out := sum.Call(signal(sigLen, float64(i)*0.1), cfg)
		if i%10 == 9 {
			fmt.Printf("summary %d: mean %.4f max %.4f\n", i, out.First.Item(), out.Second.Item())
		}
	}
	log.Printf("summary traced for %v", seen)

	mean := jit.Jit(maskedMean)
	lengths := Map(Range(12), func(i int) int { return 3 + 3*i })
	for _, n := range lengths {
		size := RoundUp(n, 16)
		padded, mask, err := jit.PadTo(signal(n, 0.5), size)
		if err != nil {
			panic(err)
		}
		m := mean.Call(padded, mask)
		fmt.Printf("len %2d (padded to %2d): mean %.4f\n", n, size, m.Item())
	}

	hostMean := Sum(ToHost[float64](x)) / sigLen
	fmt.Printf("host mean %.4f\n", hostMean)
	jit.Jit(medianish).Call(x).BlockUntilReady()
}
