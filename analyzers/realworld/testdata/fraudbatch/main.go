// Command fraudbatch scores card transactions with a micro-batcher: a
// goroutine collects requests that arrive within a short window, pads the
// batch to a bucket size and runs one vmapped, jitted scorer over it. A
// token bucket limits how often batches are flushed, so under load the
// batches grow instead of the device being hammered. The riskiest
// transactions then go to a review lane that looks at the card's history.
//
// Time is simulated (request timestamps in milliseconds) so runs repeat.
package main

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

const (
	numFeat   = 6
	windowMS  = 5
	maxBatch  = 16
	refillMS  = 4 // one flush token every 4 ms
	burst     = 2
	histSlots = 32
)

var buckets = []int{4, 8, 16}

// Weights of the logistic scorer, with a hard rule on the amount.
type Weights struct {
	Mu, Sigma, Coef jit.Array // [numFeat]
	Bias, Limit     jit.Array // []
}

// ScoreTxn scores one transaction's features; x[0] is the amount.
func ScoreTxn(w Weights, x jit.Array) jit.Array {
	z := x.Sub(w.Mu).Div(w.Sigma)
	logit := z.Mul(w.Coef).Sum().Add(w.Bias)
	amount := x.Slice([]int{0}, []int{1}).Reshape()
	logit = jit.Cond(amount.Gt(w.Limit),
		func(l jit.Array) jit.Array { return l.Add(1.5) },
		func(l jit.Array) jit.Array { return l },
		logit)
	return logit.Logistic()
}

// HistoryStats returns the mean and standard deviation of past amounts.
func HistoryStats(hist jit.Array) (jit.Array, jit.Array) {
	mean := hist.Mean()
	return mean, hist.Sub(mean).Pow(2).Mean().Sqrt()
}

// MaskedHistoryStats is HistoryStats over a padded history.
func MaskedHistoryStats(hist, mask jit.Array) (jit.Array, jit.Array) {
	n := mask.Sum().Max(1)
	mean := hist.Mul(mask).Sum().Div(n)
	dev := hist.Sub(mean).Mul(mask)
	return mean, dev.Mul(dev).Sum().Div(n).Sqrt()
}

// VelocityStrict flags an amount far above the card's usual spend, and
// doubles the penalty for a card with little history.
func VelocityStrict(hist, mask, amount jit.Array) jit.Array {
	mean, _ := MaskedHistoryStats(hist, mask)
	ratio := amount.Div(mean.Max(1))
	if mask.Sum().Lt(5).Bool() { // want tracedbool
		ratio = ratio.Mul(2)
	}
	return ratio
}

// Velocity is VelocityStrict with the short-history rule as a select.
func Velocity(hist, mask, amount jit.Array) jit.Array {
	mean, _ := MaskedHistoryStats(hist, mask)
	ratio := amount.Div(mean.Max(1))
	return jit.Where(mask.Sum().Lt(5), ratio.Mul(2), ratio)
}

type request struct {
	ID    int
	Card  int
	AtMS  int
	Feat  []float32
	Reply chan float32
}

type metrics struct {
	batches, requests, padded atomic.Int64
}

// Batcher groups requests by arrival window and flushes them padded.
type Batcher struct {
	w      Weights
	score  *jit.Func[func(Weights, jit.Array) jit.Array]
	m      *metrics
	tokens float64
	lastMS int
	sizes  []int
}

func bucketFor(n int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	return buckets[len(buckets)-1]
}

