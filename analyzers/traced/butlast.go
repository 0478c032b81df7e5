package traced

import "go/token"

// Two questions about the values a loop makes, beyond evaluating them.
//
// All iterations but the last: an iteration that another follows ran with
// the loop's test true at the next state, and what holds there can decide
// a min or a max (batches cut with min(i+bs, n) - i are bs long on every
// iteration that another follows, n - i on the last: two lengths).
//
// The elements of a slice a loop builds by appending are the values
// appended over its iterations: an element of the result of a helper that
// chunks its input takes the values of one chunk over the helper's loop.

// butLast counts the distinct values of e over l when e takes one value on
// every iteration that another iteration follows (e under the loop's test
// at the next state no longer varies): that one, and the last's.
func (ev *evaluator) butLast(l *Loop, e *Expr, env *Env) (int64, bool) {
	l.sum.solve(l)
	iters := map[atomKey]*Expr{keyOf(iterNum(l)): op(token.ADD, iterNum(l), intConst(1))}
	for k := range l.phis {
		if k < len(l.next) && l.next[k] != nil {
			iters[keyOf(iter(l, k))] = l.next[k]
		}
	}
	test := ev.f.substIters(l.pre, iters)
	if env != nil {
		test = ev.f.subst(test, env)
	}
	facts := conjuncts(test)
	decided := ev.f.underFacts(e, facts)
	if decided == e || varies(l, decided) {
		return 0, false
	}
	return 2, true
}

// underFacts rebuilds e with each min and max of two operands that a
// fact (a < b, a <= b, b > a, b >= a) decides replaced by the operand it
// picks, and each select whose condition a fact states or denies by the
// branch it takes.
func (f *flow) underFacts(e *Expr, facts []*Expr) *Expr {
	return f.rewrite(e, func(x *Expr) *Expr {
		switch {
		case x.Kind == kPure && (x.Name == "min" || x.Name == "max") && len(x.Args) == 2:
			return decide(x.Name == "min", x.Args[0], x.Args[1], facts)
		case x.Kind == kSelect:
			if holds, ok := stated(x.Args[0], facts); ok {
				if holds {
					return x.Args[1]
				}
				return x.Args[2]
			}
		}
		return nil
	}, map[*Expr]*Expr{})
}

// stated reports whether a fact states the condition c (true) or its
// negation (false); ok is false when no fact says.
func stated(c *Expr, facts []*Expr) (holds, ok bool) {
	negated := func(x, of *Expr) bool {
		return x.Kind == kOp && x.Op == token.NOT && len(x.Args) == 1 && x.Args[0].String() == of.String()
	}
	for _, fact := range facts {
		switch {
		case fact.String() == c.String():
			return true, true
		case negated(fact, c), negated(c, fact):
			return false, true
		}
	}
	return false, false
}

// rewrite rebuilds e through its arithmetic (operations, conversions,
// pure functions, tuples, lengths, selects), bottom up, replacing each
// node by what replace returns for it (nil: kept).
func (f *flow) rewrite(e *Expr, replace func(*Expr) *Expr, memo map[*Expr]*Expr) *Expr {
	if out, ok := memo[e]; ok {
		return out
	}
	out := e
	switch e.Kind {
	case kOp, kConv, kPure, kTuple, kLen, kSelect:
		args := make([]*Expr, len(e.Args))
		changed := false
		for i, a := range e.Args {
			args[i] = a
			if a != nil {
				args[i] = f.rewrite(a, replace, memo)
			}
			changed = changed || args[i] != a
		}
		if changed {
			out = f.remake(e, args, e.Tr, e.Env, e.Site)
		}
	}
	if r := replace(out); r != nil {
		out = r
	}
	memo[e] = out
	return out
}

// decide returns the smaller (min) or larger of a and b when a fact says
// which it is, else nil.
func decide(min bool, a, b *Expr, facts []*Expr) *Expr {
	same := func(x, y *Expr) bool { return x.String() == y.String() }
	for _, c := range facts {
		if c.Kind != kOp || len(c.Args) != 2 {
			continue
		}
		lo, hi := c.Args[0], c.Args[1]
		switch c.Op {
		case token.LSS, token.LEQ:
		case token.GTR, token.GEQ:
			lo, hi = hi, lo
		default:
			continue
		}
		switch {
		case same(lo, a) && same(hi, b):
		case same(lo, b) && same(hi, a):
			a, b = b, a
		default:
			continue
		}
		if min {
			return a
		}
		return b
	}
	return nil
}

// elementOf is an element of x when x is a slice that a loop builds by
// appending to it, from empty: one of the values appended over the loop's
// iterations (nil otherwise).
func elementOf(x *Expr) *Expr {
	if x.Kind == kLoad && len(x.Args) == 1 {
		if p := x.Args[0]; p.Kind == kPtr && p.Site == nil && p.Name == "elem" && len(p.Args) == 2 {
			if el := elementOf(p.Args[0]); el != nil {
				return elementAt(el, p.Args[1]) // at the index read: a loop walking it sees a new element each time
			}
			return nil
		}
		return nil
	}
	if x.Kind != kAtExit || x.Args[0].Kind != kIter || x.Args[0].Loop != x.Loop || x.Args[0].N < 0 {
		return nil
	}
	l, it := x.Loop, x.Args[0]
	l.sum.solve(l)
	if it.N >= len(l.init) || !isZero(length(l.init[it.N])) {
		return nil
	}
	added := appendedBy(l, it)
	if added == nil {
		return nil
	}
	o := overLoop(l, added)
	if o.Kind == kOver && x.Env != nil {
		cp := *o
		cp.Env = x.Env
		return cp.sized()
	}
	return o
}

