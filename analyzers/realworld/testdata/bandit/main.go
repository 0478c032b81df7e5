// Command bandit runs the 10-armed testbed of Sutton & Barto (ch. 2) on a
// batch of independent bandit problems at once: UCB action selection,
// epsilon-greedy with a decaying epsilon and periodic greedy evaluation,
// and the gradient bandit (softmax preferences updated with jax.grad of the
// log-policy, vmapped over runs). Ported from a JAX notebook.
package main

import (
	"fmt"
	"math"
	"os"

	"corpus/rlkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	numArms  = 10
	numRuns  = 64
	ucbSteps = 48
	epsSteps = 120
	ucbC     = 2.0
	seed     = 20240611
)

// BanditState is the per-run value estimate and pull count of every arm.
type BanditState struct {
	Q jit.Array // [runs, arms]
	N jit.Array // [runs, arms]
}

func newState() BanditState {
	return BanditState{Q: jit.Zeros(jit.Float32, numRuns, numArms), N: jit.Zeros(jit.Float32, numRuns, numArms)}
}

// pull plays arm in every run: reward = q*(arm) + noise, then the
// incremental sample-average update Q += (R - Q) / N for that arm.
func pull(s BanditState, qStar, arm, noise jit.Array) (BanditState, jit.Array) {
	oh := rlkit.OneHot(arm, numArms)
	reward := qStar.Mul(oh).Sum(-1).Add(noise)
	n := s.N.Add(oh)
	delta := reward.Reshape(numRuns, 1).Sub(s.Q).Div(n.Max(1))
	return BanditState{Q: s.Q.Add(oh.Mul(delta)), N: n}, reward
}

// UCBStep is upper-confidence-bound selection,
// A_t = argmax_a Q(a) + c sqrt(ln t / N(a)), untried arms first.
func UCBStep(s BanditState, qStar, noise jit.Array, t int) (BanditState, jit.Array) {
	logT := math.Log(float64(t))
	bonus := s.N.Max(1).Rsqrt().Mul(ucbC * math.Sqrt(logT))
	scores := jit.Where(s.N.Eq(0), float32(1e9), s.Q.Add(bonus))
	return pull(s, qStar, rlkit.Argmax(scores), noise)
}

// EpsGreedyStep explores with probability eps (a traced scalar so the
// schedule can decay freely). With greedy set it is the evaluation pass:
// no exploration, no update, just the expected reward of the greedy arm.
func EpsGreedyStep(s BanditState, qStar, noise, uniform, randArm, eps jit.Array, greedy bool) (BanditState, jit.Array) {
	best := rlkit.Argmax(s.Q)
	if greedy {
		return s, rlkit.TakeAlong(qStar, best)
	}
	arm := jit.Where(uniform.Lt(eps), randArm, best)
	return pull(s, qStar, arm, noise)
}

// logPolicy is log pi(arm) for softmax preferences h.
func logPolicy(h, arm jit.Array) jit.Array {
	return rlkit.TakeAlong(rlkit.LogSoftmax(h), arm)
}

var gradLogPi = jit.Grad[func(jit.Array, jit.Array) jit.Array](logPolicy)

// upperOnes[i, j] = 1 for i <= j, so probs @ upperOnes is the CDF.
var upperOnes = func() jit.Array {
	m := make([]float32, numArms*numArms)
	for i := 0; i < numArms; i++ {
		for j := i; j < numArms; j++ {
			m[i*numArms+j] = 1
		}
	}
	return jit.FromSlice(m, numArms, numArms)
}()

// gradientBanditRun is one run of the gradient bandit (one row of the
// batch): sample an arm from softmax(h) by inverting the CDF with u, then
// H += alpha (R - Rbar) grad log pi(A), and update the baseline Rbar.
func gradientBanditRun(h, baseline, qStar, noise, u, alpha jit.Array) (jit.Array, jit.Array, jit.Array) {
	cdf := rlkit.Softmax(h).MatMul(upperOnes)
	arm := cdf.Lt(u).Astype(jit.Int32).Sum().Min(int32(numArms - 1))
	reward := rlkit.TakeAlong(qStar, arm).Add(noise)
	g := gradLogPi(h, arm)
	adv := reward.Sub(baseline)
	h = h.Add(g.Mul(adv.Mul(alpha)))
	baseline = baseline.Add(adv.Mul(0.1))
	return h, baseline, reward
}

// ArmShares reports, for each arm, the share of all pulls it received.
func ArmShares(n jit.Array) jit.Array {
	total := n.Sum()
	shares := make([]jit.Array, 0, numArms)
	for a := 0; a < numArms; a++ {
		col := n.Slice([]int{0, a}, []int{numRuns, a + 1})
		shares = append(shares, col.Sum().Div(total).Reshape(1))
	}
	return jit.Concatenate(0, shares...)
}

