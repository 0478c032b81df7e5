package traced

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/ssa"
)

// Static arguments and shapes: a jitted function compiles once per
// signature, so a call whose static argument (or array shape) takes a new
// value on every run compiles on every run. How many values a value takes
// over the runs of a call is one question for both: over the iterations of
// the loops around the call (in its function, or in the callers that run
// it), counted by the loop's evaluation; a value that repeats (a few
// values, fewer than the iterations, or at most half as many) gives a few
// compiles and then cache hits.

// A JittedCall is a call of a jitted function: f.Call(...).
type JittedCall struct {
	// Call is the call, JitCall the jit.Jit call that made the wrapper
	// (nil when not known: a wrapper from a cache).
	Call, JitCall *ast.CallExpr
	// Static are the static argument indexes, StaticKnown false when the
	// options come from elsewhere, StaticOpt the jit.StaticArgnums call.
	Static      []int
	StaticKnown bool
	StaticOpt   *ast.CallExpr
	// fn is the jitted function (nil when not known), wrapper the
	// wrapper called, as the caller sees it.
	fn      *ssa.Function
	wrapper *Expr
	instr   ssa.CallInstruction
	site    *callSite
	r       *Result
}

// JittedCalls returns the calls of jitted functions of the package, in
// source order.
func (r *Result) JittedCalls() []*JittedCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*JittedCall
	seen := map[ssa.Instruction]bool{}
	for _, fn := range r.flow.funcs {
		s := r.flow.summary(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() != nil || call.Common().IsInvoke() || seen[instr] {
					continue
				}
				vals := r.flow.calleeValues(s, fn, call.Common().Value, b)
				if !slices.ContainsFunc(vals, func(v *Expr) bool { return v.Kind == kFunc && v.Name == "jit.Call" }) && wrapperCall(call.Common().Value) {
					// The Call of a wrapper not known here (read from a
					// field or a map): its arguments are still a jitted
					// call's; its options are not known.
					if expr := r.callAt(call); expr != nil {
						seen[instr] = true
						out = append(out, &JittedCall{Call: expr, instr: call, r: r})
					}
					continue
				}
				for _, v := range vals {
					if v.Kind != kFunc || v.Name != "jit.Call" || seen[instr] {
						continue
					}
					expr := r.callAt(call)
					if expr == nil {
						continue
					}
					seen[instr] = true
					w := v.Args[0]
					jc := &JittedCall{Call: expr, instr: call, r: r, StaticKnown: true, wrapper: w}
					if w.Kind == kWrapper {
						if site, ok := w.Site.(ssa.CallInstruction); ok {
							jc.JitCall = r.callAt(site)
							if len(w.Args) > 1 {
								jc.Static, jc.StaticKnown = r.flow.staticArgnums(site.Parent(), w.Args[1])
								jc.StaticOpt = r.staticOpt(jc.JitCall)
							}
						}
						for _, fv := range alternatives(unwrapIface(w.Args[0])) {
							if fv.Kind == kFunc && fv.Fn != nil {
								jc.fn = fv.Fn
							}
						}
					}
					out = append(out, jc)
				}
			}
		}
	}
	sortByPos(out, func(j *JittedCall) token.Pos { return j.Call.Pos() })
	return out
}

// wrapperCall reports whether v is the Call field of a jit.Func.
func wrapperCall(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		return ok && x.Op == token.MUL && fa.Field == 0 && jitapi.IsFunc(fa.X.Type())
	case *ssa.Field:
		return x.Field == 0 && jitapi.IsFunc(x.X.Type())
	}
	return false
}

// calleeValues lists the function values a call of v in fn may call: as fn
// sees them, and, when that is no jitted function and v depends on fn's
// atoms (s.f.Call of a receiver s), the jitted functions it is with fn's
// parameters and free variables bound at each place that runs fn (one
// caller up, as buildCallers resolves such calls: a wrapper a goroutine's
// closure captures).
func (f *flow) calleeValues(s *summary, fn *ssa.Function, v ssa.Value, b *ssa.BasicBlock) []*Expr {
	callee := s.operand(v, b)
	vals := alternatives(callee)
	isJitCall := func(e *Expr) bool { return e.Kind == kFunc && e.Name == "jit.Call" }
	if slices.ContainsFunc(vals, isJitCall) || !callee.mentions(func(a *Expr) bool { return isAtomOf(a, fn) }) {
		return vals
	}
	for _, up := range f.callSites(fn) {
		bound := alternatives(f.subst(callee, &Env{Fn: fn, Params: up.args, Frees: up.frees}))
		vals = append(vals, slices.DeleteFunc(bound, func(e *Expr) bool { return !isJitCall(e) })...)
	}
	return vals
}

