package traced

import (
	"go/token"
	"slices"

	"github.com/jitlint/jitlint/internal/jitapi"
)

// Shapes: the dims of an array are expressions like any other value, so a
// loop bound read from a shape is as large as the shapes the program
// passes, and a window of fixed width at a moving offset keeps its shape.
// Each jit operation computes its result's dims from its operands'
// (numpy's rules); an operand whose dims are not known yet (a parameter)
// leaves them unknown until the operand is bound (remakeArray).

// zeroArray is the zero jit.Array (jit.Array{}), which holds no array: a
// function returns it with ok false, and no operation or jitted call can
// use it, so the dims of a choice are those of its other alternatives.
var zeroArray = &Expr{Kind: kArray, Name: "zero", N: -1, Tr: exprFalse}

// dimsOf returns the dims of the array x, or nil when they are not known.
func dimsOf(x *Expr) []*Expr {
	switch x.Kind {
	case kArray:
		return x.Dims
	case kInput:
		if len(x.Args) > 0 {
			return dimsOf(choice(x.Args...))
		}
	case kIface:
		return []*Expr{} // a Go number operand: a scalar
	case kConst:
		return []*Expr{}
	case kChoice, kSelect:
		alts := slices.DeleteFunc(slices.Clone(x.Args), func(a *Expr) bool { return a == zeroArray })
		if x.Kind == kSelect {
			alts = slices.DeleteFunc(slices.Clone(x.Args[1:]), func(a *Expr) bool { return a == zeroArray })
		}
		return choiceDims(alts, dimsOf)
	}
	return nil
}

// choiceDims is the dims of one of the arrays alts, dim by dim (the
// choice of their sizes), by dims; nil when one's dims are not known or
// their ranks differ.
func choiceDims(alts []*Expr, dims func(*Expr) []*Expr) []*Expr {
	var out []*Expr
	for i, a := range alts {
		d := dims(a)
		if d == nil || i > 0 && len(d) != len(out) {
			return nil
		}
		if i == 0 {
			out = slices.Clone(d)
			continue
		}
		for k := range d {
			out[k] = choice(out[k], d[k])
		}
	}
	return out
}

// shapeOf is x.Shape(): a sequence of its dims.
func shapeOf(x *Expr) *Expr {
	if d := dimsOf(x); d != nil {
		return seq(intConst(int64(len(d))), d...)
	}
	if x.Kind == kUnknown {
		return unknown
	}
	return node(kShape, x)
}

// sizeOf is x.Size().
func sizeOf(x *Expr, site any) *Expr {
	d := dimsOf(x)
	if d == nil {
		return op(token.MUL, node(kShape, x), intConst(1)) // not known yet
	}
	out := intConst(1)
	for _, n := range d {
		out = op(token.MUL, out, n)
	}
	return out
}

// arrayOp is the array that the jit operation name (an Array method or a
// jit function) makes from args.
func (f *flow) arrayOp(name string, site any, args []*Expr, mode *Expr) *Expr {
	dims, tr := opDims(name, args), mode
	if jitapi.ConcreteConstructor(name) {
		if s := args[len(args)-1]; name == "Scalar" || name == "FromSlice" || s.Kind == kSeq && isZero(s.Args[0]) {
			tr = exprFalse
		}
	}
	switch name {
	case "PadTo":
		padded := array(name, site, args, dims, tr)
		return node(kTuple, padded, padded, unknown)
	}
	return array(name, site, args, dims, tr)
}

// remakeArray rebuilds an array whose operands were bound: its dims again.
func (f *flow) remakeArray(e *Expr, args []*Expr, tr *Expr) *Expr {
	out := array(e.Name, e.Site, args, opDims(e.Name, args), tr)
	if e.Dims != nil && out.Dims == nil && !slices.ContainsFunc(args, func(a *Expr) bool { return a != nil && a.Kind == kArray }) {
		out.Dims, out.N = e.Dims, e.N // dims that did not come from the operands
	}
	return out
}

