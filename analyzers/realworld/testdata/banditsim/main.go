// Command banditsim simulates epsilon-greedy and UCB agents on a Gaussian
// multi-armed bandit. The value updates and the policies are jitted; the
// environment and the action sampling run on the host.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	numArms   = 5
	numSteps  = 200
	minBucket = 32

	exploreProb = 0.1
)

var trueMeans = []float64{0.1, 0.5, -0.2, 0.9, 0.3}

// updateCount counts value updates for the summary line.
var updateCount int

// Agent is the state of a value-based agent: estimates and visit counts.
type Agent struct {
	Q jit.Array // [numArms]
	N jit.Array // [numArms]
}

// Update folds one observed reward for the one-hot action into the
// incremental-mean estimates.
func Update(a Agent, action, reward jit.Array) Agent {
	updateCount++ // want traceeffect
	n := a.N.Add(action)
	step := action.Div(n.Max(1))
	return Agent{Q: a.Q.Add(step.Mul(reward.Sub(a.Q))), N: n}
}

// greedy returns the greedy distribution over arms, splitting ties evenly.
func greedy(q jit.Array) jit.Array {
	isMax := q.Eq(q.MaxReduce()).Astype(jit.Float32)
	return isMax.Div(isMax.Sum())
}

// EpsGreedy is the epsilon-greedy distribution for a static epsilon.
func EpsGreedy(q jit.Array, eps float64) jit.Array {
	return greedy(q).Mul(1 - eps).Add(eps / numArms)
}

// EpsGreedyTraced is EpsGreedy with epsilon as a traced scalar.
func EpsGreedyTraced(q, eps jit.Array) jit.Array {
	return greedy(q).Mul(eps.Neg().Add(1)).Add(eps.Div(numArms))
}

// ExploreOrExploit decides between uniform exploration and the greedy arm.
func ExploreOrExploit(q jit.Array) jit.Array {
	coin := rand.Float64() // want traceeffect
	if coin < exploreProb {
		return jit.Full(1.0/numArms, jit.Float32, numArms)
	}
	return greedy(q)
}

// UCB scores each arm by its estimate plus an exploration bonus.
func UCB(a Agent, t jit.Array) jit.Array {
	logT := t.Max(1).Log()
	scores := make([]jit.Array, 0, numArms)
	for i := 0; i < numArms; i++ {
		qi := a.Q.Slice([]int{i}, []int{i + 1})
		ni := a.N.Slice([]int{i}, []int{i + 1})
		bonus := logT.Mul(2).Div(ni.Max(1e-3)).Sqrt()
		scores = append(scores, qi.Add(bonus))
	}
	return greedy(jit.Concatenate(0, scores...))
}

// MeanReward averages a reward history.
func MeanReward(rewards jit.Array) jit.Array { return rewards.Mean() }

// MaskedMeanReward averages the real entries of a padded reward history.
func MaskedMeanReward(rewards, mask jit.Array) jit.Array {
	return rewards.Mul(mask).Sum().Div(mask.Sum().Max(1))
}

func bucket(n int) int {
	b := minBucket
	for b < n {
		b *= 2
	}
	return b
}

func sample(rng *rand.Rand, probs jit.Array) int {
	u := rng.Float32()
	acc := float32(0)
	p := probs.Float32s()
	for i, pi := range p {
		acc += pi
		if u < acc {
			return i
		}
	}
	return len(p) - 1
}

func oneHot(i int) jit.Array {
	v := make([]float32, numArms)
	v[i] = 1
	return jit.FromSlice(v)
}

func pull(rng *rand.Rand, arm int) float32 {
	return float32(trueMeans[arm] + rng.NormFloat64())
}

func newAgent() Agent {
	return Agent{Q: jit.Zeros(jit.Float32, numArms), N: jit.Zeros(jit.Float32, numArms)}
}

type runResult struct {
	total   float64
	rewards []float32
}

func run(rng *rand.Rand, policy func(t int, a Agent) jit.Array, update *jit.Func[func(Agent, jit.Array, jit.Array) Agent]) runResult {
	a := newAgent()
	var res runResult
	for t := 0; t < numSteps; t++ {
		arm := sample(rng, policy(t, a))
		r := pull(rng, arm)
		res.rewards = append(res.rewards, r)
		res.total += float64(r)
		a = update.Call(a, oneHot(arm), jit.Scalar(r))
	}
	return res
}

func main() {
	rng := rand.New(rand.NewSource(42))
	update := jit.Jit(Update)

	// Linearly decaying epsilon, passed as a static argument.
	epsStatic := jit.Jit(EpsGreedy, jit.StaticArgnums(1))
	linear := func(t int) float64 { return math.Max(0.05, 1-float64(t)/float64(numSteps)) }
	res := run(rng, func(t int, a Agent) jit.Array {
		return epsStatic.Call(a.Q, linear(t)) // want staticargs
	}, update)
	fmt.Printf("eps-greedy, linear static eps: total %.1f, policy compiles %d\n", res.total, epsStatic.Stats().Compiles)

	// A two-phase epsilon, also static.
	epsPhased := jit.Jit(EpsGreedy, jit.StaticArgnums(1))
	phased := func(t int) float64 {
		if t < numSteps/4 {
			return 0.3
		}
		return 0.02
	}
	res = run(rng, func(t int, a Agent) jit.Array {
		return epsPhased.Call(a.Q, phased(t))
	}, update)
	fmt.Printf("eps-greedy, phased static eps: total %.1f, policy compiles %d\n", res.total, epsPhased.Stats().Compiles)

	// The linear schedule as a traced scalar.
	epsTraced := jit.Jit(EpsGreedyTraced)
	res = run(rng, func(t int, a Agent) jit.Array {
		return epsTraced.Call(a.Q, jit.Scalar(float32(linear(t))))
	}, update)
	fmt.Printf("eps-greedy, traced eps: total %.1f, policy compiles %d\n", res.total, epsTraced.Stats().Compiles)

	// Coin flip for exploration.
	explore := jit.Jit(ExploreOrExploit)
	res = run(rng, func(t int, a Agent) jit.Array {
		return explore.Call(a.Q)
	}, update)
	fmt.Printf("explore-or-exploit: total %.1f\n", res.total)

	// UCB1.
	ucb := jit.Jit(UCB)
	res = run(rng, func(t int, a Agent) jit.Array {
		return ucb.Call(a, jit.Scalar(float32(t+1)))
	}, update)
	fmt.Printf("ucb: total %.1f, updates traced %d\n", res.total, updateCount)

	// Running mean of the UCB rewards, as the dashboard computes it.
	meanRaw := jit.Jit(MeanReward)
	meanPadded := jit.Jit(MaskedMeanReward)
	var last, lastPadded float64
	for t := 1; t <= 40; t++ {
		hist := jit.FromSlice(res.rewards[:t])
		last = meanRaw.Call(hist).Item() // want shapechurn
	}
	for t := 1; t <= numSteps; t++ {
		hist := jit.FromSlice(res.rewards[:t])
		padded, mask, err := jit.PadTo(hist, bucket(t))
		if err != nil {
			panic(err)
		}
		lastPadded = meanPadded.Call(padded, mask).Item()
	}
	fmt.Printf("running mean after 40: %.3f (compiles %d); after %d: %.3f (compiles %d)\n",
		last, meanRaw.Stats().Compiles, numSteps, lastPadded, meanPadded.Stats().Compiles)
	explored := 0
	for t := 0; t < numSteps; t++ {
		if rng.Float64() < linear(t) {
			explored++
		}
	}
	fmt.Println("expected exploratory pulls under the linear schedule:", explored)
}
