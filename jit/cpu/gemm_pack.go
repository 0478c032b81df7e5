package cpu

// matView is a batch of matrices inside a flat array, by element offsets:
// element (b, r, c) is at batch[b] + rows[r] + cols[c]. Any dot_general
// operand is such a view of its buffer (its batch, free and contracting
// dimensions each flattened in order), so products of transposed or
// batched operands read them in place. rowsUnit and colsUnit record
// offsets that step by one (the packing loops then read runs).
type matView struct {
	batch, rows, cols  []int
	rowsUnit, colsUnit bool
}

// newMatView returns the view with these offsets.
func newMatView(batch, rows, cols []int) matView {
	return matView{batch: batch, rows: rows, cols: cols, rowsUnit: isUnit(rows), colsUnit: isUnit(cols)}
}

// isUnit reports whether the offsets step by one.
func isUnit(o []int) bool {
	for i, v := range o {
		if v != o[0]+i {
			return false
		}
	}
	return true
}

// packA packs rows × cols of a view (at base) into mr-row panels, each
// kc = len(cols) columns of mr values; the rows of a last partial panel
// are zero.
func packA[S, T float32 | float64](dst []T, src []S, base int, rows, cols []int, mr int, rowsUnit, colsUnit bool) {
	kc := len(cols)
	for q := 0; q*mr < len(rows); q++ {
		pd := dst[q*mr*kc : (q+1)*mr*kc]
		rs := rows[q*mr : min(len(rows), (q+1)*mr)]
		if len(rs) < mr {
			clear(pd)
		}
		switch {
		case colsUnit && kc > 0 && len(rs) == mr && (mr == 12 || mr == 6):
			// Row-major A, a full panel: a transpose, read row by row in
			// runs of four columns, written as four whole columns of the
			// panel.
			src := src[base+cols[0]:]
			if mr == 12 {
				transpose12(pd, src, rs, kc)
			} else {
				transpose6(pd, src, rs, kc)
			}
		case colsUnit && kc > 0:
			for i, r := range rs {
				s := src[base+r+cols[0]:][:kc]
				for p, v := range s {
					pd[p*mr+i] = T(v)
				}
			}
		case rowsUnit && len(rs) == mr:
			for p, c := range cols {
				s := src[base+rs[0]+c:][:mr]
				d := pd[p*mr : p*mr+mr]
				for i, v := range s {
					d[i] = T(v)
				}
			}
		default:
			for i, r := range rs {
				for p, c := range cols {
					pd[p*mr+i] = T(src[base+r+c])
				}
			}
		}
	}
}

// transpose12 writes d[p*12+i] = s[rs[i]+p] for p < kc, i < 12.
func transpose12[S, T float32 | float64](d []T, s []S, rs []int, kc int) {
	_ = rs[11]
	r0, r1, r2, r3 := s[rs[0]:][:kc], s[rs[1]:][:kc], s[rs[2]:][:kc], s[rs[3]:][:kc]
	r4, r5, r6, r7 := s[rs[4]:][:kc], s[rs[5]:][:kc], s[rs[6]:][:kc], s[rs[7]:][:kc]
	r8, r9, r10, r11 := s[rs[8]:][:kc], s[rs[9]:][:kc], s[rs[10]:][:kc], s[rs[11]:][:kc]
	d = d[:kc*12]
	for p := range kc {
		c := (*[12]T)(d[p*12:])
		c[0], c[1], c[2], c[3] = T(r0[p]), T(r1[p]), T(r2[p]), T(r3[p])
		c[4], c[5], c[6], c[7] = T(r4[p]), T(r5[p]), T(r6[p]), T(r7[p])
		c[8], c[9], c[10], c[11] = T(r8[p]), T(r9[p]), T(r10[p]), T(r11[p])
	}
}

// transpose6 writes d[p*6+i] = s[rs[i]+p] for p < kc, i < 6.
func transpose6[S, T float32 | float64](d []T, s []S, rs []int, kc int) {
	_ = rs[5]
	r0, r1, r2, r3 := s[rs[0]:][:kc], s[rs[1]:][:kc], s[rs[2]:][:kc], s[rs[3]:][:kc]
	r4, r5 := s[rs[4]:][:kc], s[rs[5]:][:kc]
	d = d[:kc*6]
	for p := range kc {
		c := (*[6]T)(d[p*6:])
		c[0], c[1], c[2], c[3], c[4], c[5] = T(r0[p]), T(r1[p]), T(r2[p]), T(r3[p]), T(r4[p]), T(r5[p])
	}
}

// packB packs rows × cols of a view (at base) into nr-column panels, each
// kc = len(rows) rows of nr values; the columns of a last partial panel
// are zero. Row-major B (unit column offsets) is read row by row, each row
// scattered over the panels.
func packB[S, T float32 | float64](dst []T, src []S, base int, rows, cols []int, nr int, rowsUnit, colsUnit bool) {
	kc, np := len(rows), (len(cols)+nr-1)/nr
	if len(cols)%nr != 0 {
		clear(dst[(np-1)*nr*kc : np*nr*kc])
	}
	if colsUnit && len(cols) > 0 {
		full := len(cols) / nr
		for p, r := range rows {
			s := src[base+r+cols[0]:][:len(cols)]
			d := dst[p*nr:]
			copyRuns(d, s, nr, full, nr*kc)
			if full < np {
				run, dq := s[full*nr:], d[full*nr*kc:][:len(s)-full*nr]
				for j, v := range run {
					dq[j] = T(v)
				}
			}
		}
		return
	}
	for q := 0; q < np; q++ {
		pd := dst[q*nr*kc : (q+1)*nr*kc]
		cs := cols[q*nr : min(len(cols), (q+1)*nr)]
		if rowsUnit && kc > 0 {
			for j, c := range cs {
				s := src[base+c+rows[0]:][:kc]
				for p, v := range s {
					pd[p*nr+j] = T(v)
				}
			}
			continue
		}
		for p, r := range rows {
			for j, c := range cs {
				pd[p*nr+j] = T(src[base+r+c])
			}
		}
	}
}

// copyRuns copies n runs of w values, run q from s[q·w:] to d[q·stride:],
// converted to T: whole-array moves for the tile widths when S is T.
func copyRuns[S, T float32 | float64](d []T, s []S, w, n, stride int) {
	if ds, ok := any(d).([]S); ok {
		switch w {
		case 32:
			for q := range n {
				*(*[32]S)(ds[q*stride:]) = *(*[32]S)(s[q*32:])
			}
			return
		case 16:
			for q := range n {
				*(*[16]S)(ds[q*stride:]) = *(*[16]S)(s[q*16:])
			}
			return
		case 8:
			for q := range n {
				*(*[8]S)(ds[q*stride:]) = *(*[8]S)(s[q*8:])
			}
			return
		}
	}
	for q := range n {
		run, dq := s[q*w:(q+1)*w], d[q*stride:][:w]
		for j, v := range run {
			dq[j] = T(v)
		}
	}
}