// opDims computes the dims of the result of the operation name.
func opDims(name string, args []*Expr) []*Expr {
	shape := func(s *Expr) []*Expr { // a []int argument (variadic or not)
		if s == nil || s.Kind != kSeq {
			return nil
		}
		n, ok := s.Args[0].int64Of()
		if !ok || int(n) != len(s.Args)-1 || !allKnown(s.Args[1:]) {
			return nil
		}
		return s.Args[1:]
	}
	if len(args) == 0 {
		return nil
	}
	last := func() *Expr { return args[len(args)-1] }
	switch name {
	case "Zeros", "Ones", "Full":
		return shape(last())
	case "Arange":
		return []*Expr{args[0]}
	case "Scalar":
		return []*Expr{}
	case "FromSlice":
		if d := shape(last()); len(args) > 1 && d != nil && len(d) > 0 {
			return d
		}
		return []*Expr{length(args[0])}
	case "Concatenate":
		axis, ok := args[0].int64Of()
		if !ok {
			return nil
		}
		if el := elementOf(args[1]); el != nil && el.Kind == kOver {
			// A slice a loop appends to: as many parts as its length,
			// each of the dims of what the loop appends, when they do
			// not change over the loop.
			d := dimsOf(el.Args[0])
			if d == nil || axis < 0 || int(axis) >= len(d) || slices.ContainsFunc(d, func(x *Expr) bool { return varies(el.Loop, x) }) {
				return nil
			}
			out := slices.Clone(d)
			out[axis] = op(token.MUL, length(args[1]), d[axis])
			return out
		}
		parts := elements(args[1])
		if parts == nil {
			return nil
		}
		var out []*Expr
		for i, p := range parts {
			d := dimsOf(p)
			if d == nil || axis < 0 || int(axis) >= len(d) || i > 0 && len(d) != len(out) {
				return nil
			}
			if i == 0 {
				out = slices.Clone(d)
				continue
			}
			out[axis] = op(token.ADD, out[axis], d[axis])
		}
		return out
	case "Where":
		return broadcastAll(args)
	case "PadTo":
		return []*Expr{args[1]}
	case "Relu", "Softplus", "StopGradient":
		return dimsOf(args[0])
	}
	in := dimsOf(args[0])
	switch name {
	case "Slice":
		start, limit := shape(args[1]), shape(args[2])
		if start == nil || limit == nil || len(start) != len(limit) {
			return nil
		}
		out := make([]*Expr, len(start))
		for k := range start {
			out[k] = op(token.SUB, limit[k], start[k])
		}
		return out
	case "Reshape":
		out := shape(last())
		if out == nil {
			return nil
		}
		infer := -1
		rest := intConst(1)
		for i, d := range out {
			if n, ok := d.int64Of(); ok && n == -1 {
				infer = i
				continue
			}
			rest = op(token.MUL, rest, d)
		}
		if infer < 0 {
			return out
		}
		if in == nil {
			return nil
		}
		size := intConst(1)
		for _, d := range in {
			size = op(token.MUL, size, d)
		}
		out = slices.Clone(out)
		out[infer] = op(token.QUO, size, rest) // the size of the rest
		return out
	}
	reduction := name == "Sum" || name == "Mean" || name == "MaxReduce" || name == "MinReduce"
	if reduction && (len(args) < 2 || len(shape(last())) == 0 && last().Kind == kSeq && isZero(last().Args[0])) {
		return []*Expr{} // over every axis: a scalar, whatever the operand
	}
	if in == nil {
		return nil
	}
	switch name {
	case "Sum", "Mean", "MaxReduce", "MinReduce":
		axes := shape(last())
		if len(args) < 2 || axes != nil && len(axes) == 0 {
			return []*Expr{}
		}
		if axes == nil {
			return nil
		}
		var out []*Expr
		for i, d := range in {
			drop := false
			for _, a := range axes {
				if k, ok := a.int64Of(); ok && (int(k) == i || int(k) == i-len(in)) {
					drop = true
				} else if !ok {
					return nil
				}
			}
			if !drop {
				out = append(out, d)
			}
		}
		return out
	case "Transpose":
		perm := shape(last())
		if len(args) < 2 || perm != nil && len(perm) == 0 {
			out := slices.Clone(in)
			slices.Reverse(out)
			return out
		}
		if perm == nil || len(perm) != len(in) {
			return nil
		}
		out := make([]*Expr, len(in))
		for i, p := range perm {
			k, ok := p.int64Of()
			if !ok || k < 0 || int(k) >= len(in) {
				return nil
			}
			out[i] = in[k]
		}
		return out
	case "MatMul":
		w := dimsOf(args[1])
		if w == nil || len(in) == 0 || len(w) == 0 {
			return nil
		}
		if len(w) == 1 {
			return slices.Clone(in[:len(in)-1])
		}
		if len(in) == 1 {
			return slices.Clone(w[1:])
		}
		return append(slices.Clone(in[:len(in)-1]), w[len(w)-1])
	case "Astype":
		return in
	}
	return broadcastAll(args)
}

// shapedOps are the operations whose result's shape is not their
// operands' broadcast (constructors, slicing, reductions, products).
var shapedOps = map[string]bool{
	"Zeros": true, "Ones": true, "Full": true, "Arange": true, "Scalar": true, "FromSlice": true, "Concatenate": true,
	"PadTo": true, "Slice": true, "Reshape": true, "Sum": true, "Mean": true, "MaxReduce": true, "MinReduce": true,
	"Transpose": true, "MatMul": true,
}

// elementwise reports whether the operation name gives its operands'
// broadcast shape.
func elementwise(name string) bool {
	return (jitapi.StagingMethod(name) || jitapi.StagingFunc(name)) && !shapedOps[name]
}

// broadcastAll is the shape of an elementwise operation on the array
// operands of args (numpy's rules: a dim of 1 gives way).
func broadcastAll(args []*Expr) []*Expr {
	var out []*Expr
	found := false
	for _, a := range args {
		if a.Kind == kIface || a.Kind == kConst {
			continue // a Go number
		}
		d := dimsOf(a)
		if d == nil {
			return nil
		}
		if !found {
			out, found = slices.Clone(d), true
			continue
		}
		out = broadcast(out, d)
	}
	return out
}

func broadcast(x, y []*Expr) []*Expr {
	if len(x) < len(y) {
		x, y = y, x
	}
	out := slices.Clone(x)
	for i := range y {
		j := len(out) - len(y) + i
		if n, ok := out[j].int64Of(); ok && n == 1 {
			out[j] = y[i]
		} else if n, ok := y[i].int64Of(); ok && n == 1 {
			continue
		} else if out[j] != y[i] {
			out[j] = pure("max", []*Expr{out[j], y[i]})
		}
	}
	return out
}