func (b *Batcher) allow(nowMS int) bool {
	b.tokens = min(float64(burst), b.tokens+float64(nowMS-b.lastMS)/refillMS)
	b.lastMS = nowMS
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

func (b *Batcher) flush(batch []request) {
	size := bucketFor(len(batch))
	x := make([]float32, size*numFeat)
	for i, r := range batch {
		copy(x[i*numFeat:], r.Feat)
	}
	scores := b.score.Call(b.w, jit.FromSlice(x, size, numFeat)).Float32s()
	for i, r := range batch {
		r.Reply <- scores[i]
	}
	b.m.batches.Add(1)
	b.m.requests.Add(int64(len(batch)))
	b.m.padded.Add(int64(size - len(batch)))
	b.sizes = append(b.sizes, len(batch))
}

// Run collects requests until in closes or ctx is cancelled.
func (b *Batcher) Run(ctx context.Context, in <-chan request) {
	var batch []request
	for {
		select {
		case <-ctx.Done():
			return
		case r, ok := <-in:
			if !ok {
				if len(batch) > 0 {
					b.flush(batch)
				}
				return
			}
			if len(batch) > 0 && (r.AtMS-batch[0].AtMS >= windowMS || len(batch) == maxBatch) {
				if len(batch) == maxBatch || b.allow(r.AtMS) {
					b.flush(batch)
					batch = nil
				}
			}
			batch = append(batch, r)
		}
	}
}

func makeTraffic(r *rand.Rand, n int) []request {
	reqs := make([]request, n)
	at := 0
	for i := range reqs {
		at += r.Intn(3)
		f := make([]float32, numFeat)
		f[0] = float32(20 + r.ExpFloat64()*80)
		for k := 1; k < numFeat; k++ {
			f[k] = float32(r.NormFloat64())
		}
		reqs[i] = request{ID: i, Card: r.Intn(12), AtMS: at, Feat: f, Reply: make(chan float32, 1)}
	}
	return reqs
}

func cardHistory(card int) []float32 {
	r := rand.New(rand.NewSource(int64(1000 + card)))
	h := make([]float32, 2+(card*5)%23)
	for i := range h {
		h[i] = float32(15 + r.ExpFloat64()*40)
	}
	return h
}

// reviewer inspects flagged transactions; it falls back to the select-based
// velocity rule if the strict one cannot be compiled.
type reviewer struct {
	stats         *jit.Func[func(jit.Array) (jit.Array, jit.Array)]
	maskedStats   *jit.Func[func(jit.Array, jit.Array) (jit.Array, jit.Array)]
	strict, loose *jit.Func[func(jit.Array, jit.Array, jit.Array) jit.Array]
	useStrict     bool
}

func (rv *reviewer) velocity(hist, mask, amount jit.Array) (v float64) {
	if rv.useStrict {
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(os.Stderr, "panic: %v\n(review lane: strict velocity rule disabled)\n", p)
				rv.useStrict = false
				v = rv.loose.Call(hist, mask, amount).Item()
			}
		}()
		return rv.strict.Call(hist, mask, amount).Item()
	}
	return rv.loose.Call(hist, mask, amount).Item()
}

// history summarises the card's past amounts.
func (rv *reviewer) history(req request, score float32) {
	h := cardHistory(req.Card)
	mean, std := rv.stats.Call(jit.FromSlice(h)) // want shapechurn
	fmt.Printf("review txn %2d card %2d score %.3f amount %7.2f  hist n=%2d mean %6.2f sd %6.2f\n",
		req.ID, req.Card, score, req.Feat[0], len(h), mean.Item(), std.Item())
}

// spendRatio compares the amount with the card's padded history.
func (rv *reviewer) spendRatio(req request) {
	padded, mask, err := jit.PadTo(jit.FromSlice(cardHistory(req.Card)), histSlots)
	if err != nil {
		panic(err) // cardHistory keeps at most histSlots entries
	}
	pm, _ := rv.maskedStats.Call(padded, mask)
	v := rv.velocity(padded, mask, jit.Scalar(req.Feat[0]))
	fmt.Printf("velocity txn %2d: masked mean %6.2f  ratio %.2f\n", req.ID, pm.Item(), v)
}

func main() {
	r := rand.New(rand.NewSource(99))
	w := Weights{
		Mu:    jit.FromSlice([]float32{60, 0, 0, 0, 0, 0}),
		Sigma: jit.FromSlice([]float32{50, 1, 1, 1, 1, 1}),
		Coef:  jit.FromSlice([]float32{0.9, 0.4, -0.3, 0.2, 0, 0.5}),
		Bias:  jit.Scalar(float32(-1.2)),
		Limit: jit.Scalar(float32(250)),
	}
	m := &metrics{}
	b := &Batcher{w: w, m: m, tokens: burst,
		score: jit.Jit(jit.Vmap(ScoreTxn, jit.InAxes(jit.NotMapped, 0)))}

	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan request)
	done := make(chan struct{})
	go func() {
		b.Run(ctx, in)
		close(done)
	}()

	traffic := makeTraffic(r, 60)
	scores := make([]float32, len(traffic))
	var wg sync.WaitGroup
	for i := range traffic {
		wg.Add(1)
		go func() { // each client waits for its own reply
			defer wg.Done()
			scores[i] = <-traffic[i].Reply
		}()
	}
	for _, req := range traffic {
		in <- req
	}
	close(in)
	wg.Wait()
	<-done
	cancel()

	fmt.Printf("batches=%d requests=%d padded slots=%d sizes=%v\n",
		m.batches.Load(), m.requests.Load(), m.padded.Load(), b.sizes)
	fmt.Printf("scorer compiles=%d (buckets %v)\n", b.score.Stats().Compiles, buckets)

	order := make([]int, len(traffic))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, c int) bool { return scores[order[a]] > scores[order[c]] })

	rv := &reviewer{
		stats:       jit.Jit(HistoryStats),
		maskedStats: jit.Jit(MaskedHistoryStats),
		strict:      jit.Jit(VelocityStrict),
		loose:       jit.Jit(Velocity),
		useStrict:   true,
	}
	flagged := order[:6]
	for _, i := range flagged {
		rv.history(traffic[i], scores[i])
	}
	for _, i := range flagged {
		rv.spendRatio(traffic[i])
	}
	fmt.Printf("history stats compiles=%d, masked compiles=%d\n",
		rv.stats.Stats().Compiles, rv.maskedStats.Stats().Compiles)
}
