package traced

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A Loop is a natural loop of a function's SSA form: a header block and
// the blocks that return to it. Its header phis are its state: Init is
// what they hold on entry, Next what the back edges give them, both as
// expressions (Next over the loop's Iter atoms). The loop runs iteration
// k when Enter holds (k = 0) and Pre holds at state k; it goes on to k+1
// when Post holds at state k. These three conditions, and the expressions
// of the values computed in the body (over the Iter atoms), are all the
// analysis needs to count trips, to tell what changes from one iteration
// to the next, and how many distinct values something takes.
type Loop struct {
	sum    *summary
	fn     *ssa.Function
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
	// body are the blocks of blocks in the function's order.
	body   []*ssa.BasicBlock
	parent *Loop
	phis   []*ssa.Phi
	// mems are the places of memory the body writes that loads in the
	// loop read (localmem.go): states after the phis.
	mems []memPhi
	// Stmt is the for or range statement of the loop (nil for a loop
	// made with goto).
	Stmt ast.Stmt

	solved           bool
	init, next       []*Expr
	enter, pre, post *Expr
	// closed are, per phi, its value at iteration J (the atom iterNum) when
	// it steps by a constant or keeps its value (nil otherwise).
	closed []*Expr
	// trips is the trip count as an expression of the function's atoms
	// (nil when the loop is not a counting loop).
	trips *Expr
	// exitPost is set when the count's exit test is after the body: the
	// loop is done after iteration trips-1 rather than at state trips.
	exitPost bool
}

// contains reports whether b is a block of the loop.
func (l *Loop) contains(b *ssa.BasicBlock) bool { return l.blocks[b] }

// within reports whether l is m or nested inside m.
func (l *Loop) within(m *Loop) bool {
	for ; l != nil; l = l.parent {
		if l == m {
			return true
		}
	}
	return false
}

// findLoops finds the natural loops of the summary's function and maps
// them to their statements.
func (s *summary) findLoops() {
	s.loopOf = map[*ssa.BasicBlock]*Loop{}
	byHeader := map[*ssa.BasicBlock]*Loop{}
	for _, b := range s.fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &Loop{sum: s, fn: s.fn, header: h, blocks: map[*ssa.BasicBlock]bool{h: true}}
				byHeader[h] = l
				s.loops = append(s.loops, l)
			}
			// The blocks that reach the back edge without passing the header.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.blocks[x] {
					continue
				}
				l.blocks[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	for _, l := range s.loops {
		for _, b := range s.fn.Blocks {
			if l.blocks[b] {
				l.body = append(l.body, b)
			}
		}
	}
	// Nesting: the parent of a loop is the smallest other loop holding its header.
	for _, l := range s.loops {
		for _, m := range s.loops {
			if m != l && m.blocks[l.header] && (l.parent == nil || len(m.blocks) < len(l.parent.blocks)) {
				l.parent = m
			}
		}
		for _, instr := range l.header.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok {
				l.phis = append(l.phis, phi)
			}
		}
	}
	for _, l := range s.loops {
		for _, b := range l.body {
			if cur := s.loopOf[b]; cur == nil || len(l.blocks) < len(cur.blocks) {
				s.loopOf[b] = l
			}
		}
	}
	s.mapStatements()
}

// mapStatements gives each loop its for or range statement: the innermost
// loop statement of the function's syntax whose extent holds every
// positioned instruction of the loop.
func (s *summary) mapStatements() {
	syntax := s.fn.Syntax()
	if syntax == nil || len(s.loops) == 0 {
		return
	}
	var stmts []ast.Stmt
	ast.Inspect(syntax, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == syntax
		case *ast.ForStmt, *ast.RangeStmt:
			stmts = append(stmts, n.(ast.Stmt))
		}
		return true
	})
	taken := map[ast.Stmt]bool{}
	// Inner loops first: they have fewer blocks.
	order := append([]*Loop(nil), s.loops...)
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			if len(order[j].blocks) < len(order[i].blocks) {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	for _, l := range order {
		lo, hi := token.NoPos, token.NoPos
		for _, b := range l.body {
			for _, instr := range b.Instrs {
				switch instr.(type) {
				case *ssa.DebugRef, *ssa.Phi, *ssa.Alloc:
					continue // they carry the position of a variable's declaration
				}
				if p := instr.Pos(); p.IsValid() {
					if lo == token.NoPos || p < lo {
						lo = p
					}
					if p > hi {
						hi = p
					}
				}
			}
		}
		var best ast.Stmt
		for _, st := range stmts {
			if taken[st] || lo == token.NoPos || st.Pos() > lo || st.End() < hi {
				continue
			}
			if best == nil || st.End()-st.Pos() < best.End()-best.Pos() {
				best = st
			}
		}
		if best != nil {
			taken[best] = true
			l.Stmt = best
		}
	}
}

