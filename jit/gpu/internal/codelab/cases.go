package codelab

import "github.com/jitlint/jitlint/jit/ir"

// Case is a function with arguments to run it on.
type Case struct {
	Name string
	Fn   *ir.ClosedJaxpr
	Args []*ir.Buffer
}

// Cases returns every codelab function; n is the length of the large
// vectors (heavy and the loops; the codelab uses 1_000_000 and 1024) and
// steps the loop length (the codelab uses 200 and 2000).
func Cases(n, steps int) []Case {
	boolScalar := func(v bool) *ir.Buffer {
		b := ir.NewBuffer(ir.Bool, nil)
		b.Data.([]bool)[0] = v
		return b
	}
	i32 := func(v int) *ir.Buffer { return ir.ScalarBuffer(ir.Int32, float64(v)) }
	padded := Vec(1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	mask := Vec(1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	rows := ir.NewBuffer(ir.Float32, []int{5, 3})
	for i := range 15 {
		rows.Set(i, float64(i)-4)
	}
	mat := func(r, c int, scale float64) *ir.Buffer {
		b := ir.NewBuffer(ir.Float32, []int{r, c})
		for i := range r * c {
			b.Set(i, float64((i*7)%13-6)*scale)
		}
		return b
	}
	small := ir.NewBuffer(ir.Float32, []int{2, 3})
	for i := range 6 {
		small.Set(i, float64(i)*1.5-2)
	}
	return []Case{
		{"square_plus_one", SquarePlusOne(4), []*ir.Buffer{Vec(0, 1, 2, 3)}},
		{"heavy", Heavy(n, 20), []*ir.Buffer{Arange(n, 1)}},
		{"sum_squares", SumSquares(300), []*ir.Buffer{Arange(300, 0.01)}},
		{"relu_where", ReluWhere(5), []*ir.Buffer{Vec(-1, -0.5, 0, 0.5, 1)}},
		{"cond_softplus", CondSoftplus(3), []*ir.Buffer{boolScalar(false), Vec(-1, 0.5, 2)}},
		{"cond_relu", CondSoftplus(3), []*ir.Buffer{boolScalar(true), Vec(-1, 0.5, 2)}},
		{"python_for_loop", Unrolled(1024, steps), []*ir.Buffer{Arange(1024, 0.001)}},
		{"scan_loop", ScanLoop(1024, steps), []*ir.Buffer{Arange(1024, 0.001)}},
		{"masked_mean", MaskedMean(16), []*ir.Buffer{padded, mask}},
		{"power3", Power(3, 8), []*ir.Buffer{Arange(8, 0.25)}},
		{"step9", Step9(4), []*ir.Buffer{Vec(0, 1, 2, 3)}},
		{"while_loop", WhileCount(4), []*ir.Buffer{i32(10), Vec(0, 1, 2, 3)}},
		{"scan_cumsum", ScanCumsum(5, 3, false), []*ir.Buffer{rows}},
		{"scan_cumsum_reverse", ScanCumsum(5, 3, true), []*ir.Buffer{rows}},
		{"matmul", Matmul(33, 20, 17, false), []*ir.Buffer{mat(33, 20, 0.5), mat(20, 17, 0.25)}},
		{"matmul_transposed", Matmul(5, 18, 7, true), []*ir.Buffer{mat(18, 5, 1), mat(18, 7, 1)}},
		{"shapes", Shapes(), []*ir.Buffer{small}},
	}
}
