package unrolledloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/jitlint/jitlint/analyzers/traced"
)

// A bound read from a shape (n := x.Shape()[0]) is only as large as the
// shapes the program passes. When every array that reaches x has a known
// shape — made by jit.Zeros, Ones, Full, FromSlice, Arange or Scalar, then
// reshaped, reduced, multiplied or combined elementwise, through variables,
// helpers, the calls of traced functions and of jitted wrappers — the
// resolver works the bound out (the largest value over those shapes), and
// the loop is judged by its count like any other.

// dims returns the largest size of each dimension of the array e, when its
// rank and sizes are known.
func (c *checker) dims(e ast.Expr, b *binding, hops int) ([]int64, bool) {
	if hops > maxHops {
		return nil, false
	}
	if a, outer := b.arg(c.r.Info, e); a != nil {
		return c.dims(a, outer, hops+1)
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := c.r.Info.Uses[e].(*types.Var)
		if c.inDims[v] {
			c.cycle = true // window = f(window): see widest
			return nil, false
		}
		if v != nil {
			c.inDims[v] = true
			defer delete(c.inDims, v)
		}
		srcs, ok := c.sources(e, b, hops)
		return c.widest(srcs, ok, hops)
	case *ast.CallExpr:
		if name, recv := traced.ArrayMethod(c.r.Info, e); name != "" {
			return c.methodDims(name, recv, e.Args, b, hops)
		}
		args := e.Args
		switch traced.JitFunc(c.r.Info, e) {
		case "Zeros", "Ones":
			return c.ints(args[min(1, len(args)):], b, hops)
		case "Full":
			return c.ints(args[min(2, len(args)):], b, hops)
		case "FromSlice":
			if len(args) > 1 {
				return c.ints(args[1:], b, hops)
			}
			if l := c.lengthOf(args[0], b); l.known {
				return []int64{l.n}, true
			}
			return nil, false
		case "Arange":
			return c.ints(args[:min(1, len(args))], b, hops)
		case "Scalar":
			return []int64{}, true
		case "Concatenate":
			return c.concatDims(args, b, hops)
		case "":
			srcs, ok := c.sources(e, b, hops)
			return c.widest(srcs, ok, hops)
		}
	}
	return nil, false
}

// methodDims is dims for a call of an Array method on recv.
func (c *checker) methodDims(name string, recv ast.Expr, args []ast.Expr, b *binding, hops int) ([]int64, bool) {
	if name == "Slice" {
		return c.sliceDims(args, b, hops) // whatever recv's shape
	}
	in, ok := c.dims(recv, b, hops+1)
	if !ok {
		return nil, false
	}
	switch name {
	case "Reshape":
		out, ok := c.ints(args, b, hops)
		return out, ok && !slices.Contains(out, -1)
	case "Sum", "Mean", "MaxReduce", "MinReduce":
		if len(args) == 0 {
			return []int64{}, true
		}
		axes, ok := c.ints(args, b, hops)
		if !ok {
			return nil, false
		}
		var out []int64
		for i, d := range in {
			if !slices.Contains(axes, int64(i)) && !slices.Contains(axes, int64(i-len(in))) {
				out = append(out, d)
			}
		}
		return out, true
	case "Transpose":
		if len(args) == 0 {
			out := slices.Clone(in)
			slices.Reverse(out)
			return out, true
		}
		perm, ok := c.ints(args, b, hops)
		if !ok || len(perm) != len(in) {
			return nil, false
		}
		out := make([]int64, len(in))
		for i, p := range perm {
			if p < 0 || p >= int64(len(in)) {
				return nil, false
			}
			out[i] = in[p]
		}
		return out, true
	case "MatMul":
		w, ok := c.dims(args[0], b, hops+1)
		if !ok || len(in) == 0 || len(w) < 2 {
			return nil, false
		}
		return append(slices.Clone(in[:len(in)-1]), w[len(w)-1]), true
	}
	// An elementwise operation: the operands broadcast.
	out := in
	for _, a := range args {
		if !traced.IsArray(c.r.Info.TypeOf(a)) {
			continue
		}
		d, ok := c.dims(a, b, hops+1)
		if !ok {
			return nil, false
		}
		out = broadcast(out, d)
	}
	return out, true
}

