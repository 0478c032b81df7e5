// Command orderbooksim runs a limit-order book fed by a channel of orders and
// computes book and tape analytics with jitted functions as it goes.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

const depthLevels = 8

type Order struct {
	ID    int
	Buy   bool
	Price float64 // 0 for a market order
	Size  float64
}

type Level struct{ Price, Size float64 }

type Book struct {
	Bids, Asks []Level // bids descending, asks ascending
	TapePx     []float32
	TapeSz     []float32
}

// Snapshot is what analytics see of the book at one tick.
type Snapshot struct {
	TickSize float64
	Seq      int
}

// Microprice weights the touch prices by the opposite side's size, rounded to the tick.
func (s *Snapshot) Microprice(bidPx, bidSz, askPx, askSz jit.Array) jit.Array {
	w := bidSz.Div(bidSz.Add(askSz))
	m := askPx.Mul(w).Add(bidPx.Mul(w.Neg().Add(1)))
	return m.Div(s.TickSize).Floor().Mul(s.TickSize)
}

// Quote is a pytree of the top levels.
type Quote struct {
	BidSz, AskSz jit.Array
}

func (q Quote) Imbalance() jit.Array {
	b, a := q.BidSz.Sum(), q.AskSz.Sum()
	return b.Sub(a).Div(b.Add(a).Add(1e-9))
}

func (b *Book) fill(px, sz float64) {
	b.TapePx = append(b.TapePx, float32(px))
	b.TapeSz = append(b.TapeSz, float32(sz))
}

// Submit matches o against the opposite side and rests any remainder.
// It reports whether anything traded.
func (b *Book) Submit(o Order) bool {
	opp := &b.Asks
	crosses := func(l Level) bool { return o.Price == 0 || l.Price <= o.Price }
	if !o.Buy {
		opp = &b.Bids
		crosses = func(l Level) bool { return o.Price == 0 || l.Price >= o.Price }
	}
	traded := false
	for o.Size > 0 && len(*opp) > 0 && crosses((*opp)[0]) {
		top := &(*opp)[0]
		q := math.Min(o.Size, top.Size)
		b.fill(top.Price, q)
		traded = true
		top.Size -= q
		o.Size -= q
		if top.Size == 0 {
			*opp = (*opp)[1:]
		}
	}
	if o.Size > 0 && o.Price > 0 {
		if o.Buy {
			b.Bids = append(b.Bids, Level{o.Price, o.Size})
			sort.SliceStable(b.Bids, func(i, j int) bool { return b.Bids[i].Price > b.Bids[j].Price })
		} else {
			b.Asks = append(b.Asks, Level{o.Price, o.Size})
			sort.SliceStable(b.Asks, func(i, j int) bool { return b.Asks[i].Price < b.Asks[j].Price })
		}
	}
	return traded
}

// Depth returns the top depthLevels prices and sizes of one side, zero-padded.
func Depth(side []Level) (px, sz jit.Array) {
	p := make([]float32, depthLevels)
	s := make([]float32, depthLevels)
	for i := 0; i < depthLevels && i < len(side); i++ {
		p[i], s[i] = float32(side[i].Price), float32(side[i].Size)
	}
	return jit.FromSlice(p), jit.FromSlice(s)
}

func produce(n int, seed int64, out chan<- Order) {
	rng := rand.New(rand.NewSource(seed))
	mid := 100.0
	for i := 0; i < n; i++ {
		mid += 0.02 * rng.NormFloat64()
		o := Order{ID: i, Buy: rng.Intn(2) == 0, Size: float64(1 + rng.Intn(9))}
		if i < 20 || rng.Float64() < 0.8 {
			off := 0.01 * float64(1+rng.Intn(6))
			if o.Buy {
				o.Price = math.Round((mid-off)*100) / 100
			} else {
				o.Price = math.Round((mid+off)*100) / 100
			}
		}
		out <- o
	}
	close(out)
}

func nextPow2(n int) int {
	p := 16
	for p < n {
		p *= 2
	}
	return p
}

