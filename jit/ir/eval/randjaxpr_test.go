package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
)

// TestRandomJaxprEvaluates checks that every generated jaxpr evaluates
// without error to outputs of its declared types, that generation is
// deterministic, and that the generator covers every primitive it knows.
func TestRandomJaxprEvaluates(t *testing.T) {
	configs := []randjaxpr.Options{
		{},
		{DTypes: []ir.DType{ir.Float32, ir.Int32}, NumEqns: 12},
		{DTypes: []ir.DType{ir.Float64, ir.BFloat16, ir.Float16, ir.Int64}, MaxRank: 3, NumInputs: 3},
		{ControlFlow: true},
		{ControlFlow: true, DTypes: []ir.DType{ir.Float32, ir.Float16, ir.Int32}, NumEqns: 10, MaxRank: 3},
		{Layout: true, DTypes: []ir.DType{ir.Float32, ir.Int64}, NumEqns: 12, MaxRank: 3},
		{Layout: true, ControlFlow: true, DTypes: []ir.DType{ir.Float64, ir.BFloat16, ir.Int32}, NumEqns: 10},
	}
	seen := map[string]int{}
	for ci, opts := range configs {
		for seed := range uint64(200) {
			j, args := randjaxpr.New(rand.New(rand.NewPCG(seed, uint64(ci))), opts)
			out, err := Jaxpr(j, nil, args)
			if err != nil {
				t.Fatalf("config %d seed %d: %v", ci, seed, err)
			}
			for k, a := range j.OutAvals() {
				if !out[k].Aval().TypeMatch(a) {
					t.Fatalf("config %d seed %d: output %d is %s, declared %s", ci, seed, k, out[k].Aval(), a)
				}
			}
			countPrims(j, seen)
		}
	}
	for _, p := range []string{ir.Neg, ir.Sin, ir.Log, ir.Exp, ir.IntegerPow, ir.Pow, ir.Add, ir.Div, ir.Rem, ir.Max,
		ir.Gt, ir.SelectN, ir.Clamp, ir.ConvertElementType, ir.BroadcastInDim, ir.ReduceSum, ir.ReduceMax,
		ir.Cond, ir.Scan, ir.While, ir.Not, ir.Transpose, ir.Reshape, ir.Slice, ir.Pad, ir.Concatenate, ir.Iota, ir.DotGeneral} {
		if seen[p] == 0 {
			t.Errorf("the generator never produced %s", p)
		}
	}

	// Same seed, same program and inputs.
	opts := randjaxpr.Options{ControlFlow: true, DTypes: []ir.DType{ir.Float32, ir.Int32}}
	j1, a1 := randjaxpr.New(rand.New(rand.NewPCG(7, 7)), opts)
	j2, a2 := randjaxpr.New(rand.New(rand.NewPCG(7, 7)), opts)
	o1, err1 := Jaxpr(j1, nil, a1)
	o2, err2 := Jaxpr(j2, nil, a2)
	if err1 != nil || err2 != nil || len(j1.Eqns) != len(j2.Eqns) || len(o1) != len(o2) {
		t.Fatalf("not deterministic: %v %v", err1, err2)
	}
	for k := range o1 {
		for i := range o1[k].Len() {
			if !sameFloat(o1[k].At(i), o2[k].At(i)) {
				t.Fatalf("output %d element %d differs between runs", k, i)
			}
		}
	}
}

// countPrims counts primitives in j and its nested jaxprs.
func countPrims(j *ir.Jaxpr, seen map[string]int) {
	for _, e := range j.Eqns {
		seen[e.Prim]++
		for _, p := range e.Params {
			switch p := p.(type) {
			case *ir.ClosedJaxpr:
				countPrims(p.Jaxpr, seen)
			case []*ir.ClosedJaxpr:
				for _, b := range p {
					countPrims(b.Jaxpr, seen)
				}
			}
		}
	}
}
