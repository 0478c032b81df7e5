// Package eval is the reference interpreter of jaxprs: a plain, obviously
// correct evaluator of every primitive in ir/prims.go on concrete host
// buffers. The jit package uses it for eager operations, and the CPU and GPU
// backends compare their results against it.
//
// Floating-point results are computed in float64 and rounded once to the
// result dtype (ir.RoundTo for f32, bf16 and f16), so they are the float64
// reference rounded to the dtype. Malformed input (wrong operand count, an
// unknown primitive, mismatched shapes or dtypes, missing parameters) is
// reported as an error starting with "eval <prim>:", never as a panic.
package eval

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// Apply evaluates one primitive on concrete buffers (eager mode); the same
// semantics as inside a jaxpr. Arguments are never modified; results of
// control-flow primitives may be argument buffers themselves (a jaxpr that
// returns its input), so treat buffers as immutable.
func Apply(prim string, params ir.Params, args []*ir.Buffer) (out []*ir.Buffer, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("eval %s: internal error (please report): %v", prim, r)
		}
	}()
	for i, a := range args {
		if err := CheckBuffer(a); err != nil {
			return nil, fmt.Errorf("eval %s: operand %d: %v", prim, i, err)
		}
	}
	out, err = apply(prim, params, args)
	if err != nil {
		return nil, fmt.Errorf("eval %s: %w", prim, err)
	}
	return out, nil
}

// apply dispatches on the primitive name.
func apply(prim string, params ir.Params, args []*ir.Buffer) ([]*ir.Buffer, error) {
	if prim == ir.AddAny {
		prim = ir.Add
	}
	switch {
	case ir.IsUnary(prim):
		return one(applyUnary(prim, params, args))
	case ir.IsBinary(prim):
		return one(applyBinary(prim, args))
	}
	switch prim {
	case ir.SelectN:
		return one(applySelectN(args))
	case ir.Clamp:
		return one(applyClamp(args))
	case ir.ConvertElementType:
		return one(applyConvert(params, args))
	case ir.BroadcastInDim:
		return one(applyBroadcastInDim(params, args))
	case ir.Reshape:
		return one(applyReshape(params, args))
	case ir.Transpose:
		return one(applyTranspose(params, args))
	case ir.Squeeze:
		return one(applySqueeze(params, args))
	case ir.ReduceSum, ir.ReduceMax, ir.ReduceMin:
		return one(applyReduce(prim, params, args))
	case ir.Iota:
		return one(applyIota(params, args))
	case ir.Concatenate:
		return one(applyConcatenate(params, args))
	case ir.Pad:
		return one(applyPad(params, args))
	case ir.Slice:
		return one(applySlice(params, args))
	case ir.DotGeneral:
		return one(applyDotGeneral(params, args))
	case ir.Cond:
		return applyCond(params, args)
	case ir.Scan:
		return applyScan(params, args)
	case ir.While:
		return applyWhile(params, args)
	case ir.Jit, ir.CustomJVPCall:
		return applyCall(prim, params, args)
	case ir.DebugPrint:
		return applyDebugPrint(params, args)
	case ir.StopGradient:
		if err := wantArgs(args, 1); err != nil {
			return nil, err
		}
		return args, nil // buffers are immutable
	}
	return nil, fmt.Errorf("unknown primitive %q (the evaluator knows those listed in jit/ir/prims.go)", prim)
}

// one wraps a single-result primitive's result.
func one(b *ir.Buffer, err error) ([]*ir.Buffer, error) {
	if err != nil {
		return nil, err
	}
	return []*ir.Buffer{b}, nil
}

// wantArgs checks the operand count.
func wantArgs(args []*ir.Buffer, n int) error {
	if len(args) != n {
		return fmt.Errorf("got %d operands, want %d", len(args), n)
	}
	return nil
}

// LiteralBuffer returns a literal's value as a 0-d buffer. The literal's
// dtype must be valid (ir.NewBuffer panics otherwise); Jaxpr checks it
// before calling.
func LiteralBuffer(l ir.Literal) *ir.Buffer {
	return ir.ScalarBuffer(l.Aval.DType, l.Value)
}

// Closed evaluates a closed jaxpr.
func Closed(cj *ir.ClosedJaxpr, args []*ir.Buffer) ([]*ir.Buffer, error) {
	if cj == nil {
		return nil, fmt.Errorf("eval: nil closed jaxpr")
	}
	return Jaxpr(cj.Jaxpr, cj.Consts, args)
}

