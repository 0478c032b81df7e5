// Command varpipeline estimates the value-at-risk of a small derivatives
// book with a three-stage goroutine pipeline: a generator produces batches
// of market shocks, a pool of simulation goroutines revalues the book with
// a delta-gamma approximation over 1-, 5- and 10-day horizons, and a
// reducer collects the profit-and-loss samples and sweeps loss thresholds
// for exceedance probabilities. A monitor goroutine logs pipeline events.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	assets  = 4
	perJob  = 64
	numJobs = 12
)

type Book struct {
	Delta, Gamma jit.Array // [assets]
}

type job struct {
	id      int
	horizon int
	shocks  jit.Array // [perJob, assets]
}

type result struct {
	horizon int
	pnl     []float32
}

var events = make(chan string, 64)

func revalue(b Book, shocks jit.Array, horizon int) jit.Array {
	fmt.Fprintf(os.Stderr, "revaluing %d scenarios over %d days\n", shocks.Shape()[0], horizon) // want traceeffect
	s := shocks.Mul(math.Sqrt(float64(horizon)))
	lin := s.MatMul(b.Delta)
	quad := s.Mul(s).MatMul(b.Gamma).Mul(0.5)
	return lin.Add(quad)
}

func exceedance(pnl jit.Array, threshold float64) jit.Array {
	if threshold <= 0 {
		return jit.Zeros(jit.Float32)
	}
	return pnl.Lt(-threshold).Astype(jit.Float32).Mean()
}

func main() {
	book := Book{
		Delta: jit.FromSlice([]float32{120, -40, 75, 30}),
		Gamma: jit.FromSlice([]float32{-15, 8, -22, 4}),
	}
	revalueJit := jit.Jit(revalue, jit.StaticArgnums(2))
	exceedJit := jit.Jit(exceedance, jit.StaticArgnums(1))

	var logWG sync.WaitGroup
	logWG.Add(1)
	go func() {
		defer logWG.Done()
		for e := range events {
			fmt.Println("event:", e)
		}
	}()

	jobs := make(chan job)
	go func() {
		r := rand.New(rand.NewSource(5))
		for id := 0; id < numJobs; id++ {
			sh := make([]float32, perJob*assets)
			for i := range sh {
				sh[i] = float32(r.NormFloat64() * 0.01)
			}
			jobs <- job{id, []int{1, 5, 10}[id%3], jit.FromSlice(sh, perJob, assets)}
		}
		close(jobs)
	}()

	results := make(chan result, numJobs)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				out := revalueJit.Call(book, j.shocks, j.horizon)
				results <- result{j.horizon, out.Float32s()}
				events <- fmt.Sprintf("job %d (%dd) done", j.id, j.horizon)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	byHorizon := map[int][]float32{}
	for r := range results {
		byHorizon[r.horizon] = append(byHorizon[r.horizon], r.pnl...)
	}
	events <- "simulation done"

	for _, h := range []int{1, 5, 10} {
		pnl := append([]float32{}, byHorizon[h]...)
		sort.Slice(pnl, func(i, j int) bool { return pnl[i] < pnl[j] })
		k := int(0.01 * float64(len(pnl)))
		fmt.Printf("horizon %2dd: %d samples, 99%% VaR %.3f\n", h, len(pnl), -pnl[k])
		arr := jit.FromSlice(pnl)
		for t := 0.5; t <= 3.0; t += 0.5 {
			loss := t * math.Sqrt(float64(h))
			p := exceedJit.Call(arr, loss) // want staticargs
			fmt.Printf("   P(loss > %.3f) = %.4f\n", loss, p.Item())
		}
	}
	close(events)
	logWG.Wait()
}
