package traced

import (
	"go/constant"
	"go/token"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Iterations: what a loop's state is at each iteration, and so how many
// times it runs, what a value of its body takes over its iterations and
// what it holds when the loop is done. A loop whose state is known on
// entry (after binding the function's atoms: the arguments of a call, the
// shapes a jitted function is called with) is run on constants; a counting
// loop also has a closed form (its state at iteration J is init + J·step),
// which serves when the bounds are not constants.

// maxRun bounds the iterations the evaluator runs.
const maxRun = 1 << 16

// run is the outcome of running a loop on constants.
type run struct {
	states [][]constant.Value // the state at the start of each iteration that ran
	exit   []constant.Value   // the state when it stopped
	post   bool               // it stopped after a body (exit holds the last body's state)
	ok     bool
}

// runLoop runs l with its function's atoms bound by env, when its state
// is made of constants.
func (ev *evaluator) runLoop(l *Loop, env *Env) run {
	// Running a loop may spend at most half of what is left, so that a
	// run that does not finish leaves the other ways of answering
	// (closed forms, the states it can reach, the form) fuel to work.
	budget := *ev.fuel / 2
	left := budget
	sub := *ev
	sub.fuel, sub.memo = &left, map[*Expr]vset{}
	r := sub.runLoopWith(l, env)
	*ev.fuel -= budget - left // what the run used
	return r
}

// runLoopWith runs l as runLoop does, on ev's fuel.
func (ev *evaluator) runLoopWith(l *Loop, env *Env) run {
	s := ev.f.summary(l.fn)
	s.solve(l)
	bind := func(e *Expr) *Expr {
		if env != nil {
			return ev.f.subst(e, env)
		}
		return e
	}
	state := make([]constant.Value, len(l.init))
	for k := range l.init {
		if v := ev.values(bind(l.init[k])); v.vals != nil && len(v.vals) == 1 {
			state[k] = v.vals[0]
		}
	}
	pre, post, enter := bind(l.pre), bind(l.post), bind(l.enter)
	nexts := make([]*Expr, len(l.next))
	for k := range l.next {
		nexts[k] = bind(l.next[k])
	}
	at := func(state []constant.Value, j int, e *Expr) (constant.Value, bool) {
		sub := ev.inside(l)
		for k, v := range state {
			if v != nil {
				sub.fixed[keyOf(iter(l, k))] = v
			}
		}
		sub.fixed[keyOf(iterNum(l))] = constant.MakeInt64(int64(j))
		vs := sub.values(e)
		if vs.vals == nil || len(vs.vals) != 1 {
			return nil, false
		}
		return vs.vals[0], true
	}
	truth := func(state []constant.Value, j int, e *Expr) (bool, bool) {
		if e == exprTrue {
			return true, true
		}
		v, ok := at(state, j, e)
		if !ok || v.Kind() != constant.Bool {
			return false, false
		}
		return constant.BoolVal(v), true
	}
	var r run
	if in, ok := truth(state, 0, enter); !ok {
		return run{}
	} else if !in {
		return run{exit: state, ok: true}
	}
	for j := 0; j < maxRun; j++ {
		stay, ok := truth(state, j, pre)
		if !ok {
			return run{}
		}
		if !stay {
			r.exit, r.ok = state, true
			return r
		}
		r.states = append(r.states, state)
		again, ok := truth(state, j, post)
		if !ok {
			return run{}
		}
		if !again {
			r.exit, r.post, r.ok = state, true, true
			return r
		}
		next := make([]constant.Value, len(state))
		for k, e := range nexts {
			if state[k] == nil {
				continue
			}
			if v, ok := at(state, j, e); ok {
				next[k] = v
			}
		}
		state = next
	}
	return run{}
}

// trips returns the most times l runs with its function's atoms bound by
// env.
func (ev *evaluator) trips(l *Loop, env *Env) (int64, bool) {
	s := ev.f.summary(l.fn)
	s.solve(l)
	if l.trips != nil {
		t := l.trips
		if env != nil {
			t = ev.f.subst(t, env)
		}
		if n, ok := ev.values(t).max(); ok {
			return max(n, 0), true
		}
	}
	if r := ev.runLoop(l, env); r.ok {
		return int64(len(r.states)), true
	}
	return 0, false
}

// overLoop is the union of e's values over the iterations of l.
func (ev *evaluator) overLoop(l *Loop, e *Expr, env *Env) vset {
	if env != nil {
		e = ev.f.subst(e, env)
	}
	if r := ev.runLoop(l, env); r.ok && len(r.states) <= maxVals {
		var out []vset
		for j, st := range r.states {
			out = append(out, ev.at(l, st, j, e))
		}
		if len(out) == 0 {
			return vset{vals: []constant.Value{}}
		}
		if u := union(out...); u.known() || u.bounded {
			return u
		}
		// A state the run does not follow (a slice): bounded, perhaps, by
		// what the states can reach.
	}
	if c := ev.closed(l, e); c != nil {
		if t, ok := ev.trips(l, env); ok {
			sub := ev.with(l, nil)
			sub.ranges = map[atomKey]vset{keyOf(iterNum(l)): rangeSet(0, max(t-1, 0))}
			return sub.values(c)
		}
	}
	return ev.reachableValues(l, e, env)
}

// maxReachRounds bounds the rounds of reachableValues' fixpoint before a
// state that still grows is taken to be anything.
const maxReachRounds = 8

// reachableValues bounds e's values over l, whose run is not known (a
// test on data), by the values each of l's states can reach: its start,
// and what the body makes of any reachable states (taken one by one, an
// over-approximation) — k = 4, then k = 4 or k = 2 on each round, is 2 or
// 4. A state that still grows after maxReachRounds is anything.
func (ev *evaluator) reachableValues(l *Loop, e *Expr, env *Env) vset {
	if ev.reaching {
		return anything // not inside another: the work would multiply
	}
	l.sum.solve(l)
	bind := func(x *Expr) *Expr {
		if env != nil {
			return ev.f.subst(x, env)
		}
		return x
	}
	own := *ev
	own.reaching = true
	// The states' values and, for the sequences among them, their lengths.
	sets, lens := make([]vset, len(l.phis)), make([]vset, len(l.phis))
	for k := range sets {
		sets[k] = own.values(bind(l.init[k]))
		lens[k] = own.values(length(bind(l.init[k])))
	}
	bound := func() *evaluator {
		sub := own.inside(l)
		sub.ranges = map[atomKey]vset{}
		maps.Copy(sub.ranges, ev.ranges)
		for k, set := range sets {
			sub.ranges[keyOf(iter(l, k))] = set
			if lens[k].known() {
				sub.ranges[lenKey(l, k)] = lens[k]
			}
		}
		return sub
	}
	grow := func(round int, set *vset, next vset) (changed bool) {
		n := union(*set, next)
		if !sameSet(n, *set) {
			changed = true
			if round >= maxReachRounds {
				n = anything // widened: it keeps growing
			}
		}
		*set = n
		return changed
	}
	for round := 0; round < 2*maxReachRounds; round++ {
		sub, changed := bound(), false
		for k := range sets {
			changed = grow(round, &sets[k], sub.values(bind(l.next[k]))) || changed
			if lens[k].known() {
				changed = grow(round, &lens[k], sub.values(length(bind(l.next[k])))) || changed
			}
		}
		if !changed {
			return bound().values(e)
		}
	}
	return anything
}

// sameSet reports whether a and b, one a subset of the other, are equal.
func sameSet(a, b vset) bool {
	return (a.vals == nil) == (b.vals == nil) && len(a.vals) == len(b.vals) && a.bounded == b.bounded && a.lo == b.lo && a.hi == b.hi
}

// at is e's values at iteration j, in state st.
func (ev *evaluator) at(l *Loop, st []constant.Value, j int, e *Expr) vset {
	sub := ev.inside(l)
	sub.fixed[keyOf(iterNum(l))] = constant.MakeInt64(int64(j))
	for k, v := range st {
		if v != nil {
			sub.fixed[keyOf(iter(l, k))] = v
		}
	}
	return sub.values(e)
}

// with is a new evaluator inside l with the iteration number fixed at v
// (nil: not fixed).
func (ev *evaluator) with(l *Loop, v constant.Value) *evaluator {
	sub := ev.inside(l)
	if v != nil {
		sub.fixed[keyOf(iterNum(l))] = v
	}
	return sub
}

// inside is a new evaluator for the iterations of l: what this one fixes,
// and l running.
func (ev *evaluator) inside(l *Loop) *evaluator {
	sub := &evaluator{f: ev.f, memo: map[*Expr]vset{}, fixed: map[atomKey]constant.Value{}, ranges: ev.ranges, running: map[*Loop]bool{l: true}, ctx: ev.ctx, depth: ev.depth, fuel: ev.fuel, reaching: ev.reaching}
	for a, b := range ev.fixed {
		sub.fixed[a] = b
	}
	for m := range ev.running {
		sub.running[m] = true
	}
	return sub
}

// closed writes e, an expression of l's iteration, in terms of the
// iteration number J when each Iter atom of l it mentions steps by a
// constant, or is a sequence whose length does (xs = append(xs, x)), or
// keeps its value (nil otherwise).
func (ev *evaluator) closed(l *Loop, e *Expr) *Expr {
	ev.f.summary(l.fn).solve(l)
	iters := map[atomKey]*Expr{}
	ok := true
	seen := map[*Expr]bool{}
	var visit func(a *Expr)
	visit = func(a *Expr) {
		if a == nil || seen[a] || !ok {
			return
		}
		seen[a] = true
		switch {
		case a.Kind == kLen && a.Args[0].Kind == kIter && a.Args[0].Loop == l && a.Args[0].N >= 0:
			k := a.Args[0].N
			if c := lengthClosed(l, k); c != nil {
				iters[lenKey(l, k)] = c
				return
			}
		case a.Kind == kIter && a.Loop == l && a.N >= 0:
			if a.N >= len(l.closed) || l.closed[a.N] == nil {
				ok = false
				return
			}
			iters[keyOf(a)] = l.closed[a.N]
			return
		}
		for _, b := range a.Args {
			visit(b)
		}
		visit(a.Tr)
		if a.Env != nil {
			for _, b := range a.Env.Params {
				visit(b)
			}
			for _, b := range a.Env.Frees {
				visit(b)
			}
		}
	}
	visit(e)
	if !ok {
		return nil
	}
	return ev.f.substIters(e, iters)
}

// lengthClosed is the length of phi k of l at iteration J when each
// iteration adds the same number of elements to it (nil otherwise).
func lengthClosed(l *Loop, k int) *Expr {
	cur := length(iter(l, k))
	d, ok := delta(length(l.next[k]), cur)
	if !ok {
		return nil
	}
	return op(token.ADD, length(l.init[k]), op(token.MUL, iterNum(l), constOf(d)))
}

// lenKey is the key under which the length of phi k of l is substituted.
func lenKey(l *Loop, k int) atomKey { return atomKey{kind: kLen, n: k, loop: l} }

// atExit is the value of an AtExit node: its expression at the state the
// loop stops in.
func (ev *evaluator) atExit(e *Expr) vset {
	l, x := e.Loop, e.Args[0]
	if e.Env != nil {
		x = ev.f.subst(x, e.Env)
	}
	if v := ev.exitValues(l, x, e.Env); v.known() || v.bounded {
		return v
	}
	// The state it stops in is one of those it can reach (a choice that a
	// data test makes on each iteration: the best order so far).
	return ev.reachableValues(l, x, e.Env)
}

// exitValues is x's values once l is done, from a run of l, a closed form
// over its trips, or the states it can stop in.
func (ev *evaluator) exitValues(l *Loop, x *Expr, env *Env) vset {
	if r := ev.runLoop(l, env); r.ok {
		j := len(r.states)
		if r.post {
			j--
		}
		return ev.at(l, r.exit, j, x)
	}
	if c := ev.closed(l, x); c != nil {
		if t, ok := ev.trips(l, env); ok {
			if l.exitPost {
				t--
			}
			return ev.with(l, constant.MakeInt64(t)).values(c)
		}
	}
	if exits, ok := ev.reachable(l, env); ok {
		var out []vset
		for _, st := range exits {
			out = append(out, ev.at(l, st.state, st.j, x))
		}
		return union(out...)
	}
	return anything
}

// maxReach bounds the states reachable explores.
const maxReach = 64

// exitState is a state a loop can stop in, at iteration j.
type exitState struct {
	state []constant.Value
	j     int
}

// reachable lists the states l can stop in when its conditions are only
// partly known (p < n && p < 1024 with n not known: p stops at one of 1,
// 2, …, 1024): each state is followed while the known part of its tests
// lets the loop go on, and counted as a possible stop where a test fails
// or may fail. ok is false when the states are not constants or too many.
func (ev *evaluator) reachable(l *Loop, env *Env) ([]exitState, bool) {
	bind := func(e *Expr) *Expr {
		if env != nil {
			return ev.f.subst(e, env)
		}
		return e
	}
	state := make([]constant.Value, len(l.init))
	for k := range l.init {
		if v := ev.values(bind(l.init[k])); v.vals != nil && len(v.vals) == 1 {
			state[k] = v.vals[0]
		}
	}
	// test says whether a condition holds at state: yes, no or maybe.
	test := func(st []constant.Value, j int, c *Expr) (yes, no bool) {
		for _, conj := range conjuncts(bind(c)) {
			vs := ev.at(l, st, j, conj)
			if vs.vals == nil || len(vs.vals) != 1 || vs.vals[0].Kind() != constant.Bool {
				continue // not known: may hold, may not
			}
			if !constant.BoolVal(vs.vals[0]) {
				return false, true
			}
		}
		return true, false
	}
	var exits []exitState
	seen := map[string]bool{}
	for j := 0; j < maxReach; j++ {
		key := fmtState(state)
		if seen[key] && !slices.Contains(state, nil) {
			return exits, true // a cycle: every state is known
		}
		seen[key] = true
		if _, no := test(state, j, l.pre); no {
			return append(exits, exitState{state, j}), true
		}
		if !definitely(ev, l, state, j, bind(l.pre)) {
			exits = append(exits, exitState{state, j})
		}
		if _, no := test(state, j, l.post); no {
			return append(exits, exitState{state, j}), true
		}
		next := make([]constant.Value, len(state))
		for k, e := range l.next {
			if state[k] == nil {
				continue
			}
			vs := ev.at(l, state, j, bind(e))
			if vs.vals == nil || len(vs.vals) != 1 {
				return nil, false
			}
			next[k] = vs.vals[0]
		}
		state = next
	}
	return nil, false
}

// definitely reports whether condition c surely holds at state.
func definitely(ev *evaluator, l *Loop, st []constant.Value, j int, c *Expr) bool {
	if c == exprTrue {
		return true
	}
	vs := ev.at(l, st, j, c)
	return vs.vals != nil && len(vs.vals) == 1 && vs.vals[0].Kind() == constant.Bool && constant.BoolVal(vs.vals[0])
}

func fmtState(st []constant.Value) string {
	var b []byte
	for _, v := range st {
		if v == nil {
			b = append(b, '?', ',')
			continue
		}
		b = append(b, v.ExactString()...)
		b = append(b, ',')
	}
	return string(b)
}

// atExit is x when l is done (x of the last iteration, or of the state
// that ended it): pushed into sequences, arrays and structs, so that the
// length of a slice appended to in a loop, or the dims of an array
// concatenated to, are known after the loop.
func atExit(l *Loop, x *Expr) *Expr {
	if !x.mentions(func(a *Expr) bool { return a.Kind == kIter && a.Loop == l }) {
		return x
	}
	switch x.Kind {
	case kSeq:
		args := make([]*Expr, len(x.Args))
		for i, a := range x.Args {
			if a != nil {
				args[i] = atExit(l, a)
			}
		}
		out := *x
		out.Args = args
		if x.Tr != nil {
			out.Tr = overLoop(l, appended(l, x.Tr))
		}
		return out.sized()
	case kArray:
		out := *x
		out.Dims = make([]*Expr, len(x.Dims))
		for i, d := range x.Dims {
			out.Dims[i] = atExit(l, d)
		}
		if x.Dims == nil {
			out.Dims = nil
		}
		out.Args = nil
		for _, a := range x.Args {
			out.Args = append(out.Args, overLoop(l, a))
		}
		out.Tr = overLoop(l, x.Tr)
		return out.sized()
	case kStruct, kTuple:
		args := make([]*Expr, len(x.Args))
		for i, a := range x.Args {
			if a != nil {
				args[i] = atExit(l, a)
			}
		}
		out := *x
		out.Args = args
		return out.sized()
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for i, a := range x.Args {
			alts[i] = atExit(l, a)
		}
		return choice(alts...)
	case kFunc, kPtr, kWrapper, kTransform:
		return overLoop(l, x)
	}
	e := node(kAtExit, x)
	e.Loop = l
	return e
}

// appended drops, from what the elements of a sequence of l's state can
// be (alts), the elements the state already had when it started empty:
// what is left is what the loop appends.
func appended(l *Loop, alts *Expr) *Expr {
	l.sum.solve(l)
	var out []*Expr
	for _, a := range alternatives(alts) {
		if a.Kind == kIndex && a.Args[0].Kind == kIter && a.Args[0].Loop == l && a.Args[0].N >= 0 &&
			a.Args[0].N < len(l.init) && l.init[a.Args[0].N] != nil && isZero(length(l.init[a.Args[0].N])) {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return alts
	}
	return choice(out...)
}

// overLoop is "one of the values x takes over l's iterations".
func overLoop(l *Loop, x *Expr) *Expr {
	if x == nil || !x.mentions(func(a *Expr) bool { return a.Kind == kIter && a.Loop == l }) {
		return x
	}
	e := node(kOver, x)
	e.Loop = l
	return e
}

// distinct counts the distinct values e takes over the iterations of l
// (its function's atoms bound by env): by running the loop, from the
// closed form, or from e's form (a bool is 2, x % k at most k, an element
// of a table at most its distinct elements). ok is false when the count
// is not bounded.
func (ev *evaluator) distinct(l *Loop, e *Expr, env *Env) (int64, bool) {
	k, bounded, _ := ev.count(l, e, env)
	return k, bounded
}

// count is distinct, and says whether the count is exact (every
// iteration's values known) rather than a bound.
func (ev *evaluator) count(l *Loop, e *Expr, env *Env) (k int64, bounded, exact bool) {
	if env != nil {
		e = ev.f.subst(e, env)
	}
	bound := func() (int64, bool, bool) {
		n, ok := ev.formBound(e)
		return n, ok, false
	}
	if k, ok, exact := ev.elementsCount(e); ok {
		return k, true, exact
	}
	if inducted(l, e) {
		if t, ok := ev.trips(l, env); ok {
			return t, true, true
		}
	}
	if r := ev.runLoop(l, env); r.ok && len(r.states) <= maxVals {
		seen := map[string]bool{}
		exact := true
		for j, st := range r.states {
			ks := valueKeys(func(x *Expr) vset { return ev.at(l, st, j, x) }, e)
			if ks == nil {
				seen = nil // a state the run does not follow (a slice)
				break
			}
			exact = exact && len(ks) == 1 // one value per iteration, not a set of them
			for _, k := range ks {
				seen[k] = true
			}
		}
		if seen != nil {
			return int64(len(seen)), true, exact
		}
	}
	if c := ev.closed(l, e); c != nil {
		if t, ok := ev.trips(l, env); ok && t <= maxVals {
			seen := map[string]bool{}
			exact := true
			for j := int64(0); j < t; j++ {
				ks := valueKeys(ev.with(l, constant.MakeInt64(j)).values, c)
				if ks == nil {
					return bound()
				}
				exact = exact && len(ks) == 1
				for _, k := range ks {
					seen[k] = true
				}
			}
			return int64(len(seen)), true, exact
		}
	}
	if k, ok := ev.butLast(l, e, env); ok {
		return k, true, false
	}
	return bound()
}

// inducted reports whether e (or a part of the tuple e) is a linear form
// that moves by a step other than zero on each iteration of l, the rest of
// it the same on every one: a new value on each trip, whatever it starts
// from (a cache that grows by a row per call from the prompt's length).
func inducted(l *Loop, e *Expr) bool {
	if e.Kind == kTuple {
		return slices.ContainsFunc(e.Args, func(a *Expr) bool { return a != nil && inducted(l, a) })
	}
	lin := linearOf(e)
	if lin == nil {
		return false
	}
	step := false
	for _, t := range lin.terms {
		switch {
		case t.c == 0:
		case t.x.Kind == kIter && t.x.Loop == l && t.x.N < 0:
			step = true
		case varies(l, t.x):
			return false
		}
	}
	return step
}

// elementsCount counts the values of e when it is an element (or the
// shape of one) of a sequence a loop stored or appended, read at an index
// that walks it: the values stored over that loop.
func (ev *evaluator) elementsCount(e *Expr) (int64, bool, bool) {
	if o, x := storedElement(e); o != nil {
		return ev.count(o.Loop, x, o.Env)
	}
	return 0, false, false
}

// storedElement returns the over node of an element e reads (and what of
// the stored value e is: itself, a field of it, or the shape or length of
// one), or nil.
func storedElement(e *Expr) (*Expr, *Expr) {
	switch e.Kind {
	case kTuple:
		if len(e.Args) == 1 {
			return storedElement(e.Args[0])
		}
	case kShape, kLen:
		if o, part := storedPart(e.Args[0]); o != nil {
			if e.Kind == kLen {
				return o, length(part)
			}
			return o, shapeTuple(part)
		}
	default:
		return storedPart(e)
	}
	return nil, nil
}

// storedPart returns the over node of an element that e is, or is a field
// of (a record's array), and that part of the stored value.
func storedPart(e *Expr) (*Expr, *Expr) {
	switch {
	case e.Kind == kOver && e.Tr != nil:
		return e, e.Args[0]
	case e.Kind == kField:
		if o, x := storedPart(e.Args[0]); o != nil {
			return o, field(x, e.N)
		}
	}
	return nil, nil
}

// newPerElement reports whether every element e can read is different
// (as many distinct values as the loop that stored them has iterations):
// a loop that walks them, however long, sees a new one at each step.
func (ev *evaluator) newPerElement(e *Expr) bool {
	o, x := storedElement(e)
	if o == nil {
		return false
	}
	k, _, exact := ev.count(o.Loop, x, o.Env)
	t, known := ev.trips(o.Loop, o.Env)
	return exact && known && k == t && k >= 2
}

// valueKeys are the values e may take, as strings (a tuple's: the
// combinations of its parts'), or nil when they are not all known.
func valueKeys(values func(*Expr) vset, e *Expr) []string {
	if composite(e) && (e.Kind == kSelect || e.Kind == kChoice) {
		// A choice of structs: the values of the alternatives that can be
		// taken (the condition's, when it is known).
		alts := e.Args
		if e.Kind == kSelect {
			alts = e.Args[1:]
			if c := values(e.Args[0]); len(c.vals) == 1 && c.vals[0].Kind() == constant.Bool {
				alts = e.Args[1:2]
				if !constant.BoolVal(c.vals[0]) {
					alts = e.Args[2:3]
				}
			}
		}
		var out []string
		for _, a := range alts {
			ks := valueKeys(values, a)
			if ks == nil {
				return nil
			}
			out = append(out, ks...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if e.Kind != kTuple && e.Kind != kStruct {
		vs := values(e)
		if vs.vals == nil {
			return nil
		}
		out := make([]string, len(vs.vals))
		for i, v := range vs.vals {
			out[i] = v.ExactString()
		}
		return out
	}
	out := []string{""}
	parts := map[string]bool{}
	for _, a := range e.Args {
		if a == nil {
			return nil // a field not known
		}
		if parts[a.String()] {
			continue // the same value again: one choice for both
		}
		parts[a.String()] = true
		ks := valueKeys(values, a)
		if ks == nil {
			return nil
		}
		var next []string
		for _, p := range out {
			for _, k := range ks {
				next = append(next, p+","+k)
			}
		}
		if len(next) > maxVals {
			return nil
		}
		out = next
	}
	return out
}

// composite reports whether e is a struct or tuple, or a choice of them.
func composite(e *Expr) bool {
	switch e.Kind {
	case kTuple, kStruct:
		return true
	case kSelect:
		return composite(e.Args[1]) || composite(e.Args[2])
	case kChoice:
		return slices.ContainsFunc(e.Args, composite)
	}
	return false
}

// geometric reports whether e is a loop's state that each iteration
// multiplies by a constant of at least 2 (b *= 2, b <<= 1): it takes
// one value per power, a few for any size an array can have.
func geometric(e *Expr) bool {
	if e.Kind != kIter || e.N < 0 {
		return false
	}
	e.Loop.sum.solve(e.Loop)
	if e.N >= len(e.Loop.next) {
		return false
	}
	nx := e.Loop.next[e.N]
	if nx == nil || nx.Kind != kOp || len(nx.Args) != 2 {
		return false
	}
	isSelf := func(a *Expr) bool { return a.Kind == kIter && a.Loop == e.Loop && a.N == e.N }
	switch nx.Op {
	case token.MUL:
		for i, a := range nx.Args {
			if c, ok := nx.Args[1-i].int64Of(); ok && c >= 2 && isSelf(a) {
				return true
			}
		}
	case token.SHL:
		c, ok := nx.Args[1].int64Of()
		return ok && c >= 1 && isSelf(nx.Args[0])
	}
	return false
}

// enumerate lists the constants e can be, by their exact text, when
// they are few and known: constants, and choices, loop exits and table
// elements made of them.
func (ev *evaluator) enumerate(e *Expr) (map[string]bool, bool) {
	out := map[string]bool{}
	var add func(e *Expr) bool
	add = func(e *Expr) bool {
		if vs := ev.values(e); vs.vals != nil {
			for _, v := range vs.vals {
				out[v.ExactString()] = true
			}
			return len(out) <= maxVals
		}
		var alts []*Expr
		switch e.Kind {
		case kSelect:
			alts = e.Args[1:3]
		case kChoice:
			alts = e.Args
		case kAtExit:
			alts = e.Args[:1]
		case kIndex:
			alts = elements(e.Args[0])
		}
		if alts == nil {
			return false
		}
		for _, a := range alts {
			if a == nil || !add(a) {
				return false
			}
		}
		return true
	}
	return out, add(e)
}

// formBound bounds the distinct values of e by its form.
func (ev *evaluator) formBound(e *Expr) (int64, bool) {
	if vs := ev.values(e); vs.vals != nil {
		return int64(len(vs.vals)), true
	}
	switch e.Kind {
	case kTuple, kSeq, kStruct:
		// A tuple, a struct literal or a slice whose elements are all
		// known: the product of its distinct parts' values.
		if n, ok := length(e).int64Of(); e.Kind == kSeq && (!ok || int64(len(e.Args)-1) != n) {
			return 0, false // a slice whose elements are not all known
		}
		total := int64(1)
		parts := map[string]bool{}
		for _, a := range e.Args {
			if a == nil {
				return 0, false
			}
			if parts[a.String()] {
				continue // the same value twice (a square crop): counted once
			}
			parts[a.String()] = true
			n, ok := ev.formBound(a)
			if !ok {
				return 0, false
			}
			total *= n
		}
		return total, true
	case kAtExit:
		if geometric(e.Args[0]) {
			return maxFew, true // a bucket by powers: one per power the data reach
		}
		return ev.formBound(e.Args[0]) // one of the values it takes in the loop
	case kShape:
		return ev.shapeBound(e.Args[0])
	case kOver:
		return ev.distinct(e.Loop, e.Args[0], e.Env)
	case kLoad:
		if el := elementOf(e); el != nil {
			return ev.formBound(el)
		}
	case kLen:
		if el := elementOf(e.Args[0]); el != nil {
			return ev.formBound(length(el))
		}
	case kField:
		if el := elementOf(e.Args[0]); el != nil {
			return ev.formBound(fieldOver(el, e.N))
		}
	case kOp:
		switch {
		case e.Op == token.REM && len(e.Args) == 2:
			if k, ok := ev.values(e.Args[1]).max(); ok && k > 0 {
				return k, true
			}
		case isComparison(e.Op) || e.Op == token.LAND || e.Op == token.LOR || e.Op == token.NOT:
			return 2, true
		case len(e.Args) == 2 && ev.values(e.Args[1]).known():
			n, ok := ev.formBound(e.Args[0])
			k := int64(len(ev.values(e.Args[1]).vals))
			return n * k, ok
		case len(e.Args) == 2 && ev.values(e.Args[0]).known():
			n, ok := ev.formBound(e.Args[1])
			k := int64(len(ev.values(e.Args[0]).vals))
			return n * k, ok
		}
	case kConv:
		return ev.formBound(e.Args[0])
	case kSelect:
		if vals, ok := ev.enumerate(e); ok {
			return int64(len(vals)), true // alternatives that share values
		}
		a, ok1 := ev.formBound(e.Args[1])
		b, ok2 := ev.formBound(e.Args[2])
		return a + b, ok1 && ok2
	case kChoice:
		if vals, ok := ev.enumerate(e); ok {
			return int64(len(vals)), true
		}
		var total int64
		for _, a := range e.Args {
			n, ok := ev.formBound(a)
			if !ok {
				return 0, false
			}
			total += n
		}
		return total, true
	case kIndex:
		if el := elementOf(e.Args[0]); el != nil {
			return ev.formBound(el)
		}
		if elems := elements(e.Args[0]); elems != nil {
			var total int64
			for _, a := range elems {
				n, ok := ev.formBound(a)
				if !ok {
					return 0, false
				}
				total += n
			}
			if k, ok := ev.formBound(e.Args[1]); ok && k < total {
				return k, true
			}
			return total, true
		}
	case kPure:
		if e.Name == bucketName {
			return maxFew, true // one per power the data reach
		}
		if e.Name == "min" || e.Name == "max" {
			// One of its operands' values: as many as theirs together.
			var total int64
			for _, a := range e.Args {
				n, ok := ev.formBound(a)
				if !ok {
					return 0, false
				}
				total += n
			}
			return total, true
		}
	}
	return 0, false
}

func isComparison(tok token.Token) bool {
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// varies reports whether e may change from one iteration of l to the
// next: it reads the state of l (or of a loop inside it), or a fresh value
// made in l (data read, a draw, a call whose result is not known).
func varies(l *Loop, e *Expr) bool {
	return e.mentions(func(a *Expr) bool {
		switch a.Kind {
		case kIter:
			return a.Loop.within(l)
		case kFresh:
			if adv, ok := a.Site.(advance); ok {
				return l.sum.f.advances(l, adv)
			}
			if instr, ok := a.Site.(ssa.Instruction); ok && instr.Block() != nil {
				return instr.Parent() == l.fn && l.contains(instr.Block())
			}
		case kPtr:
			return l.sum.f.allocVaries(l, a)
		case kAtExit, kOver:
			return a.Loop.within(l) && a.Loop != l
		}
		return false
	})
}
