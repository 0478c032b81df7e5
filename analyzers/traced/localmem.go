package traced

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Memory a function allocates itself is read flow-sensitively: a load sees
// the store that last wrote the place on the way to it (cfg.Len = 48, then
// cfg.Len), the branches' stores where control joins (a Select by the path
// conditions), and in a loop whose body writes the place, the loop's state
// for it — a memory phi that runs like the loop's other phis
// (hp.Temp *= 0.9 is a new value on every iteration; halved only when
// step%10 == 0, three values over thirty steps).

// memPhi is a place that a loop's body writes: one more state of the loop.
type memPhi struct {
	base any
	path string
}

// loadAt is the value a load at instr reads through the pointer p.
func (s *summary) loadAt(p *Expr, instr ssa.Instruction) *Expr {
	if !s.ownPlace(p) {
		return s.f.load(p)
	}
	if v, ok := s.valueBefore(p, instr.Block(), instr, map[*ssa.BasicBlock]bool{}); ok {
		return v
	}
	return s.f.load(p)
}

// ownPlace reports whether p points into memory the summary's function
// allocates (an Alloc of it, not escaping through a call).
func (s *summary) ownPlace(p *Expr) bool {
	if p.Kind != kPtr || p.Env != nil {
		return false
	}
	a, ok := p.Site.(*ssa.Alloc)
	return ok && a.Parent() == s.fn && !escapes(a)
}

// escapes reports whether an allocation's address leaves the function's
// own loads and stores (passed to a call, captured, stored elsewhere).
func escapes(a *ssa.Alloc) bool {
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value) bool
	visit = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch u := ref.(type) {
			case *ssa.FieldAddr:
				if visit(u) {
					return true
				}
			case *ssa.IndexAddr:
				if visit(u) {
					return true
				}
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.Store:
				if u.Val == v {
					return true // the address itself is stored
				}
			default:
				return true
			}
		}
		return false
	}
	return visit(a)
}

// valueBefore is the value of place p just before instr in block b (nil
// instr: at the end of b): the last store to it in b before instr, or the
// value at the end of b's dominating predecessors, joined by their path
// conditions; at a loop header, the loop's state for it. ok is false when
// a store writes part of it, or the place is not followed.
func (s *summary) valueBefore(p *Expr, b *ssa.BasicBlock, instr ssa.Instruction, busy map[*ssa.BasicBlock]bool) (*Expr, bool) {
	instrs := b.Instrs
	if instr != nil {
		for i, x := range instrs {
			if x == instr {
				instrs = instrs[:i]
				break
			}
		}
	}
	for i := len(instrs) - 1; i >= 0; i-- {
		st, ok := instrs[i].(*ssa.Store)
		if !ok || addrRoot(st.Addr) != p.Site {
			continue
		}
		q := s.operand(st.Addr, b)
		if q.Kind != kPtr || q.Site != p.Site {
			return nil, false
		}
		switch rel := relation(q.Args, p.Args); rel {
		case samePlace:
			return s.operand(st.Val, b), true
		case enclosing:
			v, _ := project(placed{path: q.Args, val: s.operand(st.Val, b)}, p.Args, baseType(p.Site))
			return v, true
		case partOf, unsure:
			return nil, false
		}
	}
	preds := b.Preds
	if l := s.loopOf[b]; l != nil && l.header == b {
		if s.storesIn(l, p) {
			return s.memIter(l, p), true
		}
		preds = outsidePreds(l) // the loop does not write it: as before the loop
	}
	if busy[b] || len(preds) == 0 {
		return nil, false
	}
	busy[b] = true
	defer delete(busy, b)
	if len(preds) == 1 {
		return s.valueBefore(p, preds[0], nil, busy)
	}
	d := b.Idom()
	alts := make([]*Expr, len(preds))
	conds := make([]*Expr, len(preds))
	for i, pred := range preds {
		v, ok := s.valueBefore(p, pred, nil, busy)
		if !ok {
			return nil, false
		}
		alts[i] = v
		if d != nil {
			conds[i] = and(s.pathCond(d, pred), s.edgeCond(pred, b))
		}
	}
	out := alts[len(alts)-1]
	for i := len(alts) - 2; i >= 0; i-- {
		if conds[i] == nil || conds[i] == exprTrue {
			return choice(alts...), true
		}
		out = sel(conds[i], alts[i], out)
	}
	return out, true
}

// The relation of a store's path to a load's.
const (
	elsewhere = iota
	samePlace
	enclosing // the store writes a whole that holds the place
	partOf    // the store writes part of the place
	unsure    // an element index not known
)

func relation(store, load []*Expr) int {
	n := min(len(store), len(load))
	for i := 0; i < n; i++ {
		x, ok1 := store[i].int64Of()
		y, ok2 := load[i].int64Of()
		if !ok1 || !ok2 {
			return unsure
		}
		if x != y {
			return elsewhere
		}
	}
	switch {
	case len(store) == len(load):
		return samePlace
	case len(store) < len(load):
		return enclosing
	}
	return partOf
}

// storesIn reports whether l's body writes place p.
func (s *summary) storesIn(l *Loop, p *Expr) bool {
	for _, st := range s.f.mem.byRoot[p.Site.(ssa.Value)] {
		if st.Parent() == s.fn && l.contains(st.Block()) {
			q := s.operand(st.Addr, st.Block())
			if q.Kind == kPtr && relation(q.Args, p.Args) != elsewhere {
				return true
			}
		}
	}
	return false
}

// memIter is the loop state for place p of l: its value at the start of
// the current iteration. Its init is the value before the loop, its next
// the value at the end of the body.
func (s *summary) memIter(l *Loop, p *Expr) *Expr {
	s.solve(l)
	key := memPhi{p.Site, p.String()}
	for i, m := range l.mems {
		if m == key {
			return iter(l, len(l.phis)+i)
		}
	}
	k := len(l.init)
	l.mems = append(l.mems, key)
	self := iter(l, k)
	l.init = append(l.init, unknown)
	l.next = append(l.next, self)
	l.closed = append(l.closed, nil)
	var ins []*Expr
	for _, pred := range l.header.Preds {
		if l.contains(pred) {
			continue
		}
		v, ok := s.valueBefore(p, pred, nil, map[*ssa.BasicBlock]bool{})
		if !ok {
			v = s.f.load(p)
		}
		ins = append(ins, v)
	}
	l.init[k] = choice(ins...)
	var outs []*Expr
	for _, latch := range s.latches(l) {
		v, ok := s.valueBefore(p, latch, nil, map[*ssa.BasicBlock]bool{})
		if !ok {
			v = unknown
		}
		outs = append(outs, v)
	}
	l.next[k] = choice(outs...)
	if step := op(token.SUB, l.next[k], self); step.Kind != kUnknown && !mentionsLoop(step, l) {
		l.closed[k] = op(token.ADD, l.init[k], op(token.MUL, iterNum(l), step))
	}
	return self
}