// appendedBy is one of the elements that an iteration of l appends to its
// slice state it (nil when the state is not built by appending): those of
// the body's append, or, when an inner loop appends to the state it starts
// from (a grid built by nested loops), those of the inner loop over its
// iterations.
func appendedBy(l *Loop, it *Expr) *Expr {
	l.sum.solve(l)
	if it.N >= len(l.next) {
		return nil
	}
	grown := l.next[it.N]
	switch {
	case grown.Kind == kSeq && grown.Tr != nil:
		var added []*Expr
		for _, a := range alternatives(grown.Tr) {
			if a.Kind == kIndex && a.Args[0].String() == it.String() {
				continue // the elements it already had
			}
			added = append(added, a)
		}
		return choice(added...)
	case grown.Kind == kIter && grown.Loop != l:
		return appendedInner(it, grown) // the state after an inner loop, which exits at its header
	case grown.Kind == kAtExit && grown.Args[0].Kind == kIter && grown.Args[0].Loop == grown.Loop && grown.Loop != l:
		return appendedInner(it, grown.Args[0]) // ... or in its body
	}
	return nil
}

// appendedInner is one of the elements that the inner loop of its state
// innerIt appends, over its iterations, when that state starts from it.
func appendedInner(it, innerIt *Expr) *Expr {
	inner := innerIt.Loop
	inner.sum.solve(inner)
	if innerIt.N < 0 || innerIt.N >= len(inner.init) || inner.init[innerIt.N].String() != it.String() {
		return nil
	}
	if el := appendedBy(inner, innerIt); el != nil {
		return overLoop(inner, el)
	}
	return nil
}

// fieldOver is field i of x, inside x's loop when x is a value over a
// loop's iterations (a field of the elements a loop appends).
func fieldOver(x *Expr, i int) *Expr {
	if x.Kind != kOver {
		return field(x, i)
	}
	cp := *x
	cp.Args = []*Expr{fieldOver(x.Args[0], i)}
	return cp.sized()
}

// shapeBound bounds the distinct shapes of the array x whose dims are not
// known as expressions: one of the arrays a loop appended (the shapes over
// that loop), a loop's array state (the shapes it is carried through), or
// an elementwise operation (the combinations of its operands' shapes).
func (ev *evaluator) shapeBound(x *Expr) (int64, bool) {
	switch x.Kind {
	case kOver:
		return ev.distinct(x.Loop, shapeTuple(x.Args[0]), x.Env)
	case kIter:
		return ev.carriedShapes(x)
	case kAtExit:
		if d := ev.arrayDims(x); d != nil {
			return ev.formBound(node(kTuple, d...))
		}
	case kChoice:
		var total int64
		for _, a := range x.Args {
			n, ok := ev.formBound(shapeTuple(a))
			if !ok {
				return 0, false
			}
			total += n
		}
		return total, true
	case kArray:
		if !elementwise(x.Name) {
			return 0, false
		}
		total := int64(1)
		for _, a := range x.Args {
			if a.Kind == kIface || a.Kind == kConst {
				continue // a Go number: a scalar
			}
			n, ok := ev.formBound(shapeTuple(a))
			if !ok {
				return 0, false
			}
			total *= n
		}
		return total, true
	}
	return 0, false
}

// carriedShapes counts the shapes of a loop's array state: the one it
// starts with, then what the body makes of each, until they repeat.
func (ev *evaluator) carriedShapes(x *Expr) (int64, bool) {
	l := x.Loop
	l.sum.solve(l)
	if x.N >= len(l.init) {
		return 0, false
	}
	bind := func(e *Expr) *Expr {
		if env := ev.envOf(l); env != nil {
			return ev.f.subst(e, env)
		}
		return e
	}
	cur := bind(l.init[x.N])
	seen := map[string]bool{}
	for range maxVals {
		d := ev.arrayDims(cur)
		if d == nil {
			return 0, false
		}
		ks := valueKeys(ev.values, node(kTuple, d...))
		if len(ks) != 1 {
			return 0, false
		}
		if seen[ks[0]] {
			return int64(len(seen)), true
		}
		seen[ks[0]] = true
		cur = ev.f.substIters(bind(l.next[x.N]), map[atomKey]*Expr{keyOf(x): cur})
	}
	return 0, false
}

// maxPieces bounds the min and max operations pieces splits on.
const maxPieces = 3

// capped reports whether e, which varies over l, may take only a few
// values because a min or max caps it: for some choice of the operands of
// its varying mins and maxes, e no longer varies (t - max(t-k, 0) is t
// while t < k, then k on every later iteration). Such a value is not
// churn unless its values are counted.
func (f *flow) capped(l *Loop, e *Expr) bool {
	var nodes []*Expr
	e.walk(func(x *Expr) bool {
		if len(nodes) < maxPieces && x.Kind == kPure && (x.Name == "min" || x.Name == "max") && len(x.Args) == 2 && varies(l, x) {
			nodes = append(nodes, x)
		}
		return true
	})
	for choice := 0; choice < 1<<len(nodes); choice++ {
		pick := map[string]*Expr{}
		for i, n := range nodes {
			pick[n.String()] = n.Args[choice>>i&1]
		}
		piece := f.rewrite(e, func(x *Expr) *Expr { return pick[x.String()] }, map[*Expr]*Expr{})
		if !varies(l, piece) {
			return true
		}
	}
	return false
}
