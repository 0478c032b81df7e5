// Command frozenlake solves the slippery 4x4 FrozenLake MDP three ways:
// value iteration (a fixed number of sweeps, and to a tolerance), policy
// iteration with a jitted evaluation step, and tabular Q-learning against
// a host-side simulator. Ported from a NumPy/JAX teaching notebook.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"corpus/rlkit"

	"github.com/jitlint/jitlint/jit"
)

var lake = []string{
	"SFFF",
	"FHFH",
	"FFFH",
	"HFFG",
}

const (
	side       = 4
	numStates  = side * side
	numActions = 4 // left, down, right, up (gym's order)
	numSweeps  = 60
	tol        = 1e-5
	seed       = 11
)

// buildMDP returns P[s, a, s'] and R[s, a] (expected immediate reward).
// On ice the agent moves in the intended direction or one of the two
// perpendicular ones, each with probability 1/3; holes and the goal are
// absorbing.
func buildMDP() (p []float32, r []float32) {
	p = make([]float32, numStates*numActions*numStates)
	r = make([]float32, numStates*numActions)
	dr := []int{0, 1, 0, -1}
	dc := []int{-1, 0, 1, 0}
	for s := 0; s < numStates; s++ {
		cell := lake[s/side][s%side]
		for a := 0; a < numActions; a++ {
			if cell == 'H' || cell == 'G' {
				p[(s*numActions+a)*numStates+s] = 1
				continue
			}
			for _, d := range []int{(a + 3) % 4, a, (a + 1) % 4} {
				row := min(max(s/side+dr[d], 0), side-1)
				col := min(max(s%side+dc[d], 0), side-1)
				n := row*side + col
				p[(s*numActions+a)*numStates+n] += 1.0 / 3
				if lake[row][col] == 'G' {
					r[s*numActions+a] += 1.0 / 3
				}
			}
		}
	}
	return p, r
}

// qFromV is Q = R + gamma * sum_s' P[s, a, s'] V[s'].
func qFromV(v, p, r jit.Array, gamma float64) jit.Array {
	pv := p.Reshape(numStates*numActions, numStates).MatMul(v).Reshape(numStates, numActions)
	return r.Add(pv.Mul(gamma))
}

// SolveSweeps runs value iteration for a fixed number of sweeps.
func SolveSweeps(p, r jit.Array) jit.Array {
	v := jit.Zeros(jit.Float32, numStates)
	for sweep := 0; sweep < numSweeps; sweep++ { // want unrolledloop
		v = qFromV(v, p, r, 0.99).MaxReduce(1)
	}
	return v
}

// SolveEarlyStop is the notebook's loop: sweep until the update is small.
func SolveEarlyStop(p, r jit.Array) jit.Array {
	v := jit.Zeros(jit.Float32, numStates)
	for sweep := 0; sweep < 1000; sweep++ {
		nv := qFromV(v, p, r, 0.99).MaxReduce(1)
		delta := nv.Sub(v).Abs().MaxReduce()
		v = nv
		if delta.Item() < tol { // want tracedbool
			break
		}
	}
	return v
}

type viCarry struct {
	V, Delta, Iter jit.Array
}

// SolveToTolerance is value iteration as one while loop on the device.
func SolveToTolerance(p, r jit.Array) (jit.Array, jit.Array) {
	init := viCarry{V: jit.Zeros(jit.Float32, numStates), Delta: jit.Scalar(float32(1)), Iter: jit.Scalar(int32(0))}
	out := jit.WhileLoop(
		func(c viCarry) jit.Array { return c.Delta.Ge(tol).And(c.Iter.Lt(1000)) },
		func(c viCarry) viCarry {
			nv := qFromV(c.V, p, r, 0.99).MaxReduce(1)
			return viCarry{V: nv, Delta: nv.Sub(c.V).Abs().MaxReduce(), Iter: c.Iter.Add(1)}
		}, init)
	return out.V, out.Iter
}

// GreedyPolicy returns argmax_a Q(s, a), built action by action.
func GreedyPolicy(v, p, r jit.Array) jit.Array {
	q := qFromV(v, p, r, 0.99)
	best := q.Slice([]int{0, 0}, []int{numStates, 1}).Reshape(numStates)
	arg := jit.Zeros(jit.Int32, numStates)
	for a := 1; a < numActions; a++ {
		qa := q.Slice([]int{0, a}, []int{numStates, a + 1}).Reshape(numStates)
		better := qa.Gt(best.Add(1e-6))
		arg = jit.Where(better, int32(a), arg)
		best = jit.Where(better, qa, best)
	}
	return arg
}

// EvaluatePolicy is iterative policy evaluation for a deterministic
// policy; gamma is static (we compare two horizons).
func EvaluatePolicy(p, r, policy jit.Array, gamma float64) jit.Array {
	mask := rlkit.OneHot(policy, numActions)
	pPi := p.Mul(mask.Reshape(numStates, numActions, 1)).Sum(1)
	rPi := r.Mul(mask).Sum(1)
	return jit.ForiLoop(0, 300, func(_ jit.Array, v jit.Array) jit.Array {
		return rPi.Add(pPi.MatMul(v).Mul(gamma))
	}, jit.Zeros(jit.Float32, numStates))
}

