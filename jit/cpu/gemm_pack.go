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
		for p, r := range rows {
			s := src[base+r+cols[0]:][:len(cols)]
			for q := 0; q < np; q++ {
				run := s[q*nr : min(len(s), (q+1)*nr)]
				d := dst[q*nr*kc+p*nr:][:len(run)]
				if same, ok := any(d).([]S); ok {
					copy(same, run)
					continue
				}
				for j, v := range run {
					d[j] = T(v)
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
