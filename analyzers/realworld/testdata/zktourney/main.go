// Command zktourney runs a rock-paper-scissors league between mixed-strategy
// bots: a round robin played by a pool of goroutines, an Elo leaderboard, a
// Bradley-Terry refit after every round, and an eight-player knockout.
package main

import (
	"fmt"
	"log"
	"math/rand"
	"sort"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	nBots      = 8
	workers    = 4
	refitIters = 40
	koRounds   = 3 // log2(nBots)
)

var rps = jit.FromSlice([]float32{0, -1, 1, 1, 0, -1, -1, 1, 0}, 3, 3)

type match struct{ id, a, b int }

type result struct {
	match
	score float32 // 1 if a won, 0 if b won
}

// leaderboardChanged wakes the dashboard goroutine.
var leaderboardChanged = make(chan struct{}, 64)

func softmax(z jit.Array) jit.Array {
	e := z.Sub(z.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

// matchOdds is the probability that strategy a beats strategy b in a best-of series.
func matchOdds(a, b jit.Array) jit.Array {
	edge := softmax(a).MatMul(rps).MatMul(softmax(b))
	return edge.Mul(4).Logistic()
}

func eloUpdate(ratings, i, j, score jit.Array, k float64) jit.Array {
	ids := jit.Arange(nBots, jit.Int32)
	ri := ratings.Mul(ids.Eq(i).Astype(jit.Float32)).Sum()
	rj := ratings.Mul(ids.Eq(j).Astype(jit.Float32)).Sum()
	expected := jit.Full(1, jit.Float32).Div(jit.Full(10, jit.Float32).Pow(rj.Sub(ri).Div(400)).Add(1))
	delta := score.Sub(expected).Mul(k)
	leaderboardChanged <- struct{}{} // want traceeffect
	return ratings.Add(jit.Where(ids.Eq(i), delta, 0.0)).Sub(jit.Where(ids.Eq(j), delta, 0.0))
}

// btRefit fits Bradley-Terry strengths to the cumulative win matrix.
func btRefit(wins, init jit.Array) jit.Array {
	games := wins.Add(wins.Transpose())
	s := init
	for it := 0; it < refitIters; it++ { // want unrolledloop
		p := s.Reshape(nBots, 1).Sub(s.Reshape(1, nBots)).Logistic()
		grad := wins.Sub(games.Mul(p)).Sum(1)
		s = s.Add(grad.Mul(0.1))
		s = s.Sub(s.Mean())
	}
	return s
}

// formTable weights every result so far by recency and sums it per bot.
func formTable(winners, decay jit.Array) jit.Array {
	return winners.Mul(decay.Reshape(-1, 1)).Sum(0)
}

// titleOdds is each bot's chance to win the bracket, given strengths and the
// per-round opponent masks.
func titleOdds(strength, masks jit.Array) jit.Array {
	pwin := strength.Reshape(nBots, 1).Sub(strength.Reshape(1, nBots)).Logistic()
	reach := jit.Ones(jit.Float32, nBots)
	for r := 0; r < koRounds; r++ {
		m := masks.Slice([]int{r, 0, 0}, []int{r + 1, nBots, nBots}).Reshape(nBots, nBots)
		reach = reach.Mul(pwin.Mul(m).MatMul(reach))
	}
	return reach
}

func seedOrder(ratings jit.Array) jit.Array {
	idx := make([]int32, nBots)
	for i := range idx {
		idx[i] = int32(i)
	}
	r := ratings.Float32s() // want tracedbool
	sort.Slice(idx, func(a, b int) bool { return r[idx[a]] > r[idx[b]] })
	return jit.FromSlice(idx)
}

func play(jobs <-chan match, out chan<- result, odds *jit.Func[func(a, b jit.Array) jit.Array], bots []jit.Array, round int) {
	for m := range jobs {
		p := odds.Call(bots[m.a], bots[m.b]).Item()
		rng := rand.New(rand.NewSource(int64(round*1000 + m.id)))
		out <- result{match: m, score: map[bool]float32{true: 1}[rng.Float64() < p]}
	}
}

func runRound(ms []match, odds *jit.Func[func(a, b jit.Array) jit.Array], bots []jit.Array, round int) []result {
	jobs, out := make(chan match), make(chan result, len(ms))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() { defer wg.Done(); play(jobs, out, odds, bots, round) }()
	}
	for _, m := range ms {
		jobs <- m
	}
	close(jobs)
	wg.Wait()
	close(out)
	var res []result
	for r := range out {
		res = append(res, r)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].id < res[j].id })
	return res
}

