// Command rollingstats is the Go port of our station-monitoring notebook:
// for each air-quality station it computes the rolling z-score of the daily
// PM2.5 reading against the trailing week and month (pandas'
// s.rolling(7).mean() / .std()), an exponentially weighted level, the
// weekday profile, and the autocorrelation function used to pick the
// seasonal period. Stations came online on different dates, so their
// histories have ragged lengths.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"corpus/rolling"

	"github.com/jitlint/jitlint/jit"
)

const (
	weekWindow  = 7
	monthWindow = 28
	maxLag      = 40   // ACF lags 1..maxLag, as statsmodels' acf(nlags=40)
	ewmAlpha    = 0.15 // pandas ewm(alpha=0.15, adjust=False)
	zAlert      = 2.0
)

// Padded lengths for the batched kernels: every station fits the smallest
// bucket that holds its history.
var buckets = []int{64, 128}

type station struct {
	name  string
	start int // weekday of the first reading, 0 = Monday
	pm25  []float32
}

// makeFleet simulates daily PM2.5 readings: a weekly cycle (traffic), a slow
// seasonal drift, noise, and the odd wildfire spike.
func makeFleet(rng *rand.Rand) []station {
	names := []string{"harbour", "ring-road", "university", "airport", "old-town", "hillside", "cathedral"}
	lengths := []int{45, 61, 73, 88, 97, 112, 151}
	fleet := make([]station, len(names))
	for s, name := range names {
		n := lengths[s]
		start := rng.Intn(7)
		x := make([]float32, n)
		base := 12 + 6*rng.Float64()
		for t := range x {
			dow := (start + t) % 7
			weekly := 4.0
			if dow >= 5 {
				weekly = -3
			}
			season := 5 * math.Sin(2*math.Pi*float64(t)/90)
			v := base + weekly + season + rng.NormFloat64()*2
			if rng.Float64() < 0.03 {
				v += 25 + 10*rng.Float64()
			}
			x[t] = float32(math.Max(v, 0.5))
		}
		fleet[s] = station{name: name, start: start, pm25: x}
	}
	return fleet
}

// RollingZScore is (x[t] - mean(x[t-w+1..t])) / std(x[t-w+1..t]) for every
// full window, the unpadded translation of the notebook cell.
func RollingZScore(win int, x jit.Array) jit.Array {
	sum := rolling.WindowSum(x, win)
	sq := rolling.WindowSum(x.Mul(x), win)
	mean := sum.Div(float64(win))
	variance := sq.Div(float64(win)).Sub(mean.Mul(mean)).Max(1e-6)
	return rolling.Tail(x, win-1).Sub(mean).Div(variance.Sqrt())
}

// MaskedRollingZScore is RollingZScore on a padded series: windows count
// only real readings, and windows that reach into the padding are zeroed.
func MaskedRollingZScore(win int, x, mask jit.Array) jit.Array {
	xm := x.Mul(mask)
	count := rolling.WindowSum(mask, win)
	sum := rolling.WindowSum(xm, win)
	sq := rolling.WindowSum(xm.Mul(xm), win)
	full := count.Ge(float64(win))
	c := count.Max(1)
	mean := sum.Div(c)
	variance := sq.Div(c).Sub(mean.Mul(mean)).Max(1e-6)
	z := rolling.Tail(xm, win-1).Sub(mean).Div(variance.Sqrt())
	return jit.Where(full, z, 0.0)
}

// EWMLevel is pandas' ewm(alpha, adjust=False).mean(), carried through the
// padding unchanged, with the final level.
func EWMLevel(x, mask jit.Array) (jit.Array, jit.Array) {
	type step struct{ X, M jit.Array }
	first := x.Slice([]int{0}, []int{1}).Reshape()
	level, path := jit.Scan(func(l jit.Array, s step) (jit.Array, jit.Array) {
		next := l.Add(s.X.Sub(l).Mul(ewmAlpha))
		next = jit.Where(s.M.Gt(0), next, l)
		return next, next
	}, first, step{X: x, M: mask})
	return level, path
}

// WeekdayProfile averages the readings per day of week (Monday first).
func WeekdayProfile(x, mask, dow jit.Array) jit.Array {
	days := make([]jit.Array, 0, 7)
	for d := 0; d < 7; d++ {
		sel := dow.Eq(d).Astype(jit.Float32).Mul(mask)
		days = append(days, rolling.MaskedMean(x, sel).Reshape(1))
	}
	return jit.Concatenate(0, days...)
}

