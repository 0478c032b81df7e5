// Package optim holds learning-rate schedules that corpus programs pass
// to jitted update steps: a step schedule with three plateaus, and an
// exponential decay per step.
package optim

import "math"

// Piecewise returns the learning rate of an epoch: three plateaus.
func Piecewise(epoch int) float64 {
	switch {
	case epoch < 2:
		return 0.1
	case epoch < 4:
		return 0.03
	default:
		return 0.01
	}
}

// Exponential decays base by rate per step.
func Exponential(base, rate float64, step int) float64 {
	return base * math.Pow(rate, float64(step))
}

// Phase names the part of training an epoch is in.
func Phase(epoch, total int) string {
	if epoch < total/2 {
		return "explore"
	}
	return "refine"
}
