package jit

import (
	"github.com/jitlint/jitlint/jit/ir"
)

// ScanOption configures Scan and ScanN.
type ScanOption func(*scanOptions)

type scanOptions struct {
	reverse bool
	unroll  int
}

// Reverse scans from the last element to the first.
func Reverse() ScanOption { return func(o *scanOptions) { o.reverse = true } }

// Unroll runs k iterations per step of the compiled loop (a code-size /
// speed trade-off; the jaxpr still holds one body).
func Unroll(k int) ScanOption {
	return func(o *scanOptions) {
		if k < 1 {
			throw(BadArgument, "Unroll(%d): the unroll factor must be at least 1", k)
		}
		o.unroll = k
	}
}

// Scan loops body over the leading axis of xs, threading a carry, as one scan
// equation (never unrolled into the trace): it returns the final carry and
// the per-step outputs stacked along a new leading axis.
func Scan[C, X, Y any](body func(carry C, x X) (C, Y), init C, xs X, opts ...ScanOption) (C, Y) {
	xl, xtree := flattenTree(xs, "xs")
	if len(xl) == 0 {
		throw(BadArgument, "Scan: xs has no arrays; use jit.ScanN(body, init, length) to loop a fixed number of times")
	}
	length := -1
	xavals := make([]ir.Aval, len(xl))
	for i, x := range xl {
		a := x.val().aval
		if len(a.Shape) == 0 || (length >= 0 && a.Shape[0] != length) {
			throw(ShapeMismatch, "Scan: every array in xs needs the same leading dimension (the length); got shape %v", a.Shape)
		}
		length = a.Shape[0]
		xavals[i] = ir.Aval{Shape: a.Shape[1:], DType: a.DType, Weak: a.Weak}
	}
	return scan(func(c C, in []Array) (C, Y) {
		return body(c, unflattenTree[X](xtree, in))
	}, init, xl, xavals, length, opts)
}

// ScanN runs body length times, threading a carry, as one scan equation with
// no xs (JAX's xs=None, length=N): it returns the final carry and the
// per-step outputs stacked along a new leading axis.
func ScanN[C, Y any](body func(carry C) (C, Y), init C, length int, opts ...ScanOption) (C, Y) {
	if length < 0 {
		throw(BadArgument, "ScanN: negative length %d", length)
	}
	return scan(func(c C, _ []Array) (C, Y) { return body(c) }, init, nil, nil, length, opts)
}

// scan stages a scan equation; body gets the carry and the x slices.
func scan[C, Y any](body func(C, []Array) (C, Y), init C, xs []Array, xavals []ir.Aval, length int, opts []ScanOption) (C, Y) {
	o := scanOptions{unroll: 1}
	for _, f := range opts {
		f(&o)
	}
	carry, ctree := flattenTree(init, "init")
	cavals := avalsOf(carry)
	var s sub
	var ytree, otree *treeDef
	for attempt := 0; ; attempt++ {
		s = traceSub("scan", "scan body", append(append([]ir.Aval{}, cavals...), xavals...), func(in []Array) []Array {
			c, y := body(unflattenTree[C](ctree, in[:len(cavals)]), in[len(cavals):])
			var co, yo []Array
			co, otree = flattenTree(c, "carry")
			yo, ytree = flattenTree(y, "y")
			return append(co, yo...)
		})
		retry := checkCarry("the Scan body", ctree, otree, cavals, s.jaxpr.OutAvals()[:len(cavals)])
		if retry == nil || attempt > 0 {
			break
		}
		carry, cavals = convertAll(carry, retry), retry
	}
	consts := unifyConsts([]sub{s})
	outs := s.jaxpr.OutAvals()
	for i := len(cavals); i < len(outs); i++ {
		outs[i].Shape = append([]int{length}, outs[i].Shape...)
	}
	params := ir.Params{"jaxpr": closed(s.jaxpr), "length": length, "num_consts": len(consts),
		"num_carry": len(cavals), "reverse": o.reverse, "unroll": o.unroll}
	args := append(append(consts, carry...), xs...)
	res := bind(ir.Scan, params, outs, args...)
	return unflattenTree[C](ctree, res[:len(cavals)]), unflattenTree[Y](ytree, res[len(cavals):])
}