// duel plays one knockout match in its own goroutine.
func duel(a, b int, sa, sb jit.Array, noise float32, out chan<- result) {
	judge := jit.Jit(func(n jit.Array) jit.Array { return matchOdds(sa, sb).Add(n).Min(1).Max(0) }) // want staticargs
	p := judge.Call(jit.Scalar(noise)).Item()
	out <- result{match: match{a: a, b: b}, score: map[bool]float32{true: 1}[p >= 0.5]}
}

func safeSeeds(ratings jit.Array) []int32 {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("jitted seeding failed, sorting on the host: %v", r)
		}
	}()
	return jit.Jit(seedOrder).Call(ratings).Int32s()
}

func main() {
	rng := rand.New(rand.NewSource(42))
	bots := make([]jit.Array, nBots)
	for i := range bots {
		bots[i] = jit.FromSlice([]float32{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())})
	}
	var dash sync.WaitGroup
	dash.Add(1)
	go func() {
		defer dash.Done()
		for range leaderboardChanged {
		}
	}()

	odds := jit.Jit(matchOdds)
	elo := jit.Jit(eloUpdate, jit.StaticArgnums(4))
	refit, form := jit.Jit(btRefit), jit.Jit(formTable)
	ratings := jit.Full(1500, jit.Float32, nBots)
	strength := jit.Zeros(jit.Float32, nBots)
	wins := make([]float32, nBots*nBots)
	games := make([]int, nBots)
	var winnerRows, decay []float32

	order := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for round := 0; round < nBots-1; round++ {
		var ms []match
		for k := 0; k < nBots/2; k++ {
			ms = append(ms, match{id: k, a: order[k], b: order[nBots-1-k]})
		}
		for _, r := range runRound(ms, odds, bots, round) {
			k := 16.0
			if games[r.a] < 3 || games[r.b] < 3 {
				k = 32
			}
			ratings = elo.Call(ratings, jit.Scalar(int32(r.a)), jit.Scalar(int32(r.b)), jit.Scalar(r.score), k)
			games[r.a]++
			games[r.b]++
			w, l := r.a, r.b
			if r.score == 0 {
				w, l = l, w
			}
			wins[w*nBots+l]++
			row := make([]float32, nBots)
			row[w] = 1
			winnerRows = append(winnerRows, row...)
		}
		for i := range decay {
			decay[i] *= 0.8
		}
		decay = append(decay, 1, 1, 1, 1)
		strength = refit.Call(jit.FromSlice(wins, nBots, nBots), strength)
		f := form.Call(jit.FromSlice(winnerRows, len(decay), nBots), jit.FromSlice(decay)) // want shapechurn
		log.Printf("round %d: elo=%v form=%v", round, ratings, f)
		order = append(append([]int{order[0]}, order[nBots-1]), order[1:nBots-1]...)
	}

	masks := make([]float32, koRounds*nBots*nBots)
	for r := 0; r < koRounds; r++ {
		g := 1 << r
		for i := 0; i < nBots; i++ {
			for j := 0; j < nBots; j++ {
				if i/(2*g) == j/(2*g) && i/g != j/g {
					masks[(r*nBots+i)*nBots+j] = 1
				}
			}
		}
	}
	fmt.Println("title odds:", jit.Jit(titleOdds).Call(strength, jit.FromSlice(masks, koRounds, nBots, nBots)))

	seeds := safeSeeds(ratings)
	if seeds == nil {
		r := ratings.Float32s()
		for i := 0; i < nBots; i++ {
			seeds = append(seeds, int32(i))
		}
		sort.Slice(seeds, func(a, b int) bool { return r[seeds[a]] > r[seeds[b]] })
	}
	alive := seeds
	for len(alive) > 1 {
		out := make(chan result, len(alive)/2)
		for k := 0; k < len(alive)/2; k++ {
			a, b := int(alive[k]), int(alive[len(alive)-1-k])
			go duel(a, b, bots[a], bots[b], float32(rng.NormFloat64()*0.05), out)
		}
		var next []int32
		for k := 0; k < len(alive)/2; k++ {
			r := <-out
			next = append(next, int32(map[bool]int{true: r.a, false: r.b}[r.score == 1]))
		}
		sort.Slice(next, func(i, j int) bool { return indexOf(seeds, next[i]) < indexOf(seeds, next[j]) })
		alive = next
	}
	close(leaderboardChanged)
	dash.Wait()
	fmt.Printf("champion: bot %d; elo compiles=%d odds compiles=%d\n", alive[0], elo.Stats().Compiles, odds.Stats().Compiles)
}

func indexOf(xs []int32, x int32) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
