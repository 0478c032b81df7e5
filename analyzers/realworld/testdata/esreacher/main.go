// Command esreacher trains a linear controller for a 2-D point-mass
// reacher with an OpenAI-style evolution strategy: antithetic Gaussian
// perturbations of the parameters, the whole population rolled out at once
// with vmap, centered-rank fitness shaping and an SGD-with-momentum update.
// Each generation draws a fresh target (a simple curriculum). Parameters are
// checkpointed every few generations and the run is resumed from the last
// checkpoint at the end. Ported from a JAX (evosax-like) script.
package main

import (
	"fmt"
	"math/rand"
	"os"

	"corpus/rlkit"

	"github.com/jitlint/jitlint/jit"
)

const (
	obsDim      = 4 // position - target, velocity
	actDim      = 2
	numParams   = actDim*obsDim + actDim
	halfPop     = 16
	popSize     = 2 * halfPop
	horizon     = 50
	substeps    = 4
	dt          = 0.025
	sigma       = 0.1
	generations = 40
	seed        = 3
)

// physics is the point-mass state.
type physics struct {
	Pos, Vel jit.Array // [2] each
}

// controller unpacks a flat parameter vector into W [actDim, obsDim], b.
func controller(theta jit.Array) (jit.Array, jit.Array) {
	w := theta.Slice([]int{0}, []int{actDim * obsDim}).Reshape(actDim, obsDim)
	b := theta.Slice([]int{actDim * obsDim}, []int{numParams})
	return w, b
}

// simulate runs the closed loop for the horizon from start and returns the
// episode's fitness: minus the mean distance to the target and a small
// control cost.
func simulate(theta, target, start jit.Array) jit.Array {
	w, b := controller(theta)
	init := physics{Pos: start, Vel: jit.Zeros(jit.Float32, 2)}
	_, costs := jit.ScanN(func(s physics) (physics, jit.Array) {
		obs := jit.Concatenate(0, s.Pos.Sub(target), s.Vel)
		u := w.MatMul(obs).Add(b).Tanh()
		for k := 0; k < substeps; k++ {
			s.Vel = s.Vel.Mul(0.98).Add(u.Mul(dt))
			s.Pos = s.Pos.Add(s.Vel.Mul(dt))
		}
		dist := s.Pos.Sub(target).Pow(2).Sum().Sqrt()
		return s, dist.Add(u.Pow(2).Sum().Mul(0.01))
	}, init, horizon)
	return costs.Mean().Neg()
}

// rollout is the fitness of one member from the origin.
func rollout(theta, target jit.Array) jit.Array {
	return simulate(theta, target, jit.Zeros(jit.Float32, 2))
}

var popFitness = jit.Vmap(rollout, jit.InAxes(0, jit.NotMapped))

// startRNG draws the perturbed start positions of the evaluation.
var startRNG = rand.New(rand.NewSource(seed))

// centeredRanks maps fitness to ranks scaled to [-0.5, 0.5].
func centeredRanks(f jit.Array) jit.Array {
	n := f.Shape()[0]
	less := f.Reshape(1, n).Lt(f.Reshape(n, 1)).Astype(jit.Float32)
	return less.Sum(1).Div(float32(n - 1)).Sub(0.5)
}

// ESState is the search distribution's mean and the momentum buffer.
type ESState struct {
	Theta, Momentum jit.Array
}

// ESUpdate estimates the gradient of expected fitness from the
// perturbations and their fitness and takes a momentum step.
func ESUpdate(s ESState, noise, fitness, lr jit.Array, sig float64) ESState {
	shaped := centeredRanks(fitness)
	grad := shaped.Reshape(1, popSize).MatMul(noise).Reshape(numParams).Div(float32(popSize * sig))
	jit.DebugPrint("fitness mean %v max %v", fitness.Mean(), fitness.MaxReduce())
	m := s.Momentum.Mul(0.9).Add(grad)
	return ESState{Theta: s.Theta.Add(m.Mul(lr)), Momentum: m}
}

