// Command bootstrapvar estimates the 10-day Value-at-Risk and Expected
// Shortfall of a small portfolio by bootstrap resampling of daily P&L, with
// the resampling batches drawn on the host and the P&L math jitted.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

const (
	historyDays = 250
	batchSize   = 128
	horizon     = 10
)

var positions = map[string]float64{"EURUSD": 2e6, "BUND": -1.5e6, "SX5E": 1e6, "BRENT": 5e5}

type Sampler struct {
	rng  *rand.Rand
	days int
}

// Draw returns a [rows, days] count matrix: row b counts how often each
// historical day was drawn into replicate b's horizon-day path.
func (s *Sampler) Draw(rows, horizon int) jit.Array {
	counts := make([]float32, rows*s.days)
	for b := 0; b < rows; b++ {
		for h := 0; h < horizon; h++ {
			counts[b*s.days+s.rng.Intn(s.days)]++
		}
	}
	return jit.FromSlice(counts, rows, s.days)
}

func history(names []string, rng *rand.Rand) (jit.Array, jit.Array) {
	vols := map[string]float64{"EURUSD": 0.006, "BUND": 0.004, "SX5E": 0.012, "BRENT": 0.02}
	rets := make([]float32, 0, historyDays*len(names))
	for d := 0; d < historyDays; d++ {
		common := rng.NormFloat64()
		for _, n := range names {
			rets = append(rets, float32(vols[n]*(0.4*common+0.9*rng.NormFloat64())))
		}
	}
	w := make([]float32, len(names))
	for i, n := range names {
		w[i] = float32(positions[n] / 1e6)
	}
	return jit.FromSlice(rets, historyDays, len(names)), jit.FromSlice(w)
}

func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(q*float64(len(s)-1))]
}

func expectedShortfall(xs []float64, varLevel float64) float64 {
	sum, n := 0.0, 0
	for _, x := range xs {
		if x >= varLevel {
			sum += x
			n++
		}
	}
	return sum / float64(n)
}

func main() {
	names := make([]string, 0, len(positions))
	for n := range positions {
		names = append(names, n)
	}
	sort.Strings(names)
	rng := rand.New(rand.NewSource(2024))
	rets, weights := history(names, rng)
	sampler := &Sampler{rng: rng, days: historyDays}

	pnlFn := jit.Jit(func(r, w jit.Array) jit.Array { return r.MatMul(w) }) // in millions
	pnl := pnlFn.Call(rets, weights)
	batchLoss := jit.Jit(func(counts, pnl jit.Array) jit.Array { return counts.MatMul(pnl).Neg() })

	// Fixed-size batches drawn on the host: one compile for all of them.
	var losses []float64
	for batch := 0; batch < 8; batch++ {
		counts := sampler.Draw(batchSize, horizon)
		for _, l := range batchLoss.Call(counts, pnl).Float32s() {
			losses = append(losses, float64(l))
		}
	}
	// A remainder of 77 paths, padded to the batch size with zero rows.
	rest := sampler.Draw(77, horizon)
	padded := jit.Concatenate(0, rest, jit.Zeros(jit.Float32, batchSize-77, historyDays))
	for _, l := range batchLoss.Call(padded, pnl).Float32s()[:77] {
		losses = append(losses, float64(l))
	}
	v99 := quantile(losses, 0.99)
	fmt.Printf("10d VaR99=%.4fm ES99=%.4fm over %d paths\n", v99, expectedShortfall(losses, v99), len(losses))

	// Convergence study: the batch grows a little every round.
	for round := 1; round <= 5; round++ {
		counts := sampler.Draw(32+8*round, horizon)
		more := batchLoss.Call(counts, pnl).Float32s() // want shapechurn
		for _, l := range more {
			losses = append(losses, float64(l))
		}
		fmt.Printf("round %d: %d paths, VaR99=%.4fm\n", round, len(losses), quantile(losses, 0.99))
	}

	// Square-root-of-time scaling from a 1-day loss vector; h was made static.
	oneDay := batchLoss.Call(sampler.Draw(batchSize, 1), pnl)
	scaled := jit.Jit(func(h int, l jit.Array) jit.Array {
		return l.Mul(math.Sqrt(float64(h))).MaxReduce()
	}, jit.StaticArgnums(0))
	for h := 1; h <= 6; h++ {
		fmt.Printf("worst %dd loss (sqrt-time) %.4fm\n", h, scaled.Call(h, oneDay).Item()) // want staticargs
	}

	// Excess exceedances over what each confidence level expects; the level
	// alternates between two values, so it compiles twice.
	levels := []float64{0.95, 0.99}
	excess := jit.Jit(func(level float64, l, thr jit.Array) jit.Array {
		return l.Gt(thr).Astype(jit.Float32).Sum().Sub((1 - level) * float64(l.Size()))
	}, jit.StaticArgnums(0))
	var surplus [2]float64
	for i := 0; i < 20; i++ {
		lvl := levels[i%2]
		thr := jit.Scalar(float32(quantile(losses, lvl)))
		surplus[i%2] += excess.Call(lvl, batchLoss.Call(sampler.Draw(batchSize, horizon), pnl), thr).Item()
	}
	fmt.Printf("excess exceedances: 95%%=%+.1f 99%%=%+.1f over %d paths each\n", surplus[0], surplus[1], 10*batchSize)

	// Stress scenarios: shocked P&L per scenario, written as a host loop.
	stress := jit.Jit(func(r, w jit.Array) jit.Array {
		shock := 1 + 0.5*rng.Float64() // want traceeffect
		days := r.Shape()[0]
		worst := make([]jit.Array, 0, 40)
		for s := 0; s < 40; s++ { // want unrolledloop
			lo := (s * 5) % (days - 10)
			window := r.Slice([]int{lo, 0}, []int{lo + 10, r.Shape()[1]})
			worst = append(worst, window.MatMul(w).Sum().Mul(-shock).Reshape(1))
		}
		return jit.Concatenate(0, worst...)
	})
	st := stress.Call(rets, weights).Float32s()
	sort.Slice(st, func(i, j int) bool { return st[i] > st[j] })
	fmt.Printf("worst stress loss %.4fm, median %.4fm\n", st[0], st[len(st)/2])

	// Batched version of the same stress with Vmap: no Go loop in the trace.
	starts := make([]float32, 40)
	for s := range starts {
		starts[s] = float32((s * 5) % (historyDays - 10))
	}
	window10 := jit.Vmap(func(lo, pnl jit.Array) jit.Array {
		idx := jit.Arange(historyDays, jit.Float32)
		in := idx.Ge(lo).And(idx.Lt(lo.Add(10))).Astype(jit.Float32)
		return in.Mul(pnl).Sum().Neg()
	}, jit.InAxes(0, jit.NotMapped))
	vs := jit.Jit(window10).Call(jit.FromSlice(starts), pnl).Float32s()
	fmt.Printf("vmapped stress, first window %.4fm\n", vs[0])

	// Kupiec-style check inside the trace: Int on a traced count.
	kupiec := jit.Jit(func(l, thr jit.Array) jit.Array {
		n := l.Gt(thr).Astype(jit.Float32).Sum()
		if n.Int() == 0 { // want tracedbool
			return jit.Zeros(jit.Float32)
		}
		return n.Div(float64(l.Size()))
	})
	func() {
		defer func() {
			if e, ok := recover().(*jit.Error); ok {
				fmt.Println("kupiec:", e.Kind)
			}
		}()
		kupiec.Call(oneDay, jit.Scalar(float32(v99)))
	}()
}
