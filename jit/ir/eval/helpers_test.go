package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/ir"
)

// fbuf makes a float buffer of dtype dt (values rounded to dt).
func fbuf(dt ir.DType, shape []int, vals ...float64) *ir.Buffer {
	b := ir.NewBuffer(dt, shape)
	if len(vals) != b.Len() {
		panic(fmt.Sprintf("fbuf: %d values for shape %v", len(vals), shape))
	}
	for i, v := range vals {
		b.Set(i, v)
	}
	return b
}

// vec makes a 1-D buffer.
func vec(dt ir.DType, vals ...float64) *ir.Buffer { return fbuf(dt, []int{len(vals)}, vals...) }

// scalar makes a 0-d buffer.
func scalar(dt ir.DType, v float64) *ir.Buffer { return ir.ScalarBuffer(dt, v) }

// i64vec makes an exact int64 vector.
func i64vec(vals ...int64) *ir.Buffer {
	return &ir.Buffer{DType: ir.Int64, Shape: []int{len(vals)}, Data: vals}
}

// i32vec makes an exact int32 vector.
func i32vec(vals ...int32) *ir.Buffer {
	return &ir.Buffer{DType: ir.Int32, Shape: []int{len(vals)}, Data: vals}
}

// bvec makes a bool vector.
func bvec(vals ...bool) *ir.Buffer {
	return &ir.Buffer{DType: ir.Bool, Shape: []int{len(vals)}, Data: vals}
}

// mustApply applies prim and fails the test on error or a result count other than 1.
func mustApply(t *testing.T, prim string, params ir.Params, args ...*ir.Buffer) *ir.Buffer {
	t.Helper()
	out, err := Apply(prim, params, args)
	if err != nil {
		t.Fatalf("Apply(%s): %v", prim, err)
	}
	if len(out) != 1 {
		t.Fatalf("Apply(%s): %d results, want 1", prim, len(out))
	}
	return out[0]
}

// sameFloat reports whether a and b are equal, both NaN, or zeros of the same sign.
func sameFloat(a, b float64) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// wantBuf checks got's dtype, shape and values (compared as float64; NaN equals NaN).
func wantBuf(t *testing.T, got *ir.Buffer, dt ir.DType, shape []int, vals ...float64) {
	t.Helper()
	if got.DType != dt || fmt.Sprint(got.Shape) != fmt.Sprint(shape) {
		t.Fatalf("got %s, want %s%v", got.Aval(), dt, shape)
	}
	if err := CheckBuffer(got); err != nil {
		t.Fatalf("malformed result: %v", err)
	}
	if len(vals) != got.Len() {
		t.Fatalf("test bug: %d expected values for %d elements", len(vals), got.Len())
	}
	for i, v := range vals {
		if !sameFloat(got.At(i), v) {
			t.Fatalf("element %d = %v, want %v (all: %v)", i, got.At(i), v, got.Data)
		}
	}
}

// wantErr checks that err is non-nil and mentions each fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one mentioning %q", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not mention %q", err, f)
		}
	}
}

var (
	floatTypes = []ir.DType{ir.Float32, ir.Float64, ir.BFloat16, ir.Float16}
	intTypes   = []ir.DType{ir.Int32, ir.Int64}
	nan        = math.NaN()
	inf        = math.Inf(1)
)

// rnd rounds a float64 reference value to dt (f64 unchanged).
func rnd(dt ir.DType, v float64) float64 {
	if dt == ir.Float64 {
		return v
	}
	return float64(ir.RoundTo(dt, v))
}

// sin is math.Sin (short name for expected-value expressions).
func sin(x float64) float64 { return math.Sin(x) }