// EvaluateMean scores the current mean controller on held-out targets,
// starting from a slightly perturbed position as in the paper's
// robustness check.
func EvaluateMean(theta, targets jit.Array) jit.Array {
	push := float32(startRNG.Float64()*0.2 - 0.1) // want traceeffect
	start := jit.FromSlice([]float32{push, -push})
	perTarget := jit.Vmap(func(t jit.Array) jit.Array { return simulate(theta, t, start) })(targets)
	return perTarget.Mean()
}

func sampleTarget(rng *rlkit.RNG) jit.Array {
	return jit.FromSlice([]float32{float32(rng.Float64()*2 - 1), float32(rng.Float64()*2 - 1)})
}

// antithetic returns [eps; -eps] for halfPop Gaussian draws.
func antithetic(rng *rlkit.RNG) jit.Array {
	half := rng.Normals(halfPop * numParams)
	full := make([]float32, 0, popSize*numParams)
	full = append(full, half...)
	for _, x := range half {
		full = append(full, -x)
	}
	return jit.FromSlice(full, popSize, numParams)
}

// perturb is theta + sigma * noise for every member.
func perturb(theta, noise jit.Array) jit.Array {
	return theta.Reshape(1, numParams).Add(noise.Mul(sigma))
}

func main() {
	rng := rlkit.NewRNG(seed)
	log := &rlkit.Logger{W: os.Stdout, Prefix: "[es]", Every: 5}
	dir, err := os.MkdirTemp("", "es-reacher")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	held := jit.FromSlice([]float32{0.8, 0.8, -0.6, 0.5, 0.3, -0.9, -0.7, -0.4}, 4, 2)
	evaluate := jit.Jit(EvaluateMean)
	members := jit.Jit(perturb)
	lr := jit.Scalar(float32(0.05))
	state := ESState{Theta: jit.Zeros(jit.Float32, numParams), Momentum: jit.Zeros(jit.Float32, numParams)}
	var lastCkpt string
	var best float64 = -1e9

	for gen := 1; gen <= generations; gen++ {
		target := sampleTarget(rng)
		noise := antithetic(rng)
		thetas := members.Call(state.Theta, noise)

		evalPop := jit.Jit(func(thetas jit.Array) jit.Array { return popFitness(thetas, target) }) // want staticargs
		fitness := evalPop.Call(thetas)

		update := jit.Jit(ESUpdate, jit.StaticArgnums(4))
		state = update.Call(state, noise, fitness, lr, sigma)

		if gen%5 == 0 {
			score := evaluate.Call(state.Theta, held).Item()
			best = max(best, score)
			log.Log(gen, "train_fitness", fitness.Mean().Item(), "heldout", score)
		}
		if gen%10 == 0 {
			path, err := rlkit.Save(dir, gen, map[string]jit.Array{"theta": state.Theta, "momentum": state.Momentum})
			if err != nil {
				panic(err)
			}
			lastCkpt = path
		}
	}
	fmt.Printf("best held-out fitness %.4f; evaluation compiled %d time(s)\n", best, evaluate.Stats().Compiles)

	// Resume from the last checkpoint and run five more generations on the
	// held-out targets, one after the other.
	step, saved, err := rlkit.Load(lastCkpt)
	if err != nil {
		panic(err)
	}
	resumed := ESState{Theta: saved["theta"], Momentum: saved["momentum"]}
	popOnHeld := jit.Jit(func(thetas, target jit.Array) jit.Array { return popFitness(thetas, target) })
	update := jit.Jit(ESUpdate, jit.StaticArgnums(4))
	for gen := step + 1; gen <= step+5; gen++ {
		noise := antithetic(rng)
		target := held.Slice([]int{(gen - step - 1) % 4, 0}, []int{(gen-step-1)%4 + 1, 2}).Reshape(2)
		fitness := popOnHeld.Call(members.Call(resumed.Theta, noise), target)
		resumed = update.Call(resumed, noise, fitness, lr, sigma)
	}
	fmt.Printf("resumed at generation %d: held-out fitness %.4f, population compiles %d, update signatures %d\n",
		step, evaluate.Call(resumed.Theta, held).Item(), popOnHeld.Stats().Compiles, len(update.Signatures()))
}
