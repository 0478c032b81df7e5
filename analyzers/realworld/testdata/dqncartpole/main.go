// Command dqncartpole is a small DQN on CartPole, ported from a JAX/optax
// script: a jitted environment step driven from the host loop, a replay
// buffer that grows to its capacity and is sampled into minibatches, a
// target network with soft updates, Huber TD loss and Adam.
package main

import (
	"fmt"
	"math"
	"os"

	"corpus/rlkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	obsDim     = 4
	numActions = 2
	hidden     = 32
	capacity   = 1024
	batchSize  = 32
	totalSteps = 600
	warmup     = 64
	gamma      = 0.99
	learnRate  = 1e-3
	huberDelta = 1.0
	seed       = 42
)

// MLP is the Q-network: obs -> relu(hidden) -> Q-values.
type MLP struct {
	W1, B1, W2, B2 jit.Array
}

func initMLP(rng *rlkit.RNG) MLP {
	scale := func(fanIn int, xs []float32) []float32 {
		s := float32(1 / math.Sqrt(float64(fanIn)))
		for i := range xs {
			xs[i] *= s
		}
		return xs
	}
	return MLP{
		W1: jit.FromSlice(scale(obsDim, rng.Normals(obsDim*hidden)), obsDim, hidden),
		B1: jit.Zeros(jit.Float32, hidden),
		W2: jit.FromSlice(scale(hidden, rng.Normals(hidden*numActions)), hidden, numActions),
		B2: jit.Zeros(jit.Float32, numActions),
	}
}

// mapTree applies f leaf by leaf (jax.tree_util.tree_map over two trees).
func mapTree(f func(a, b jit.Array) jit.Array, x, y MLP) MLP {
	return MLP{W1: f(x.W1, y.W1), B1: f(x.B1, y.B1), W2: f(x.W2, y.W2), B2: f(x.B2, y.B2)}
}

func (p MLP) apply(obs jit.Array) jit.Array {
	h := jit.Relu(obs.MatMul(p.W1).Add(p.B1))
	return h.MatMul(p.W2).Add(p.B2)
}

// CartPoleStep is the classic control dynamics (Euler, tau = 0.02).
func CartPoleStep(state, action jit.Array) (jit.Array, jit.Array, jit.Array) {
	x := state.Slice([]int{0}, []int{1})
	xDot := state.Slice([]int{1}, []int{2})
	th := state.Slice([]int{2}, []int{3})
	thDot := state.Slice([]int{3}, []int{4})
	force := action.Astype(jit.Float32).Mul(20).Sub(10)
	cos, sin := th.Cos(), th.Sin()
	temp := force.Add(thDot.Pow(2).Mul(sin).Mul(0.05)).Div(1.1)
	thAcc := sin.Mul(9.8).Sub(cos.Mul(temp)).Div(cos.Pow(2).Mul(0.1 / 1.1).Neg().Add(4.0 / 3.0).Mul(0.5))
	xAcc := temp.Sub(thAcc.Mul(cos).Mul(0.05 / 1.1))
	next := jit.Concatenate(0, x.Add(xDot.Mul(0.02)), xDot.Add(xAcc.Mul(0.02)),
		th.Add(thDot.Mul(0.02)), thDot.Add(thAcc.Mul(0.02)))
	done := x.Abs().Gt(2.4).Or(th.Abs().Gt(12 * math.Pi / 180)).Reshape()
	return next, jit.Where(done, float32(0), float32(1)), done
}

// QValues is the online network on a batch of observations.
func QValues(p MLP, obs jit.Array) jit.Array { return p.apply(obs) }

// tdError is the one-step error for a single transition.
func tdError(p, target MLP, obs, action, reward, next, done jit.Array) jit.Array {
	q := rlkit.TakeAlong(p.apply(obs), action)
	bootstrap := target.apply(next).MaxReduce().Mul(done.Astype(jit.Float32).Neg().Add(1))
	return q.Sub(reward.Add(bootstrap.Mul(gamma)))
}

var batchedTD = jit.Vmap(tdError, jit.InAxes(jit.NotMapped, jit.NotMapped, 0, 0, 0, 0, 0))

