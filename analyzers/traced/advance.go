package traced

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// State that code advances: a store whose value reads the place it writes
// (l.pos++, r.start = (r.start + n) % k, rsCursor++) gives the place a new
// value each time it runs, in whatever function it is. What a load reads
// there is then "the place after some number of runs of the store" (an
// advance), which changes over a loop's iterations when the loop runs the
// store (directly, or through the calls it makes: a loader's Next) and the
// object is not made anew in each iteration (then its state starts over
// each time, and its values come from the stores that set it up).

// advance is the fresh value a self-updating store leaves at its place.
type advance struct{ st *ssa.Store }

// selfUpdate reports whether st's value is computed from what its address
// held before (through arithmetic and conversions in its function).
func selfUpdate(st *ssa.Store) bool {
	seen := map[ssa.Value]bool{}
	var reads func(v ssa.Value, depth int) bool
	reads = func(v ssa.Value, depth int) bool {
		if depth > 8 || seen[v] {
			return false
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL {
				return sameAddress(x.X, st.Addr)
			}
			return reads(x.X, depth+1)
		case *ssa.BinOp:
			return reads(x.X, depth+1) || reads(x.Y, depth+1)
		case *ssa.Convert:
			return reads(x.X, depth+1)
		case *ssa.ChangeType:
			return reads(x.X, depth+1)
		case *ssa.Call:
			if b, ok := x.Call.Value.(*ssa.Builtin); ok && (b.Name() == "min" || b.Name() == "max") {
				for _, a := range x.Call.Args {
					if reads(a, depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	return reads(st.Val, 0)
}

// advances reports whether the advance a (a fresh value of a
// self-updating store) may differ between iterations of l.
func (f *flow) advances(l *Loop, a advance) bool {
	key := loopQuestion{l, a.st}
	if v, ok := f.asked[key]; ok {
		return v
	}
	f.asked[key] = false // a cycle: not from here
	v := f.advancesIn(l, a)
	f.asked[key] = v
	return v
}

// loopQuestion is a question about a loop and a site, remembered.
type loopQuestion struct {
	l    *Loop
	site any
}

func (f *flow) advancesIn(l *Loop, a advance) bool {
	s := f.summary(a.st.Parent())
	for _, p := range pointers(s.operand(a.st.Addr, a.st.Block())) {
		if base, ok := p.Site.(ssa.Instruction); ok && base.Parent() == l.fn && base.Block() != nil && l.contains(base.Block()) {
			return false // made anew in each iteration: its state starts over
		}
	}
	return f.runsIn(l, a.st.Parent(), a.st.Block(), 0)
}

// runsIn reports whether the code of block b of fn runs in the iterations
// of l: b is in l, or fn is called from l (through up to maxUpDepth calls).
func (f *flow) runsIn(l *Loop, fn *ssa.Function, b *ssa.BasicBlock, depth int) bool {
	if fn == l.fn {
		return b != nil && l.contains(b)
	}
	if depth > maxUpDepth {
		return false
	}
	for _, cs := range f.callSites(fn) {
		if f.runsIn(l, cs.caller, cs.instr.Block(), depth+1) {
			return true
		}
	}
	return false
}

// allocVaries reports whether an object that l makes anew in each
// iteration (the base of pointer p) holds values that differ between
// iterations: one of the stores that set it up does.
func (f *flow) allocVaries(l *Loop, p *Expr) bool {
	base, ok := p.Site.(ssa.Instruction)
	if !ok || base.Parent() != l.fn || base.Block() == nil || !l.contains(base.Block()) {
		return false
	}
	key := loopQuestion{l, p.Site}
	if v, ok := f.asked[key]; ok {
		return v
	}
	f.asked[key] = false // a cycle: not from here
	v := f.storesVary(l, p)
	f.asked[key] = v
	return v
}

func (f *flow) storesVary(l *Loop, p *Expr) bool {
	for _, st := range f.mem.storesAt(p.Site) {
		if st.val.Kind == kFresh {
			if _, ok := st.val.Site.(advance); ok {
				continue // state the object's own code advances from its start
			}
		}
		if varies(l, st.val) {
			return true
		}
	}
	return false
}
