package traced

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A summary is what the analysis knows of one function, in terms of its
// own atoms: the expression of each value (computed when first asked),
// its results and its loops. It is computed once; calls instantiate it.
type summary struct {
	f    *flow
	fn   *ssa.Function
	vals map[ssa.Value]*Expr
	// busy are the values being computed, by their frame.
	busy map[ssa.Value]int
	// results holds, per result index, the choice of the values the
	// function returns (nil until computed; see result).
	results []*Expr
	// computing is the frame of the results while they are computed
	// (-1 otherwise).
	computing int
	loops     []*Loop
	loopOf    map[*ssa.BasicBlock]*Loop
	// exits are the values of loops as used after them, once each.
	exits map[exitKey]*Expr
}

type exitKey struct {
	v ssa.Value
	l *Loop
}

// summary returns fn's summary.
func (f *flow) summary(fn *ssa.Function) *summary {
	if s, ok := f.sums[fn]; ok {
		return s
	}
	s := &summary{f: f, fn: fn, vals: map[ssa.Value]*Expr{}, busy: map[ssa.Value]int{}, exits: map[exitKey]*Expr{}, computing: -1}
	f.sums[fn] = s
	s.findLoops()
	return s
}

// value returns the expression of v, a value of the summary's function.
func (s *summary) value(v ssa.Value) *Expr {
	if e, ok := s.vals[v]; ok {
		return e
	}
	if k, ok := s.busy[v]; ok {
		s.f.cut(k)
		return unknown // a cycle not through a loop header: through memory or the call graph
	}
	i := s.f.open()
	s.busy[v] = i
	applying := s.f.applying
	s.f.applying = 0 // a value of fn is the same whatever applies fn
	e := s.eval(v)
	s.f.applying = applying
	delete(s.busy, v)
	if e == nil {
		e = unknown
	}
	s.vals[v] = e
	s.f.close(i, func() { delete(s.vals, v) })
	return e
}

// operand returns the expression of v as used in block at: a value of a
// loop used after the loop is its value when the loop is done (at nil:
// the value itself).
func (s *summary) operand(v ssa.Value, at *ssa.BasicBlock) *Expr {
	e := s.value(v)
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil || at == nil {
		return e
	}
	for l := s.loopOf[instr.Block()]; l != nil; l = l.parent {
		if l.contains(at) {
			break
		}
		key := exitKey{v, l}
		if x, ok := s.exits[key]; ok {
			e = x
			continue
		}
		e = atExit(l, e)
		s.exits[key] = e
		if len(s.f.fr.low) > 0 && s.f.fr.low[len(s.f.fr.low)-1] < len(s.f.fr.low)-1 {
			delete(s.exits, key) // made of a provisional value: not kept
		}
	}
	return e
}

// result returns the choice of the values fn returns as its result n (a
// Tuple's element for several results).
func (s *summary) result(n int) *Expr {
	if s.results == nil {
		if s.computing >= 0 {
			s.f.cut(s.computing)
			return unknown // recursion: the result is not known yet
		}
		i := s.f.open()
		s.computing = i
		nres := s.fn.Signature.Results().Len()
		alts := make([][]*Expr, nres)
		var conds []*Expr
		for _, b := range s.fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			conds = append(conds, s.pathCond(s.fn.Blocks[0], b))
			for i, r := range ret.Results {
				alts[i] = append(alts[i], s.operand(r, b))
			}
		}
		results := make([]*Expr, nres)
		for i := range alts {
			results[i] = byPath(conds, alts[i])
		}
		s.results, s.computing = results, -1
		s.f.close(i, func() { s.results = nil })
		if n < len(results) {
			return results[n]
		}
		return unknown
	}
	if n < len(s.results) {
		return s.results[n]
	}
	return unknown
}

// byPath is the value of the return whose path condition holds (the last
// when the others' do not): nested Selects, or a choice of the values when
// a path's condition is not known.
func byPath(conds, vals []*Expr) *Expr {
	if len(vals) == 0 || len(conds) != len(vals) {
		return choice(vals...)
	}
	out := vals[len(vals)-1]
	for i := len(vals) - 2; i >= 0; i-- {
		if conds[i] == exprTrue {
			return choice(vals...)
		}
		out = sel(conds[i], vals[i], out)
	}
	return out
}

// mode is the atom "the function runs inside a trace".
func (s *summary) mode() *Expr {
	e := node(kMode)
	e.Fn = s.fn
	return e
}

// paramIndex returns the index of p among fn's parameters.
func paramIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}

// zeroOf is the zero value of t, as far as it matters (numbers, bools,
// strings, empty slices, structs of those).
func zeroOf(t types.Type) *Expr {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return exprFalse
		case u.Info()&types.IsString != 0:
			return constOfString("")
		case u.Info()&types.IsNumeric != 0:
			return exprZero
		}
	case *types.Slice:
		return seq(exprZero)
	case *types.Struct:
		fields := make([]*Expr, u.NumFields())
		for i := range fields {
			fields[i] = zeroOf(u.Field(i).Type())
		}
		return node(kStruct, fields...)
	case *types.Array:
		if u.Len() <= maxElems {
			elems := make([]*Expr, u.Len())
			z := zeroOf(u.Elem())
			for i := range elems {
				elems[i] = z
			}
			return seq(intConst(u.Len()), elems...)
		}
		return seq(intConst(u.Len()))
	}
	return unknown
}

// maxElems bounds the elements a Seq keeps by index.
const maxElems = 64