// staticOpt returns the jit.StaticArgnums call among a jit.Jit call's options.
func (r *Result) staticOpt(jit *ast.CallExpr) *ast.CallExpr {
	if jit == nil {
		return nil
	}
	for _, a := range jit.Args[1:] {
		if c, ok := ast.Unparen(a).(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "StaticArgnums" {
				return c
			}
		}
	}
	return nil
}

// IsStatic reports whether argument k is static.
func (j *JittedCall) IsStatic(k int) bool { return containsInt(j.Static, k) }

// ParamName names parameter k of the jitted function ("" when not known).
func (j *JittedCall) ParamName(k int) string {
	if j.fn == nil || k >= len(j.fn.Params) {
		return ""
	}
	if n := j.fn.Params[k].Name(); n != "_" && !strings.HasPrefix(n, "t") || j.fn.Syntax() != nil {
		return n
	}
	return ""
}

// ParamType is the type of parameter k of the jitted function (nil when
// not known).
func (j *JittedCall) ParamType(k int) types.Type {
	sig := j.instr.Common().Signature()
	if k < sig.Params().Len() {
		return sig.Params().At(k).Type()
	}
	return nil
}

// A Churn says that a value takes a new value on every run of a call.
type Churn struct {
	// Trips is the number of iterations of the loop (when Known).
	Trips int64
	Known bool
	// Distinct is the number of distinct values over those iterations
	// (when DistinctKnown).
	Distinct      int64
	DistinctKnown bool
	// Source is the clock or random function the value comes from ("" for
	// a value the loop changes).
	Source string
	// Loop is the loop whose iterations change the value (nil for a clock
	// or a draw outside loops).
	Loop ast.Stmt
	// Handler names the HTTP handler whose requests change the value
	// (net/http runs it once per request), when no loop does.
	Handler string
}

// ArgChurn reports whether argument k of the call (or the part of it that
// path selects, fields of a struct) takes a new value on every run, beyond
// a few values that repeat.
func (j *JittedCall) ArgChurn(k int, path []int) *Churn {
	j.r.mu.Lock()
	defer j.r.mu.Unlock()
	f := j.r.flow
	if k >= len(j.instr.Common().Args) {
		return nil
	}
	s := f.summary(j.instr.Parent())
	e := s.operand(j.instr.Common().Args[k], j.instr.Block())
	if len(path) > 0 && e.Kind == kPtr {
		e = s.loadAt(e, j.instr) // a pointer argument: the fields it points to, as the call sees them
	}
	t := j.ParamType(k)
	for _, i := range path {
		e = field(e, i)
		if t != nil {
			t = fieldType(t, i)
		}
	}
	c := j.r.churn(j.instr, e, maxUpDepth, j.wrapper)
	if c != nil && !c.DistinctKnown && c.Source == "" && isLabel(t) && (received(e) || c.Handler != "") {
		// A string or bool read from each message received or each request
		// served, whose values are not known (a mode, a topic): labels take
		// a few values; not known to churn.
		return nil
	}
	return c
}

// received reports whether what e is made of that is not known comes from
// channel receives.
func received(e *Expr) bool {
	some, others := false, false
	e.walk(func(a *Expr) bool {
		if a.Kind == kFresh {
			u, ok := a.Site.(*ssa.UnOp)
			if ok && u.Op == token.ARROW {
				some = true
			} else {
				others = true
			}
		}
		return true
	})
	return some && !others
}

// isLabel reports whether t is a string or bool type: a label, such as a
// mode or a topic, when it comes from data.
func isLabel(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsString|types.IsBoolean) != 0
}

// fieldType is the type of field i of the struct (or pointer to struct) t,
// or nil.
func fieldType(t types.Type, i int) types.Type {
	if st, ok := structOf(t); ok && i < st.NumFields() {
		return st.Field(i).Type()
	}
	return nil
}

