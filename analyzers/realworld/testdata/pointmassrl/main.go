// Command rl_loop runs a toy reinforcement-learning loop: a point mass on a
// line, a linear policy, episodes stepped from Go and rollouts compiled whole.
package main

import (
	"fmt"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	obsDim  = 4
	horizon = 64
	nEnvs   = 8
)

// Policy picks +1/-1 with a Go branch on the policy's score.
func Policy(w, obs jit.Array) jit.Array {
	score := obs.MatMul(w).Sum()
	if score.Gt(0).Bool() { // want tracedbool
		return jit.Scalar(float32(1))
	}
	return jit.Scalar(float32(-1))
}

// PolicyWhere is the traceable policy.
func PolicyWhere(w, obs jit.Array) jit.Array {
	return jit.Where(obs.MatMul(w).Sum().Gt(0), float32(1), float32(-1)).Astype(jit.Float32)
}

// EnvStep integrates the dynamics for one control step (4 physics substeps)
// and adds "observation noise".
func EnvStep(state, action jit.Array) jit.Array {
	noise := rand.Float64() * 0.01 // want traceeffect
	pos := state.Slice([]int{0}, []int{1})
	vel := state.Slice([]int{1}, []int{2})
	for sub := 0; sub < 4; sub++ {
		vel = vel.Add(action.Mul(0.025)).Sub(pos.Mul(0.01))
		pos = pos.Add(vel.Mul(0.025))
	}
	return jit.Concatenate(0, pos.Add(noise), vel, pos.Mul(pos), vel.Mul(pos))
}

// EnvStepClean is EnvStep with the noise passed in as an argument.
func EnvStepClean(state, action, noise jit.Array) jit.Array {
	pos := state.Slice([]int{0}, []int{1})
	vel := state.Slice([]int{1}, []int{2})
	for sub := 0; sub < 4; sub++ {
		vel = vel.Add(action.Mul(0.025)).Sub(pos.Mul(0.01))
		pos = pos.Add(vel.Mul(0.025))
	}
	return jit.Concatenate(0, pos.Add(noise), vel, pos.Mul(pos), vel.Mul(pos))
}

func reward(state jit.Array) jit.Array {
	return state.Slice([]int{0}, []int{1}).Pow(2).Neg().Sum()
}

// Rollout runs a whole episode in one trace, unrolling every step.
func Rollout(w, s0 jit.Array) jit.Array {
	s := s0
	total := jit.Zeros(jit.Float32)
	for t := 0; t < horizon; t++ { // want unrolledloop
		a := PolicyWhere(w, s.Reshape(1, obsDim))
		s = EnvStepClean(s, a, jit.Zeros(jit.Float32))
		total = total.Add(reward(s))
	}
	return total
}

// RolloutScan is Rollout as a ScanN.
func RolloutScan(w, s0 jit.Array) jit.Array {
	type carry struct{ S, Total jit.Array }
	c, _ := jit.ScanN(func(c carry) (carry, jit.Array) {
		a := PolicyWhere(w, c.S.Reshape(1, obsDim))
		s := EnvStepClean(c.S, a, jit.Zeros(jit.Float32))
		return carry{s, c.Total.Add(reward(s))}, a
	}, carry{s0, jit.Zeros(jit.Float32)}, horizon)
	return c.Total
}

func main() {
	rng := rand.New(rand.NewSource(1))
	w := jit.FromSlice([]float32{-1, -0.5, 0.1, 0.1}, obsDim, 1)
	s0 := jit.FromSlice([]float32{1, 0, 1, 0})

	// Episodes stepped from Go.
	polW := jit.Jit(PolicyWhere)
	for ep := 0; ep < 3; ep++ {
		s := s0
		ret := 0.0
		for t := 0; t < 20; t++ {
			a := polW.Call(w, s.Reshape(1, obsDim))
			s = jit.Jit(EnvStep).Call(s, a)
			noise := jit.Scalar(float32(rng.NormFloat64() * 0.01))
			s = jit.Jit(EnvStepClean).Call(s, a, noise)
			ret += reward(s).Item()
		}
		fmt.Printf("episode %d return %.3f\n", ep, ret)
	}

	// Whole-episode rollouts.
	roll := jit.Jit(Rollout)
	rollS := jit.Jit(RolloutScan)
	fmt.Printf("rollout unrolled %.4f scan %.4f\n", roll.Call(w, s0).Item(), rollS.Call(w, s0).Item())

	// Many environments at once with Vmap.
	batched := jit.Jit(jit.Vmap(RolloutScan, jit.InAxes(jit.NotMapped, 0)))
	starts := make([]float32, nEnvs*obsDim)
	for i := range starts {
		starts[i] = float32(rng.Float64()*2 - 1)
	}
	rets := batched.Call(w, jit.FromSlice(starts, nEnvs, obsDim))
	fmt.Println("batched returns:", rets)

	// The first version of the policy, still used by the evaluation script:
	// tracing it fails, and the job stops here.
	pol := jit.Jit(Policy)
	fmt.Println("hard policy:", pol.Call(w, s0.Reshape(1, obsDim)))
}
