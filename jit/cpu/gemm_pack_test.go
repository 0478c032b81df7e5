package cpu

import (
	"fmt"
	"testing"
)

// TestPacking compares packA and packB with the layout written plainly,
// for the tile sizes of every kernel, same-type and converting, on
// row-major, transposed and gathered views, with partial panels.
func TestPacking(t *testing.T) {
	const rows, cols = 29, 70           // a 29×70 source, row-major
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

// checkPackA checks packA's panels of mr rows of the view, each row's
// elements along its columns.
func checkPackA[T float32 | float64](t *testing.T, src []float32, rows, cols []int, mr int) {
	t.Helper()
	checkPanels(t, "packA", src, rows, cols, mr, func(got []T) {
		packA(got, src, 3, rows, cols, mr, isUnit(rows), isUnit(cols))
	}, func(r, c int) int { return rows[r] + cols[c] })
}

// checkPackB checks packB's panels of nr columns of the view, each
// column's elements along its rows.
func checkPackB[T float32 | float64](t *testing.T, src []float32, rows, cols []int, nr int) {
	t.Helper()
	checkPanels(t, "packB", src, cols, rows, nr, func(got []T) {
		packB(got, src, 3, rows, cols, nr, isUnit(rows), isUnit(cols))
	}, func(c, r int) int { return rows[r] + cols[c] })
}

// checkPanels runs pack into a buffer of panels of width lines of across
// (zero-padded past its end), each line's elements along along, and
// compares each element with src[3+at(line, k)].
func checkPanels[T float32 | float64](t *testing.T, what string, src []float32, across, along []int, width int, pack func([]T), at func(line, k int) int) {
	t.Helper()
	kc, panels := len(along), (len(across)+width-1)/width
	got := make([]T, panels*width*kc)
	for i := range got {
		got[i] = -1 // pack must write every element
	}
	pack(got)
	for q := range panels {
		for p := range kc {
			for i := range width {
				want := T(0)
				if line := q*width + i; line < len(across) {
					want = T(src[3+at(line, p)])
				}
				if g := got[q*width*kc+p*width+i]; g != want {
					t.Fatalf("%s width %d: panel %d, element %d of line %d = %v, want %v", what, width, q, p, i, g, want)
				}
			}
		}
	}
}
