package traced

import (
	"fmt"
	"go/constant"
	"go/token"
	"math"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Numbers: the values an expression can take, as a few constants or a
// range of integers. Iterations are counted by running the loop's
// recurrence on constants (or from the closed form of a counting loop), so
// min(8<<epoch, 32) over 14 epochs is three values and a doubling capped at
// 1024 is eleven.

// vset is a set of values: the constants vals when finite (at most
// maxVals), else integers within [lo, hi] when bounded, else anything.
type vset struct {
	vals    []constant.Value
	lo, hi  int64
	bounded bool
}

// maxVals bounds the constants a vset lists.
const maxVals = 4096

var anything = vset{}

func single(v constant.Value) vset { return vset{vals: []constant.Value{v}} }

// known reports whether s is a finite set of constants.
func (s vset) known() bool { return s.vals != nil }

// max returns the largest integer s holds.
func (s vset) max() (int64, bool) {
	if s.vals != nil {
		best, ok := int64(math.MinInt64), false
		for _, v := range s.vals {
			n, isInt := constant.Int64Val(constant.ToInt(v))
			if !isInt {
				f, fok := constant.Float64Val(constant.ToFloat(v))
				if !fok {
					return 0, false
				}
				n = int64(f)
			}
			best, ok = max(best, n), true
		}
		return best, ok
	}
	return s.hi, s.bounded
}

// min returns the smallest integer s holds.
func (s vset) min() (int64, bool) {
	if s.vals != nil {
		best, ok := int64(math.MaxInt64), false
		for _, v := range s.vals {
			n, isInt := constant.Int64Val(constant.ToInt(v))
			if !isInt {
				return 0, false
			}
			best, ok = min(best, n), true
		}
		return best, ok
	}
	return s.lo, s.bounded
}

// interval returns s as integer bounds.
func (s vset) interval() (lo, hi int64, ok bool) {
	lo, ok1 := s.min()
	hi, ok2 := s.max()
	return lo, hi, ok1 && ok2
}

func union(sets ...vset) vset {
	var out []constant.Value
	seen := map[string]bool{}
	for _, s := range sets {
		if s.vals == nil {
			return hull(sets...)
		}
		for _, v := range s.vals {
			k := v.ExactString() + v.Kind().String()
			if !seen[k] {
				seen[k] = true
				out = append(out, v)
			}
		}
		if len(out) > maxVals {
			return hull(sets...)
		}
	}
	if out == nil {
		out = []constant.Value{}
	}
	return vset{vals: out}
}

// hull is the integer range that holds all of sets.
func hull(sets ...vset) vset {
	out := vset{lo: math.MaxInt64, hi: math.MinInt64, bounded: true}
	for _, s := range sets {
		lo, hi, ok := s.interval()
		if !ok {
			return anything
		}
		out.lo, out.hi = min(out.lo, lo), max(out.hi, hi)
	}
	return out
}

// rangeSet is the integers lo..hi.
func rangeSet(lo, hi int64) vset {
	if hi < lo {
		return vset{vals: []constant.Value{}}
	}
	if hi-lo < maxVals {
		vals := make([]constant.Value, 0, hi-lo+1)
		for n := lo; n <= hi; n++ {
			vals = append(vals, constant.MakeInt64(n))
		}
		return vset{vals: vals}
	}
	return vset{lo: lo, hi: hi, bounded: true}
}

// binary applies tok to every pair of values (or to the bounds).
func binary(tok token.Token, x, y vset) vset {
	if x.vals != nil && y.vals != nil && len(x.vals)*len(y.vals) <= maxVals {
		var out []vset
		for _, a := range x.vals {
			for _, b := range y.vals {
				if c := foldBinary(tok, a, b); c != nil {
					out = append(out, single(c))
				}
			}
		}
		if len(out) == 0 {
			return anything
		}
		return union(out...)
	}
	xl, xh, ok1 := x.interval()
	yl, yh, ok2 := y.interval()
	if !ok1 || !ok2 {
		return anything
	}
	switch tok {
	case token.ADD:
		return vset{lo: xl + yl, hi: xh + yh, bounded: true}
	case token.SUB:
		return vset{lo: xl - yh, hi: xh - yl, bounded: true}
	case token.MUL:
		if xl >= 0 && yl >= 0 {
			return vset{lo: xl * yl, hi: xh * yh, bounded: true}
		}
	case token.QUO:
		if yl > 0 {
			return vset{lo: min(xl/yl, xl/yh), hi: max(xh/yl, xh/yh), bounded: true}
		}
	case token.REM:
		if yl > 0 && xl >= 0 {
			return vset{lo: 0, hi: min(yh-1, xh), bounded: true}
		}
	}
	return anything
}

// evaluator evaluates expressions to value sets, with the Iter atoms of
// some loops bound to the state of one iteration.
type evaluator struct {
	f    *flow
	memo map[*Expr]vset
	// fixed binds Iter atoms (and iteration numbers) to constants, and
	// ranges bounds iteration numbers.
	fixed  map[atomKey]constant.Value
	ranges map[atomKey]vset
	// running are the loops whose iterations this evaluator is inside:
	// their Iter atoms that are not fixed are not known.
	running map[*Loop]bool
	// visiting are the projections of loop state being computed.
	visiting map[string]bool
	// ctx is the context being asked about: the Iter atoms of its
	// function's loops (and its callers', which reach it through
	// arguments) are evaluated with their environments.
	ctx   *Context
	depth int
	// fuel is what is left of the work one question may take (shared by
	// the evaluators it makes): simulating long loops of loops inside
	// loops is cut off, the same way each time, rather than let run.
	fuel *int
	// reaching is set inside reachableValues (which is not nested).
	reaching bool
}

// maxFuel bounds the expressions one question evaluates.
const maxFuel = 200000

// freeLoop returns a loop whose state e (not a bare atom) reads and that
// this evaluator has not fixed, or nil.
func (ev *evaluator) freeLoop(e *Expr) *Loop {
	if e.Kind == kIter || e.Kind == kAtExit || e.Kind == kOver || e.depth == 0 {
		return nil
	}
	var found *Loop
	e.walk(func(a *Expr) bool {
		if found != nil || a.Kind == kAtExit || a.Kind == kOver {
			return false // their loops' atoms are theirs
		}
		if a.Kind == kIter && a.N >= 0 && !ev.running[a.Loop] {
			if _, fixed := ev.fixed[keyOf(a)]; !fixed {
				found = a.Loop
			}
		}
		return true
	})
	return found
}

// envOf is the environment for the Iter atoms of l (nil: unbound).
func (ev *evaluator) envOf(l *Loop) *Env { return ev.ctx.envFor(l.fn) }

// envFor is the environment of fn in c or the contexts that called it
// (nil when none runs fn).
func (c *Context) envFor(fn *ssa.Function) *Env {
	for ; c != nil; c = c.Parent {
		if c.Fn == fn {
			return c.Env
		}
	}
	return nil
}

// valuesAt is the set of values e takes in context c.
func (f *flow) valuesAt(e *Expr, c *Context) vset {
	ev := f.newEvaluator()
	ev.ctx = c
	return ev.values(e)
}

func (f *flow) newEvaluator() *evaluator {
	fuel := maxFuel
	return &evaluator{f: f, memo: map[*Expr]vset{}, fixed: map[atomKey]constant.Value{}, fuel: &fuel}
}

// values is the set of values e can take.
func (f *flow) values(e *Expr) vset { return f.newEvaluator().values(e) }

func (ev *evaluator) values(e *Expr) vset {
	if e == nil {
		return anything
	}
	if s, ok := ev.memo[e]; ok {
		return s
	}
	ev.memo[e] = anything // a cycle gives anything
	ev.depth++
	var s vset
	if l := ev.freeLoop(e); l != nil {
		// The Iter atoms of one loop take their values together: t - (t -
		// 8) is 8 at every iteration, not anything from t's range minus
		// anything from it.
		s = ev.overLoop(l, e, ev.envOf(l))
		if s.vals == nil && !s.bounded && e.Kind == kPure {
			// Not known by running the loop: what its form says (a
			// search's position in its slice, whatever it looks for).
			s = ev.compute(e)
		}
	} else {
		s = ev.compute(e)
	}
	ev.depth--
	ev.memo[e] = s
	return s
}

func (ev *evaluator) compute(e *Expr) vset {
	if ev.depth > 4*maxDepth || *ev.fuel <= 0 {
		return anything
	}
	*ev.fuel--
	switch e.Kind {
	case kConst:
		return single(e.Val)
	case kChoice:
		sets := make([]vset, len(e.Args))
		for i, a := range e.Args {
			sets[i] = ev.values(a)
		}
		return union(sets...)
	case kSelect:
		c := ev.values(e.Args[0])
		if c.vals != nil {
			var out []vset
			for _, v := range c.vals {
				if v.Kind() == constant.Bool && constant.BoolVal(v) {
					out = append(out, ev.values(e.Args[1]))
				} else {
					out = append(out, ev.values(e.Args[2]))
				}
			}
			return union(out...)
		}
		return union(ev.values(e.Args[1]), ev.values(e.Args[2]))
	case kOp:
		if len(e.Args) == 1 {
			x := ev.values(e.Args[0])
			if x.vals == nil {
				if e.Op == token.SUB && x.bounded {
					return vset{lo: -x.hi, hi: -x.lo, bounded: true}
				}
				return anything
			}
			var out []vset
			for _, v := range x.vals {
				if e.Op == token.NOT && v.Kind() == constant.Bool {
					out = append(out, single(constant.MakeBool(!constant.BoolVal(v))))
				} else if v.Kind() == constant.Int || v.Kind() == constant.Float {
					out = append(out, single(constant.UnaryOp(e.Op, v, 0)))
				} else {
					return anything
				}
			}
			return union(out...)
		}
		if e.Op == token.REM {
			if k, ok := ev.values(e.Args[1]).max(); ok && k > 0 {
				x := ev.values(e.Args[0])
				if lo, _, ok := x.interval(); (!ok || lo >= 0) && x.vals == nil {
					return rangeSet(0, k-1)
				}
			}
		}
		return binary(e.Op, ev.values(e.Args[0]), ev.values(e.Args[1]))
	case kConv:
		x := ev.values(e.Args[0])
		if x.vals == nil {
			return x
		}
		var out []vset
		for _, v := range x.vals {
			out = append(out, ev.values(conv(constOf(v), e.Type)))
		}
		return union(out...)
	case kPure:
		return ev.pure(e)
	case kSeq:
		return anything
	case kField:
		if base := projRoot(e); base.Kind == kIter && base.N >= 0 {
			return ev.carried(e, base)
		}
		if elems := ev.elementsAt(e.Args[0]); elems != nil {
			// A field of a table's row: that field of the rows it can be.
			sets := make([]vset, len(elems))
			for i, a := range elems {
				sets[i] = ev.values(field(a, e.N))
			}
			return union(sets...)
		}
	case kLen:
		return ev.lengthOf(e.Args[0])
	case kIndex:
		if sh := e.Args[0]; sh.Kind == kShape {
			if d := ev.arrayDims(sh.Args[0]); d != nil {
				if k, ok := e.Args[1].int64Of(); ok && k >= 0 && int(k) < len(d) {
					return ev.values(d[k])
				}
			}
			return anything
		}
		if base := projRoot(e); base.Kind == kIter && base.N >= 0 {
			return ev.carried(e, base)
		}
		if elems := ev.elementsAt(e); elems != nil {
			sets := make([]vset, len(elems))
			for i, a := range elems {
				sets[i] = ev.values(a)
			}
			return union(sets...)
		}
	case kInput:
		if len(e.Args) > 0 {
			sets := make([]vset, len(e.Args))
			for i, a := range e.Args {
				sets[i] = ev.values(a)
			}
			return union(sets...)
		}
	case kIter:
		if v, ok := ev.fixed[keyOf(e)]; ok {
			return single(v)
		}
		if r, ok := ev.ranges[keyOf(e)]; ok {
			return r
		}
		if e.N < 0 || ev.running[e.Loop] {
			return anything
		}
		return ev.overLoop(e.Loop, e, ev.envOf(e.Loop))
	case kAtExit:
		return ev.atExit(e)
	case kOver:
		return ev.overLoop(e.Loop, e.Args[0], e.Env)
	case kLoad:
		if el := elementOf(e); el != nil {
			return ev.values(el) // an element of a slice a loop appended to: one of the values appended
		}
	}
	return anything
}

// arrayDims are the dims of the array x: known, or for an array in a
// loop's state (the state or a field of it), its dims at each iteration
// (carryDims), and once the loop is done, its initial dims when every
// iteration keeps them; for a choice, the dims its alternatives share.
func (ev *evaluator) arrayDims(x *Expr) []*Expr {
	if d := dimsOf(x); d != nil {
		return d
	}
	switch x.Kind {
	case kIter, kField:
		if it, path := carryPath(x); it != nil {
			return ev.carryDims(it, path, ev.envOf(it.Loop), true)
		}
	case kAtExit:
		if it, path := carryPath(x.Args[0]); it != nil && it.Loop == x.Loop {
			env := x.Env
			if env == nil {
				env = ev.envOf(x.Loop)
			}
			return ev.carryDims(it, path, env, false)
		}
	case kChoice:
		return choiceDims(x.Args, ev.arrayDims)
	case kInput:
		if len(x.Args) > 0 {
			return choiceDims(x.Args, ev.arrayDims) // what the calls pass: a loop's state fed back, say
		}
	}
	return nil
}

// carryPath splits x, a chain of fields of a loop's state, into the state
// and the field indexes from it (nil when x is not one).
func carryPath(x *Expr) (*Expr, []int) {
	root, path := fieldChain(x)
	if root.Kind != kIter || root.N < 0 {
		return nil, nil
	}
	return root, path
}

// fieldChain splits x, a chain of fields, into the value it starts from
// and the field indexes from it, outermost first.
func fieldChain(x *Expr) (*Expr, []int) {
	var path []int
	for x.Kind == kField {
		path = append([]int{x.N}, path...)
		x = x.Args[0]
	}
	return x, path
}

// fields is the chain of fields path of x (x itself for none).
func fields(x *Expr, path []int) *Expr {
	for _, i := range path {
		x = field(x, i)
	}
	return x
}

// carriedDim is dim i of the array at path in state n of a loop, at the
// start of an iteration: an atom of carryDims' recurrence.
type carriedDim struct {
	l    *Loop
	n, i int
	path string
}

// carryDims are the dims of the array at path in the loop state x (its
// function's atoms bound by env) as the loop runs, from the recurrence
// that one iteration makes of them: each dim the iteration keeps, or sets
// to what it was at the start (a window of fixed width at a moving
// offset), is its initial dim; with closed, a dim that every iteration
// moves by the same step (a cache that grows by a row per call, fed back
// as the next call's input) is the initial dim plus the iteration number
// times the step. Nil when a dim does anything else, or the initial dims
// are not known.
func (ev *evaluator) carryDims(x *Expr, path []int, env *Env, closed bool) []*Expr {
	l := x.Loop
	l.sum.solve(l)
	bind := func(e *Expr) *Expr {
		if env != nil {
			return ev.f.subst(e, env)
		}
		return e
	}
	init := bind(l.init[x.N])
	leaf := fields(init, path)
	next := bind(l.next[x.N])
	// The state at the start of an iteration: the array at path of any dims
	// of its rank (atoms), the rest as it starts.
	atoms := func(rank int) []*Expr {
		cur := make([]*Expr, rank)
		for i := range cur {
			cur[i] = fresh(carriedDim{l, x.N, i, fmt.Sprint(path)})
		}
		return cur
	}
	d0 := ev.arrayDims(leaf)
	if d0 == nil {
		// Initial dims not known here (a parameter's, another call's
		// result's): each is the same on every iteration, dim i of the
		// initial array, of the rank that one iteration keeps.
		rank := ev.keptRank(next, path, x, func(cur []*Expr) (*Expr, bool) {
			return withLeaf(init, path, array(leaf.Name, leaf.Site, leaf.Args, cur, leaf.Tr))
		}, atoms)
		if rank < 0 {
			return nil
		}
		d0 = make([]*Expr, rank)
		for i := range d0 {
			d0[i] = index(shapeOf(leaf), intConst(int64(i)))
		}
	}
	cur := atoms(len(d0))
	start, ok := withLeaf(init, path, array(leaf.Name, leaf.Site, leaf.Args, cur, leaf.Tr))
	var d1 []*Expr
	if ok {
		iters := map[atomKey]*Expr{keyOf(x): start}
		if closed {
			// The loop's other array states that keep their dims, as arrays
			// of those dims (the token fed back beside the cache).
			for k, in := range l.init {
				if k == x.N || ev.arrayDims(bind(in)) == nil {
					continue
				}
				if d := ev.carryDims(iter(l, k), nil, env, false); d != nil {
					iters[keyOf(iter(l, k))] = array("carry", nil, nil, d, bind(in).Tr)
				}
			}
		}
		d1 = dimsOf(fields(ev.f.substIters(next, iters), path))
	}
	if len(d1) != len(d0) {
		// Not followed from dims of any size: the state after an iteration
		// from the initial state.
		d1 = dimsOf(fields(ev.f.substIters(next, map[atomKey]*Expr{keyOf(x): init}), path))
		if len(d1) != len(d0) {
			return nil
		}
		cur = d0
	}
	out := make([]*Expr, len(d0))
	for i := range d0 {
		step, ok := delta(d1[i], cur[i])
		if !ok && !d1[i].mentions(func(a *Expr) bool { _, dim := a.Site.(carriedDim); return a.Kind == kFresh && dim }) {
			step, ok = delta(d1[i], d0[i]) // set anew on each iteration
			if !ok || constant.Sign(step) != 0 {
				return nil
			}
		}
		switch {
		case !ok:
			return nil
		case constant.Sign(step) == 0:
			out[i] = d0[i]
		case closed:
			out[i] = op(token.ADD, d0[i], op(token.MUL, iterNum(l), constOf(step)))
		default:
			return nil
		}
	}
	return out
}

// maxCarryRank is the largest rank keptRank tries.
const maxCarryRank = 4

// keptRank is the rank r (1 to maxCarryRank) for which one iteration
// (next, the loop state x's next value) makes of the array at path, of
// any dims of rank r (atoms(r), placed by start), an array of rank r: the
// only rank the state can have when the iteration concatenates it with an
// array of known rank. -1 when no rank, or more than one, is kept.
func (ev *evaluator) keptRank(next *Expr, path []int, x *Expr, start func([]*Expr) (*Expr, bool), atoms func(int) []*Expr) int {
	found := -1
	for r := 1; r <= maxCarryRank; r++ {
		st, ok := start(atoms(r))
		if !ok {
			return -1
		}
		d := dimsOf(fields(ev.f.substIters(next, map[atomKey]*Expr{keyOf(x): st}), path))
		if d != nil && len(d) == r {
			if found >= 0 {
				return -1
			}
			found = r
		}
	}
	return found
}

// withLeaf is the state x with the value at path replaced by leaf (false
// when x is not known field by field down the path).
func withLeaf(x *Expr, path []int, leaf *Expr) (*Expr, bool) {
	if len(path) == 0 {
		return leaf, true
	}
	if x.Kind != kStruct || path[0] >= len(x.Args) {
		return nil, false
	}
	inner, ok := withLeaf(x.Args[path[0]], path[1:], leaf)
	if !ok {
		return nil, false
	}
	fields := slices.Clone(x.Args)
	fields[path[0]] = inner
	return node(kStruct, fields...), true
}

// projRoot is the value a chain of fields, elements and lengths starts
// from.
func projRoot(e *Expr) *Expr {
	for e.Kind == kField || e.Kind == kIndex || e.Kind == kLen {
		e = e.Args[0]
	}
	return e
}

// carried is the set of values of a projection of a loop's state (a
// field of a struct carried through the loop, fine = step.Call(fine)):
// what the loop starts it as, or what the body makes of it. A projection
// met again while computing it adds nothing (the least fixed point).
func (ev *evaluator) carried(e, base *Expr) vset {
	key := e.String()
	if ev.visiting[key] {
		return vset{vals: []constant.Value{}}
	}
	if ev.visiting == nil {
		ev.visiting = map[string]bool{}
	}
	ev.visiting[key] = true
	defer delete(ev.visiting, key)
	l := base.Loop
	l.sum.solve(l)
	var out []vset
	for _, from := range []*Expr{l.init[base.N], l.next[base.N]} {
		if env := ev.envOf(l); env != nil {
			from = ev.f.subst(from, env)
		}
		out = append(out, ev.values(ev.f.substIters(e, map[atomKey]*Expr{keyOf(base): from})))
	}
	return union(out...)
}

// lengthOf is the set of lengths of the sequence x.
func (ev *evaluator) lengthOf(x *Expr) vset {
	switch x.Kind {
	case kIndex:
		if elems := ev.elementsAt(x); elems != nil && ev.values(x.Args[1]).known() {
			// A row of a table at an index known here (an iteration's): the
			// lengths of the rows it can be.
			sets := make([]vset, len(elems))
			for i, a := range elems {
				sets[i] = ev.values(length(a))
			}
			return union(sets...)
		}
	case kInput:
		if len(x.Args) > 0 {
			sets := make([]vset, len(x.Args))
			for i, a := range x.Args {
				sets[i] = ev.values(length(a))
			}
			return union(sets...)
		}
	case kIter:
		l := x.Loop
		l.sum.solve(l)
		if r, ok := ev.ranges[lenKey(l, x.N)]; ok {
			return r
		}
		if x.N >= 0 && ev.running[l] {
			if c := lengthClosed(l, x.N); c != nil {
				if env := ev.envOf(l); env != nil {
					c = ev.f.subst(c, env)
				}
				return ev.values(c) // at the iteration being evaluated
			}
			return anything
		}
		if x.N >= 0 {
			return ev.overLoop(l, length(x), ev.envOf(l))
		}
	}
	return anything
}

// nonNegative reports whether e is at least 0 by its form: a length or
// a capacity, also as a loop leaves it.
func nonNegative(e *Expr) bool {
	return e.Kind == kLen || e.Kind == kPure && e.Name == "cap" || e.Kind == kAtExit && nonNegative(e.Args[0])
}

// pure evaluates min, max and the math functions.
func (ev *evaluator) pure(e *Expr) vset {
	sets := make([]vset, len(e.Args))
	for i, a := range e.Args {
		sets[i] = ev.values(a)
	}
	if e.Name == "min" || e.Name == "max" {
		acc, accNonNeg := sets[0], nonNegative(e.Args[0])
		for i, s := range sets[1:] {
			// Whether the operands, and so the result, are at least 0 by
			// their forms (lengths).
			sNonNeg := nonNegative(e.Args[i+1])
			nonNeg := accNonNeg && sNonNeg || e.Name == "max" && (accNonNeg || sNonNeg)
			if acc.vals != nil && s.vals != nil && len(acc.vals)*len(s.vals) <= maxVals {
				var out []vset
				for _, a := range acc.vals {
					for _, b := range s.vals {
						pick := a
						if e.Name == "min" && constant.Compare(b, token.LSS, a) || e.Name == "max" && constant.Compare(b, token.GTR, a) {
							pick = b
						}
						out = append(out, single(pick))
					}
				}
				acc, accNonNeg = union(out...), nonNeg
				continue
			}
			al, ah, ok1 := acc.interval()
			bl, bh, ok2 := s.interval()
			switch {
			case e.Name == "min" && ok1 && ok2:
				acc = vset{lo: min(al, bl), hi: min(ah, bh), bounded: true}
			case e.Name == "min" && (ok1 || ok2):
				// min is at most any bounded argument, and at least the
				// least of it and 0 when the other is a length.
				lo, hi, other := al, ah, sNonNeg
				if ok2 {
					lo, hi, other = bl, bh, accNonNeg
				}
				if !other {
					lo = math.MinInt64 / 2
				}
				acc = rangeSet(min(lo, 0), hi)
			case e.Name == "max" && ok1 && ok2:
				acc = vset{lo: max(al, bl), hi: max(ah, bh), bounded: true}
			default:
				acc = anything
			}
			accNonNeg = nonNeg
		}
		return acc
	}
	if first, ok := searches[e.Name]; ok && len(e.Args) > 0 {
		// A search of a slice (or of [0, n)) answers a position in it.
		n := ev.values(length(e.Args[0]))
		if e.Name == "sort.Search" {
			n = sets[0]
		}
		if hi, ok := n.max(); ok {
			return rangeSet(first, hi)
		}
		return anything
	}
	impl := pureFuncs[e.Name]
	if impl == nil {
		return anything
	}
	total := 1
	for _, s := range sets {
		if s.vals == nil {
			return anything
		}
		total *= len(s.vals)
	}
	if total > maxVals {
		return anything
	}
	var out []vset
	var rec func(i int, acc []float64)
	rec = func(i int, acc []float64) {
		if i == len(sets) {
			if r := impl(acc); !math.IsNaN(r) && !math.IsInf(r, 0) {
				out = append(out, single(constant.MakeFloat64(r)))
			}
			return
		}
		for _, v := range sets[i].vals {
			x, _ := constant.Float64Val(constant.ToFloat(v))
			rec(i+1, append(acc, x))
		}
	}
	rec(0, nil)
	if len(out) == 0 {
		return anything
	}
	return union(out...)
}

// searches are the standard library's searches whose result is a position
// in the slice (or range) of their first argument, with the least result:
// -1 for "not found", else 0; the greatest is its length (one past the
// end for the sort searches, an insertion point).
var searches = map[string]int64{
	"sort.Search": 0, "sort.SearchInts": 0, "sort.SearchStrings": 0, "sort.SearchFloat64s": 0,
	"slices.Index": -1, "slices.IndexFunc": -1,
}

// elementsAt lists the elements an index expression e (xs[i] of a sequence
// whose elements are known) can read: those at the indexes i can be, or
// all of them when i is not known. It is nil for other expressions.
func (ev *evaluator) elementsAt(e *Expr) []*Expr {
	if e.Kind != kIndex {
		return nil
	}
	elems := elements(e.Args[0])
	if elems == nil {
		return nil
	}
	at := ev.values(e.Args[1])
	if at.vals == nil {
		return elems
	}
	var out []*Expr
	for _, v := range at.vals {
		k, ok := constant.Int64Val(constant.ToInt(v))
		if !ok || k < 0 || int(k) >= len(elems) {
			return elems
		}
		out = append(out, elems[k])
	}
	return out
}