// broadcast returns the shape of an elementwise operation on arrays of
// shapes x and y (numpy's rules, sizes as upper bounds).
func broadcast(x, y []int64) []int64 {
	if len(x) < len(y) {
		x, y = y, x
	}
	out := slices.Clone(x)
	for i := range y {
		j := len(out) - len(y) + i
		out[j] = max(out[j], y[i])
	}
	return out
}

// widest returns the dimensions that cover every source: the same rank,
// each size the largest. A source that needs the variable's own shape (a
// carry, window = jit.Concatenate(0, window.Slice(…), next)) is taken to
// keep it, and left out.
func (c *checker) widest(srcs []origin, ok bool, hops int) ([]int64, bool) {
	if !ok || len(srcs) == 0 {
		return nil, false
	}
	var out []int64
	found := false
	for _, s := range srcs {
		was := c.cycle
		c.cycle = false
		d, ok := c.dims(s.e, s.b, hops+1)
		cyclic := c.cycle
		c.cycle = was || cyclic
		switch {
		case !ok && cyclic:
			continue
		case !ok || found && len(d) != len(out):
			return nil, false
		case !found:
			out, found = slices.Clone(d), true
		default:
			for k := range d {
				out[k] = max(out[k], d[k])
			}
		}
	}
	return out, found
}

// concatDims is dims for jit.Concatenate(axis, arrays...): the sizes along
// the axis add up.
func (c *checker) concatDims(args []ast.Expr, b *binding, hops int) ([]int64, bool) {
	axis, ok := traced.ConstInt(c.r.Info, args[0])
	if !ok || len(args) < 2 {
		return nil, false
	}
	var out []int64
	for i, a := range args[1:] {
		d, ok := c.dims(a, b, hops+1)
		if !ok || axis < 0 || axis >= int64(len(d)) || i > 0 && len(d) != len(out) {
			return nil, false
		}
		if i == 0 {
			out = slices.Clone(d)
			continue
		}
		out[axis] += d[axis]
	}
	return out, true
}

// ints resolves each of es with intValue.
func (c *checker) ints(es []ast.Expr, b *binding, hops int) ([]int64, bool) {
	out := make([]int64, len(es))
	for i, e := range es {
		n, ok := c.intValueAt(e, b, hops+1)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// sliceDims is dims for x.Slice(start, limit) with literal index lists:
// each width is limit - start when both are known, or w for a window
// written {t - w}..{t}, {t}..{t + w} or {max(0, t - w)}..{t}.
func (c *checker) sliceDims(args []ast.Expr, b *binding, hops int) ([]int64, bool) {
	if len(args) != 2 {
		return nil, false
	}
	start, ok1 := ast.Unparen(args[0]).(*ast.CompositeLit)
	limit, ok2 := ast.Unparen(args[1]).(*ast.CompositeLit)
	if !ok1 || !ok2 || len(start.Elts) != len(limit.Elts) {
		return nil, false
	}
	out := make([]int64, len(start.Elts))
	for k := range out {
		w, ok := c.windowWidth(start.Elts[k], limit.Elts[k], b, hops)
		if !ok {
			return nil, false
		}
		out[k] = w
	}
	return out, true
}

// windowWidth is the largest width of the range start..limit.
func (c *checker) windowWidth(start, limit ast.Expr, b *binding, hops int) (int64, bool) {
	if lo, ok := traced.ConstInt(c.r.Info, start); ok {
		if hi, ok := c.intValueAt(limit, b, hops+1); ok {
			return hi - lo, true
		}
	}
	if call, ok := ast.Unparen(start).(*ast.CallExpr); ok && traced.IsBuiltin(c.r.Info, call.Fun, "max") && len(call.Args) == 2 {
		if k, ok := traced.ConstInt(c.r.Info, call.Args[0]); ok && k == 0 {
			start = call.Args[1] // max(0, t-w): at most w wide
		}
	}
	same := func(a, b ast.Expr) bool { return types.ExprString(a) == types.ExprString(b) }
	if d, ok := ast.Unparen(start).(*ast.BinaryExpr); ok && d.Op == token.SUB && same(d.X, limit) {
		return c.intValueAt(d.Y, b, hops+1) // {t - w}..{t}
	}
	if s, ok := ast.Unparen(limit).(*ast.BinaryExpr); ok && s.Op == token.ADD && same(s.X, start) {
		return c.intValueAt(s.Y, b, hops+1) // {t}..{t + w}
	}
	return 0, false
}
