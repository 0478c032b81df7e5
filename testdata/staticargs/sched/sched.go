// Package sched holds learning-rate schedules; it does not import jit.
package sched

import "math"

// Plateau returns the learning rate of an epoch: three plateaus.
func Plateau(epoch int) float64 {
	switch {
	case epoch < 2:
		return 0.1
	case epoch < 4:
		return 0.03
	}
	return 0.01
}

// NextPow2 returns the smallest power of two at least n, capped at 1024.
func NextPow2(n int) int {
	p := 1
	for p < n && p < 1024 {
		p *= 2
	}
	return p
}

// Grow returns the smallest bucket, 16 doubled as often as needed, that
// holds n: no cap, yet one of a few values for any data.
func Grow(n int) int {
	b := 16
	for b < n {
		b *= 2
	}
	return b
}

// Decay decays base by rate per step: a new value every step.
func Decay(base float64, step int) float64 {
	for range step {
		base *= 0.99
	}
	return base
}

// Tier returns the first tier at least n, or the last one: one of four
// values.
func Tier(n int) int {
	for _, t := range []int{8, 32, 128, 512} {
		if n <= t {
			return t
		}
	}
	return 512
}

// Rate returns a learning rate from a switch over the step: three values.
func Rate(step int) float64 {
	switch {
	case step < 100:
		return 0.1
	case step < 200:
		return 0.01
	default:
		return 0.001
	}
}

// StepDecay returns a schedule that multiplies base by gamma every
// `every` steps, at most drops times.
func StepDecay(base, gamma float64, every, drops int) func(step int) float64 {
	return func(step int) float64 {
		k := min(step/every, drops)
		return base * math.Pow(gamma, float64(k))
	}
}

// Linear returns a schedule that goes from start to end over steps.
func Linear(start, end float64, steps int) func(step int) float64 {
	return func(step int) float64 { return start + (end-start)*float64(step)/float64(steps) }
}

// Bucket returns the first of sizes that holds n, or the last one.
func Bucket(n int, sizes []int) int {
	for _, s := range sizes {
		if n <= s {
			return s
		}
	}
	return sizes[len(sizes)-1]
}
