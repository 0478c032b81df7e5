package jit_test

//jitlint:file-ignore tracedbool,traceeffect,staticargs these tests make each trace-time error happen on purpose

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

// here returns this file's name and the line after the call, where a test
// triggers its error.
func here() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", file, line+1)
}

// catch runs f and returns the *jit.Error it panicked with.
func catch(t *testing.T, f func()) *jit.Error {
	t.Helper()
	var got *jit.Error
	func() {
		defer func() {
			r := recover()
			err, ok := r.(error)
			if !ok || !errors.As(err, &got) {
				t.Fatalf("expected a *jit.Error panic, got %v", r)
			}
		}()
		f()
	}()
	return got
}

var boolLine string

func reluBad(x jit.Array) jit.Array {
	boolLine = here()
	if x.Gt(0).Bool() {
		return x
	}
	return x.Mul(0)
}

func TestErrorKinds(t *testing.T) {
	x := jit.Zeros(jit.Float32, 3)
	var line string
	cases := []struct {
		name string
		kind jit.ErrorKind
		run  func()
		pos  *string
		msg  []string
	}{
		{"bool", jit.TracerBoolConversion, func() { jit.Jit(reluBad).Call(x) }, &boolLine,
			[]string{"Attempted boolean conversion of traced array with shape bool[3]", "tracing the function reluBad for jit",
				"depends on the value of the argument x", "Use jit.Where(cond, x, y)", "jit.Cond(pred, f, g, x)"}},
		{"item", jit.Concretization, func() {
			jit.Jit(func(y jit.Array) jit.Array {
				line = here()
				_ = y.Sum().Item()
				return y
			}).Call(x)
		}, &line, []string{"Abstract tracer value encountered where concrete value is expected: traced array with shape f32[]", "`Item`", "argument y"}},
		{"int", jit.Concretization, func() {
			jit.Jit(func(y jit.Array) jit.Array {
				line = here()
				return jit.Zeros(jit.Float32, y.Sum().Int())
			}).Call(x)
		}, &line, []string{"`Int`"}},
		{"float32s", jit.Concretization, func() {
			jit.Jit(func(y jit.Array) jit.Array {
				line = here()
				_ = y.Float32s()
				return y
			}).Call(x)
		}, &line, []string{"`Float32s`"}},
		{"shape", jit.ShapeMismatch, func() {
			jit.Jit(func(a, b jit.Array) jit.Array {
				line = here()
				return a.Add(b)
			}).Call(x, jit.Zeros(jit.Float32, 4))
		}, &line, []string{"incompatible shapes for broadcasting: [3] and [4]"}},
		{"matmul", jit.ShapeMismatch, func() {
			line = here()
			jit.Zeros(jit.Float32, 2, 3).MatMul(jit.Zeros(jit.Float32, 4, 2))
		}, &line, []string{"contracting dimensions differ: shapes [2 3] and [4 2]"}},
		{"dtype", jit.DTypeMismatch, func() {
			jit.Jit(func(a jit.Array) jit.Array {
				line = here()
				return a.And(a)
			}).Call(x)
		}, &line, []string{"and needs bool or integer operands, got f32 and f32"}},
		{"while cond dtype", jit.DTypeMismatch, func() {
			line = here()
			jit.WhileLoop(func(c jit.Array) jit.Array { return c }, func(c jit.Array) jit.Array { return c }, x.Sum())
		}, &line, []string{"cond must return a bool, got f32[]"}},
		{"static arg not comparable", jit.BadStaticArg, func() {
			f := jit.Jit(func(s []int, y jit.Array) jit.Array { return y }, jit.StaticArgnums(0))
			line = here()
			f.Call([]int{1}, x)
		}, &line, []string{"static argument s has type []int, which is not comparable"}},
		{"array as static", jit.BadStaticArg, func() {
			f := jit.Jit(func(n jit.Array, y jit.Array) jit.Array { return y }, jit.StaticArgnums(0))
			line = here()
			f.Call(x, x)
		}, &line, []string{"argument 0 (n) is static (StaticArgnums) but got a jit.Array"}},
		{"non-static number", jit.BadArgument, func() {
			f := jit.Jit(func(n int, y jit.Array) jit.Array { return y })
			line = here()
			f.Call(3, x)
		}, &line, []string{"n has type int, which is not an Array", "jit.StaticArgnums"}},
		{"arg count", jit.BadArgCount, nil, nil, nil}, // AOT: returned, not panicked
		{"branch mismatch", jit.BranchMismatch, func() {
			jit.Jit(func(p, y jit.Array) jit.Array {
				line = here()
				return jit.Cond(p, func(v jit.Array) jit.Array { return v }, func(v jit.Array) jit.Array { return v.Sum() }, y)
			}).Call(jit.Scalar(true), x)
		}, &line, []string{"the true branch returns * (f32[3]) but the false branch returns * (f32[])"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.kind == jit.BadArgCount {
				_, err := jit.MakeJaxpr(func(a, b jit.Array) jit.Array { return a })(x)
				var e *jit.Error
				if !errors.As(err, &e) || e.Kind != jit.BadArgCount || !strings.Contains(e.Msg, "takes 2 arguments, got 1") {
					t.Fatalf("MakeJaxpr with one argument for two: %v", err)
				}
				return
			}
			e := catch(t, c.run)
			if e.Kind != c.kind {
				t.Errorf("kind = %v, want %v (%v)", e.Kind, c.kind, e)
			}
			if e.Pos != *c.pos {
				t.Errorf("Pos = %q, want the user's line %q", e.Pos, *c.pos)
			}
			for _, m := range c.msg {
				if !strings.Contains(e.Error(), m) {
					t.Errorf("message lacks %q:\n%s", m, e.Error())
				}
			}
		})
	}
}

func TestAOTReturnsErrors(t *testing.T) {
	_, err := jit.Jit(reluBad).Trace(jit.Spec(jit.Float32, 2))
	var e *jit.Error
	if !errors.As(err, &e) || e.Kind != jit.TracerBoolConversion || e.Pos != boolLine {
		t.Fatalf("Trace returned %v, want a TracerBoolConversion at %s", err, boolLine)
	}
	if _, err := jit.Jit(reluBad).Lower(jit.Spec(jit.Float32, 2)); err == nil {
		t.Error("Lower of a failing trace returned no error")
	}
}

func TestHostConversionsOnConcreteArrays(t *testing.T) {
	x := jit.FromSlice([]float32{1.5, -2}, 2)
	if x.Sum().Item() != -0.5 || !x.Gt(0).Sum().Gt(0).Bool() || x.Slice([]int{0}, []int{1}).Sum().Int() != 1 {
		t.Error("host conversions of concrete arrays")
	}
	if got := jit.FromSlice([]int32{1, 0}).Bools(); !got[0] || got[1] {
		t.Errorf("Bools = %v", got)
	}
	e := catch(t, func() { x.Bool() })
	if e.Kind != jit.ShapeMismatch {
		t.Errorf("Bool of a 2-element array: %v", e)
	}
}

func TestLeakedTracer(t *testing.T) {
	var leaked jit.Array
	jit.Jit(func(x jit.Array) jit.Array {
		leaked = x.Mul(2)
		return x
	}).Call(jit.Zeros(jit.Float32, 2))
	e := catch(t, func() { leaked.Add(1) })
	if e.Kind != jit.LeakedTracer {
		t.Errorf("kind %v", e.Kind)
	}
}
