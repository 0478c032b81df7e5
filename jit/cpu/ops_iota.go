package cpu

import "github.com/jitlint/jitlint/jit/ir"

// iotaOp builds iota: each element's index along the parameter dimension.
func iotaOp(e *ir.Eqn, d loc, dt ir.DType) (op, error) {
	dim, ok := e.Params["dimension"].(int)
	shape := e.Out[0].Aval.Shape
	if !ok || dim < 0 || dim >= len(shape) || dt == ir.Bool || len(e.In) != 0 {
		return nil, errUnfusable
	}
	stride := ir.NumElements(shape[dim+1:])
	size := shape[dim]
	idx := func(j int) int64 { return int64(j / stride % size) }
	switch d.c {
	case cF32:
		return func(fr *frame, n int) {
			o := fr.f32[d.reg][:n]
			for i := range o {
				o[i] = ir.RoundTo(dt, float64(idx(fr.lo+i)))
			}
		}, nil
	case cF64:
		return func(fr *frame, n int) {
			o := fr.f64[d.reg][:n]
			for i := range o {
				o[i] = float64(idx(fr.lo + i))
			}
		}, nil
	case cI32:
		return func(fr *frame, n int) {
			o := fr.i32[d.reg][:n]
			for i := range o {
				o[i] = int32(idx(fr.lo + i))
			}
		}, nil
	}
	return func(fr *frame, n int) {
		o := fr.i64[d.reg][:n]
		for i := range o {
			o[i] = idx(fr.lo + i)
		}
	}, nil
}
