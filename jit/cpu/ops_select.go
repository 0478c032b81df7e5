package cpu

import "github.com/jitlint/jitlint/jit/ir"

// maxCases is the most select_n cases a fused kernel handles.
const maxCases = 8

// selectOp builds select_n: d[i] = cases[pred[i]][i], the predicate a bool
// (two cases at most) or an integer clamped into range.
func selectOp(ins []loc, dts []ir.DType, dst loc) (op, error) {
	if len(ins) < 2 || len(ins)-1 > maxCases || !sameTypes(dts[2:], dts[1]) {
		return nil, errUnfusable
	}
	p, cases := ins[0], ins[1:]
	if p.c == cBool && len(cases) > 2 || p.c != cBool && p.c != cI32 && p.c != cI64 {
		return nil, errUnfusable
	}
	switch cases[0].c {
	case cF32:
		return selectFor(regF32, p, cases, dst), nil
	case cF64:
		return selectFor(regF64, p, cases, dst), nil
	case cI32:
		return selectFor(regI32, p, cases, dst), nil
	case cI64:
		return selectFor(regI64, p, cases, dst), nil
	}
	return selectFor(regB, p, cases, dst), nil
}

// selectFor builds select_n over cases of one storage type.
func selectFor[T any](g func(*frame) [][]T, p loc, cases []loc, dst loc) op {
	regs := make([]int, len(cases))
	for i, c := range cases {
		regs[i] = c.reg
	}
	last := len(cases) - 1
	switch p.c {
	case cBool:
		return func(fr *frame, n int) {
			r := g(fr)
			d, c0, c1, pr := r[dst.reg][:n], r[regs[0]][:n], r[regs[last]][:n], fr.b[p.reg][:n]
			for i := range d {
				if pr[i] {
					d[i] = c1[i]
				} else {
					d[i] = c0[i]
				}
			}
		}
	case cI32:
		return func(fr *frame, n int) {
			pickInt(g(fr), dst.reg, regs, fr.i32[p.reg][:n], n)
		}
	}
	return func(fr *frame, n int) {
		pickInt(g(fr), dst.reg, regs, fr.i64[p.reg][:n], n)
	}
}

// pickInt sets r[d][i] = r[cases[k]][i] with k = pred[i] clamped into range.
func pickInt[T any, P int32 | int64](r [][]T, d int, cases []int, pred []P, n int) {
	var cs [maxCases][]T
	for k, c := range cases {
		cs[k] = r[c][:n]
	}
	last := P(len(cases) - 1)
	dst := r[d][:n]
	for i := range dst {
		k := max(0, min(pred[i], last))
		dst[i] = cs[k][i]
	}
}
