package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

func av(dt ir.DType, shape ...int) ir.Aval { return ir.Aval{Shape: shape, DType: dt} }

func lit(dt ir.DType, v float64) ir.Literal { return ir.Literal{Value: v, Aval: av(dt)} }

// compileCJ lowers and compiles cj on the CPU backend.
func compileCJ(t testing.TB, cj *ir.ClosedJaxpr) (*Executable, *Lowered) {
	t.Helper()
	l, err := Backend{}.Lower(cj)
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	ex, err := l.Compile()
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return ex.(*Executable), l.(*Lowered)
}

// sameBuffers reports the first difference between got and want: exact
// equality (NaN equals NaN, +0 differs from -0) unless tol > 0, in which
// case floats may differ by tol relative.
func sameBuffers(got, want []*ir.Buffer, tol float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	for k := range got {
		g, w := got[k], want[k]
		if !g.Aval().TypeMatch(w.Aval()) {
			return fmt.Errorf("result %d: type %s, want %s", k, g.Aval(), w.Aval())
		}
		if err := eval.CheckBuffer(g); err != nil {
			return fmt.Errorf("result %d: bad data: %v", k, err)
		}
		for i := 0; i < g.Len(); i++ {
			x, y := g.At(i), w.At(i)
			if x != x && y != y {
				continue
			}
			if x == y && math.Signbit(x) == math.Signbit(y) {
				continue
			}
			if tol > 0 && math.Abs(x-y) <= tol*math.Max(math.Abs(x), math.Abs(y)) {
				continue
			}
			return fmt.Errorf("result %d (%s) element %d: got %v, want %v", k, g.Aval(), i, x, y)
		}
	}
	return nil
}

// checkAgainstEval runs cj on the CPU backend and on the evaluator.
func checkAgainstEval(t *testing.T, cj *ir.ClosedJaxpr, args []*ir.Buffer, tol float64) {
	t.Helper()
	want, werr := eval.Closed(cj, args)
	ex, _ := compileCJ(t, cj)
	got, gerr := ex.Execute(args)
	if werr != nil || gerr != nil {
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("errors differ: cpu %v, eval %v", gerr, werr)
		}
		return
	}
	if err := sameBuffers(got, want, tol); err != nil {
		t.Fatal(err)
	}
}

// arange returns 0, 1, ..., n-1 (scaled) as a buffer of dtype dt.
func arange(dt ir.DType, n int, scale, offset float64) *ir.Buffer {
	b := ir.NewBuffer(dt, []int{n})
	for i := 0; i < n; i++ {
		b.Set(i, float64(i)*scale+offset)
	}
	return b
}

// heavyJaxpr is the codelab's heavy: 20 × y = sin(y)*cos(y) + tanh(y).
func heavyJaxpr(n int) *ir.ClosedJaxpr {
	var b ir.Builder
	a := av(ir.Float32, n)
	y := b.Input(a)
	for i := 0; i < 20; i++ {
		s := b.Op(ir.Sin, nil, a, y)
		c := b.Op(ir.Cos, nil, a, y)
		m := b.Op(ir.Mul, nil, a, s, c)
		th := b.Op(ir.Tanh, nil, a, y)
		y = b.Op(ir.Add, nil, a, m, th)
	}
	cj := b.Done("", y)
	cj.Name = "heavy"
	return cj
}