// iter is the atom "header phi k of l at the current iteration".
func iter(l *Loop, k int) *Expr {
	e := node(kIter)
	e.Loop, e.N = l, k
	return e
}

// iterNum is the atom "the number of the current iteration of l" (J,
// from 0).
func iterNum(l *Loop) *Expr { return iter(l, -1) }

// solve computes the loop's recurrence and trip count, once.
func (s *summary) solve(l *Loop) {
	if l.solved {
		s.resolveMems(l)
		return
	}
	l.solved = true
	l.init = make([]*Expr, len(l.phis))
	l.next = make([]*Expr, len(l.phis))
	for k, phi := range l.phis {
		var ins, backs []*Expr
		for i, e := range phi.Edges {
			pred := l.header.Preds[i]
			if l.contains(pred) {
				backs = append(backs, s.operand(e, pred))
			} else {
				ins = append(ins, s.operand(e, pred))
			}
		}
		l.init[k], l.next[k] = choice(ins...), choice(backs...)
	}
	l.enter, l.pre, l.post = exprTrue, exprTrue, exprTrue
	latches := s.latches(l)
	for _, b := range l.body {
		ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		stayIf := -1 // the successor that stays in the loop
		for i, succ := range b.Succs {
			if !l.contains(succ) && l.contains(b.Succs[1-i]) {
				stayIf = 1 - i
			}
		}
		if stayIf < 0 || !dominatesAll(b, latches) {
			continue // not an exit, or one that only some iterations can take (a break)
		}
		c := s.operand(ifs.Cond, b)
		if stayIf == 1 {
			c = op(token.NOT, c, nil)
		}
		if b == l.header && !slices.Contains(latches, b) {
			l.pre = and(l.pre, c) // tested before the body
		} else {
			l.post = and(l.post, c) // tested after it (a rotated loop, a do-while)
		}
	}
	if preds := outsidePreds(l); len(preds) == 1 {
		p := preds[0]
		if ifs, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If); ok {
			c := s.operand(ifs.Cond, p)
			if p.Succs[1] == l.header {
				c = op(token.NOT, c, nil)
			}
			l.enter = c
		}
	}
	l.closed = make([]*Expr, len(l.phis))
	for k := range l.phis {
		if l.next[k] == iter(l, k) || l.next[k].Kind == kUnknown {
			continue
		}
		if step := op(token.SUB, l.next[k], iter(l, k)); step.Kind != kUnknown && !mentionsLoop(step, l) {
			l.closed[k] = op(token.ADD, l.init[k], op(token.MUL, iterNum(l), step))
		}
	}
	l.trips = s.countingTrips(l)
}

// latches are the blocks of l with a back edge to its header.
func (s *summary) latches(l *Loop) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	for _, p := range l.header.Preds {
		if l.contains(p) {
			out = append(out, p)
		}
	}
	return out
}

func dominatesAll(b *ssa.BasicBlock, bs []*ssa.BasicBlock) bool {
	for _, x := range bs {
		if !b.Dominates(x) {
			return false
		}
	}
	return true
}

func outsidePreds(l *Loop) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	for _, p := range l.header.Preds {
		if !l.contains(p) {
			out = append(out, p)
		}
	}
	return out
}

// and is the conjunction of two conditions.
func and(x, y *Expr) *Expr {
	if x == exprTrue {
		return y
	}
	if y == exprTrue {
		return x
	}
	return op(token.LAND, x, y)
}

