package ir_test

import (
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

func TestLowerableBroadcasts(t *testing.T) {
	row := ir.NewVar(ir.Aval{Shape: []int{1, 3}, DType: ir.Float32})
	full := ir.NewVar(ir.Aval{Shape: []int{2, 3}, DType: ir.Float32})
	sum := ir.NewVar(ir.Aval{Shape: []int{2, 3}, DType: ir.Float32})
	body := &ir.Jaxpr{Invars: []*ir.Var{row, full}, Outvars: []ir.Atom{sum},
		Eqns: []*ir.Eqn{{Prim: ir.Add, In: []ir.Atom{row, full}, Out: []*ir.Var{sum}}}}
	a, b := ir.NewVar(row.Aval), ir.NewVar(full.Aval)
	out := ir.NewVar(full.Aval)
	top := &ir.Jaxpr{Invars: []*ir.Var{a, b}, Outvars: []ir.Atom{out}, Eqns: []*ir.Eqn{{
		Prim: ir.Jit, Params: ir.Params{"name": "f", "jaxpr": &ir.ClosedJaxpr{Jaxpr: body, Name: "f"}},
		In: []ir.Atom{a, b}, Out: []*ir.Var{out}}}}
	cj := &ir.ClosedJaxpr{Jaxpr: top}
	before := cj.String()
	got := ir.Lowerable(cj).String()
	if cj.String() != before {
		t.Error("Lowerable modified its argument")
	}
	if !strings.Contains(got, "broadcast_in_dim[broadcast_dimensions=(0, 1)]") || strings.Count(got, "add") != 1 {
		t.Errorf("the size-1 operand is not broadcast explicitly:\n%s", got)
	}
	same := &ir.ClosedJaxpr{Jaxpr: body}
	if ir.Lowerable(same) == same {
		t.Error("a jaxpr with an implicit broadcast must be copied")
	}
	plain := &ir.ClosedJaxpr{Jaxpr: &ir.Jaxpr{Invars: []*ir.Var{b}, Outvars: []ir.Atom{b}}}
	if ir.Lowerable(plain) != plain {
		t.Error("a jaxpr without implicit broadcasts must be returned as is")
	}
	if _, ok := ir.BroadcastSizeOne([]int{2, 1}, []int{1, 3}); !ok {
		t.Error("[2 1] and [1 3] broadcast")
	}
	if _, ok := ir.BroadcastSizeOne([]int{2}, []int{3}); ok {
		t.Error("[2] and [3] do not broadcast")
	}
}

func TestLowerableDropsStopGradient(t *testing.T) {
	x := ir.NewVar(ir.Aval{Shape: []int{2}, DType: ir.Float32})
	s := ir.NewVar(x.Aval)
	y := ir.NewVar(x.Aval)
	j := &ir.Jaxpr{Invars: []*ir.Var{x}, Outvars: []ir.Atom{s, y}, Eqns: []*ir.Eqn{
		{Prim: ir.StopGradient, In: []ir.Atom{x}, Out: []*ir.Var{s}},
		{Prim: ir.Sin, In: []ir.Atom{s}, Out: []*ir.Var{y}},
	}}
	got := ir.Lowerable(&ir.ClosedJaxpr{Jaxpr: j}).Jaxpr
	if len(got.Eqns) != 1 || got.Eqns[0].In[0] != x || got.Outvars[0] != x || got.Outvars[1] != y {
		t.Errorf("stop_gradient not dropped: %s", (&ir.ClosedJaxpr{Jaxpr: got}).String())
	}
}

func TestLowerableRewritesAddAny(t *testing.T) {
	x := ir.NewVar(ir.Aval{Shape: []int{2}, DType: ir.Float32})
	y := ir.NewVar(x.Aval)
	j := &ir.Jaxpr{Invars: []*ir.Var{x}, Outvars: []ir.Atom{y}, Eqns: []*ir.Eqn{
		{Prim: ir.AddAny, In: []ir.Atom{x, x}, Out: []*ir.Var{y}},
	}}
	cj := &ir.ClosedJaxpr{Jaxpr: j}
	got := ir.Lowerable(cj).Jaxpr
	if len(got.Eqns) != 1 || got.Eqns[0].Prim != ir.Add || j.Eqns[0].Prim != ir.AddAny {
		t.Errorf("add_any not rewritten to add (or the input modified): %s", (&ir.ClosedJaxpr{Jaxpr: got}).String())
	}
}
