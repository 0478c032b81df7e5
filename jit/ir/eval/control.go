package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// applyCond evaluates cond: operand 0 is the branch index (clamped into
// range; a bool selects branch 1 when true), the rest are the chosen
// branch's inputs.
func applyCond(params ir.Params, args []*ir.Buffer) ([]*ir.Buffer, error) {
	v, ok := params["branches"]
	if !ok {
		return nil, fmt.Errorf("missing parameter branches")
	}
	branches, ok := v.([]*ir.ClosedJaxpr)
	if !ok || len(branches) == 0 {
		return nil, fmt.Errorf("parameter branches is %T of length %d, want a non-empty []*ir.ClosedJaxpr", v, lenOf(v))
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("got no operands, want the branch index first")
	}
	idx := args[0]
	if len(idx.Shape) != 0 || idx.DType.IsFloat() {
		return nil, fmt.Errorf("branch index has type %s, want a scalar i32[]", idx.Aval())
	}
	k := clampIndex(int64(idx.At(0)), len(branches)-1)
	if branches[k] == nil {
		return nil, fmt.Errorf("branch %d is nil", k)
	}
	out, err := Closed(branches[k], args[1:])
	if err != nil {
		return nil, fmt.Errorf("branch %d: %w", k, err)
	}
	return out, nil
}

// lenOf is the length of a []*ir.ClosedJaxpr, or 0.
func lenOf(v any) int {
	b, _ := v.([]*ir.ClosedJaxpr)
	return len(b)
}

// applyScan evaluates scan: operands are num_consts consts, num_carry carry
// values and xs; each of length iterations runs the body on (consts, carry,
// x slices along axis 0) and gets (carry, y slices). Results are the final
// carry then the ys stacked along a new axis 0. With reverse, iterations run
// from the last index to the first and ys keep the xs' order.
func applyScan(params ir.Params, args []*ir.Buffer) ([]*ir.Buffer, error) {
	body, err := closedParam(params, "jaxpr")
	if err != nil {
		return nil, err
	}
	length, err := intParam(params, "length")
	if err != nil {
		return nil, err
	}
	nConsts, err := intParam(params, "num_consts")
	if err != nil {
		return nil, err
	}
	nCarry, err := intParam(params, "num_carry")
	if err != nil {
		return nil, err
	}
	reverse, err := boolParam(params, "reverse")
	if err != nil {
		return nil, err
	}
	if length < 0 || nConsts < 0 || nCarry < 0 || nConsts+nCarry > len(args) {
		return nil, fmt.Errorf("length %d, num_consts %d, num_carry %d do not fit %d operands", length, nConsts, nCarry, len(args))
	}
	consts := args[:nConsts]
	carry := slices.Clone(args[nConsts : nConsts+nCarry])
	xs := args[nConsts+nCarry:]
	for k, x := range xs {
		if len(x.Shape) == 0 || x.Shape[0] != length {
			return nil, fmt.Errorf("xs operand %d has shape %v, want leading dimension %d (the scan length)", k, x.Shape, length)
		}
	}
	outs := body.Jaxpr.Outvars
	if len(outs) < nCarry {
		return nil, fmt.Errorf("body has %d outputs, fewer than num_carry %d", len(outs), nCarry)
	}
	ys := make([]*ir.Buffer, len(outs)-nCarry)
	for k := range ys {
		y := outs[nCarry+k].Type()
		if !ValidDType(y.DType) || checkShape(y.Shape) != nil {
			return nil, fmt.Errorf("body output %d has invalid type %s", nCarry+k, y)
		}
		ys[k] = ir.NewBuffer(y.DType, append([]int{length}, y.Shape...))
	}
	in := make([]*ir.Buffer, 0, len(args))
	for t := range length {
		i := t
		if reverse {
			i = length - 1 - t
		}
		in = append(append(in[:0], consts...), carry...)
		for _, x := range xs {
			in = append(in, row(x, i))
		}
		res, err := Closed(body, in)
		if err != nil {
			return nil, fmt.Errorf("iteration %d: %w", i, err)
		}
		copy(carry, res[:nCarry])
		for k, y := range res[nCarry:] {
			if !slices.Equal(y.Shape, ys[k].Shape[1:]) || y.DType != ys[k].DType {
				return nil, fmt.Errorf("iteration %d: y %d has type %s, want %s", i, k, y.Aval(), outs[nCarry+k].Type())
			}
			copyData(ys[k].Data, i*y.Len(), y.Data)
		}
	}
	return append(carry, ys...), nil
}

