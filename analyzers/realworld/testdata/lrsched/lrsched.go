// Package lrsched is a small learning-rate schedule library in the style of
// optax's schedules: each schedule maps a step count to a learning rate.
// Schedules are evaluated on the host; the value is handed to the jitted
// update step as a traced scalar so that a new rate never recompiles it.
package lrsched

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

// Schedule maps an optimizer step (0-based) to a learning rate.
type Schedule func(step int) float64

// Constant returns a schedule that is always lr.
func Constant(lr float64) Schedule {
	return func(int) float64 { return lr }
}

// LinearWarmup ramps linearly from init to peak over warmupSteps, then holds.
func LinearWarmup(init, peak float64, warmupSteps int) Schedule {
	return func(step int) float64 {
		if warmupSteps <= 0 || step >= warmupSteps {
			return peak
		}
		frac := float64(step) / float64(warmupSteps)
		return init + frac*(peak-init)
	}
}

// StepDecay multiplies lr by gamma every `every` steps (torch's StepLR).
func StepDecay(lr, gamma float64, every int) Schedule {
	return func(step int) float64 {
		return lr * math.Pow(gamma, float64(step/every))
	}
}

// Cosine decays from lr to alpha*lr over decaySteps (optax.cosine_decay_schedule).
func Cosine(lr float64, decaySteps int, alpha float64) Schedule {
	return func(step int) float64 {
		s := math.Min(float64(step), float64(decaySteps))
		cos := 0.5 * (1 + math.Cos(math.Pi*s/float64(decaySteps)))
		return lr * ((1-alpha)*cos + alpha)
	}
}

// Polynomial decays from init to end over decaySteps with the given power
// (optax.polynomial_schedule).
func Polynomial(init, end, power float64, decaySteps int) Schedule {
	return func(step int) float64 {
		s := math.Min(float64(step), float64(decaySteps))
		frac := 1 - s/float64(decaySteps)
		return (init-end)*math.Pow(frac, power) + end
	}
}

// Join runs schedules one after another; boundaries[i] is the step at which
// schedule i+1 takes over, and it sees steps counted from its boundary
// (optax.join_schedules).
func Join(schedules []Schedule, boundaries []int) Schedule {
	if len(boundaries) != len(schedules)-1 {
		panic(fmt.Sprintf("lrsched.Join: %d schedules need %d boundaries, got %d",
			len(schedules), len(schedules)-1, len(boundaries)))
	}
	return func(step int) float64 {
		start := 0
		for i, b := range boundaries {
			if step < b {
				return schedules[i](step - start)
			}
			start = b
		}
		return schedules[len(schedules)-1](step - start)
	}
}

// WarmupCosine is the usual transformer schedule: linear warmup to peak,
// then cosine decay to end over the remaining steps.
func WarmupCosine(peak, end float64, warmupSteps, totalSteps int) Schedule {
	return Join([]Schedule{
		LinearWarmup(0, peak, warmupSteps),
		Cosine(peak, totalSteps-warmupSteps, end/peak),
	}, []int{warmupSteps})
}

// Value returns the schedule's rate at step as an f32 scalar for a jitted
// step function.
func (s Schedule) Value(step int) jit.Array {
	return jit.Scalar(float32(s(step)))
}

// CosineTraced is Cosine computed inside traced code from a traced step
// counter, for update functions that keep the step in their optimizer state.
func CosineTraced(step jit.Array, lr float64, decaySteps int, alpha float64) jit.Array {
	s := step.Astype(jit.Float32).Min(float64(decaySteps))
	cos := s.Mul(math.Pi / float64(decaySteps)).Cos().Add(1).Mul(0.5)
	return cos.Mul(1 - alpha).Add(alpha).Mul(lr)
}

// Describe prints a few points of the schedule, for logs.
func Describe(name string, s Schedule, steps ...int) string {
	out := name + ":"
	for _, st := range steps {
		out += fmt.Sprintf(" [%d]=%.2e", st, s(st))
	}
	return out
}
