package ir

import "slices"

// Var is a jaxpr variable. Variables are compared by identity; their printed
// names (a, b, c, ...) are assigned when a jaxpr is printed.
type Var struct {
	Aval Aval
}

// NewVar returns a fresh variable of the given type.
func NewVar(a Aval) *Var { return &Var{Aval: a} }

// Literal is a scalar constant inlined into an equation, printed as
// 3.0:f32[]. Value holds the number (ints and bools as 0/1 are exact up to
// 2^53); Aval is always a scalar type.
type Literal struct {
	Value float64
	Aval  Aval
}

// Atom is an equation operand or a jaxpr output: a *Var or a Literal.
type Atom interface {
	// Type returns the operand's abstract value.
	Type() Aval
}

// Type returns the variable's abstract value.
func (v *Var) Type() Aval { return v.Aval }

// Type returns the literal's abstract value.
func (l Literal) Type() Aval { return l.Aval }

// Params are an equation's parameters. Values are one of: int, bool, string,
// DType, []int (printed as a Python tuple), [][3]int (pad's padding_config),
// DotDims, *ClosedJaxpr (a nested jaxpr), []*ClosedJaxpr (cond branches), or
// nil (printed as None). prims.go lists each primitive's parameters.
type Params map[string]any

// Eqn is one equation: Out = Prim[Params] In.
type Eqn struct {
	Prim   string
	Params Params
	In     []Atom
	Out    []*Var
	// Source is the user's call that staged this equation (the first stack
	// frame outside package jit and its subpackages), nil when unknown (a
	// hand-built jaxpr, or a call stack deeper than the tracer looks).
	Source *Pos
}

// Jaxpr is a typed, first-order program: { lambda Constvars ; Invars . let Eqns in Outvars }.
type Jaxpr struct {
	Constvars []*Var
	Invars    []*Var
	Eqns      []*Eqn
	Outvars   []Atom
}

// ClosedJaxpr is a jaxpr with the concrete values of its constvars.
// Name is the traced function's name (used by nested jit equations and by
// the printer's hoisting of shared jaxprs).
type ClosedJaxpr struct {
	Jaxpr  *Jaxpr
	Consts []*Buffer
	Name   string
}

// InAvals returns the types of the jaxpr's inputs (constvars excluded).
func (j *Jaxpr) InAvals() []Aval {
	out := make([]Aval, len(j.Invars))
	for i, v := range j.Invars {
		out[i] = v.Aval
	}
	return out
}

// OutAvals returns the types of the jaxpr's outputs.
func (j *Jaxpr) OutAvals() []Aval {
	out := make([]Aval, len(j.Outvars))
	for i, v := range j.Outvars {
		out[i] = v.Type()
	}
	return out
}

// DotDims are dot_general's dimension numbers:
// ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)).
type DotDims struct {
	LhsContract, RhsContract []int
	LhsBatch, RhsBatch       []int
}

// LhsFree returns the free dimensions of a rank-n lhs (neither batch nor
// contracting), in order: the result's dimensions after the batch ones.
func (d DotDims) LhsFree(n int) []int { return freeDims(n, d.LhsBatch, d.LhsContract) }

// RhsFree returns the free dimensions of a rank-n rhs, in order: the
// result's last dimensions.
func (d DotDims) RhsFree(n int) []int { return freeDims(n, d.RhsBatch, d.RhsContract) }

// freeDims lists the dimensions of a rank-n operand in neither list.
func freeDims(n int, batch, contract []int) []int {
	var free []int
	for d := range n {
		if !slices.Contains(batch, d) && !slices.Contains(contract, d) {
			free = append(free, d)
		}
	}
	return free
}
