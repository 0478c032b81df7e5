// Command gridworld solves a 1-D corridor MDP by value iteration, then rolls
// out the greedy policy for a batch of agents.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const nStates = 16

// Env is the MDP; its discount and name are compile-time constants.
type Env struct {
	Reward jit.Array // [nStates]
	Gamma  float64   `jit:"static"`
	Name   string    `jit:"static"`
}

func shifted(v jit.Array, dir int) jit.Array {
	if dir < 0 {
		return jit.Concatenate(0, v.Slice([]int{0}, []int{1}), v.Slice([]int{0}, []int{nStates - 1}))
	}
	return jit.Concatenate(0, v.Slice([]int{1}, []int{nStates}), v.Slice([]int{nStates - 1}, []int{nStates}))
}

// qValues stacks the action values [left, stay, right] -> [3, nStates].
func qValues(v jit.Array, env Env) jit.Array {
	qs := make([]jit.Array, 0, 3)
	for _, dir := range []int{-1, 0, 1} {
		next := v
		if dir != 0 {
			next = shifted(v, dir)
		}
		qs = append(qs, env.Reward.Add(next.Mul(env.Gamma)).Reshape(1, nStates))
	}
	return jit.Concatenate(0, qs...)
}

// solveUnrolled runs a fixed number of sweeps as a Go loop.
func solveUnrolled(env Env) jit.Array {
	v := jit.Zeros(jit.Float32, nStates)
	for sweep := 0; sweep < 60; sweep++ { // want unrolledloop
		v = qValues(v, env).MaxReduce(0)
	}
	return v
}

type viCarry struct{ V, Delta jit.Array }

// solve iterates to a tolerance with a staged while loop.
func solve(env Env) jit.Array {
	out := jit.WhileLoop(func(c viCarry) jit.Array { return c.Delta.Gt(1e-4) },
		func(c viCarry) viCarry {
			nv := qValues(c.V, env).MaxReduce(0)
			return viCarry{V: nv, Delta: nv.Sub(c.V).Abs().MaxReduce()}
		}, viCarry{V: jit.Zeros(jit.Float32, nStates), Delta: jit.Scalar(float32(1))})
	return out.V
}

// greedy returns the argmax action (0 left, 1 stay, 2 right) per state.
func greedy(v jit.Array, env Env) jit.Array {
	q := qValues(v, env)
	best := q.MaxReduce(0)
	right := q.Slice([]int{2, 0}, []int{3, nStates}).Reshape(nStates).Eq(best)
	stay := q.Slice([]int{1, 0}, []int{2, nStates}).Reshape(nStates).Eq(best)
	return jit.Where(right, 2, jit.Where(stay, 1, 0)).Astype(jit.Int32)
}

var moves = []func(jit.Array) jit.Array{
	func(p jit.Array) jit.Array { return p.Sub(1).Max(0) },
	func(p jit.Array) jit.Array { return p },
	func(p jit.Array) jit.Array { return p.Add(1).Min(nStates - 1) },
}

// rollout walks one agent for 20 steps under policy (not mapped).
func rollout(start, policy jit.Array) jit.Array {
	states := jit.Arange(nStates, jit.Int32)
	return jit.ForiLoop(0, 20, func(_ jit.Array, pos jit.Array) jit.Array {
		action := jit.Where(states.Eq(pos), policy, 0).Sum()
		pos = jit.Switch(action, moves, pos) // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		return jit.Switch(1, moves, pos)
	}, start)
}

// stepsToGoal tries to get the distance to the goal as a Go int.
func stepsToGoal(v jit.Array, env Env) jit.Array {
	gap := v.MaxReduce().Sub(v).Div(env.Reward.MaxReduce())
	n := int(gap.Sum().Item()) // want tracedbool
	return jit.Full(float64(n), jit.Float32)
}

func main() {
	r := make([]float32, nStates)
	r[nStates-1] = 1
	env := Env{Reward: jit.FromSlice(r), Gamma: 0.9, Name: "corridor"}

	unrolled := jit.Jit(solveUnrolled)
	solver := jit.Jit(solve)
	var v jit.Array
	for episode := 0; episode < 8; episode++ {
		v = solver.Call(env)
		if episode == 0 {
			fmt.Println("unrolled V[0] =", unrolled.Call(env).Slice([]int{0}, []int{1}))
		}
	}
	fmt.Printf("V = %.3f\n", v.Float32s()[:6])

	// Discount sensitivity: every gamma is a new static value.
	for i := 0; i < 6; i++ {
		g := 0.5 + 0.08*float64(i)
		sens := Env{Reward: env.Reward, Gamma: g, Name: env.Name}
		fmt.Printf("gamma %.2f  V[0] %.4f\n", g, solver.Call(sens).Float32s()[0]) // want staticargs
	}

	policy := jit.Jit(greedy).Call(v, env)
	fmt.Println("policy:", policy)
	agents := jit.Jit(jit.Vmap(rollout, jit.InAxes(0, jit.NotMapped)))
	final := agents.Call(jit.FromSlice([]int32{0, 3, 7, 12, 15}), policy)
	fmt.Println("agent positions after 20 steps:", final)
	fmt.Println("steps to goal:", jit.Jit(stepsToGoal).Call(v, env))
}
