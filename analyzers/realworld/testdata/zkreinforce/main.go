// Command zkreinforce trains a tabular-softmax policy with REINFORCE on a 5x5
// grid world with a pit and a goal. Episodes end at the goal, in the pit, or
// after maxSteps, so their lengths vary from a handful of steps to maxSteps.
package main

import (
	"fmt"
	"log"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	gridW    = 5
	nStates  = gridW * gridW
	nActions = 4
	maxSteps = 48
	gamma    = 0.95
	lr       = 0.5
	goal     = nStates - 1
	pit      = 12
)

// Policy is a linear softmax policy over one-hot states.
type Policy struct {
	W jit.Array // [nStates, nActions]
	B jit.Array // [nActions]
}

// Batch is one (padded) episode.
type Batch struct {
	States  jit.Array // [L, nStates] one-hot
	Actions jit.Array // [L, nActions] one-hot
	Returns jit.Array // [L]
	Mask    jit.Array // [L], 1 for real steps
}

var updatesTraced int

func logSoftmax(z jit.Array) jit.Array {
	shape := z.Shape()
	shape[len(shape)-1] = 1
	m := z.MaxReduce(z.Ndim() - 1).Reshape(shape...)
	zc := z.Sub(m)
	lse := zc.Exp().Sum(z.Ndim() - 1).Log().Reshape(shape...)
	return zc.Sub(lse)
}

// actionProbs gives π(·|s); greedy puts all mass on the best action(s).
func actionProbs(p Policy, s jit.Array, greedy bool) jit.Array {
	probs := logSoftmax(s.MatMul(p.W).Add(p.B)).Exp()
	if greedy {
		best := jit.Where(probs.Ge(probs.MaxReduce()), 1.0, 0.0)
		return best.Div(best.Sum())
	}
	return probs
}

func reinforceLoss(p Policy, b Batch) jit.Array {
	lp := logSoftmax(b.States.MatMul(p.W).Add(p.B))
	chosen := lp.Mul(b.Actions).Sum(1)
	ret := b.Returns
	n := b.Mask.Sum().Max(1)
	if ret.Size() > 1 { // a one-step batch has no spread to normalise by
		mean := ret.Mul(b.Mask).Sum().Div(n)
		centered := ret.Sub(mean).Mul(b.Mask)
		ret = centered.Div(centered.Pow(2).Sum().Div(n).Add(1e-6).Sqrt())
	}
	loss := chosen.Mul(ret).Mul(b.Mask).Sum().Div(n).Neg()
	for _, w := range []jit.Array{p.W, p.B} {
		loss = loss.Add(w.Pow(2).Sum().Mul(1e-4))
	}
	return loss
}

var lossAndGrad = jit.ValueAndGrad[func(Policy, Batch) (jit.Array, Policy)](reinforceLoss)

func sgdUpdate(p Policy, b Batch) (Policy, jit.Array) {
	loss, g := lossAndGrad(p, b)
	updatesTraced++ // want traceeffect
	jit.DebugPrint("reinforce loss %v", loss)
	return Policy{W: p.W.Sub(g.W.Mul(lr)), B: p.B.Sub(g.B.Mul(lr))}, loss
}

// expectedReturn evaluates the policy exactly by pushing the state
// distribution through the transition tensor for the whole horizon.
func expectedReturn(p Policy, trans, reward, start jit.Array) jit.Array {
	probs := logSoftmax(p.W.Add(p.B)).Exp().Transpose() // [nActions, nStates]
	dist, total, disc := start, jit.Zeros(jit.Float32), 1.0
	for t := 0; t < maxSteps; t++ { // want unrolledloop
		dist = probs.Mul(dist).Reshape(nActions, 1, nStates).MatMul(trans).Sum(0).Reshape(nStates)
		disc *= gamma
		total = total.Add(dist.Mul(reward).Sum().Mul(disc))
	}
	return total
}

func policyEntropy(p Policy) jit.Array {
	lp := logSoftmax(p.W.Add(p.B))
	ent := lp.Exp().Mul(lp).Sum(1).Neg().Mean()
	if ent.Item() < 0.05 { // want tracedbool
		ent = jit.Full(0.05, jit.Float32)
	}
	return ent
}

func episodeLogProb(p Policy, states, actions jit.Array) jit.Array {
	lp := logSoftmax(states.MatMul(p.W).Add(p.B))
	return lp.Mul(actions).Sum().Div(float64(states.Shape()[0]))
}

