package jit_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// refMatMul is numpy's matmul on row-major float64 data, written out. A
// 1-D b is a column; a 1-D a must be passed as a row ([1, k]).
func refMatMul(a []float64, as []int, b []float64, bs []int) ([]float64, []int) {
	if len(bs) == 1 {
		bs = []int{bs[0], 1}
	}
	ab, bb := as[:len(as)-2], bs[:len(bs)-2]
	nb := max(len(ab), len(bb))
	pad := func(s []int) []int {
		out := make([]int, nb)
		for i := range out {
			out[i] = 1
		}
		copy(out[nb-len(s):], s)
		return out
	}
	pa, pb := pad(ab), pad(bb)
	batch := make([]int, nb)
	for i := range batch {
		batch[i] = max(pa[i], pb[i])
	}
	n, k, m := as[len(as)-2], as[len(as)-1], bs[len(bs)-1]
	total := 1
	for _, d := range batch {
		total *= d
	}
	out := make([]float64, total*n*m)
	idx := make([]int, nb)
	for t := 0; t < total; t++ {
		r := t
		for i := nb - 1; i >= 0; i-- {
			idx[i] = r % batch[i]
			r /= batch[i]
		}
		off := func(p []int) int {
			o := 0
			for i := range p {
				j := idx[i]
				if p[i] == 1 {
					j = 0
				}
				o = o*p[i] + j
			}
			return o
		}
		oa, ob := off(pa)*n*k, off(pb)*k*m
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				s := 0.0
				for l := 0; l < k; l++ {
					s += a[oa+i*k+l] * b[ob+l*m+j]
				}
				out[(t*n+i)*m+j] = s
			}
		}
	}
	shape := append(append([]int{}, batch...), n, m)
	return out, shape
}

func iotaData(n int, scale float64) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Sin(float64(i)*scale) * 2
	}
	return d
}

func TestMatMulBroadcastsBatchDims(t *testing.T) {
	cases := []struct{ as, bs, want []int }{
		{[]int{2, 3, 4}, []int{4, 5}, []int{2, 3, 5}},
		{[]int{4, 5}, []int{2, 5, 3}, []int{2, 4, 3}},
		{[]int{2, 1, 3, 4}, []int{5, 4, 2}, []int{2, 5, 3, 2}},
		{[]int{1, 3, 4}, []int{2, 4, 5}, []int{2, 3, 5}},
		{[]int{2, 3, 4}, []int{2, 4, 5}, []int{2, 3, 5}},
		{[]int{4}, []int{2, 4, 5}, []int{2, 5}},
		{[]int{2, 3, 4}, []int{4}, []int{2, 3}},
	}
	for _, c := range cases {
		na, nb := 1, 1
		for _, d := range c.as {
			na *= d
		}
		for _, d := range c.bs {
			nb *= d
		}
		ad, bd := iotaData(na, 0.7), iotaData(nb, 1.3)
		a, b := jit.FromSlice(ad, c.as...), jit.FromSlice(bd, c.bs...)
		//jitlint:ignore staticargs a new wrapper, and one compile, per shape case is the point of the test
		got := jit.Jit(func(x, y jit.Array) jit.Array { return x.MatMul(y) }).Call(a, b)
		if !slices.Equal(got.Shape(), c.want) {
			t.Errorf("%v @ %v: shape %v, want %v", c.as, c.bs, got.Shape(), c.want)
			continue
		}
		// Reference: vectors become matrices and the added dimension is dropped.
		ras, rbs := c.as, c.bs
		if len(ras) == 1 {
			ras = []int{1, ras[0]}
		}
		want, _ := refMatMul(ad, ras, bd, rbs)
		for i, g := range got.Float64s() {
			if math.Abs(g-want[i]) > 1e-9 {
				t.Errorf("%v @ %v: element %d = %v, want %v", c.as, c.bs, i, g, want[i])
				break
			}
		}
	}
	e := catch(t, func() { jit.Zeros(jit.Float32, 2, 3, 4).MatMul(jit.Zeros(jit.Float32, 3, 4, 5)) })
	if e.Kind != jit.ShapeMismatch || !strings.Contains(e.Msg, "incompatible batch dimensions") {
		t.Errorf("mismatched batch: %v", e)
	}
}

func TestMatMulRank3ByMatrixJaxpr(t *testing.T) {
	cj, err := jit.MakeJaxpr(func(x, y jit.Array) jit.Array { return x.MatMul(y) })(
		jit.Spec(jit.Float32, 2, 3, 4), jit.Spec(jit.Float32, 4, 5))
	if err != nil {
		t.Fatal(err)
	}
	want := `{ lambda ; a:f32[2,3,4] b:f32[4,5]. let
    c:f32[2,3,5] = dot_general[
      dimension_numbers=(([2], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }`
	if got := cj.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
