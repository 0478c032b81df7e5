package a

import "github.com/jitlint/jitlint/jit"

// ReluBad is the codelab's branch on a traced value.
func ReluBad(x jit.Array) jit.Array {
	// want +1 `x.Gt\(0\).Bool\(\) converts a traced value to a Go bool`
	if x.Gt(0).Bool() {
		return x
	}
	return x.Mul(0)
}

var reluBad = jit.Jit(ReluBad)

// Clip assigns in both branches.
func Clip(x jit.Array) jit.Array {
	y := x
	// want +1 `converts a traced value to a Go bool`
	if x.Sum().Gt(1).Bool() {
		y = x.Div(2)
	} else {
		y = x.Neg()
	}
	return y
}

var clip = jit.Jit(Clip)

// Commented keeps its comment: no fix.
func Commented(x jit.Array) jit.Array {
	if x.Gt(0).Bool() { // want `converts a traced value to a Go bool`
		return x // keep me
	}
	return x.Neg()
}

var commented = jit.Jit(Commented)

// Else has no fix: it is not one of the two shapes.
func Else(x jit.Array) jit.Array {
	if x.Gt(0).Bool() { // want `converts a traced value to a Go bool`
		x = x.Neg()
		return x
	}
	return x
}

var elseJit = jit.Jit(Else)
