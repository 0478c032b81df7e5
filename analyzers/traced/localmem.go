package traced

import (
	"go/token"
	"go/types"

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
	ptr  *Expr
}

// loadAt is the value a load at instr reads through the pointer p; a
// struct is read field by field (cfg.Momentum = mo, then cfg).
func (s *summary) loadAt(p *Expr, instr ssa.Instruction) *Expr {
	if !s.ownPlace(p) {
		return s.f.load(p)
	}
	if t := typeAt(baseType(p.Site), p.Args); t != nil && len(p.Args) < 3 && !opaque(t) {
		if st, ok := t.Underlying().(*types.Struct); ok {
			fields := make([]*Expr, st.NumFields())
			for i := range fields {
				q := *p
				q.Args = append(append([]*Expr(nil), p.Args...), intConst(int64(i)))
				fields[i] = s.loadAt(&q, instr)
			}
			return node(kStruct, fields...)
		}
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
	return addressUse(a, false, func(ref ssa.Instruction, v ssa.Value) bool {
		switch u := ref.(type) {
		case ssa.CallInstruction:
			return !readOnlyArg(u, v)
		case *ssa.UnOp, *ssa.DebugRef:
			return false
		case *ssa.Store:
			return u.Val == v // the address itself is stored
		}
		return true
	}) != nil
}

// addressUse returns the first use of the address a, or of the address of
// a part of it (a field, an element; with conversions, also the address
// made an interface or converted), that found reports, or nil.
func addressUse(a ssa.Value, conversions bool, found func(ref ssa.Instruction, v ssa.Value) bool) ssa.Instruction {
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value) ssa.Instruction
	visit = func(v ssa.Value) ssa.Instruction {
		if seen[v] {
			return nil
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			part := false
			switch ref.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr:
				part = true
			case *ssa.MakeInterface, *ssa.ChangeType, *ssa.Convert:
				part = conversions
			}
			if part {
				if use := visit(ref.(ssa.Value)); use != nil {
					return use
				}
			} else if found(ref, v) {
				return ref
			}
		}
		return nil
	}
	return visit(a)
}

// readOnlyArg reports whether a call only reads the memory v points to: a
// call of a jitted function (its body runs at trace time only), or of a
// function of the package that stores nothing through that parameter.
func readOnlyArg(call ssa.CallInstruction, v ssa.Value) bool {
	com := call.Common()
	if com.StaticCallee() == nil {
		return wrapperCall(com.Value) // f.Call(...) of a *jit.Func
	}
	fn := com.StaticCallee()
	if fn.Blocks == nil {
		return false
	}
	for i, a := range com.Args {
		if a == v && i < len(fn.Params) && len(*fn.Params[i].Referrers()) > 0 {
			for _, ref := range *fn.Params[i].Referrers() {
				switch ref.(type) {
				case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Store, ssa.CallInstruction:
					return false
				}
			}
		}
	}
	return true
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
		if instrs[i] == p.Site {
			// The allocation itself: memory starts as the zero value
			// (var m Model before a loop appends to m.Blocks).
			if t := typeAt(baseType(p.Site), p.Args); t != nil {
				return zeroOf(t), true
			}
			return nil, false
		}
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
	fromPred := func(pred *ssa.BasicBlock) (*Expr, bool) {
		v, ok := s.valueBefore(p, pred, nil, busy)
		// Leaving a loop: its value when the loop is done.
		for l := s.loopOf[pred]; ok && l != nil && !l.contains(b); l = l.parent {
			v = atExit(l, v)
		}
		return v, ok
	}
	if len(preds) == 1 {
		return fromPred(preds[0])
	}
	d := b.Idom()
	alts := make([]*Expr, len(preds))
	conds := make([]*Expr, len(preds))
	for i, pred := range preds {
		v, ok := fromPred(pred)
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
// the current iteration. Its init (the value before the loop) and next
// (the value at the end of the body) are worked out when the loop is
// solved next (resolveMems), not here: the load that asks may be the one
// the body's store reads.
func (s *summary) memIter(l *Loop, p *Expr) *Expr {
	s.solve(l)
	key := memPhi{base: p.Site, path: p.String()}
	for i, m := range l.mems {
		if m.base == key.base && m.path == key.path {
			return iter(l, len(l.phis)+i)
		}
	}
	key.ptr = p
	l.mems = append(l.mems, key)
	l.init = append(l.init, nil)
	l.next = append(l.next, nil)
	l.closed = append(l.closed, nil)
	return iter(l, len(l.init)-1)
}

// resolveMems works out the init and next of the memory phis of l not
// done yet.
func (s *summary) resolveMems(l *Loop) {
	for i := range l.mems {
		k := len(l.phis) + i
		if l.init[k] != nil {
			continue
		}
		p := l.mems[i].ptr
		self := iter(l, k)
		l.init[k], l.next[k] = unknown, self // while being worked out
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
		var outs []*Expr
		for _, latch := range s.latches(l) {
			v, ok := s.valueBefore(p, latch, nil, map[*ssa.BasicBlock]bool{})
			if !ok {
				v = unknown
			}
			outs = append(outs, v)
		}
		l.init[k], l.next[k] = choice(ins...), choice(outs...)
		if step := op(token.SUB, l.next[k], self); step.Kind != kUnknown && !mentionsLoop(step, l) {
			l.closed[k] = op(token.ADD, l.init[k], op(token.MUL, iterNum(l), step))
		}
	}
}