func move(s, a int) (int, float32, bool) {
	r, c := s/gridW, s%gridW
	switch a {
	case 0:
		r = max(r-1, 0)
	case 1:
		r = min(r+1, gridW-1)
	case 2:
		c = max(c-1, 0)
	default:
		c = min(c+1, gridW-1)
	}
	n := r*gridW + c
	switch n {
	case goal:
		return n, 1, true
	case pit:
		return n, -1, true
	}
	return n, -0.01, false
}

func oneHot(idx []int, width, rows int) jit.Array {
	data := make([]float32, rows*width)
	for i, k := range idx {
		data[i*width+k] = 1
	}
	return jit.FromSlice(data, rows, width)
}

type episode struct {
	states, actions []int
	rewards         []float32
}

func rollout(act *jit.Func[func(Policy, jit.Array, bool) jit.Array], p Policy, rng *rand.Rand) episode {
	var ep episode
	s := 0
	for t := 0; t < maxSteps; t++ {
		probs := act.Call(p, oneHot([]int{s}, nStates, 1).Reshape(nStates), false).Float32s()
		u, a := rng.Float32(), nActions-1
		for k, pk := range probs {
			if u < pk {
				a = k
				break
			}
			u -= pk
		}
		next, r, done := move(s, a)
		ep.states, ep.actions, ep.rewards = append(ep.states, s), append(ep.actions, a), append(ep.rewards, r)
		s = next
		if done {
			break
		}
	}
	return ep
}

func discounted(rewards []float32) []float32 {
	out := make([]float32, len(rewards))
	g := float32(0)
	for t := len(rewards) - 1; t >= 0; t-- {
		g = rewards[t] + gamma*g
		out[t] = g
	}
	return out
}

func bucket(n int) int {
	for _, b := range []int{16, 32, maxSteps} {
		if n <= b {
			return b
		}
	}
	return maxSteps
}

func toBatch(ep episode) Batch {
	L := bucket(len(ep.states))
	rets, _, _ := jit.PadTo(jit.FromSlice(discounted(ep.rewards)), L)
	_, mask, _ := jit.PadTo(jit.Ones(jit.Float32, len(ep.states)), L)
	return Batch{States: oneHot(ep.states, nStates, L), Actions: oneHot(ep.actions, nActions, L), Returns: rets, Mask: mask}
}

func transitions() (jit.Array, jit.Array, jit.Array) {
	tr := make([]float32, nActions*nStates*nStates)
	rw := make([]float32, nStates)
	for s := 0; s < nStates; s++ {
		if s == goal || s == pit {
			continue // absorbing: mass leaves the distribution
		}
		for a := 0; a < nActions; a++ {
			n, r, _ := move(s, a)
			tr[(a*nStates+s)*nStates+n] = 1
			rw[n] = r
		}
	}
	start := make([]float32, nStates)
	start[0] = 1
	return jit.FromSlice(tr, nActions, nStates, nStates), jit.FromSlice(rw), jit.FromSlice(start)
}

func tryEntropy(p Policy) (ent float64) {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("entropy diagnostic failed: %v", r)
			ent = -1
		}
	}()
	return jit.Jit(policyEntropy).Call(p).Item()
}

func main() {
	rng := rand.New(rand.NewSource(7))
	pol := Policy{W: jit.Zeros(jit.Float32, nStates, nActions), B: jit.Zeros(jit.Float32, nActions)}
	act := jit.Jit(actionProbs, jit.StaticArgnums(2))
	update := jit.Jit(sgdUpdate)
	diag := jit.Jit(episodeLogProb)
	evalJ := jit.Jit(expectedReturn)
	trans, reward, start := transitions()

	fmt.Printf("expected return before: %.3f\n", evalJ.Call(pol, trans, reward, start).Item())
	for i := 0; i < 40; i++ {
		ep := rollout(act, pol, rng)
		var loss jit.Array
		pol, loss = update.Call(pol, toBatch(ep))
		if i%4 == 0 {
			lp := diag.Call(pol, oneHot(ep.states, nStates, len(ep.states)), oneHot(ep.actions, nActions, len(ep.actions))) // want shapechurn
			log.Printf("episode %2d: len=%2d loss=%.4f mean logp=%.3f", i, len(ep.states), loss.Item(), lp.Item())
		}
	}
	fmt.Printf("expected return after: %.3f\n", evalJ.Call(pol, trans, reward, start).Item())
	greedy := act.Call(pol, oneHot([]int{0}, nStates, 1).Reshape(nStates), true)
	fmt.Println("greedy action probs at start:", greedy, "entropy:", tryEntropy(pol))
	fmt.Printf("update compiles=%d diag compiles=%d act compiles=%d traced updates=%d\n",
		update.Stats().Compiles, diag.Stats().Compiles, act.Stats().Compiles, updatesTraced)
}
