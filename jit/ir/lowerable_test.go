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

// ruleName is a custom_jvp_call's jvp parameter for these tests.
type ruleName string

func (r ruleName) RuleName() string { return string(r) }

// TestLowerableInlinesCustomCalls: a custom_jvp_call becomes its body, the
// jit equations in it inlined too, on fresh variables each time one body is
// inlined; a body with constvars stays a call, as a jit equation.
func TestLowerableInlinesCustomCalls(t *testing.T) {
	f3 := ir.Aval{Shape: []int{3}, DType: ir.Float32}
	zero := ir.Literal{Value: 0, Aval: ir.Aval{DType: ir.Float32}}
	c, d := ir.NewVar(f3), ir.NewVar(f3)
	inner := &ir.Jaxpr{Invars: []*ir.Var{c}, Outvars: []ir.Atom{d},
		Eqns: []*ir.Eqn{{Prim: ir.Max, In: []ir.Atom{c, zero}, Out: []*ir.Var{d}}}}
	e, g := ir.NewVar(f3), ir.NewVar(f3)
	body := &ir.Jaxpr{Invars: []*ir.Var{e}, Outvars: []ir.Atom{g}, Eqns: []*ir.Eqn{{Prim: ir.Jit,
		Params: ir.Params{"name": "relu", "jaxpr": &ir.ClosedJaxpr{Jaxpr: inner}}, In: []ir.Atom{e}, Out: []*ir.Var{g}}}}
	call := func(b *ir.Jaxpr, in, out *ir.Var) *ir.Eqn {
		return &ir.Eqn{Prim: ir.CustomJVPCall, In: []ir.Atom{in}, Out: []*ir.Var{out}, Params: ir.Params{"name": "relu",
			"call_jaxpr": &ir.ClosedJaxpr{Jaxpr: b}, "jvp": ruleName("jvp"), "num_consts": 0, "symbolic_zeros": false}}
	}
	a, b1, b2 := ir.NewVar(f3), ir.NewVar(f3), ir.NewVar(f3)
	top := &ir.ClosedJaxpr{Jaxpr: &ir.Jaxpr{Invars: []*ir.Var{a}, Outvars: []ir.Atom{b2},
		Eqns: []*ir.Eqn{call(body, a, b1), call(body, b1, b2)}}}
	want := `{ lambda ; a:f32[3]. let
    b:f32[3] = max a 0.0:f32[]
    c:f32[3] = max b 0.0:f32[]
  in (c,) }`
	if got := ir.Lowerable(top).String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	k, x, y := ir.NewVar(f3), ir.NewVar(f3), ir.NewVar(f3)
	withConst := &ir.Jaxpr{Constvars: []*ir.Var{k}, Invars: []*ir.Var{x}, Outvars: []ir.Atom{y},
		Eqns: []*ir.Eqn{{Prim: ir.Add, In: []ir.Atom{x, k}, Out: []*ir.Var{y}}}}
	p, q := ir.NewVar(f3), ir.NewVar(f3)
	kept := &ir.ClosedJaxpr{Jaxpr: &ir.Jaxpr{Invars: []*ir.Var{p}, Outvars: []ir.Atom{q}, Eqns: []*ir.Eqn{call(withConst, p, q)}}}
	if got := ir.Lowerable(kept).Jaxpr.Eqns; len(got) != 1 || got[0].Prim != ir.Jit || got[0].Params["name"] != "relu" {
		t.Errorf("a body with constvars should stay a call, as jit: %s", ir.Lowerable(kept))
	}
}
