package traced

import (
	"go/constant"
	"go/token"
	"sort"
)

// Sums and differences are kept as linear forms — integer coefficients of
// operands plus a constant — so that n + (b - n) is b and (i + 1) - i is 1:
// the size of a batch padded by hand is the bucket, whatever the batch.

// linear is Σ c·x + k.
type linear struct {
	terms []term
	k     constant.Value
}

type term struct {
	x *Expr
	c int64
}

// atomKey identifies an operand of a linear form: atoms by what they
// stand for, other expressions by identity.
type atomKey struct {
	kind Kind
	n    int
	fn   any
	loop *Loop
	site any
	x    *Expr
	s    string
}

func keyOf(x *Expr) atomKey {
	switch x.Kind {
	case kParam, kFree, kMode, kInput:
		return atomKey{kind: x.Kind, n: x.N, fn: x.Fn}
	case kIter:
		return atomKey{kind: x.Kind, n: x.N, loop: x.Loop}
	case kFresh:
		return atomKey{kind: x.Kind, site: x.Site}
	}
	if x.depth <= 4 {
		return atomKey{s: x.String()} // small expressions by their form: len(xs) - len(xs) is 0
	}
	return atomKey{x: x}
}

// linearOf writes e (a sum, difference, negation or multiple by a constant
// of operands) as a linear form, or returns nil when e has no such
// structure worth normalising.
func linearOf(e *Expr) *linear {
	l := &linear{k: constant.MakeInt64(0)}
	idx := map[atomKey]int{}
	ok := true
	var add func(x *Expr, c int64)
	add = func(x *Expr, c int64) {
		if !ok {
			return
		}
		if v, isConst := x.isConst(); isConst {
			if v.Kind() != constant.Int && v.Kind() != constant.Float {
				ok = false
				return
			}
			l.k = constant.BinaryOp(l.k, token.ADD, constant.BinaryOp(v, token.MUL, constant.MakeInt64(c)))
			return
		}
		if x.Kind == kOp {
			switch {
			case x.Op == token.ADD && len(x.Args) == 2:
				add(x.Args[0], c)
				add(x.Args[1], c)
				return
			case x.Op == token.SUB && len(x.Args) == 2:
				add(x.Args[0], c)
				add(x.Args[1], -c)
				return
			case x.Op == token.SUB && len(x.Args) == 1:
				add(x.Args[0], -c)
				return
			case x.Op == token.MUL && len(x.Args) == 2:
				if k, isInt := x.Args[1].int64Of(); isInt {
					add(x.Args[0], c*k)
					return
				}
				if k, isInt := x.Args[0].int64Of(); isInt {
					add(x.Args[1], c*k)
					return
				}
			}
		}
		key := keyOf(x)
		if i, seen := idx[key]; seen {
			l.terms[i].c += c
			return
		}
		idx[key] = len(l.terms)
		l.terms = append(l.terms, term{x, c})
	}
	add(e, 1)
	if !ok {
		return nil
	}
	return l
}

// expr rebuilds the linear form as an expression in a canonical order.
func (l *linear) expr() *Expr {
	var ts []term
	for _, t := range l.terms {
		if t.c != 0 {
			ts = append(ts, t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].c > ts[j].c })
	var out *Expr
	addTerm := func(x *Expr, c int64) {
		switch {
		case out == nil && c == 1:
			out = x
		case out == nil:
			out = node(kOp, x, intConst(c)).withOp(token.MUL)
		case c == 1:
			out = node(kOp, out, x).withOp(token.ADD)
		case c == -1:
			out = node(kOp, out, x).withOp(token.SUB)
		case c > 0:
			out = node(kOp, out, node(kOp, x, intConst(c)).withOp(token.MUL)).withOp(token.ADD)
		default:
			out = node(kOp, out, node(kOp, x, intConst(-c)).withOp(token.MUL)).withOp(token.SUB)
		}
	}
	for _, t := range ts {
		addTerm(t.x, t.c)
	}
	k := constOf(l.k)
	if out == nil {
		return k
	}
	if constant.Sign(l.k) > 0 {
		return node(kOp, out, k).withOp(token.ADD)
	}
	if constant.Sign(l.k) < 0 {
		return node(kOp, out, constOf(constant.UnaryOp(token.SUB, l.k, 0))).withOp(token.SUB)
	}
	return out
}

// delta returns next - cur as a constant when next is cur plus a constant
// (the step of an induction variable).
func delta(next, cur *Expr) (constant.Value, bool) {
	l := linearOf(op(token.SUB, next, cur))
	if l == nil {
		return nil, false
	}
	for _, t := range l.terms {
		if t.c != 0 {
			return nil, false
		}
	}
	return l.k, true
}