// ShapeChurn reports whether the dims of array argument k take a new value
// on every run, beyond a few that repeat.
func (j *JittedCall) ShapeChurn(k int) *Churn {
	j.r.mu.Lock()
	defer j.r.mu.Unlock()
	f := j.r.flow
	if k >= len(j.instr.Common().Args) {
		return nil
	}
	s := f.summary(j.instr.Parent())
	e := s.operand(j.instr.Common().Args[k], j.instr.Block())
	sh := f.leafShapes(e, j.instr.Common().Args[k].Type(), 0)
	if sh == nil {
		return nil
	}
	return j.r.churn(j.instr, sh, maxUpDepth, j.wrapper)
}

// leafShapes is a value that is the same when the shapes of the arrays of
// x, a value of type t, are: an array's shape, or the tuple of the shapes
// of a pytree's array fields (nil when t holds no arrays).
func (f *flow) leafShapes(x *Expr, t types.Type, depth int) *Expr {
	if jitapi.IsArray(t) {
		sh := shapeTuple(x)
		if base := projRoot(x); sh.Kind == kShape && base.Kind == kIter && base.N >= 0 {
			if d := f.newEvaluator().arrayDims(x); d != nil {
				return node(kTuple, d...) // its dims at each iteration
			}
			// A loop's array state of dims not known as a whole: after the
			// first iteration it has the dims of what the body makes of it.
			base.Loop.sum.solve(base.Loop)
			next := f.substIters(x, map[atomKey]*Expr{keyOf(base): base.Loop.next[base.N]})
			if d := f.newEvaluator().arrayDims(next); d != nil {
				sh = node(kTuple, d...)
			}
		}
		return sh
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return nil
	}
	var leaves []*Expr
	for i := range st.NumFields() {
		if jitapi.IsStaticTag(st.Tag(i)) {
			continue // part of the signature, which staticargs checks
		}
		if l := f.leafShapes(field(x, i), st.Field(i).Type(), depth+1); l != nil {
			leaves = append(leaves, l)
		}
	}
	if leaves == nil {
		return nil
	}
	return node(kTuple, leaves...)
}

// shapeTuple is a value that is the same when the shape of x is.
func shapeTuple(x *Expr) *Expr {
	if d := dimsOf(x); d != nil {
		return node(kTuple, d...)
	}
	return shapeOf(x)
}

// churn decides whether e, a value at instr, changes on every run of
// instr: over the loops around it, then over those around the calls that
// run its function (up to depth callers), as long as the wrapper w that
// instr calls keeps its cache (a wrapper made anew on each iteration of a
// loop starts each one with an empty cache: what changes over that loop
// is not what makes it compile).
func (r *Result) churn(instr ssa.Instruction, e *Expr, depth int, w *Expr) *Churn {
	f := r.flow
	s := f.summary(instr.Parent())
	e = f.settled(e, maxKeptNesting)
	if fn := instr.Parent(); len(fn.Blocks) > 0 {
		var facts []*Expr
		for _, c := range s.pathFacts(fn.Blocks[0], instr.Block()) {
			facts = append(facts, conjuncts(c)...)
		}
		e = f.underFacts(e, facts) // what the branches around the call decide (a size chosen by a flag it tests)
	}
	inner, innerKnown := int64(1), true // the calls each iteration of l makes: the trips of the loops inside it
	for l := s.loopOf[instr.Block()]; l != nil; l = l.parent {
		if madeEachRun(w, instr.Parent(), l) {
			return nil
		}
		ev := f.newEvaluator()
		if !varies(l, e) {
			n, ok := ev.trips(l, nil)
			inner, innerKnown = inner*n, innerKnown && ok
			continue
		}
		t, known := ev.trips(l, nil)
		calls, callsKnown := t*inner, known && innerKnown
		k, bounded, exact := f.newEvaluator().count(l, varyingParts(l, e), nil) // a question of its own: the trips may have spent ev's fuel
		switch {
		case known && (!bounded || k > t) && repeats(t, calls, callsKnown):
			return nil // at most one value per trip of l, each repeated by the loops inside
		case bounded && exact && !known && ev.newPerElement(e):
			// a new value at each element read: churn however long the loop
		case bounded && repeats(k, calls, callsKnown), bounded && !exact && k <= maxFew:
			return nil // a few values (each iteration one of a few: buckets)
		case !bounded && !known && f.capped(l, e):
			return nil // not known to change (capped by a min or max; over trips that are known, as many as they are)
		case !bounded && tableEntry(l, e):
			return nil // entries of a table the loop keeps (a bucket list searched): as many as the table, however many calls
		case !bounded && unknownShape(e):
			// A shape whose dims are not known here: known, perhaps, once
			// the function values and arrays it is made from are bound (a
			// helper that converts each item with the function it is given).
			return r.churnBound(instr, e, depth, w)
		}
		if bounded && exact && repeatsAround(ev, l, e, k, calls, callsKnown) {
			return nil // the same few values again on each iteration of a loop around
		}
		// Too many values to repeat: when each iteration can take several of
		// them (a loop inside that stops on a test not known here), how
		// many it takes is not known, only that it can be a new one each time.
		return &Churn{Trips: t, Known: known, Distinct: k, DistinctKnown: bounded && exact, Source: clockOrRand(e), Loop: l.Stmt}
	}
	if src := clockOrRand(e); src != "" && !fewByForm(e) {
		return &Churn{Source: src}
	}
	if depth == 0 || madeEachRun(w, instr.Parent(), nil) {
		return nil
	}
	if h := f.servingHandler(instr.Parent(), 0); h != nil && f.perRequest(e, h) {
		ev := f.newEvaluator()
		if k, ok := ev.formBound(e); ok && k <= maxFew {
			return nil // a few values (a bucket), whatever the request
		}
		return &Churn{Handler: r.displayName(h)}
	}
	for _, cs := range f.callSites(instr.Parent()) {
		if cs.jitted != nil {
			continue
		}
		env := &Env{Fn: instr.Parent(), Params: cs.args, Frees: cs.frees}
		if c := r.churn(cs.instr, f.subst(e, env), depth-1, substOrNil(f, w, env)); c != nil {
			return c
		}
	}
	return nil
}

