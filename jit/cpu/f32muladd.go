package cpu

// mulAddVariant identifies a fused multiply-add loop: its kind and whether
// c is a scalar.
type mulAddVariant struct {
	k       mulAddKind
	scalarC bool
}

// mulAddF32Vec holds the AVX2 float32 multiply-add kernels (nil without
// AVX2 or with the purego tag); each covers a multiple of 8 elements.
var mulAddF32Vec map[mulAddVariant]func(d, a, b, c []float32)

// mulAddLoopF32 returns the float32 loop of a fused multiply-add: the
// vector kernel over the multiple of 8 elements and mulAddLoop's Go loop
// (the same two roundings) over the rest.
func mulAddLoopF32(k mulAddKind, scalarC bool) func(d, a, b, c []float32) {
	tail := mulAddLoop[float32](k, scalarC)
	vec := mulAddF32Vec[mulAddVariant{k, scalarC}]
	if vec == nil {
		return tail
	}
	return func(d, a, b, c []float32) {
		n := len(d) &^ 7
		a, b = a[:len(d)], b[:len(d)]
		cv := c
		if !scalarC {
			c = c[:len(d)]
			cv = c[:n]
		}
		vec(d[:n], a[:n], b[:n], cv)
		if !scalarC {
			c = c[n:]
		}
		tail(d[n:], a[n:], b[n:], c)
	}
}