// clippedLoss is the first port of the loss: squared error, switching to
// absolute error when the batch has large errors.
func clippedLoss(p, target MLP, obs, action, reward, next, done jit.Array) jit.Array {
	td := batchedTD(p, target, obs, action, reward, next, done)
	if td.Abs().MaxReduce().Item() > huberDelta { // want tracedbool
		return td.Abs().Mean()
	}
	return td.Pow(2).Mean().Mul(0.5)
}

// huberLoss is optax.huber_loss(td, delta=1).mean().
func huberLoss(p, target MLP, obs, action, reward, next, done jit.Array) jit.Array {
	td := batchedTD(p, target, obs, action, reward, next, done)
	a := td.Abs()
	quad := a.Min(huberDelta)
	return quad.Pow(2).Mul(0.5).Add(a.Sub(quad).Mul(huberDelta)).Mean()
}

// BufferTD is the mean absolute TD error of a set of transitions, masked.
func BufferTD(p, target MLP, obs, action, reward, next, done, valid jit.Array) jit.Array {
	td := batchedTD(p, target, obs, action, reward, next, done).Abs()
	return td.Mul(valid).Sum().Div(valid.Sum().Max(1))
}

// AdamState holds the optimizer moments and the step count.
type AdamState struct {
	M, V MLP
	T    jit.Array
}

// TrainStep is one gradient step of Adam on the Huber loss.
func TrainStep(p, target MLP, opt AdamState, obs, action, reward, next, done jit.Array) (MLP, AdamState, jit.Array) {
	vg := jit.ValueAndGrad[func(MLP, MLP, jit.Array, jit.Array, jit.Array, jit.Array, jit.Array) (jit.Array, MLP)](huberLoss)
	loss, g := vg(p, target, obs, action, reward, next, done)
	t := opt.T.Add(1)
	m := mapTree(func(m, g jit.Array) jit.Array { return m.Mul(0.9).Add(g.Mul(0.1)) }, opt.M, g)
	v := mapTree(func(v, g jit.Array) jit.Array { return v.Mul(0.999).Add(g.Pow(2).Mul(0.001)) }, opt.V, g)
	c1 := jit.Full(0.9, jit.Float32).Pow(t).Neg().Add(1)
	c2 := jit.Full(0.999, jit.Float32).Pow(t).Neg().Add(1)
	step := mapTree(func(m, v jit.Array) jit.Array {
		return m.Div(c1).Div(v.Div(c2).Sqrt().Add(1e-8)).Mul(learnRate)
	}, m, v)
	return mapTree(func(p, s jit.Array) jit.Array { return p.Sub(s) }, p, step), AdamState{M: m, V: v, T: t}, loss
}

// Polyak blends the target towards the online network.
func Polyak(target, online MLP, tau float64) MLP {
	return mapTree(func(t, o jit.Array) jit.Array { return t.Mul(1 - tau).Add(o.Mul(tau)) }, target, online)
}

// replay is a ring buffer of transitions kept on the host.
type replay struct {
	obs, next      []float32
	action         []int32
	reward, done   []float32
	size, position int
}

func newReplay() *replay {
	return &replay{obs: make([]float32, capacity*obsDim), next: make([]float32, capacity*obsDim),
		action: make([]int32, capacity), reward: make([]float32, capacity), done: make([]float32, capacity)}
}

func (b *replay) add(o []float32, a int32, r float32, n []float32, d bool) {
	i := b.position
	copy(b.obs[i*obsDim:], o)
	copy(b.next[i*obsDim:], n)
	b.action[i], b.reward[i] = a, r
	b.done[i] = 0
	if d {
		b.done[i] = 1
	}
	b.position = (b.position + 1) % capacity
	b.size = min(b.size+1, capacity)
}

// gather returns the transitions at idx as arrays.
func (b *replay) gather(idx []int) (obs, action, reward, next, done jit.Array) {
	o, n := make([]float32, len(idx)*obsDim), make([]float32, len(idx)*obsDim)
	a, r, d := make([]int32, len(idx)), make([]float32, len(idx)), make([]bool, len(idx))
	for k, i := range idx {
		copy(o[k*obsDim:(k+1)*obsDim], b.obs[i*obsDim:(i+1)*obsDim])
		copy(n[k*obsDim:(k+1)*obsDim], b.next[i*obsDim:(i+1)*obsDim])
		a[k], r[k], d[k] = b.action[i], b.reward[i], b.done[i] > 0
	}
	return jit.FromSlice(o, len(idx), obsDim), jit.FromSlice(a), jit.FromSlice(r),
		jit.FromSlice(n, len(idx), obsDim), jit.FromSlice(d)
}