// tableEntry reports whether e, on each iteration of l, is an entry of a
// sequence that l does not change, read at an index that does not walk l
// or step through it (a bucket that a search finds, the last entry, one
// the data pick; not a position that moves on each call), or
// a tuple of such entries and parts that l keeps: its values are at most
// the table's, however many times l runs.
func tableEntry(l *Loop, e *Expr) bool {
	switch e.Kind {
	case kTuple:
		return !slices.ContainsFunc(e.Args, func(a *Expr) bool { return a != nil && varies(l, a) && !tableEntry(l, a) })
	case kSelect:
		return entryOrSame(l, e.Args[1]) && entryOrSame(l, e.Args[2])
	case kChoice:
		return !slices.ContainsFunc(e.Args, func(a *Expr) bool { return !entryOrSame(l, a) })
	case kAtExit:
		return tableEntry(l, e.Args[0])
	case kIndex:
		return len(e.Args) == 2 && entryRead(l, e.Args[0], e.Args[1])
	case kLoad:
		p := e.Args[0]
		return p.Kind == kPtr && p.Site == nil && p.Name == "elem" && len(p.Args) == 2 && entryRead(l, p.Args[0], p.Args[1])
	}
	return false
}

// entryOrSame reports whether e is the same on every iteration of l or an
// entry of a table (see tableEntry).
func entryOrSame(l *Loop, e *Expr) bool {
	return !varies(l, e) || tableEntry(l, e)
}

// entryRead reports whether reading seq at index i on each iteration of l
// reads an entry of a table that l does not change, at an index that does
// not walk l or step through it.
func entryRead(l *Loop, seq, i *Expr) bool {
	walks := i.mentions(func(a *Expr) bool {
		adv, moves := a.Site.(advance) // a position that each call moves on
		return a.Kind == kIter && a.Loop == l || a.Kind == kFresh && moves && l.sum.f.advances(l, adv)
	})
	return !varies(l, seq) && !walks
}

// varyingParts is e without the parts of a tuple (a shape's dims, a
// pytree's leaves) that are the same on every iteration of l: they add no
// values to count.
func varyingParts(l *Loop, e *Expr) *Expr {
	if e.Kind != kTuple {
		return e
	}
	parts := slices.DeleteFunc(slices.Clone(e.Args), func(a *Expr) bool { return !varies(l, a) })
	if len(parts) == len(e.Args) {
		return e
	}
	return node(kTuple, parts...)
}

