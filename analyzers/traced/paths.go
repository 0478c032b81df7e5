package traced

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Path conditions: the condition under which control goes from a block to
// a block it dominates, read off the dominator tree (each if on the way
// whose one successor dominates the target). A phi that joins branches is
// the value of the branch whose condition holds; a store made under a
// condition (if step%10 == 0 { lr *= 0.5 }) changes the value only then.

// pathCond is the condition under which control reaching from reaches to
// (to dominated by from); true when it is not known more precisely.
func (s *summary) pathCond(from, to *ssa.BasicBlock) *Expr {
	cond := exprTrue
	for _, c := range s.pathFacts(from, to) {
		cond = and(c, cond)
	}
	return cond
}

// pathFacts are the conditions that hold when control reaching from
// reaches to, one per if on the way, the innermost first (some may be
// unknown: the others still hold).
func (s *summary) pathFacts(from, to *ssa.BasicBlock) []*Expr {
	var facts []*Expr
	for x := to; x != from && x != nil; {
		d := x.Idom()
		if d == nil {
			break
		}
		if ifs, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok && d.Succs[0] != d.Succs[1] {
			c := s.operand(ifs.Cond, d)
			switch {
			case d.Succs[0].Dominates(x) && !reaches(d.Succs[1], x, d):
				facts = append(facts, c)
			case d.Succs[1].Dominates(x) && !reaches(d.Succs[0], x, d):
				facts = append(facts, op(token.NOT, c, nil))
			}
		}
		x = d
	}
	return facts
}

// reaches reports whether to can be reached from b without passing stop.
func reaches(b, to, stop *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{stop: true}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == to {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		stack = append(stack, x.Succs...)
	}
	return false
}

// edgeCond is the condition under which control goes from pred to b.
func (s *summary) edgeCond(pred, b *ssa.BasicBlock) *Expr {
	ifs, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
	if !ok || pred.Succs[0] == pred.Succs[1] {
		return exprTrue
	}
	c := s.operand(ifs.Cond, b) // as b sees it: a loop's test when the loop is done
	if pred.Succs[0] == b {
		return c
	}
	return op(token.NOT, c, nil)
}

// merge is a phi that joins branches (not a loop header's): the value of
// the edge whose path condition holds, as nested Selects.
func (s *summary) merge(phi *ssa.Phi) *Expr {
	b := phi.Block()
	alts := make([]*Expr, len(phi.Edges))
	conds := make([]*Expr, len(phi.Edges))
	d := b.Idom()
	for i, e := range phi.Edges {
		p := b.Preds[i]
		alts[i] = s.operand(e, b) // as b sees it: a loop's value when the loop is done
		if d != nil {
			conds[i] = and(s.pathCond(d, p), s.edgeCond(p, b))
		}
	}
	if d == nil {
		return choice(alts...)
	}
	out := alts[len(alts)-1]
	for i := len(alts) - 2; i >= 0; i-- {
		if conds[i] == exprTrue {
			return choice(alts...) // an edge taken whatever holds: not a choice by conditions
		}
		out = sel(conds[i], alts[i], out)
	}
	return out
}
