// Command anomaly_monitor scores per-minute metrics for anomalies: hourly
// windows of 60 samples, daily profiles of 24 hours, and an alert count.
package main

import (
	"fmt"
	"math"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const (
	minutes = 60
	hours   = 24
)

var lastScored time.Time

// ScoreHour z-scores one hour of samples against a rolling baseline built
// minute by minute.
func ScoreHour(x jit.Array) jit.Array {
	lastScored = time.Now() // want traceeffect
	base := x.Slice([]int{0}, []int{1})
	var devs []jit.Array
	for m := 1; m < minutes; m++ { // want unrolledloop
		cur := x.Slice([]int{m}, []int{m + 1})
		devs = append(devs, cur.Sub(base).Abs())
		base = base.Mul(0.9).Add(cur.Mul(0.1))
	}
	d := jit.Concatenate(0, devs...)
	return d.Div(d.Mean().Add(1e-3))
}

// ScoreHourScan is ScoreHour with the rolling baseline in a Scan.
func ScoreHourScan(x jit.Array) jit.Array {
	rest := x.Slice([]int{1}, []int{minutes})
	_, devs := jit.Scan(func(base, cur jit.Array) (jit.Array, jit.Array) {
		return base.Mul(0.9).Add(cur.Mul(0.1)), cur.Sub(base).Abs()
	}, x.Slice([]int{0}, []int{1}).Reshape(), rest)
	return devs.Div(devs.Mean().Add(1e-3))
}

// DailyProfile averages each hour of a [hours*minutes] day; the loop over
// 24 hours is small enough to stage directly.
func DailyProfile(day jit.Array) jit.Array {
	parts := make([]jit.Array, 0, hours)
	for h := 0; h < hours; h++ {
		parts = append(parts, day.Slice([]int{h * minutes}, []int{(h + 1) * minutes}).Mean().Reshape(1))
	}
	return jit.Concatenate(0, parts...)
}

// Smooth is a moving average whose window (static) is one of a few sizes.
func Smooth(x jit.Array, window int) jit.Array {
	n := x.Shape()[0] - window + 1
	acc := x.Slice([]int{0}, []int{n})
	for k := 1; k < window; k++ {
		acc = acc.Add(x.Slice([]int{k}, []int{k + n}))
	}
	return acc.Div(window)
}

// AlertCount counts anomalous minutes and returns a per-alert array.
func AlertCount(scores jit.Array, threshold float64) jit.Array {
	n := scores.Gt(threshold).Astype(jit.Int32).Sum().Int() // want tracedbool
	return jit.Ones(jit.Float32, n)
}

func metric(day int) []float32 {
	v := make([]float32, hours*minutes)
	for i := range v {
		t := float64(i) / minutes
		v[i] = float32(10 + 3*math.Sin(2*math.Pi*t/24) + 0.2*math.Sin(float64(i*7+day)))
		if i%517 == day {
			v[i] += 6 // an incident
		}
	}
	return v
}

func main() {
	score := jit.Jit(ScoreHour)
	scoreS := jit.Jit(ScoreHourScan)
	profile := jit.Jit(DailyProfile)
	smooth := jit.Jit(Smooth, jit.StaticArgnums(1))
	windows := []int{3, 5, 15}

	alerts := 0
	maxDiff := 0.0
	for day := 0; day < 3; day++ {
		v := metric(day)
		prof := profile.Call(jit.FromSlice(v))
		for h := 0; h < hours; h += 6 {
			hour := jit.FromSlice(v[h*minutes : (h+1)*minutes])
			a := score.Call(hour)
			b := scoreS.Call(hour)
			maxDiff = math.Max(maxDiff, a.Sub(b).Abs().MaxReduce().Item())
			for _, s := range b.Float32s() {
				if s > 4 {
					alerts++
				}
			}
			for _, w := range windows {
				smooth.Call(hour, w)
			}
		}
		fmt.Printf("day %d: peak hour mean %.2f\n", day, prof.MaxReduce().Item())
	}
	fmt.Printf("loop vs scan max diff %.2g\n", maxDiff)
	fmt.Printf("alerts %d, smooth compiles %d, last scored at trace %v\n",
		alerts, smooth.Stats().Compiles, !lastScored.IsZero())

	// Per-metric thresholds: closures made once per metric, reused all day.
	thresholds := map[string]float64{"cpu": 3, "latency": 4}
	gates := map[string]*jit.Func[func(jit.Array) jit.Array]{}
	for name, th := range thresholds {
		gates[name] = jit.Jit(func(s jit.Array) jit.Array { return s.Gt(th).Astype(jit.Float32).Sum() })
	}
	hour := jit.FromSlice(metric(0)[:minutes])
	for i := 0; i < 8; i++ {
		for _, name := range []string{"cpu", "latency"} {
			gates[name].Call(scoreS.Call(hour))
		}
	}

	count := jit.Jit(AlertCount, jit.StaticArgnums(1))
	fmt.Println("alerts (jit):", count.Call(scoreS.Call(hour), 4.0).Size())
}
