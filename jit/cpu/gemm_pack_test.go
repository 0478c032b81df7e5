package cpu

import (
	"fmt"
	"testing"
)

// TestPacking compares packA and packB with the layout written plainly,
// for the tile sizes of every kernel, same-type and converting, on
// row-major, transposed and gathered views, with partial panels.
func TestPacking(t *testing.T) {
	const rows, cols = 29, 70 // a 29×70 source, row-major
	src := make([]float32, rows*cols+3) // the views start at 3
	for i := range src {
		src[i] = float32(i)
	}
	type view struct {
		name       string
		rows, cols []int
	}
	seq := func(n, step int) []int {
		o := make([]int, n)
		for i := range o {
			o[i] = i * step
		}
		return o
	}
	views := []view{
		{"row-major", seq(rows, cols), seq(cols, 1)},
		{"transposed", seq(cols, 1), seq(rows, cols)},
		{"gathered", seq(rows/2, 2*cols), seq(cols/2, 2)},
		{"one column", seq(rows, cols), seq(1, 1)},
	}
	for _, v := range views {
		vr, vc := v.rows, v.cols
		for _, mr := range []int{6, 12} {
			t.Run(fmt.Sprintf("A/%s/mr%d", v.name, mr), func(t *testing.T) {
				checkPackA[float32](t, src, vr, vc, mr)
				checkPackA[float64](t, src, vr, vc, mr)
			})
		}
		for _, nr := range []int{8, 16, 32} {
			t.Run(fmt.Sprintf("B/%s/nr%d", v.name, nr), func(t *testing.T) {
				checkPackB[float32](t, src, vr, vc, nr)
				checkPackB[float64](t, src, vr, vc, nr)
			})
		}
	}
}

func checkPackA[T float32 | float64](t *testing.T, src []float32, rows, cols []int, mr int) {
	t.Helper()
	kc, panels := len(cols), (len(rows)+mr-1)/mr
	got := make([]T, panels*mr*kc)
	for i := range got {
		got[i] = -1 // packA must write every element
	}
	packA(got, src, 3, rows, cols, mr, isUnit(rows), isUnit(cols))
	for q := range panels {
		for p := range kc {
			for i := range mr {
				want := T(0)
				if r := q*mr + i; r < len(rows) {
					want = T(src[3+rows[r]+cols[p]])
				}
				if g := got[q*mr*kc+p*mr+i]; g != want {
					t.Fatalf("packA mr=%d: panel %d column %d row %d = %v, want %v", mr, q, p, i, g, want)
				}
			}
		}
	}
}

func checkPackB[T float32 | float64](t *testing.T, src []float32, rows, cols []int, nr int) {
	t.Helper()
	kc, panels := len(rows), (len(cols)+nr-1)/nr
	got := make([]T, panels*nr*kc)
	for i := range got {
		got[i] = -1
	}
	packB(got, src, 3, rows, cols, nr, isUnit(rows), isUnit(cols))
	for q := range panels {
		for p := range kc {
			for j := range nr {
				want := T(0)
				if c := q*nr + j; c < len(cols) {
					want = T(src[3+rows[p]+cols[c]])
				}
				if g := got[q*nr*kc+p*nr+j]; g != want {
					t.Fatalf("packB nr=%d: panel %d row %d column %d = %v, want %v", nr, q, p, j, g, want)
				}
			}
		}
	}
}
