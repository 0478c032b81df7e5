package cpu

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/fusion"
)

// listing prints a plan as a readable kernel listing.
func listing(pl *planned, name string) string {
	var b strings.Builder
	if name == "" {
		name = "main"
	}
	l := lister{b: &b, names: map[*ir.Var]string{}}
	l.program(pl, name, "")
	return b.String()
}

// lister names variables (a, b, ..., z, ba, ...) across nested programs.
type lister struct {
	b     *strings.Builder
	names map[*ir.Var]string
}

// name returns v's printed name, assigning the next one on first use.
func (l *lister) name(v *ir.Var) string {
	if n, ok := l.names[v]; ok {
		return n
	}
	i := len(l.names)
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i /= 26
		if i == 0 {
			break
		}
	}
	l.names[v] = s
	return s
}

// atom prints an operand: a name or a typed literal.
func (l *lister) atom(a ir.Atom) string {
	switch a := a.(type) {
	case *ir.Var:
		return l.name(a)
	case ir.Literal:
		return fmt.Sprintf("%v:%s", a.Value, a.Aval)
	}
	return "?"
}

// vars prints typed variables: a:f32[3] b:i32[].
func (l *lister) vars(vs []*ir.Var) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = l.name(v) + ":" + v.Aval.String()
	}
	return strings.Join(s, " ")
}

// program prints one plan and, indented, its nested plans.
func (l *lister) program(pl *planned, name, indent string) {
	fmt.Fprintf(l.b, "%sprogram %s: consts [%s] inputs [%s], %d groups, block %d elements, %d workers\n",
		indent, name, l.vars(pl.j.Constvars), l.vars(pl.j.Invars), len(pl.groups), blockSize, workers())
	for gi, g := range pl.groups {
		n := ir.NumElements(g.Shape)
		prod, isProd := pl.products[g.Product()]
		switch {
		case isProd && pl.fused[g]:
			fmt.Fprintf(l.b, "%s  group %d %s: %s%s\n", indent, gi, g.Kind, prod, fusedParts(g))
		case isProd:
			fmt.Fprintf(l.b, "%s  group %d %s: %s\n", indent, gi, g.Kind, prod)
		case !pl.fused[g] && len(pl.nested[g.Eqns[0]]) > 0:
			fmt.Fprintf(l.b, "%s  group %d control flow (bodies compiled once, listed below)\n", indent, gi)
		case !pl.fused[g]:
			fmt.Fprintf(l.b, "%s  group %d %s (evaluated equation by equation)\n", indent, gi, g.Kind)
		case pl.evalReduce[g]:
			fmt.Fprintf(l.b, "%s  group %d %s kernel over %v: %d elements in %d blocks, %s; the reduction itself is evaluated\n",
				indent, gi, g.Kind, g.Shape, n, (n+blockSize-1)/blockSize, mode(n, g.Eqns))
		default:
			fmt.Fprintf(l.b, "%s  group %d %s kernel over %v: %d elements in %d blocks, %s\n",
				indent, gi, g.Kind, g.Shape, n, (n+blockSize-1)/blockSize, mode(n, g.Eqns))
		}
		fmt.Fprintf(l.b, "%s    in  [%s]\n", indent, l.vars(g.Inputs))
		for _, e := range g.Eqns {
			fmt.Fprintf(l.b, "%s    %s\n", indent, l.eqn(e))
			for k, sp := range pl.nested[e] {
				l.program(sp, fmt.Sprintf("%s body %d", e.Prim, k), indent+"      ")
			}
		}
		fmt.Fprintf(l.b, "%s    out [%s]\n", indent, l.vars(g.Outputs))
	}
	outs := make([]string, len(pl.j.Outvars))
	for i, a := range pl.j.Outvars {
		outs[i] = l.atom(a)
	}
	fmt.Fprintf(l.b, "%s  return (%s)\n", indent, strings.Join(outs, ", "))
}

// eqn prints one equation: outs = prim[params] ins.
func (l *lister) eqn(e *ir.Eqn) string {
	var ps []string
	for k, v := range e.Params {
		switch v.(type) {
		case *ir.ClosedJaxpr, []*ir.ClosedJaxpr:
			continue
		case nil:
			continue
		}
		ps = append(ps, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(ps)
	p := ""
	if len(ps) > 0 {
		p = "[" + strings.Join(ps, " ") + "]"
	}
	ins := make([]string, len(e.In))
	for i, a := range e.In {
		ins[i] = l.atom(a)
	}
	lhs := l.vars(e.Out)
	if lhs == "" {
		lhs = "_"
	}
	return fmt.Sprintf("%s = %s%s %s", lhs, e.Prim, p, strings.Join(ins, " "))
}

// mode describes how a kernel of n elements runs.
func mode(n int, eqns []*ir.Eqn) string {
	cost := 0
	for _, e := range eqns {
		cost += opCost(e.Prim)
	}
	if parallelFor(n, cost) {
		return fmt.Sprintf("split over %d goroutines", workers())
	}
	return "on the calling goroutine"
}

// fusedParts says what a product fused: the converts its packing applies
// and the consumers its epilogue runs.
func fusedParts(g *fusion.Group) string {
	s := ""
	if n := len(g.Prologue()); n > 0 {
		s += fmt.Sprintf("; its packing reads %d converted operand(s) in place", n)
	}
	if e := g.Epilogue(); e != nil {
		s += fmt.Sprintf("; its %d elementwise consumers run on each finished block", len(e.Eqns))
	}
	return s
}