func resetState(rng *rlkit.RNG) []float32 {
	s := make([]float32, obsDim)
	for i := range s {
		s[i] = float32(rng.Float64()*0.1 - 0.05)
	}
	return s
}

func main() {
	rng := rlkit.NewRNG(seed)
	log := &rlkit.Logger{W: os.Stdout, Prefix: "[dqn]", Every: 100}
	params := initMLP(rng)
	target := params
	zeros := mapTree(func(a, _ jit.Array) jit.Array { return a.Mul(0) }, params, params)
	opt := AdamState{M: zeros, V: zeros, T: jit.Scalar(float32(0))}
	buf := newReplay()

	// Check the first loss port compiles before committing to it.
	spec := func(shape ...int) jit.ShapeDtype { return jit.Spec(jit.Float32, shape...) }
	if _, err := jit.Jit(clippedLoss).Trace(params, target, spec(batchSize, obsDim), jit.Spec(jit.Int32, batchSize),
		spec(batchSize), spec(batchSize, obsDim), jit.Spec(jit.Bool, batchSize)); err != nil {
		fmt.Println("clipped loss does not trace, using the Huber loss:", err)
	}

	env := jit.Jit(CartPoleStep)
	qvals := jit.Jit(QValues)
	train := jit.Jit(TrainStep)
	polyak := jit.Jit(Polyak, jit.StaticArgnums(2))
	bufferTD := jit.Jit(BufferTD)

	state := resetState(rng)
	epLen, episodes, lastLoss := 0, 0, 0.0
	var lengths []int
	for step := 1; step <= totalSteps; step++ {
		eps := math.Max(0.05, 1-float64(step)/300)
		var a int32
		if rng.Float64() < eps {
			a = int32(rng.Intn(numActions))
		} else {
			q := qvals.Call(params, jit.FromSlice(state, 1, obsDim)).Float32s()
			if q[1] > q[0] {
				a = 1
			}
		}
		next, r, done := env.Call(jit.FromSlice(state), jit.Scalar(a))
		nextState := next.Float32s()
		d := done.Bool() || epLen+1 >= 200
		buf.add(state, a, float32(r.Item()), nextState, done.Bool())
		state, epLen = nextState, epLen+1
		if d {
			lengths = append(lengths, epLen)
			state, epLen, episodes = resetState(rng), 0, episodes+1
		}

		if buf.size >= warmup {
			idx := make([]int, batchSize)
			for k := range idx {
				idx[k] = rng.Intn(buf.size)
			}
			obs, act, rew, nxt, dn := buf.gather(idx)
			var loss jit.Array
			params, opt, loss = train.Call(params, target, opt, obs, act, rew, nxt, dn)
			lastLoss = loss.Item()
			if step%100 == 0 {
				target = polyak.Call(target, params, 1.0)
			} else {
				target = polyak.Call(target, params, 0.005)
			}
		}
		if step%50 == 0 && buf.size >= warmup {
			all := make([]int, buf.size)
			for i := range all {
				all[i] = i
			}
			obs, act, rew, nxt, dn := buf.gather(all)
			ones := jit.Ones(jit.Float32, buf.size)
			td := bufferTD.Call(params, target, obs, act, rew, nxt, dn, ones) // want shapechurn
			log.Log(step, "episodes", episodes, "buffer", buf.size, "loss", lastLoss, "buffer_td", td.Item())
		}
	}

	// Refresh replay priorities over the whole ring, padded to capacity.
	all := make([]int, capacity)
	valid := make([]float32, capacity)
	for i := range all {
		if i < buf.size {
			all[i], valid[i] = i, 1
		}
	}
	obs, act, rew, nxt, dn := buf.gather(all)
	td := bufferTD.Call(params, target, obs, act, rew, nxt, dn, jit.FromSlice(valid))
	fmt.Printf("final buffer TD %.4f over %d transitions\n", td.Item(), buf.size)

	mean := 0.0
	for _, l := range lengths {
		mean += float64(l) / float64(len(lengths))
	}
	fmt.Printf("episodes %d, mean length %.1f, train compiles %d, polyak compiles %d, buffer-TD compiles %d\n",
		episodes, mean, train.Stats().Compiles, polyak.Stats().Compiles, bufferTD.Stats().Compiles)
}