func optimalRate(s BanditState, optimal []int) float64 {
	counts := s.N.Float32s()
	hit, all := 0.0, 0.0
	for r := 0; r < numRuns; r++ {
		for a := 0; a < numArms; a++ {
			all += float64(counts[r*numArms+a])
			if a == optimal[r] {
				hit += float64(counts[r*numArms+a])
			}
		}
	}
	return hit / all
}

func main() {
	rng := rlkit.NewRNG(seed)
	log := &rlkit.Logger{W: os.Stdout, Prefix: "[bandit]", Every: 20}

	// The testbed: q*(a) ~ N(0, 1) per run.
	qs := rng.Normals(numRuns * numArms)
	qStar := jit.FromSlice(qs, numRuns, numArms)
	optimal := make([]int, numRuns)
	for r := range optimal {
		for a := 1; a < numArms; a++ {
			if qs[r*numArms+a] > qs[r*numArms+optimal[r]] {
				optimal[r] = a
			}
		}
	}

	// UCB.
	ucb := jit.Jit(UCBStep, jit.StaticArgnums(3))
	state := newState()
	var reward jit.Array
	total := 0.0
	for t := 1; t <= ucbSteps; t++ {
		noise := jit.FromSlice(rng.Normals(numRuns))
		state, reward = ucb.Call(state, qStar, noise, t) // want staticargs
		total += reward.Mean().Item()
		log.Log(t, "agent", "ucb", "avg_reward", total/float64(t))
	}
	fmt.Printf("ucb: mean reward %.3f, optimal-arm rate %.3f, compiles %d\n",
		total/ucbSteps, optimalRate(state, optimal), ucb.Stats().Compiles)

	// Epsilon-greedy with a decaying schedule and a greedy evaluation every
	// 10 steps.
	eg := jit.Jit(EpsGreedyStep, jit.StaticArgnums(6))
	state = newState()
	var evalCurve []float64
	for t := 1; t <= epsSteps; t++ {
		eps := math.Max(0.01, 0.3*math.Pow(0.97, float64(t)))
		uniform := make([]float32, numRuns)
		randArm := make([]int32, numRuns)
		for r := range uniform {
			uniform[r] = float32(rng.Float64())
			randArm[r] = int32(rng.Intn(numArms))
		}
		noise := jit.FromSlice(rng.Normals(numRuns))
		state, reward = eg.Call(state, qStar, noise, jit.FromSlice(uniform), jit.FromSlice(randArm),
			jit.Scalar(float32(eps)), false)
		log.Log(t, "agent", "eps-greedy", "eps", eps, "reward", reward.Mean().Item())
		if t%10 == 0 {
			_, value := eg.Call(state, qStar, noise, jit.FromSlice(uniform), jit.FromSlice(randArm),
				jit.Scalar(float32(eps)), true)
			evalCurve = append(evalCurve, value.Mean().Item())
		}
	}
	fmt.Printf("eps-greedy: greedy value by decade %.3f, optimal-arm rate %.3f, compiles %d\n",
		evalCurve, optimalRate(state, optimal), eg.Stats().Compiles)
	shares := jit.Jit(ArmShares).Call(state.N).Float32s()
	fmt.Printf("eps-greedy pull shares: %.3f\n", shares)

	// Gradient bandit, one program for the whole batch of runs.
	gb := jit.Jit(jit.Vmap(gradientBanditRun, jit.InAxes(0, 0, 0, 0, 0, jit.NotMapped)))
	h := jit.Zeros(jit.Float32, numRuns, numArms)
	baseline := jit.Zeros(jit.Float32, numRuns)
	alpha := jit.Scalar(float32(0.1))
	total = 0
	for t := 1; t <= epsSteps; t++ {
		u := make([]float32, numRuns)
		for r := range u {
			u[r] = float32(rng.Float64())
		}
		h, baseline, reward = gb.Call(h, baseline, qStar, jit.FromSlice(rng.Normals(numRuns)), jit.FromSlice(u), alpha)
		total += reward.Mean().Item()
		log.Log(t, "agent", "gradient", "avg_reward", total/float64(t))
	}
	greedy := jit.Jit(rlkit.Argmax).Call(h).Int32s()
	agree := 0
	for r, a := range greedy {
		if int(a) == optimal[r] {
			agree++
		}
	}
	fmt.Printf("gradient bandit: mean reward %.3f, preferred arm optimal in %d/%d runs, compiles %d\n",
		total/epsSteps, agree, numRuns, gb.Stats().Compiles)
}
