// Command rollout collects reinforcement-learning episodes: an environment
// struct whose Step mutates its state on the host, a policy whose jitted
// method value counts its calls in the receiver, episodes of different
// lengths whose returns are computed by a jitted discount function over
// the whole reward vector, and the padded fix.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// env is a 1-D walk that ends when the position leaves [-limit, limit].
type env struct {
	pos, limit float64
	steps      int
}

// Step moves the walker (on the host) and reports the reward and whether
// the episode ended.
func (e *env) Step(action float64) (float64, bool) {
	e.pos += action
	e.steps++
	return -e.pos * e.pos, e.pos > e.limit || e.pos < -e.limit
}

func (e *env) Observe() jit.Array { return jit.FromSlice([]float32{float32(e.pos), float32(e.steps)}) }

type policy struct {
	W     jit.Array
	calls int
	name  string
}

// Act scores the observation; it counts its calls on the policy.
func (p *policy) Act(obs jit.Array) jit.Array {
	p.calls++ // want traceeffect
	return obs.MatMul(p.W).Tanh()
}

// Greedy is pure: it only reads the policy's weights.
func (p *policy) Greedy(obs jit.Array) jit.Array {
	h := obs.MatMul(p.W)
	return h.Sign()
}

// discounted returns the discounted return of a reward vector: a traced
// cumulative product of gamma over the vector's length.
func discounted(rewards jit.Array) jit.Array {
	n := rewards.Shape()[0]
	w := jit.Full(0.99, jit.Float32, n).Pow(jit.Arange(n, jit.Float32))
	return rewards.Mul(w).Sum()
}

// maskedReturn is discounted over a padded vector with a mask.
func maskedReturn(rewards, mask jit.Array) jit.Array {
	return discounted(rewards.Mul(mask))
}

func rollout(e *env, act *jit.Func[func(jit.Array) jit.Array]) []float32 {
	var rewards []float32
	for {
		a := act.Call(e.Observe()).Item()
		r, done := e.Step(a)
		rewards = append(rewards, float32(r))
		if done || len(rewards) >= 60 {
			return rewards
		}
	}
}

func main() {
	p := &policy{W: jit.FromSlice([]float32{0.8, 0.01}, 2, 1).Reshape(2), name: "mlp"}
	act := jit.Jit(p.Act)
	greedy := jit.Jit(p.Greedy)
	ret := jit.Jit(discounted)
	padded := jit.Jit(maskedReturn)
	for episode := range 5 {
		e := &env{pos: 0.05, limit: 0.5 + 1.5*float64(episode)}
		rewards := rollout(e, act)
		g := ret.Call(jit.FromSlice(rewards)) // want shapechurn
		r, mask, err := jit.PadTo(jit.FromSlice(rewards), 64)
		if err != nil {
			panic(err)
		}
		fmt.Println("episode", episode, "len", len(rewards), "return", g.Item(), padded.Call(r, mask).Item())
	}
	e := &env{limit: 3}
	for range 5 {
		a := greedy.Call(e.Observe()).Item()
		e.Step(a * 0.1)
	}
	fmt.Println("policy", p.name, "calls counted", p.calls, "greedy end", e.pos)
}
