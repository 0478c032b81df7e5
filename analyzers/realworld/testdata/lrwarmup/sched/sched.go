// Package sched holds learning-rate schedules ported from an optax-style
// training script: plain Go functions of the step number.
package sched

import "math"

// Schedule maps a step number to a learning rate.
type Schedule func(step int) float64

// WarmupCosine ramps linearly from 0 to peak over warmup steps and then
// follows a half cosine down to floor at total steps.
func WarmupCosine(peak, floor float64, warmup, total int) Schedule {
	return func(step int) float64 {
		if step < warmup {
			return peak * float64(step+1) / float64(warmup)
		}
		if step >= total {
			return floor
		}
		t := float64(step-warmup) / float64(total-warmup)
		return floor + 0.5*(peak-floor)*(1+math.Cos(math.Pi*t))
	}
}

// StepDecay multiplies base by gamma every `every` steps, but never more
// than drops times.
func StepDecay(base, gamma float64, every, drops int) Schedule {
	return func(step int) float64 {
		k := step / every
		if k > drops {
			k = drops
		}
		return base * math.Pow(gamma, float64(k))
	}
}

// Constant is a schedule that never changes.
func Constant(lr float64) Schedule {
	return func(int) float64 { return lr }
}
