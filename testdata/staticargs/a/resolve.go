package a

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

// Static arguments read from tables kept in a struct: a table that the
// loop does not change, indexed by a value that takes a few values, is a
// few compiles; one new element per iteration, or a table that the loop
// changes, is a compile per iteration.

type rsSearch struct {
	Depths [5]int
	Phase  map[bool]string
}

func rsGrid(x jit.Array) {
	s := rsSearch{Depths: [5]int{1, 2, 3, 5, 8}, Phase: map[bool]string{true: "tanh", false: "sin"}}
	for i := range s.Depths {
		power.Call(s.Depths[i], x) // want `static argument n takes a new value on every iteration: each call traces and compiles again \(5 iterations → 5 compiles\)`
	}
	// Not reported: the phase alternates between two names of a table
	// that the loop does not change.
	for step := range 16 {
		x = mode.Call(s.Phase[step%2 == 0], x)
	}
	// Not reported: the first two depths, over and over.
	for step := range 16 {
		x = power.Call(s.Depths[step%2], x)
	}
	// The loop changes the table: a new name on every iteration.
	for step := range 16 {
		s.Phase[step%2 == 0] = fmt.Sprint("act", step)
		x = mode.Call(s.Phase[step%2 == 0], x) // want `static argument mode takes a new value on every iteration: each call traces and compiles again \(16 iterations → 16 compiles\)`
	}
}

// Not reported: a table of two values, repeated, whatever the index
// (two compiles).
func rsRepeated(x jit.Array) {
	table := []int{2, 4, 2, 4, 2, 4}
	for i := range 6 {
		x = power.Call(table[i], x)
	}
	pair := [6]int{2, 4, 2, 4, 2, 4}
	for i := range pair {
		x = power.Call(pair[i], x)
	}
	// The zeros that a short array literal leaves out are a third value:
	// three compiles in six calls, a miss on every other call.
	short := [6]int{2, 4, 2}
	for i := range short {
		x = power.Call(short[i], x) // want `static argument n takes a new value on every iteration: each call traces and compiles again \(3 values over 6 iterations → 3 compiles\)`
	}
	// Five distinct values, one per iteration.
	distinct := []int{1, 2, 3, 5, 8}
	for i := range 5 {
		x = power.Call(distinct[i], x) // want `static argument n takes a new value on every iteration: each call traces and compiles again \(5 iterations → 5 compiles\)`
	}
}