func main() {
	orders := make(chan Order, 16)
	go produce(240, 9, orders)
	book := &Book{}
	audit := make(chan string, 64)

	depthStats := jit.Jit(func(bidPx, bidSz, askPx, askSz jit.Array) jit.Array {
		audit <- fmt.Sprintf("depth stats over %d levels", bidPx.Shape()[0]) // want traceeffect
		spread := askPx.Slice([]int{0}, []int{1}).Sub(bidPx.Slice([]int{0}, []int{1}))
		cum := jit.Zeros(jit.Float32)
		for lvl := 0; lvl < depthLevels; lvl++ {
			w := math.Pow(0.7, float64(lvl))
			cum = cum.Add(bidSz.Slice([]int{lvl}, []int{lvl + 1}).Sub(askSz.Slice([]int{lvl}, []int{lvl + 1})).Reshape().Mul(w))
		}
		jit.DebugPrint("weighted depth imbalance %v", cum)
		return spread.Reshape()
	})
	vwap := jit.Jit(func(px, sz jit.Array) jit.Array { return px.Mul(sz).Sum().Div(sz.Sum().Max(1e-9)) })
	wide := jit.Jit(func(bid, ask jit.Array) jit.Array { return ask.Sub(bid).Gt(0.055) })

	var lastVWAP, lastMicro, lastImb, lastSpread float64
	tick, wideTicks := 0, 0
	for o := range orders {
		if !book.Submit(o) || len(book.TapePx) < 4 {
			continue
		}
		// Tape analytics after every fill; first on the whole raw tape...
		if o.ID < 120 {
			lastVWAP = vwap.Call(jit.FromSlice(book.TapePx), jit.FromSlice(book.TapeSz)).Item() // want shapechurn
		} else {
			// ...later padded to a power-of-two bucket, so only a few sizes compile.
			n := nextPow2(len(book.TapePx))
			px, _, _ := jit.PadTo(jit.FromSlice(book.TapePx), n)
			sz, _, _ := jit.PadTo(jit.FromSlice(book.TapeSz), n)
			lastVWAP = vwap.Call(px, sz).Item()
		}
		if len(book.Bids) == 0 || len(book.Asks) == 0 {
			continue
		}
		tick++
		bidPx, bidSz := Depth(book.Bids)
		askPx, askSz := Depth(book.Asks)
		if tick%5 == 0 {
			lastSpread = depthStats.Call(bidPx, bidSz, askPx, askSz).Item()
		}

		snap := &Snapshot{TickSize: 0.01, Seq: tick}
		micro := jit.Jit(snap.Microprice) // want staticargs
		lastMicro = micro.Call(bidPx.Slice([]int{0}, []int{1}), bidSz.Slice([]int{0}, []int{1}),
			askPx.Slice([]int{0}, []int{1}), askSz.Slice([]int{0}, []int{1})).Item()

		lastImb = jit.Jit(Quote.Imbalance).Call(Quote{bidSz, askSz}).Item()

		if wide.Call(bidPx.Slice([]int{0}, []int{1}), askPx.Slice([]int{0}, []int{1})).Bool() {
			wideTicks++
		}
		if tick%20 == 0 {
			fmt.Printf("tick %3d spread=%.2f micro=%.2f imbalance=%+.3f vwap=%.3f\n", tick, lastSpread, lastMicro, lastImb, lastVWAP)
		}
	}

	// A first try at a matching-price kernel branched on the traced prices.
	matchPrice := jit.Jit(func(bid, ask jit.Array) jit.Array {
		if bid.Ge(ask).Bool() { // want tracedbool
			return bid.Add(ask).Mul(0.5)
		}
		return ask
	})
	bidPx, _ := Depth(book.Bids)
	askPx, _ := Depth(book.Asks)
	func() {
		defer func() {
			if e, ok := recover().(*jit.Error); ok {
				fmt.Println("matchPrice:", e.Kind, "- use jit.Where")
			}
		}()
		matchPrice.Call(bidPx.Slice([]int{0}, []int{1}), askPx.Slice([]int{0}, []int{1}))
	}()
	close(audit)
	n := 0
	for range audit {
		n++
	}
	fmt.Printf("wide-spread ticks=%d\n", wideTicks)
	fmt.Printf("ticks=%d fills=%d audit lines=%d resting bids=%d asks=%d\n", tick, len(book.TapePx), n, len(book.Bids), len(book.Asks))
}