// Jaxpr evaluates j with its constvars bound to consts and invars to args.
// Every bound value must have its variable's shape and dtype, and every
// equation's results must have the types of its output variables.
func Jaxpr(j *ir.Jaxpr, consts, args []*ir.Buffer) ([]*ir.Buffer, error) {
	if j == nil {
		return nil, fmt.Errorf("eval: nil jaxpr")
	}
	env := make(map[*ir.Var]*ir.Buffer, len(j.Constvars)+len(j.Invars)+len(j.Eqns))
	if err := bindAll(env, "constvar", j.Constvars, consts); err != nil {
		return nil, err
	}
	if err := bindAll(env, "input", j.Invars, args); err != nil {
		return nil, err
	}
	for i, e := range j.Eqns {
		if e == nil {
			return nil, fmt.Errorf("eval: equation %d is nil", i)
		}
		ins := make([]*ir.Buffer, len(e.In))
		for k, a := range e.In {
			b, err := read(env, a)
			if err != nil {
				return nil, fmt.Errorf("eval %s: operand %d: %v%s", e.Prim, k, err, where(i, e))
			}
			ins[k] = b
		}
		outs, err := Apply(e.Prim, e.Params, ins)
		if err != nil {
			return nil, fmt.Errorf("%w%s", err, where(i, e))
		}
		if len(outs) != len(e.Out) {
			return nil, fmt.Errorf("eval %s: produced %d results but the equation has %d output variables%s",
				e.Prim, len(outs), len(e.Out), where(i, e))
		}
		for k, v := range e.Out {
			if err := bind(env, v, outs[k]); err != nil {
				return nil, fmt.Errorf("eval %s: result %d: %v%s", e.Prim, k, err, where(i, e))
			}
		}
	}
	res := make([]*ir.Buffer, len(j.Outvars))
	for k, a := range j.Outvars {
		b, err := read(env, a)
		if err != nil {
			return nil, fmt.Errorf("eval: jaxpr output %d: %v", k, err)
		}
		res[k] = b
	}
	return res, nil
}

// where describes equation i for error messages.
func where(i int, e *ir.Eqn) string {
	if e.Source != nil {
		return fmt.Sprintf(" (equation %d, staged at %s)", i, e.Source)
	}
	return fmt.Sprintf(" (equation %d)", i)
}

// bindAll binds vars to vals, checking counts and types.
func bindAll(env map[*ir.Var]*ir.Buffer, what string, vars []*ir.Var, vals []*ir.Buffer) error {
	if len(vars) != len(vals) {
		return fmt.Errorf("eval: jaxpr has %d %ss but got %d values", len(vars), what, len(vals))
	}
	for i, v := range vars {
		if err := CheckBuffer(vals[i]); err != nil {
			return fmt.Errorf("eval: %s %d: %v", what, i, err)
		}
		if err := bind(env, v, vals[i]); err != nil {
			return fmt.Errorf("eval: %s %d: %v", what, i, err)
		}
	}
	return nil
}

// bind binds one variable after checking the value's type against its aval.
func bind(env map[*ir.Var]*ir.Buffer, v *ir.Var, b *ir.Buffer) error {
	if v == nil {
		return fmt.Errorf("nil variable")
	}
	if !b.Aval().TypeMatch(v.Aval) {
		return fmt.Errorf("value of type %s bound to a variable of type %s", b.Aval(), v.Aval)
	}
	env[v] = b
	return nil
}

// read returns an operand's value: a bound variable or a literal.
func read(env map[*ir.Var]*ir.Buffer, a ir.Atom) (*ir.Buffer, error) {
	switch a := a.(type) {
	case *ir.Var:
		b, ok := env[a]
		if !ok || a == nil {
			return nil, fmt.Errorf("variable of type %s used before it is defined", typeOf(a))
		}
		return b, nil
	case ir.Literal:
		if !ValidDType(a.Aval.DType) {
			return nil, fmt.Errorf("literal %v has invalid dtype %v", a.Value, a.Aval.DType)
		}
		if len(a.Aval.Shape) != 0 {
			return nil, fmt.Errorf("literal %v has non-scalar type %s", a.Value, a.Aval)
		}
		return LiteralBuffer(a), nil
	case nil:
		return nil, fmt.Errorf("nil operand")
	}
	return nil, fmt.Errorf("operand of unknown kind %T", a)
}

// typeOf prints a possibly nil variable's type.
func typeOf(v *ir.Var) string {
	if v == nil {
		return "<nil>"
	}
	return v.Aval.String()
}
