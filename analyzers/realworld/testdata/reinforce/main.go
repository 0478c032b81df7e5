// Command reinforce trains a tabular softmax policy with REINFORCE on a 5x5
// grid world with pits. The environment step is a jitted function called
// from the host rollout loop (as the JAX version did with jax.jit(env.step));
// the policy gradient is jax.grad of the score-function loss.
//
// Phase 1 updates after each batch of episodes on the concatenated
// trajectories; phase 2 pads each batch to a length bucket, masks the
// padding and computes the returns on the device.
package main

import (
	"fmt"
	"os"

	"corpus/rlkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	side       = 5
	numStates  = side * side
	numActions = 4 // up, right, down, left
	goal       = numStates - 1
	maxLen     = 40
	gamma      = 0.95
	lr         = 0.5
	batchEps   = 4
	seed       = 7
)

var pitCells = []int{7, 12, 16, 18}

var envStepCalls int

// move returns the next cell for one of the four moves, clipped to the grid.
func move(dr, dc float64) func(rc [2]jit.Array) jit.Array {
	return func(rc [2]jit.Array) jit.Array {
		r := rc[0].Add(dr).Max(0).Min(side - 1)
		c := rc[1].Add(dc).Max(0).Min(side - 1)
		return r.Mul(side).Add(c)
	}
}

var moves = []func([2]jit.Array) jit.Array{move(-1, 0), move(0, 1), move(1, 0), move(0, -1)}

// EnvStep is the grid world's transition: (state, action) -> (next state,
// reward, done). Reaching the goal pays +1, a pit -1, every step -0.01.
func EnvStep(state, action jit.Array) (jit.Array, jit.Array, jit.Array) {
	envStepCalls++ // want traceeffect
	s := state.Astype(jit.Float32)
	row := s.Div(side).Floor()
	col := s.Sub(row.Mul(side))
	next := jit.Switch(action, moves, [2]jit.Array{row, col}).Astype(jit.Int32)

	inPit := next.Eq(int32(pitCells[0]))
	for _, p := range pitCells[1:] {
		inPit = inPit.Or(next.Eq(int32(p)))
	}
	atGoal := next.Eq(int32(goal))
	reward := jit.Where(atGoal, float32(1), jit.Where(inPit, float32(-1), float32(-0.01)))
	return next, reward, atGoal.Or(inPit)
}

// PolicyProbs is softmax(theta[s]).
func PolicyProbs(theta, state jit.Array) jit.Array {
	return rlkit.Softmax(rlkit.OneHot(state, numStates).MatMul(theta))
}

// reinforceLoss is -mean_t log pi(a_t | s_t) * G_t over concatenated
// trajectories.
func reinforceLoss(theta, states, actions, returns jit.Array) jit.Array {
	logits := rlkit.OneHot(states, numStates).MatMul(theta)
	logp := rlkit.TakeAlong(rlkit.LogSoftmax(logits), actions)
	return logp.Mul(returns).Mean().Neg()
}

// episodeLoss is the same loss for one padded episode: the returns are
// computed here from the padded rewards and the padding is masked out.
func episodeLoss(theta, states, actions, rewards, mask jit.Array) jit.Array {
	returns := rlkit.Discount(rewards, gamma) // want unrolledloop
	logits := rlkit.OneHot(states, numStates).MatMul(theta)
	logp := rlkit.TakeAlong(rlkit.LogSoftmax(logits), actions)
	return logp.Mul(returns).Mul(mask).Sum().Div(mask.Sum().Max(1)).Neg()
}

// batchLoss averages episodeLoss over a batch of equally padded episodes.
func batchLoss(theta, states, actions, rewards, mask jit.Array) jit.Array {
	per := jit.Vmap(episodeLoss, jit.InAxes(jit.NotMapped, 0, 0, 0, 0))(theta, states, actions, rewards, mask)
	jit.DebugPrint("batch loss per episode: %v", per)
	return per.Mean()
}

type episode struct {
	states, actions []int32
	rewards         []float32
}

func (e episode) ret() float32 {
	var g float32
	for _, r := range e.rewards {
		g += r
	}
	return g
}

// rollout plays one episode on the host, sampling actions from the policy.
func rollout(env *jit.Func[func(jit.Array, jit.Array) (jit.Array, jit.Array, jit.Array)],
	probs *jit.Func[func(jit.Array, jit.Array) jit.Array], theta jit.Array, rng *rlkit.RNG) episode {
	var ep episode
	s := int32(0)
	for t := 0; t < maxLen; t++ {
		p := probs.Call(theta, jit.Scalar(s)).Float32s()
		a := int32(rng.Categorical(p))
		next, r, done := env.Call(jit.Scalar(s), jit.Scalar(a))
		ep.states = append(ep.states, s)
		ep.actions = append(ep.actions, a)
		ep.rewards = append(ep.rewards, float32(r.Item()))
		s = int32(next.Int())
		if done.Bool() {
			break
		}
	}
	return ep
}

