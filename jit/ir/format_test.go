package ir

import (
	"math"
	"testing"
)

// buf builds a buffer of the given dtype and shape from values.
func buf(dt DType, shape []int, vals ...float64) *Buffer {
	b := NewBuffer(dt, shape)
	for i, v := range vals {
		b.Set(i, v)
	}
	return b
}

// arange returns 0, 1, …, n-1 as a buffer of the given dtype and shape.
func arange(dt DType, n int, shape ...int) *Buffer {
	if shape == nil {
		shape = []int{n}
	}
	b := NewBuffer(dt, shape)
	for i := range n {
		b.Set(i, float64(i))
	}
	return b
}

// The expected strings are numpy's str(np.asarray(x)) with default options.
func TestBufferStringMatchesNumpy(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		b    *Buffer
		want string
	}{
		{"halves", buf(Float32, []int{5}, 0, 0, 0, 0.5, 1), "[0.  0.  0.  0.5 1. ]"},
		{"sin-ish", buf(Float32, []int{3}, 0.31326166, 0.974077, 2.126928), "[0.31326166 0.974077   2.126928  ]"},
		{"tenths", buf(Float32, []int{2}, 0.1, 0.2), "[0.1 0.2]"},
		{"third f32", buf(Float32, []int{1}, 1.0/3), "[0.33333334]"},
		{"third f64", buf(Float64, []int{1}, 1.0/3), "[0.33333333]"},
		{"signs", buf(Float32, []int{2}, -1.5, 2.25), "[-1.5   2.25]"},
		{"non-finite", buf(Float32, []int{3}, 1, nan, inf), "[ 1. nan inf]"},
		{"only non-finite", buf(Float32, []int{3}, nan, inf, -inf), "[ nan  inf -inf]"},
		{"scientific", buf(Float32, []int{2}, 1e-5, 1), "[1.e-05 1.e+00]"},
		{"scientific nan", buf(Float32, []int{2}, 1e-5, nan), "[1.e-05    nan]"},
		{"big", buf(Float64, []int{2}, 1.5e8, 2), "[1.5e+08 2.0e+00]"},
		{"2-d", arange(Float32, 4, 2, 2), "[[0. 1.]\n [2. 3.]]"},
		{"3-d ints", arange(Int32, 8, 2, 2, 2), "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"},
		{"ints", buf(Int32, []int{3}, 1, 2, 3), "[1 2 3]"},
		{"ints padded", buf(Int64, []int{2}, -1, 10), "[-1 10]"},
		{"bools", buf(Bool, []int{2}, 1, 0), "[ True False]"},
		{"wrap", arange(Float32, 30),
			"[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n" +
				" 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]"},
		{"summary float", arange(Float32, 2000), "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]"},
		{"summary int", arange(Int32, 2000), "[   0    1    2 ... 1997 1998 1999]"},
		{"summary 2-d", NewBuffer(Float32, []int{100, 100}),
			"[[0. 0. 0. ... 0. 0. 0.]\n [0. 0. 0. ... 0. 0. 0.]\n [0. 0. 0. ... 0. 0. 0.]\n ...\n" +
				" [0. 0. 0. ... 0. 0. 0.]\n [0. 0. 0. ... 0. 0. 0.]\n [0. 0. 0. ... 0. 0. 0.]]"},
		{"empty", NewBuffer(Float32, []int{0}), "[]"},
		{"scalar", ScalarBuffer(Float32, 2), "2.0"},
		{"scalar tenth", ScalarBuffer(Float32, 0.1), "0.1"},
		{"scalar tiny", ScalarBuffer(Float32, 1e-5), "1e-05"},
		{"scalar huge", ScalarBuffer(Float64, 1e16), "1e+16"},
		{"scalar nan", ScalarBuffer(Float32, nan), "nan"},
		{"scalar int", ScalarBuffer(Int32, 3), "3"},
		{"scalar bool", ScalarBuffer(Bool, 1), "True"},
		{"float16", buf(Float16, []int{2}, 0.1, 1), "[0.1 1. ]"},
		{"float32 cutoff", buf(Float32, []int{2}, 1e6, 2e6), "[1.e+06 2.e+06]"},
		{"float32 below cutoff", buf(Float32, []int{1}, 999999), "[999999.]"},
		{"float64 cutoff", buf(Float64, []int{2}, 1e6, 2e6), "[1000000. 2000000.]"},
		{"float16 cutoff", buf(Float16, []int{1}, 1000), "[1.e+03]"},
		{"scalar f32 cutoff", ScalarBuffer(Float32, 1e6), "1e+06"},
		{"scalar f32 below cutoff", ScalarBuffer(Float32, 123456), "123456.0"},
		{"scalar f16 cutoff", ScalarBuffer(Float16, 1000), "1e+03"},
		{"bfloat16", buf(BFloat16, []int{3}, 0.1, 1, 300), "[0.100098 1 300]"},
		{"scalar bfloat16", ScalarBuffer(BFloat16, 0.01), "0.0100098"},
	}
	for _, c := range cases {
		if got := c.b.String(); got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

func BenchmarkBufferString1000(b *testing.B) {
	buf := NewBuffer(Float32, []int{1000})
	for i := range 1000 {
		buf.Set(i, math.Sin(float64(i)))
	}
	for b.Loop() {
		_ = buf.String()
	}
}
