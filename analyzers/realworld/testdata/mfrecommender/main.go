// Command mfrecommender trains a matrix-factorization recommender with SGD on
// minibatches of (user, item, rating) triples, then folds in per-user
// corrections and prints top-k recommendations.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

const (
	numUsers  = 24
	numItems  = 30
	rank      = 4
	batchSize = 16
	epochs    = 3
)

// Factors is the model: one embedding row per user and per item.
type Factors struct {
	U jit.Array // [numUsers, rank]
	V jit.Array // [numItems, rank]
}

// Minibatch holds one-hot selectors (there is no gather op) and targets.
type Minibatch struct {
	UserOH jit.Array // [B, numUsers]
	ItemOH jit.Array // [B, numItems]
	Rating jit.Array // [B]
	Weight jit.Array // [B]; 0 marks padding
}

type rating struct {
	u, i int
	r    float32
}

var numLossEvals int

func loss(f Factors, b Minibatch, lam float64) jit.Array {
	numLossEvals++ // want traceeffect
	pu := b.UserOH.MatMul(f.U)
	qi := b.ItemOH.MatMul(f.V)
	pred := pu.Mul(qi).Sum(1)
	diff := pred.Sub(b.Rating)
	mse := diff.Mul(diff).Mul(b.Weight).Sum().Div(b.Weight.Sum().Max(1))
	reg := f.U.Mul(f.U).Sum().Add(f.V.Mul(f.V).Sum()).Mul(lam)
	return mse.Add(reg)
}

var lossAndGrad = jit.ValueAndGrad[func(Factors, Minibatch, float64) (jit.Array, Factors)](loss)

// sgdStep is one plain SGD update; lr is a static hyperparameter.
func sgdStep(f Factors, b Minibatch, lr float64) (Factors, jit.Array) {
	l, g := lossAndGrad(f, b, 1e-3)
	return Factors{U: f.U.Sub(g.U.Mul(lr)), V: f.V.Sub(g.V.Mul(lr))}, l
}

// checkedStep is sgdStep with a divergence guard.
func checkedStep(f Factors, b Minibatch, lr float64) (Factors, jit.Array) {
	l, g := lossAndGrad(f, b, 1e-3)
	if math.IsNaN(l.Item()) || l.Item() > 1e6 { // want tracedbool
		panic("training diverged")
	}
	return Factors{U: f.U.Sub(g.U.Mul(lr)), V: f.V.Sub(g.V.Mul(lr))}, l
}

// foldInUser adapts only the user factors to one user's ratings.
func foldInUser(f Factors, b Minibatch) Factors {
	_, g := lossAndGrad(f, b, 1e-2)
	return Factors{U: f.U.Sub(g.U.Mul(0.2)), V: f.V}
}

func evalLoss(f Factors, b Minibatch, regularized bool) jit.Array {
	if regularized {
		return loss(f, b, 1e-3)
	}
	return loss(f, b, 0)
}

func scoreUser(u, v jit.Array) jit.Array { return v.MatMul(u) }

func synthRatings(rng *rand.Rand) []rating {
	var out []rating
	for u := 0; u < numUsers; u++ {
		for k := 0; k < 6+u; k++ { // every user has a different number of ratings
			i := (u*7 + k*3) % numItems
			r := float32(math.Sin(float64(u+1)*0.3)*math.Cos(float64(i)*0.2)*2 + 3 + rng.NormFloat64()*0.1)
			out = append(out, rating{u, i, r})
		}
	}
	return out
}

func oneHot(idx []int, n, size int) jit.Array {
	data := make([]float32, size*n)
	for row, j := range idx {
		data[row*n+j] = 1
	}
	return jit.FromSlice(data, size, n)
}

// makeBatch builds a minibatch of the given size, padding with zero weights.
func makeBatch(rs []rating, size int) Minibatch {
	us, is := make([]int, len(rs)), make([]int, len(rs))
	r, w := make([]float32, size), make([]float32, size)
	for k, x := range rs {
		us[k], is[k], r[k], w[k] = x.u, x.i, x.r, 1
	}
	return Minibatch{oneHot(us, numUsers, size), oneHot(is, numItems, size), jit.FromSlice(r), jit.FromSlice(w)}
}

func randMatrix(rng *rand.Rand, rows, cols int, scale float64) jit.Array {
	data := make([]float32, rows*cols)
	for k := range data {
		data[k] = float32(rng.NormFloat64() * scale)
	}
	return jit.FromSlice(data, rows, cols)
}

func main() {
	rng := rand.New(rand.NewSource(7))
	ratings := synthRatings(rng)
	params := Factors{U: randMatrix(rng, numUsers, rank, 0.5), V: randMatrix(rng, numItems, rank, 0.5)}

	// First try the guarded step; it cannot run under jit.
	guarded := jit.Jit(checkedStep, jit.StaticArgnums(2))
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(*jit.Error); ok {
					fmt.Println("guarded step rejected:", e.Kind)
				}
			}
		}()
		guarded.Call(params, makeBatch(ratings[:batchSize], batchSize), 0.1)
	}()

	step := jit.Jit(sgdStep, jit.StaticArgnums(2))
	eval := jit.Jit(evalLoss, jit.StaticArgnums(2))
	t := 0
	for epoch := 0; epoch < epochs; epoch++ {
		order := rng.Perm(len(ratings))
		var sum float64
		n := 0
		for start := 0; start+batchSize <= len(order); start += batchSize {
			chunk := make([]rating, 0, batchSize)
			for _, k := range order[start : start+batchSize] {
				chunk = append(chunk, ratings[k])
			}
			lr := 0.8 * math.Pow(0.995, float64(t)) // exponential decay per step
			var l jit.Array
			params, l = step.Call(params, makeBatch(chunk, batchSize), lr) // want staticargs
			sum += l.Item()
			n++
			t++
		}
		// Held-out style evaluation in fixed-size chunks; the tail is padded.
		var evalSum float64
		for start := 0; start < len(ratings); start += batchSize {
			end := min(start+batchSize, len(ratings))
			evalSum += eval.Call(params, makeBatch(ratings[start:end], batchSize), epoch%2 == 0).Item()
		}
		fmt.Printf("epoch %d  train %.4f  eval %.4f\n", epoch, sum/float64(n), evalSum)
	}

	// Fold in each user's own ratings (one update per user).
	foldIn := jit.Jit(foldInUser)
	byUser := map[int][]rating{}
	for _, r := range ratings {
		byUser[r.u] = append(byUser[r.u], r)
	}
	for u := 0; u < 10; u++ {
		params = foldIn.Call(params, makeBatch(byUser[u], len(byUser[u]))) // want shapechurn
	}

	scoreAll := jit.Jit(jit.Vmap(scoreUser, jit.InAxes(0, jit.NotMapped)))
	scores := scoreAll.Call(params.U, params.V).Float32s()
	for u := 0; u < 3; u++ {
		row := scores[u*numItems : (u+1)*numItems]
		items := make([]int, numItems)
		for k := range items {
			items[k] = k
		}
		sort.SliceStable(items, func(a, b int) bool { return row[items[a]] > row[items[b]] })
		fmt.Printf("user %d top-3: %v\n", u, items[:3])
	}
	fmt.Println("loss traces:", numLossEvals, "step compiles:", step.Stats().Compiles, "eval compiles:", eval.Stats().Compiles)
}
