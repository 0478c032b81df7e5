// Command anomaly scores a day of multi-sensor readings for anomalies. A
// pipeline is a list of preprocessing stages (closures made by factories:
// detrend, clip, standardise) composed with a generic fold, followed by an
// ensemble of detectors looked up by name in a registry. The whole pipeline
// is one jitted function per configuration. The clipper of the first
// configuration is calibrated once on the first day's peak; the later ones
// clip each day by its own peak.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"corpus/nnkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	sensors   = 6
	seriesLen = 160
	window    = 4
)

// Stage transforms a [sensors, time] batch.
type Stage func(x jit.Array) jit.Array

// Detector scores each sensor of a [sensors, time] batch: [sensors].
type Detector func(x jit.Array) jit.Array

// Compose chains stages left to right.
func Compose(stages ...Stage) Stage {
	return func(x jit.Array) jit.Array {
		return nnkit.Reduce(stages, x, func(acc jit.Array, s Stage) jit.Array { return s(acc) })
	}
}

// Detrend removes each sensor's least-squares line.
func Detrend() Stage {
	t := jit.Arange(seriesLen, jit.Float32).Sub(float64(seriesLen-1) / 2)
	tt := t.Pow(2).Sum()
	return func(x jit.Array) jit.Array {
		mu := x.Mean(1).Reshape(-1, 1)
		slope := x.Sub(mu).Mul(t).Sum(1).Div(tt).Reshape(-1, 1)
		return x.Sub(mu).Sub(slope.Mul(t))
	}
}

// CalibratedClipper measures the peak of a reference batch once, on the
// host, and rescales every batch by the factor that brings that peak to
// limit.
func CalibratedClipper(ref jit.Array, limit float64) Stage {
	peak := ref.Abs().MaxReduce().Item()
	scale := 1.0
	if peak > limit {
		scale = limit / peak
	}
	return func(x jit.Array) jit.Array {
		return x.Mul(scale)
	}
}

// SoftClipper rescales each batch whose own peak exceeds limit, with the
// choice made on arrays.
func SoftClipper(limit float64) Stage {
	return func(x jit.Array) jit.Array {
		peak := x.Abs().MaxReduce()
		scale := jit.Where(peak.Gt(limit), peak.Div(limit), 1.0)
		return x.Div(scale)
	}
}

// Standardise scales each sensor to unit variance.
func Standardise() Stage {
	return func(x jit.Array) jit.Array {
		sd := x.Pow(2).Mean(1).Add(1e-6).Sqrt().Reshape(-1, 1)
		return x.Div(sd)
	}
}

// windowEnergy is the mean square of each non-overlapping window, one
// column per window: [sensors, time/win].
func windowEnergy(x jit.Array, win int) jit.Array {
	n := x.Shape()[1] / win
	cols := nnkit.Map(nnkit.Range(n), func(i int) jit.Array { // want unrolledloop
		w := x.Slice([]int{0, i * win}, []int{sensors, (i + 1) * win})
		return w.Pow(2).Mean(1).Reshape(-1, 1)
	})
	return jit.Concatenate(1, cols...)
}

// windowEnergyReshaped computes the same with one reshape.
func windowEnergyReshaped(x jit.Array, win int) jit.Array {
	return x.Reshape(sensors, -1, win).Pow(2).Mean(2)
}

// detectorFactories is the registry of detectors by name.
var detectorFactories = map[string]func(p float64) Detector{
	// fraction of samples beyond p standard deviations
	"zscore": func(p float64) Detector {
		return func(x jit.Array) jit.Array {
			return x.Abs().Gt(p).Astype(jit.Float32).Mean(1)
		}
	},
	// the largest window energy relative to the median-ish (mean) one
	"burst": func(p float64) Detector {
		return func(x jit.Array) jit.Array {
			e := windowEnergy(x, window)
			return e.MaxReduce(1).Div(e.Mean(1).Add(p))
		}
	},
	"burst-fast": func(p float64) Detector {
		return func(x jit.Array) jit.Array {
			e := windowEnergyReshaped(x, window)
			return e.MaxReduce(1).Div(e.Mean(1).Add(p))
		}
	},
	// energy in the low-frequency cosine bands
	"spectral": func(p float64) Detector {
		basis := cosineBasis(128, 8)
		return func(x jit.Array) jit.Array {
			return x.MatMul(basis).Pow(2).Mean(1).Div(p)
		}
	},
	// largest jump between consecutive samples
	"jump": func(p float64) Detector {
		return func(x jit.Array) jit.Array {
			d := x.Slice([]int{0, 1}, []int{sensors, seriesLen}).Sub(x.Slice([]int{0, 0}, []int{sensors, seriesLen - 1}))
			return d.Abs().MaxReduce(1).Div(p)
		}
	},
}

