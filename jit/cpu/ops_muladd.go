package cpu

// mulAddKind selects a fused multiply-add: a*b + c, a*b - c or c - a*b.
type mulAddKind int

const (
	mulAdd mulAddKind = iota
	mulSub
	subMul
)

// fusedMulAdd builds the fused op d = a*b ± c on float32 or float64
// registers; a scalar c is read once per block.
func fusedMulAdd(k mulAddKind, a, b, c, d loc) op {
	if a.c == cF64 {
		f := mulAddLoop[float64](k, c.scalar)
		return func(fr *frame, n int) {
			r := fr.f64
			f(r[d.reg][:n], r[a.reg][:n], r[b.reg][:n], r[c.reg][:n])
		}
	}
	f := mulAddLoopF32(k, c.scalar)
	return func(fr *frame, n int) {
		r := fr.f32
		f(r[d.reg][:n], r[a.reg][:n], r[b.reg][:n], r[c.reg][:n])
	}
}

// mulAddLoop returns the loop of a fused multiply-add. The product is
// rounded to T before the addition, as two separate ops would round it (the
// explicit conversion keeps Go from contracting to an FMA).
func mulAddLoop[T float32 | float64](k mulAddKind, scalarC bool) func(d, a, b, c []T) {
	switch {
	case k == mulAdd && scalarC:
		return func(d, a, b, c []T) {
			a, b, s := a[:len(d)], b[:len(d)], c[0]
			for i := range d {
				d[i] = T(a[i]*b[i]) + s
			}
		}
	case k == mulAdd:
		return func(d, a, b, c []T) {
			a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
			for i := range d {
				d[i] = T(a[i]*b[i]) + c[i]
			}
		}
	case k == mulSub && scalarC:
		return func(d, a, b, c []T) {
			a, b, s := a[:len(d)], b[:len(d)], c[0]
			for i := range d {
				d[i] = T(a[i]*b[i]) - s
			}
		}
	case k == mulSub:
		return func(d, a, b, c []T) {
			a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
			for i := range d {
				d[i] = T(a[i]*b[i]) - c[i]
			}
		}
	case scalarC:
		return func(d, a, b, c []T) {
			a, b, s := a[:len(d)], b[:len(d)], c[0]
			for i := range d {
				d[i] = s - T(a[i]*b[i])
			}
		}
	}
	return func(d, a, b, c []T) {
		a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
		for i := range d {
			d[i] = c[i] - T(a[i]*b[i])
		}
	}
}
