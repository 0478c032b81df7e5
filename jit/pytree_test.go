package jit_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
)

type model struct {
	Weights map[string]jit.Array
	Bias    *jit.Array
	Stack   [2]jit.Array
	Name    string `jit:"static"`
}

func TestPytreeRoundTrip(t *testing.T) {
	x := jit.FromSlice([]float32{1, 2})
	b := jit.FromSlice([]float32{10, 20})
	f := jit.Jit(func(m model, xs []jit.Array) (model, []jit.Array) {
		out := model{Weights: map[string]jit.Array{}, Name: m.Name + "!"}
		for k, w := range m.Weights {
			out.Weights[k] = w.Mul(2)
		}
		nb := m.Bias.Add(1)
		out.Bias = &nb
		out.Stack = [2]jit.Array{m.Stack[1], m.Stack[0]}
		return out, append(xs, xs[0].Add(xs[1]))
	})
	m := model{Weights: map[string]jit.Array{"b": x, "a": b}, Bias: &b, Stack: [2]jit.Array{x, b}, Name: "m"}
	got, xs := f.Call(m, []jit.Array{x, b})
	if got.Name != "m!" || got.Weights["a"].Float32s()[0] != 20 || got.Weights["b"].Float32s()[1] != 4 ||
		got.Bias.Float32s()[0] != 11 || got.Stack[0].Float32s()[0] != 10 || len(xs) != 3 || xs[2].Float32s()[1] != 22 {
		t.Errorf("round trip: %+v %v", got, xs)
	}
	// same structure and types: a hit; a new map key or nil pointer: a miss
	f.Call(m, []jit.Array{b, x})
	m2 := m
	m2.Weights = map[string]jit.Array{"a": x, "c": b}
	f.Call(m2, []jit.Array{x, b})
	if s := f.Stats(); s.Compiles != 2 || s.Hits != 1 {
		t.Errorf("stats %+v (signatures %v)", s, f.Signatures())
	}
}

func TestPytreeRejectsUnexportedFields(t *testing.T) {
	type hidden struct {
		W jit.Array
		n int
	}
	_, err := jit.MakeJaxpr(func(h hidden) jit.Array { return h.W })(hidden{W: jit.Zeros(jit.Float32, 1)})
	if err == nil || !strings.Contains(err.Error(), "unexported field n") {
		t.Errorf("got %v", err)
	}
}

// TestJITPlatformEnv runs this test binary again with JIT_PLATFORM=gpu: the
// default backend is forced to gpu, and (without a GPU) calls fail with a
// clear backend error instead of silently running on the CPU.
func TestJITPlatformEnv(t *testing.T) {
	if os.Getenv("JIT_PLATFORM_CHILD") == "1" {
		if jit.DefaultBackend() != os.Getenv("JIT_PLATFORM") {
			t.Fatalf("DefaultBackend() = %q", jit.DefaultBackend())
		}
		_, err := jit.Jit(func(x jit.Array) jit.Array { return x }).Lower(jit.Spec(jit.Float32, 1))
		if jit.DefaultBackend() == "cpu" {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		if jit.BackendError("gpu") == nil {
			t.Skip("a GPU works here")
		}
		if err == nil || !strings.Contains(err.Error(), `backend "gpu" is not available`) {
			t.Fatalf("Lower on an unavailable forced backend: %v", err)
		}
		return
	}
	for _, p := range []string{"cpu", "gpu"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestJITPlatformEnv$", "-test.v")
		cmd.Env = append(os.Environ(), "JIT_PLATFORM_CHILD=1", "JIT_PLATFORM="+p)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- ") {
			t.Errorf("JIT_PLATFORM=%s: %v\n%s", p, err, out)
		}
	}
}