// countingTrips works out the trip count of a counting loop — a phi that
// steps by a value the loop does not change and an exit test that compares
// it (or it plus such a value) with a value the loop does not change — as
// an expression of the function's atoms.
func (s *summary) countingTrips(l *Loop) *Expr {
	for k := range l.phis {
		step := l.next[k]
		if step.Kind == kUnknown {
			continue
		}
		d := op(token.SUB, step, iter(l, k))
		if d.Kind == kUnknown || mentionsLoop(d, l) {
			continue
		}
		if c, ok := d.int64Of(); ok && c == 0 {
			continue
		}
		for _, post := range []bool{false, true} {
			cond := l.pre
			if post {
				cond = l.post
			}
			for _, conj := range conjuncts(cond) {
				if n := boundedTrips(l, k, d, conj, post); n != nil {
					if post {
						l.exitPost = true
						return op(token.MUL, sel(l.enter, exprTrue, exprFalse).asInt(), n)
					}
					return n
				}
			}
		}
	}
	return nil
}

// mentionsLoop reports whether e reads l's state.
func mentionsLoop(e *Expr, l *Loop) bool {
	return e.mentions(func(a *Expr) bool { return a.Kind == kIter && a.Loop.within(l) })
}

// asInt turns a condition into 1 or 0 (for a count that needs the entry test).
func (e *Expr) asInt() *Expr {
	if e == exprTrue {
		return intConst(1)
	}
	if e == exprFalse {
		return exprZero
	}
	return sel(e, intConst(1), exprZero)
}

// conjuncts splits a condition at its &&s.
func conjuncts(c *Expr) []*Expr {
	if c.Kind == kOp && c.Op == token.LAND && len(c.Args) == 2 {
		return append(conjuncts(c.Args[0]), conjuncts(c.Args[1])...)
	}
	return []*Expr{c}
}

// boundedTrips counts the iterations of l whose phi k, starting at its
// init and stepping by step, passes the test cond (the test of iteration j
// reads the state of j, or for a test after the body the state of j-1).
// A step that is not a constant is taken to be positive.
func boundedTrips(l *Loop, k int, step *Expr, cond *Expr, post bool) *Expr {
	if cond.Kind == kOp && cond.Op == token.NOT && len(cond.Args) == 1 {
		inner := cond.Args[0]
		if inner.Kind != kOp || len(inner.Args) != 2 {
			return nil
		}
		neg := map[token.Token]token.Token{token.LSS: token.GEQ, token.LEQ: token.GTR, token.GTR: token.LEQ, token.GEQ: token.LSS}[inner.Op]
		if neg == token.ILLEGAL {
			return nil
		}
		cond = node(kOp, inner.Args[0], inner.Args[1]).withOp(neg)
	}
	if cond.Kind != kOp || len(cond.Args) != 2 {
		return nil
	}
	tok, x, y := cond.Op, cond.Args[0], cond.Args[1]
	self := iter(l, k)
	off := op(token.SUB, x, self)
	if mentionsLoop(off, l) || off.Kind == kUnknown {
		off = op(token.SUB, y, self)
		if mentionsLoop(off, l) || off.Kind == kUnknown {
			return nil
		}
		x, y = y, x
		tok = map[token.Token]token.Token{token.LSS: token.GTR, token.LEQ: token.GEQ, token.GTR: token.LSS, token.GEQ: token.LEQ, token.NEQ: token.NEQ}[tok]
	}
	if mentionsLoop(y, l) {
		return nil
	}
	if post {
		off = op(token.SUB, off, step) // the test of iteration j reads the state of j-1
	}
	init := l.init[k]
	c, constStep := step.int64Of()
	down := constStep && c < 0
	// Iteration j runs while init + j·step + off (tok) y.
	var span *Expr
	switch {
	case !down && tok == token.LSS, !down && tok == token.NEQ:
		span = op(token.SUB, op(token.SUB, y, off), init)
	case !down && tok == token.LEQ:
		span = op(token.ADD, op(token.SUB, op(token.SUB, y, off), init), intConst(1))
	case down && tok == token.GTR:
		span = op(token.SUB, op(token.ADD, init, off), y)
	case down && tok == token.GEQ:
		span = op(token.ADD, op(token.SUB, op(token.ADD, init, off), y), intConst(1))
	default:
		return nil
	}
	size := step
	if down {
		size = intConst(-c)
	}
	n := op(token.QUO, op(token.SUB, op(token.ADD, span, size), intConst(1)), size)
	if post {
		return pure("max", []*Expr{intConst(1), n})
	}
	return pure("max", []*Expr{exprZero, n})
}
