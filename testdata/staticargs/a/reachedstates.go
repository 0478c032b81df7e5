package a

import "github.com/jitlint/jitlint/jit"

// A loop state that a test on data sets to one of a few constants takes
// only those values, however the loop runs (adaptive lookahead: 4 after an
// accepted draft, 2 after a rejection); one that counts up on each round
// of such a loop takes a new value each time.

func rsAccepted(x jit.Array) int { return len(x.Shape()) }

func rsLookahead(x jit.Array, out []int) {
	k := 4
	for len(out) < 40 {
		x = power.Call(k, x) // not reported: k is 4 or 2
		n := rsAccepted(x)
		out = append(out, n)
		if n == k {
			k = 4
		} else {
			k = 2
		}
	}
	steps := 1
	for len(out) < 80 {
		x = power.Call(steps, x) // want `static argument n takes a new value on every iteration`
		out = append(out, rsAccepted(x))
		steps++
	}
}