// QUpdate is one tabular Q-learning update at (s, a, r, s').
func QUpdate(q, s, a, reward, next, done, alpha jit.Array) jit.Array {
	bootstrap := jit.Cond(done,
		func(jit.Array) jit.Array { return jit.Scalar(float32(0)) },
		func(q jit.Array) jit.Array { return rlkit.OneHot(next, numStates).MatMul(q).MaxReduce().Mul(0.99) },
		q)
	cell := rlkit.OneHot(s, numStates).Reshape(numStates, 1).Mul(rlkit.OneHot(a, numActions).Reshape(1, numActions))
	td := reward.Add(bootstrap).Sub(q.Mul(cell).Sum())
	return q.Add(cell.Mul(td.Mul(alpha)))
}

// try calls fn and reports a jit error instead of crashing.
func try(name string, fn func()) {
	defer func() {
		if rec := recover(); rec != nil {
			var e *jit.Error
			if err, ok := rec.(error); ok && errors.As(err, &e) {
				fmt.Printf("%s: %s\n", name, e.Kind)
				return
			}
			panic(rec)
		}
	}()
	fn()
}

func showPolicy(pol []int32) string {
	arrows := []string{"<", "v", ">", "^"}
	var b strings.Builder
	for s, a := range pol {
		switch lake[s/side][s%side] {
		case 'H':
			b.WriteString("H")
		case 'G':
			b.WriteString("G")
		default:
			b.WriteString(arrows[a])
		}
		if s%side == side-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func main() {
	pData, rData := buildMDP()
	p := jit.FromSlice(pData, numStates, numActions, numStates)
	r := jit.FromSlice(rData, numStates, numActions)

	vFixed := jit.Jit(SolveSweeps).Call(p, r)
	fmt.Printf("V after %d sweeps, start state: %.4f\n", numSweeps, vFixed.Float32s()[0])

	try("early-stop value iteration", func() { jit.Jit(SolveEarlyStop).Call(p, r) })

	v, iters := jit.Jit(SolveToTolerance).Call(p, r)
	fmt.Printf("V to tolerance %.0e in %d sweeps, start state: %.4f\n", tol, iters.Int(), v.Float32s()[0])
	greedy := jit.Jit(GreedyPolicy)
	fmt.Print(showPolicy(greedy.Call(v, p, r).Int32s()))

	// Policy iteration: evaluate, improve, stop when the policy is stable.
	evaluate := jit.Jit(EvaluatePolicy, jit.StaticArgnums(3))
	same := jit.Jit(func(a, b jit.Array) jit.Array { return a.Eq(b).Astype(jit.Int32).MinReduce().Eq(1) })
	for _, g := range []float64{0.9, 0.99} {
		policy := jit.Zeros(jit.Int32, numStates)
		for round := 1; round <= 20; round++ {
			vp := evaluate.Call(p, r, policy, g)
			improved := greedy.Call(vp, p, r)
			if same.Call(policy, improved).Bool() {
				fmt.Printf("gamma %.2f: policy stable after %d rounds, V(start) = %.4f\n", g, round, vp.Float32s()[0])
				break
			}
			policy = improved
		}
	}
	fmt.Printf("evaluation compiles for two discounts: %d\n", evaluate.Stats().Compiles)

	// Tabular Q-learning against a host simulator of the same MDP.
	rng := rlkit.NewRNG(seed)
	log := &rlkit.Logger{W: os.Stdout, Prefix: "[q-learning]", Every: 300}
	update := jit.Jit(QUpdate)
	pickBest := jit.Jit(rlkit.Argmax)
	q := jit.Zeros(jit.Float32, numStates, numActions)
	alpha := jit.Scalar(float32(0.2))
	wins := 0
	for ep := 1; ep <= 1500; ep++ {
		s := 0
		eps := max(0.05, 1-float64(ep)/1000)
		for t := 0; t < 60; t++ {
			var a int
			if rng.Float64() < eps {
				a = rng.Intn(numActions)
			} else {
				a = int(pickBest.Call(q).Int32s()[s])
			}
			row := pData[(s*numActions+a)*numStates : (s*numActions+a+1)*numStates]
			next := rng.Categorical(row)
			cell := lake[next/side][next%side]
			reward := float32(0)
			if cell == 'G' {
				reward, wins = 1, wins+1
			}
			done := cell == 'G' || cell == 'H'
			q = update.Call(q, jit.Scalar(int32(s)), jit.Scalar(int32(a)), jit.Scalar(reward),
				jit.Scalar(int32(next)), jit.Scalar(done), alpha)
			s = next
			if done {
				break
			}
		}
		log.Log(ep, "eps", eps, "wins", wins)
	}
	fmt.Print(showPolicy(pickBest.Call(q).Int32s()))
	fmt.Printf("Q-learning: %d wins in 1500 episodes, update compiles %d\n", wins, update.Stats().Compiles)
}