// row returns x[i] (a view of the i-th slice along axis 0).
func row(x *ir.Buffer, i int) *ir.Buffer {
	shape := x.Shape[1:]
	n := ir.NumElements(shape)
	return &ir.Buffer{DType: x.DType, Shape: slices.Clone(shape), Data: sliceData(x.Data, i*n, (i+1)*n)}
}

// applyWhile evaluates while: operands are cond_nconsts cond consts,
// body_nconsts body consts and the carry; while cond_jaxpr(cond consts,
// carry) is true, carry = body_jaxpr(body consts, carry). Results: the carry.
func applyWhile(params ir.Params, args []*ir.Buffer) ([]*ir.Buffer, error) {
	condJ, err := closedParam(params, "cond_jaxpr")
	if err != nil {
		return nil, err
	}
	bodyJ, err := closedParam(params, "body_jaxpr")
	if err != nil {
		return nil, err
	}
	nc, err := intParam(params, "cond_nconsts")
	if err != nil {
		return nil, err
	}
	nb, err := intParam(params, "body_nconsts")
	if err != nil {
		return nil, err
	}
	if nc < 0 || nb < 0 || nc+nb > len(args) {
		return nil, fmt.Errorf("cond_nconsts %d and body_nconsts %d do not fit %d operands", nc, nb, len(args))
	}
	cconsts, bconsts := args[:nc], args[nc:nc+nb]
	carry := slices.Clone(args[nc+nb:])
	for iter := 0; ; iter++ {
		c, err := Closed(condJ, append(slices.Clone(cconsts), carry...))
		if err != nil {
			return nil, fmt.Errorf("cond_jaxpr, iteration %d: %w", iter, err)
		}
		if len(c) != 1 || c[0].DType != ir.Bool || len(c[0].Shape) != 0 {
			return nil, fmt.Errorf("cond_jaxpr must return one bool[] scalar, got %d results", len(c))
		}
		if !c[0].Data.([]bool)[0] {
			return carry, nil
		}
		next, err := Closed(bodyJ, append(slices.Clone(bconsts), carry...))
		if err != nil {
			return nil, fmt.Errorf("body_jaxpr, iteration %d: %w", iter, err)
		}
		if len(next) != len(carry) {
			return nil, fmt.Errorf("body_jaxpr returned %d values for a carry of %d", len(next), len(carry))
		}
		carry = next
	}
}

// applyCall evaluates a nested jit (its jaxpr parameter) or a custom_jvp_call
// (its call_jaxpr) on the operands.
func applyCall(prim string, params ir.Params, args []*ir.Buffer) ([]*ir.Buffer, error) {
	key := "jaxpr"
	if prim == ir.CustomJVPCall {
		key = "call_jaxpr"
	}
	cj, err := closedParam(params, key)
	if err != nil {
		return nil, err
	}
	return Closed(cj, args)
}

// applyDebugPrint writes fmt.Sprintf(fmt, operands...) and a newline (if
// missing) to the print output (SetPrintOutput); it has no results.
func applyDebugPrint(params ir.Params, args []*ir.Buffer) ([]*ir.Buffer, error) {
	format, err := stringParam(params, "fmt")
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(args))
	for i, a := range args {
		vals[i] = a
	}
	s := fmt.Sprintf(format, vals...)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if err := printLine(s); err != nil {
		return nil, fmt.Errorf("writing output: %v", err)
	}
	return []*ir.Buffer{}, nil
}