// ForiLoop runs carry = body(i, carry) for i from lower to upper-1. With Go
// int bounds it is a scan of upper-lower steps; with traced bounds it is a
// while loop (as jax.lax.fori_loop). Never unrolled into the trace.
func ForiLoop[C any](lower, upper any, body func(i Array, carry C) C, init C) C {
	lo, loInt := lower.(int)
	hi, hiInt := upper.(int)
	if loInt && hiInt {
		type loopCarry struct {
			I Array
			X C
		}
		start := Scalar(int32(lo))
		c, _ := ScanN(func(c loopCarry) (loopCarry, struct{}) {
			next := c.I.Add(1)
			return loopCarry{next, body(c.I, c.X)}, struct{}{}
		}, loopCarry{start, init}, max(hi-lo, 0))
		return c.X
	}
	l, u := asArray(lower), asArray(upper)
	for _, b := range []Array{l, u} {
		if b.Ndim() != 0 {
			throw(ShapeMismatch, "ForiLoop: bounds must be scalars, got %s", b.val().aval)
		}
		if !b.Dtype().IsInt() {
			throw(DTypeMismatch, "ForiLoop: bounds must be integers, got %s; convert with Astype(jit.Int32)", b.val().aval)
		}
	}
	if l.Dtype() != u.Dtype() {
		dt, weak := promote(l.val().aval, u.val().aval)
		l, u = convertTo(l, dt, weak), convertTo(u, dt, weak)
	}
	type loopCarry struct {
		I, Upper Array
		X        C
	}
	out := WhileLoop(func(c loopCarry) Array { return c.I.Lt(c.Upper) },
		func(c loopCarry) loopCarry {
			next := c.I.Add(1)
			return loopCarry{next, c.Upper, body(c.I, c.X)}
		}, loopCarry{l, u, init})
	return out.X
}

// WhileLoop runs carry = body(carry) while cond(carry) is true, as one while
// equation. cond must return a scalar bool Array; the carry's structure and
// types are fixed.
func WhileLoop[C any](cond func(C) Array, body func(C) C, init C) C {
	carry, ctree := flattenTree(init, "init")
	cavals := avalsOf(carry)
	var cs, bs sub
	for attempt := 0; ; attempt++ {
		cs = traceSub("while", "while cond", cavals, func(in []Array) []Array {
			p := cond(unflattenTree[C](ctree, in))
			if a := p.val().aval; len(a.Shape) != 0 {
				throw(ShapeMismatch, "WhileLoop: cond must return a scalar bool Array, got %s", a)
			} else if a.DType != Bool {
				throw(DTypeMismatch, "WhileLoop: cond must return a bool, got %s; compare (e.g. i.Lt(n)) to get one", a)
			}
			return []Array{p}
		})
		var otree *treeDef
		bs = traceSub("while", "while body", cavals, func(in []Array) []Array {
			var out []Array
			out, otree = flattenTree(body(unflattenTree[C](ctree, in)), "carry")
			return out
		})
		retry := checkCarry("the WhileLoop body", ctree, otree, cavals, bs.jaxpr.OutAvals())
		if retry == nil || attempt > 0 {
			break
		}
		carry, cavals = convertAll(carry, retry), retry
	}
	cc := unifyConsts([]sub{cs})
	bc := unifyConsts([]sub{bs})
	params := ir.Params{"cond_jaxpr": closed(cs.jaxpr), "cond_nconsts": len(cc),
		"body_jaxpr": closed(bs.jaxpr), "body_nconsts": len(bc)}
	args := append(append(cc, bc...), carry...)
	res := bind(ir.While, params, bs.jaxpr.OutAvals(), args...)
	return unflattenTree[C](ctree, res)
}

// checkCarry compares a loop body's carry outputs with its carry inputs. It
// returns the input types to retrace with when a weakly typed input must be
// promoted to the output's dtype (as JAX does), or nil when they match.
func checkCarry(what string, tree *treeDef, outTree *treeDef, in, out []ir.Aval) []ir.Aval {
	if tree.String() != outTree.String() {
		throw(BranchMismatch, "%s must return a carry with the same structure as its input: got %s, expected %s", what, outTree, tree)
	}
	var retry []ir.Aval
	for i := range in {
		if in[i].TypeMatch(out[i]) {
			continue
		}
		if in[i].Weak && equalInts(in[i].Shape, out[i].Shape) {
			if retry == nil {
				retry = append([]ir.Aval{}, in...)
			}
			retry[i] = out[i]
			continue
		}
		throw(BranchMismatch, "%s must return a carry of the same types as its input: carry %d is %s on input but %s on output "+
			"(the carry's shape and dtype are fixed for the whole loop)", what, i, in[i], out[i])
	}
	return retry
}

// convertAll converts leaves to the given types (for carry promotion).
func convertAll(leaves []Array, avals []ir.Aval) []Array {
	out := make([]Array, len(leaves))
	for i, l := range leaves {
		out[i] = convertTo(l, avals[i].DType, avals[i].Weak)
	}
	return out
}