// rewardsToGo is the host-side discounted return of each step.
func rewardsToGo(rewards []float32) []float32 {
	out := make([]float32, len(rewards))
	var g float32
	for t := len(rewards) - 1; t >= 0; t-- {
		g = rewards[t] + gamma*g
		out[t] = g
	}
	return out
}

func bucket(n int) int {
	for _, b := range []int{16, 32, 48} {
		if n <= b {
			return b
		}
	}
	return 48
}

func main() {
	rng := rlkit.NewRNG(seed)
	log := &rlkit.Logger{W: os.Stdout, Prefix: "[reinforce]", Every: 5}
	env := jit.Jit(EnvStep)
	probs := jit.Jit(PolicyProbs)
	theta := jit.Zeros(jit.Float32, numStates, numActions)

	// Phase 1: one update per batch of episodes on the concatenation.
	grad := jit.Jit(jit.Grad[func(jit.Array, jit.Array, jit.Array, jit.Array) jit.Array](reinforceLoss))
	for it := 1; it <= 12; it++ {
		var st, ac []int32
		var ret []float32
		var avg float32
		for e := 0; e < batchEps; e++ {
			ep := rollout(env, probs, theta, rng)
			st = append(st, ep.states...)
			ac = append(ac, ep.actions...)
			ret = append(ret, rewardsToGo(ep.rewards)...)
			avg += ep.ret() / batchEps
		}
		g := grad.Call(theta, jit.FromSlice(st), jit.FromSlice(ac), jit.FromSlice(ret)) // want shapechurn
		theta = theta.Sub(g.Mul(lr))
		log.Log(it, "phase", 1, "steps", len(st), "return", avg)
	}
	fmt.Printf("phase 1: %d compiles of the gradient for %d updates\n", grad.Stats().Compiles, 12)

	dir, err := os.MkdirTemp("", "reinforce-ckpt")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if _, err := rlkit.Save(dir, 12, map[string]jit.Array{"theta": theta}); err != nil {
		panic(err)
	}

	// Phase 2: pad each batch to a bucket and mask.
	padded := jit.Jit(jit.Grad[func(jit.Array, jit.Array, jit.Array, jit.Array, jit.Array) jit.Array](batchLoss))
	for it := 13; it <= 30; it++ {
		eps := make([]episode, batchEps)
		longest := 0
		for e := range eps {
			eps[e] = rollout(env, probs, theta, rng)
			longest = max(longest, len(eps[e].states))
		}
		L := bucket(longest)
		st := make([]int32, batchEps*L)
		ac := make([]int32, batchEps*L)
		rw := make([]float32, batchEps*L)
		mk := make([]float32, batchEps*L)
		var avg float32
		for e, ep := range eps {
			for t := range ep.states {
				st[e*L+t], ac[e*L+t], rw[e*L+t], mk[e*L+t] = ep.states[t], ep.actions[t], ep.rewards[t], 1
			}
			avg += ep.ret() / batchEps
		}
		g := padded.Call(theta, jit.FromSlice(st, batchEps, L), jit.FromSlice(ac, batchEps, L),
			jit.FromSlice(rw, batchEps, L), jit.FromSlice(mk, batchEps, L))
		theta = theta.Sub(g.Mul(lr))
		log.Log(it, "phase", 2, "bucket", L, "return", avg)
	}
	fmt.Printf("phase 2: %d compiles for 18 updates (%d buckets)\n", padded.Stats().Compiles, len(padded.Signatures()))

	path, err := rlkit.Save(dir, 30, map[string]jit.Array{"theta": theta})
	if err != nil {
		panic(err)
	}
	step, restored, err := rlkit.Load(path)
	if err != nil {
		panic(err)
	}

	// Greedy evaluation of the restored policy.
	greedy := jit.Jit(rlkit.Argmax).Call(restored["theta"]).Int32s()
	s, total := int32(0), float32(0)
	for t := 0; t < maxLen; t++ {
		next, r, done := env.Call(jit.Scalar(s), jit.Scalar(greedy[s]))
		total += float32(r.Item())
		s = int32(next.Int())
		if done.Bool() {
			break
		}
	}
	fmt.Printf("restored step %d: greedy return %.2f ending in cell %d\n", step, total, s)
	fmt.Printf("env transitions counted: %d\n", envStepCalls)
}