// Autocorrelation returns the sample ACF at lags 1..maxLag of a padded series.
func Autocorrelation(x, mask jit.Array) jit.Array {
	n := x.Shape()[0]
	mu := rolling.MaskedMean(x, mask)
	d := x.Sub(mu).Mul(mask)
	denom := d.Mul(d).Sum().Max(1e-6)
	acf := make([]jit.Array, 0, maxLag)
	for lag := 1; lag <= maxLag; lag++ { // want unrolledloop
		lead := d.Slice([]int{lag}, []int{n})
		lagged := d.Slice([]int{0}, []int{n - lag})
		acf = append(acf, lead.Mul(lagged).Sum().Div(denom).Reshape(1))
	}
	return jit.Concatenate(0, acf...)
}

// weekdays returns the day-of-week code of each (padded) position.
func weekdays(start, size int) jit.Array {
	out := make([]int32, size)
	for i := range out {
		out[i] = int32((start + i) % 7)
	}
	return jit.FromSlice(out)
}

func countAlerts(z []float32) int {
	n := 0
	for _, v := range z {
		if math.Abs(float64(v)) > zAlert {
			n++
		}
	}
	return n
}

// bestLag is the lag with the largest autocorrelation (the seasonal period).
func bestLag(acf []float32) (int, float32) {
	best, val := 1, acf[0]
	for i, v := range acf {
		if v > val {
			best, val = i+1, v
		}
	}
	return best, val
}

func main() {
	rng := rand.New(rand.NewSource(20240611))
	fleet := makeFleet(rng)

	// First pass: the direct port, one call per station on its own history.
	naive := jit.Jit(RollingZScore, jit.StaticArgnums(0))
	fmt.Println("weekly z-score alerts (direct port):")
	for _, st := range fleet {
		z := naive.Call(weekWindow, jit.FromSlice(st.pm25)) // want shapechurn
		fmt.Printf("  %-11s days=%3d alerts=%d\n", st.name, len(st.pm25), countAlerts(z.Float32s()))
	}
	ns := naive.Stats()
	fmt.Printf("  direct port: calls=%d compiles=%d\n", ns.Compiles+ns.Hits, ns.Compiles)

	// Batched kernels on padded histories.
	zscore := jit.Jit(MaskedRollingZScore, jit.StaticArgnums(0))
	ewm := jit.Jit(EWMLevel)
	profile := jit.Jit(WeekdayProfile)
	acf := jit.Jit(Autocorrelation)

	fmt.Println("\nstation report (padded to buckets):")
	fmt.Printf("  %-11s %5s %6s %6s %7s %7s %5s %s\n", "station", "pad", "wk-al", "mo-al", "level", "lag*", "acf", "weekday profile")
	for _, st := range fleet {
		x, mask, err := rolling.PadToBucket(st.pm25, buckets)
		if err != nil {
			fmt.Printf("  %-11s skipped: %v\n", st.name, err)
			continue
		}
		size := x.Shape()[0]
		wk := zscore.Call(weekWindow, x, mask)
		mo := zscore.Call(monthWindow, x, mask)
		level, _ := ewm.Call(x, mask)
		prof := profile.Call(x, mask, weekdays(st.start, size))
		lag, val := bestLag(acf.Call(x, mask).Float32s())

		var pb strings.Builder
		for _, v := range prof.Float32s() {
			fmt.Fprintf(&pb, "%5.1f", v)
		}
		fmt.Printf("  %-11s %5d %6d %6d %7.2f %7d %5.2f %s\n", st.name, size,
			countAlerts(wk.Float32s()), countAlerts(mo.Float32s()), level.Item(), lag, val, pb.String())
	}

	for _, r := range []struct {
		name string
		s    jit.Stats
	}{
		{"masked z-score", zscore.Stats()},
		{"ewm level", ewm.Stats()},
		{"weekday profile", profile.Stats()},
		{"autocorrelation", acf.Stats()},
	} {
		fmt.Printf("  %-16s compiles=%d hits=%d\n", r.name, r.s.Compiles, r.s.Hits)
	}
}