// cosineBasis is the [n, k] matrix of the first k DCT-II basis vectors.
func cosineBasis(n, k int) jit.Array {
	v := make([]float32, n*k)
	for t := 0; t < n; t++ {
		for f := 0; f < k; f++ {
			v[t*k+f] = float32(math.Cos(math.Pi * float64(f) * (float64(t) + 0.5) / float64(n)))
		}
	}
	return jit.FromSlice(v, n, k)
}

// Config names a pipeline's stages and detectors.
type Config struct {
	Name      string
	Stages    []Stage
	Detectors map[string]float64 // name -> parameter
}

// build composes the stages and averages the detectors' scores.
func build(cfg Config) (func(x jit.Array) jit.Array, error) {
	names := make([]string, 0, len(cfg.Detectors))
	for name := range cfg.Detectors {
		names = append(names, name)
	}
	sort.Strings(names)
	dets := make([]Detector, 0, len(names))
	for _, name := range names {
		mk, ok := detectorFactories[name]
		if !ok {
			return nil, fmt.Errorf("%s: no detector %q", cfg.Name, name)
		}
		dets = append(dets, mk(cfg.Detectors[name]))
	}
	pre := Compose(cfg.Stages...)
	return func(x jit.Array) jit.Array {
		clean := pre(x)
		total := nnkit.Reduce(dets, jit.Zeros(jit.Float32, sensors), func(acc jit.Array, d Detector) jit.Array {
			return acc.Add(d(clean))
		})
		return total.Div(float64(len(dets)))
	}, nil
}

// readings simulates one day of data: noisy sines with a drift, and a burst
// on one sensor.
func readings(rng *rand.Rand, day int) jit.Array {
	v := make([]float32, sensors*seriesLen)
	bad := day % sensors
	for s := 0; s < sensors; s++ {
		for t := 0; t < seriesLen; t++ {
			x := math.Sin(float64(t)*0.1*float64(s+1)) + 0.01*float64(t) + 0.2*rng.NormFloat64()
			if s == bad && t >= 80 && t < 88 {
				x += 4 * rng.NormFloat64()
			}
			v[s*seriesLen+t] = float32(x)
		}
	}
	return jit.FromSlice(v, sensors, seriesLen)
}

func main() {
	rng := rand.New(rand.NewSource(2024))
	days := make([]jit.Array, 4)
	for d := range days {
		days[d] = readings(rng, d)
	}

	configs := []Config{
		{
			Name:      "v1 (ported)",
			Stages:    []Stage{Detrend(), CalibratedClipper(days[0], 6), Standardise()},
			Detectors: map[string]float64{"zscore": 2.5, "burst": 0.1, "jump": 3},
		},
		{
			Name:      "v2",
			Stages:    []Stage{Detrend(), SoftClipper(6), Standardise()},
			Detectors: map[string]float64{"zscore": 2.5, "burst": 0.1, "jump": 3},
		},
		{
			Name:      "v2-fast",
			Stages:    []Stage{Detrend(), SoftClipper(6), Standardise()},
			Detectors: map[string]float64{"zscore": 2.5, "burst-fast": 0.1, "jump": 3},
		},
		{
			Name:      "v3 (draft)",
			Stages:    []Stage{Detrend(), Standardise()},
			Detectors: map[string]float64{"zscore": 2.5, "spectral": 1},
		},
		{
			Name:      "v4 (draft)",
			Stages:    []Stage{Detrend()},
			Detectors: map[string]float64{"wavelet": 1},
		},
	}

	results := map[string][][]float32{}
	for _, cfg := range configs {
		pipeline, err := build(cfg)
		if err != nil {
			fmt.Println("skipping:", err)
			continue
		}
		score := jit.Jit(pipeline)
		for d, x := range days {
			s, err := nnkit.TryCall(func() jit.Array { return score.Call(x) })
			if err != nil {
				fmt.Printf("%-12s day %d: trace failed: %v\n", cfg.Name, d, err)
				break
			}
			results[cfg.Name] = append(results[cfg.Name], s.Float32s())
		}
		st := score.Stats()
		fmt.Printf("%-12s traces=%d compiles=%d hits=%d\n", cfg.Name, st.Traces, st.Compiles, st.Hits)
	}

	for _, name := range []string{"v1 (ported)", "v2", "v2-fast"} {
		for d, scores := range results[name] {
			worst := 0
			for s := range scores {
				if scores[s] > scores[worst] {
					worst = s
				}
			}
			fmt.Printf("%-8s day %d: most anomalous sensor %d (score %.3f; injected %d)\n", name, d, worst, scores[worst], d%sensors)
		}
	}
}
