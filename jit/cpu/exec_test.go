package cpu

import (
	"strings"
	"sync"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// A result computed by an in-place reshape of a reused temporary must not
// change when the executable runs again.
func TestResultsDoNotAliasReusedBuffers(t *testing.T) {
	var b ir.Builder
	x := b.Input(av(ir.Float32, 6))
	e := b.Op(ir.Exp, nil, av(ir.Float32, 6), x)
	r := b.Op(ir.Reshape, ir.Params{"new_sizes": []int{2, 3}, "dimensions": nil}, av(ir.Float32, 2, 3), e)
	ex, _ := compileCJ(t, b.Done("", r))
	first, err := ex.Execute([]*ir.Buffer{arange(ir.Float32, 6, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	want := copyBuffer(first[0])
	if _, err := ex.Execute([]*ir.Buffer{arange(ir.Float32, 6, 0, 5)}); err != nil {
		t.Fatal(err)
	}
	if err := sameBuffers(first, []*ir.Buffer{want}, 0); err != nil {
		t.Fatalf("first result changed by the second call: %v", err)
	}
}

// outputAllocs is what allocating one output and the result slice costs.
func outputAllocs(dt ir.DType, shape ...int) float64 {
	return testing.AllocsPerRun(10, func() { resultSink = []*ir.Buffer{ir.NewBuffer(dt, shape)} })
}

var resultSink []*ir.Buffer

func TestCachedCallAllocatesOnlyOutputs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	for _, n := range []int{1, 1000, 1 << 17} {
		ex, _ := compileCJ(t, heavyJaxpr(n))
		args := []*ir.Buffer{arange(ir.Float32, n, 1, 0)}
		if _, err := ex.Execute(args); err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(5, func() {
			if _, err := ex.Execute(args); err != nil {
				t.Fatal(err)
			}
		})
		if want := outputAllocs(ir.Float32, n); allocs > want {
			t.Errorf("n=%d: %.1f allocations per cached call, want %.0f (the output)", n, allocs, want)
		}
	}
	// A fused reduction with an elementwise producer, and a temporary between kernels.
	var b ir.Builder
	x := b.Input(av(ir.Float32, 512, 512))
	e := b.Op(ir.Exp, nil, av(ir.Float32, 512, 512), x)
	s := b.Op(ir.ReduceSum, ir.Params{"axes": []int{1}}, av(ir.Float32, 512), e)
	m := b.Op(ir.ReduceMax, ir.Params{"axes": []int{0}}, av(ir.Float32), s)
	ex, _ := compileCJ(t, b.Done("", m))
	args := []*ir.Buffer{testInput(ir.Float32, 0, 0, 512, 512)}
	ex.Execute(args)
	if allocs, want := testing.AllocsPerRun(5, func() { ex.Execute(args) }), outputAllocs(ir.Float32); allocs > want {
		t.Errorf("reduction: %.1f allocations per call, want %.0f", allocs, want)
	}
}

func TestConcurrentCalls(t *testing.T) {
	for _, n := range []int{7, 40_000} {
		cj := heavyJaxpr(n)
		ex, _ := compileCJ(t, cj)
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				args := []*ir.Buffer{arange(ir.Float32, n, float64(g+1), 0)}
				want, err := eval.Closed(cj, args)
				if err != nil {
					errs <- err
					return
				}
				for i := 0; i < 3; i++ {
					got, err := ex.Execute(args)
					if err == nil {
						err = sameBuffers(got, want, 0)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

func TestArgumentErrors(t *testing.T) {
	ex, _ := compileCJ(t, heavyJaxpr(4))
	cases := []struct {
		args []*ir.Buffer
		want string
	}{
		{nil, "takes 1 arguments, got 0"},
		{[]*ir.Buffer{nil}, "argument 0 is nil"},
		{[]*ir.Buffer{arange(ir.Float32, 5, 1, 0)}, "compiled for f32[4]"},
		{[]*ir.Buffer{{DType: ir.Float32, Shape: []int{4}, Data: []float64{1, 2, 3, 4}}}, "wrong Go type"},
	}
	for _, c := range cases {
		_, err := ex.Execute(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Execute(%v): error %v, want one containing %q", c.args, err, c.want)
		}
	}
	// An evaluator error at run time names the primitive.
	var b ir.Builder
	x := b.Input(av(ir.Int32, 3))
	p := b.Op(ir.IntegerPow, ir.Params{"y": -1}, av(ir.Int32, 3), x)
	ex2, _ := compileCJ(t, b.Done("", p))
	if _, err := ex2.Execute([]*ir.Buffer{arange(ir.Int32, 3, 1, 0)}); err == nil || !strings.Contains(err.Error(), "integer_pow") {
		t.Errorf("negative integer power: error %v", err)
	}
	if _, err := (Backend{}).Lower(nil); err == nil {
		t.Error("Lower(nil) succeeded")
	}
}

func TestMalformedJaxprsAreErrors(t *testing.T) {
	x := ir.NewVar(av(ir.Float32, 3))
	y := ir.NewVar(av(ir.Float32, 3))
	cases := map[string]*ir.Jaxpr{
		"nil equation":  {Invars: []*ir.Var{x}, Eqns: []*ir.Eqn{nil}, Outvars: []ir.Atom{x}},
		"nil output":    {Invars: []*ir.Var{x}, Eqns: []*ir.Eqn{{Prim: ir.Neg, In: []ir.Atom{x}, Out: []*ir.Var{nil}}}, Outvars: []ir.Atom{x}},
		"nil operand":   {Invars: []*ir.Var{x}, Eqns: []*ir.Eqn{{Prim: ir.Neg, In: []ir.Atom{nil}, Out: []*ir.Var{y}}}, Outvars: []ir.Atom{y}},
		"undefined var": {Invars: []*ir.Var{x}, Eqns: []*ir.Eqn{{Prim: ir.Neg, In: []ir.Atom{y}, Out: []*ir.Var{x}}}, Outvars: []ir.Atom{x}},
		"bad scan":      {Invars: []*ir.Var{x}, Eqns: []*ir.Eqn{{Prim: ir.Scan, Params: ir.Params{"jaxpr": 3}, In: []ir.Atom{x}, Out: []*ir.Var{y}}}, Outvars: []ir.Atom{y}},
		"nil outvar":    {Invars: []*ir.Var{x}, Outvars: []ir.Atom{nil}},
	}
	for name, j := range cases {
		l, err := (Backend{}).Lower(&ir.ClosedJaxpr{Jaxpr: j})
		if err == nil {
			_, err = l.Compile()
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "cpu: ") {
			t.Errorf("%s: error %q lacks the cpu: prefix", name, err)
		}
	}
}
