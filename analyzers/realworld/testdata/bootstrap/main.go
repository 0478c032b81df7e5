// Command bootstrap estimates a confidence interval by resampling on the
// host with math/rand/v2 generators and evaluating each resample with a
// jitted statistic; some variants draw random numbers inside the trace.
package main

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/jitlint/jitlint/jit"
)

// shared is the program's generator.
var shared = rand.New(rand.NewPCG(1, 2))

// trimmedMean is a robust statistic: the mean of the values clipped to
// two standard deviations.
func trimmedMean(x jit.Array) jit.Array {
	m := x.Mean()
	sd := x.Sub(m).Pow(2).Mean().Sqrt()
	return x.Min(m.Add(sd.Mul(2))).Max(m.Sub(sd.Mul(2))).Mean()
}

// jittered adds a jitter from the shared generator: drawn once, at trace
// time.
func jittered(x jit.Array) jit.Array {
	j := shared.Float64() * 1e-3 // want traceeffect
	return trimmedMean(x).Add(j)
}

// dropout picks a random column to drop with the global source.
func dropout(x jit.Array) jit.Array {
	k := rand.IntN(4) // want traceeffect
	return x.Mul(float64(k) / 4)
}

// fixedNoise draws from a generator it seeds itself: the same numbers on
// every call, traced or not.
func fixedNoise(x jit.Array) jit.Array {
	r := rand.New(rand.NewPCG(7, 7))
	return x.Add(r.NormFloat64() * 1e-3)
}

// resample draws a bootstrap resample of data with r (on the host).
func resample(r *rand.Rand, data []float32) []float32 {
	out := make([]float32, len(data))
	for i := range out {
		out[i] = data[r.IntN(len(data))]
	}
	return out
}

func main() {
	data := make([]float32, 50)
	for i := range data {
		data[i] = float32(i%10) + shared.Float32()
	}
	stat := jit.Jit(trimmedMean)
	jit1, drop, fixed := jit.Jit(jittered), jit.Jit(dropout), jit.Jit(fixedNoise)
	r := rand.New(rand.NewPCG(42, 0))
	var boots []float64
	for range 40 {
		x := jit.FromSlice(resample(r, data))
		boots = append(boots, stat.Call(x).Item())
		jit1.Call(x)
		drop.Call(x.Reshape(10, 5))
		fixed.Call(x)
	}
	slices.Sort(boots)
	fmt.Printf("95%% CI [%.3f, %.3f]\n", boots[1], boots[38])
	fmt.Println(jit1.Call(jit.FromSlice(data)).Item(), fixed.Call(jit.FromSlice(data)).Sum().Item())
}