// madeEachRun reports whether the wrapper w is made anew on each iteration
// of the loop l of fn (nil: on each run of fn), with a cache of its own:
// by a jit.Jit call in it, or of a function value that changes over it, of
// a function that is not one whose wrappers share a cache.
func madeEachRun(w *Expr, fn *ssa.Function, l *Loop) bool {
	if w == nil || w.Kind != kWrapper || len(w.Args) == 0 || sharesCache(w.Args[0]) {
		return false
	}
	if site, ok := w.Site.(ssa.Instruction); ok && site.Parent() == fn && site.Block() != nil {
		if l == nil || l.contains(site.Block()) {
			return true
		}
	}
	return l != nil && varies(l, w.Args[0])
}

// substOrNil is w with fn's atoms bound by env (nil for nil).
func substOrNil(f *flow, w *Expr, env *Env) *Expr {
	if w == nil {
		return nil
	}
	return f.subst(w, env)
}

// churnBound is churn of e, a shape not known in its function, with the
// parameters and free variables of that function bound at each of its
// calls, where that makes it known.
func (r *Result) churnBound(instr ssa.Instruction, e *Expr, depth int, w *Expr) *Churn {
	if depth == 0 {
		return nil
	}
	f := r.flow
	fn := instr.Parent()
	if !e.mentions(func(a *Expr) bool { return isAtomOf(a, fn) && a.Kind != kIter }) {
		return nil
	}
	for _, cs := range f.callSites(fn) {
		if cs.jitted != nil {
			continue
		}
		bound := f.subst(e, &Env{Fn: fn, Params: cs.args, Frees: cs.frees})
		if unknownShape(bound) {
			continue
		}
		if c := r.churn(instr, bound, depth-1, w); c != nil {
			return c
		}
	}
	return nil
}

// unknownShape reports whether e is a shape whose dims are not known, or
// a pytree's tuple of shapes with such a leaf.
func unknownShape(e *Expr) bool {
	switch e.Kind {
	case kShape:
		return true
	case kTuple:
		return slices.ContainsFunc(e.Args, func(a *Expr) bool { return a.Kind == kShape || a.Kind == kTuple && unknownShape(a) })
	}
	return false
}

// repeatsAround reports whether the k values e takes over l, calls calls,
// repeat over the loops around l: the calls multiply by their trips, the
// values only by what e takes over them (a day loop around a loop over
// six customers in three regions: three compiles for thirty calls).
func repeatsAround(ev *evaluator, l *Loop, e *Expr, k, calls int64, known bool) bool {
	for p := l.parent; p != nil; p = p.parent {
		t, ok := ev.trips(p, nil)
		calls, known = calls*t, known && ok
		if varies(p, e) {
			n, bounded, _ := ev.count(p, e, nil)
			if !bounded {
				return false
			}
			k = n
		}
		if repeats(k, calls, known) {
			return true
		}
	}
	return false
}

// maxFew is the largest number of distinct values that is "a few
// compiles" when the number of iterations is not known.
const maxFew = 8

// repeats reports whether k values over t iterations repeat enough that
// most calls hit the cache: churn is at least two recompiles (a second
// value is one), with a compile for at least every other call; the
// corpus's oracle counts it the same way.
func repeats(k, t int64, known bool) bool {
	if !known {
		return k <= maxFew
	}
	return k <= 2 || 2*k < t
}

// clockOrRand returns the clock or random function e's value comes from
// ("time.Now", "rand.Intn"), or "".
func clockOrRand(e *Expr) string {
	found := ""
	e.mentions(func(a *Expr) bool {
		if a.Kind != kFresh {
			return false
		}
		call, ok := a.Site.(ssa.CallInstruction)
		if !ok {
			return false
		}
		callee := call.Common().StaticCallee()
		if callee == nil || callee.Pkg == nil {
			return false
		}
		switch path := callee.Pkg.Pkg.Path(); {
		case path == "time" && callee.Signature.Recv() == nil:
			found = "time." + callee.Name()
		case path == "math/rand" || path == "math/rand/v2":
			found = "rand." + callee.Name()
		}
		return found != ""
	})
	return found
}

// fewByForm reports whether e's form bounds it to a few values whatever
// it is made from (a bool).
func fewByForm(e *Expr) bool {
	return e.Kind == kOp && (isComparison(e.Op) || e.Op == token.NOT || e.Op == token.LAND || e.Op == token.LOR)
}
