package cpu_test

import (
	"math"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit"
	_ "github.com/jitlint/jitlint/jit/cpu"
)

// The products as jit stages them: the MLP's bias and activation fuse into
// the product, Grad's transposed products and Vmap's batched ones run as
// one product each, none through the evaluator.

func mlpForward(x, w1, b, w2 jit.Array) jit.Array { return x.MatMul(w1).Add(b).Tanh().MatMul(w2) }

type mlp struct{ W1, B, W2 jit.Array }

func mlpLoss(p mlp, x jit.Array) jit.Array { return mlpForward(x, p.W1, p.B, p.W2).Sum() }

// seq returns n values i·scale - shift as a float32 array of this shape.
func seq(scale, shift float64, shape ...int) jit.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(float64(i%97)*scale - shift)
	}
	return jit.FromSlice(v, shape...)
}

func TestMLPProductsFuseAndMatch(t *testing.T) {
	const m, k, h, o = 37, 50, 70, 3
	x, w1, b, w2 := seq(0.01, 0.4, m, k), seq(0.003, 0.1, k, h), seq(0.01, 0.2, h), seq(0.02, 0.9, h, o)
	f := jit.Jit(mlpForward)
	l, err := f.Lower(x, w1, b, w2)
	if err != nil {
		t.Fatal(err)
	}
	txt := l.AsText()
	// Only the bias's reshape to [1, 70] is evaluated (70 elements).
	if !strings.Contains(txt, "its 3 elementwise consumers run on each finished block") || strings.Count(txt, "evaluated") != 1 {
		t.Fatalf("the bias add and tanh should run in the first product's epilogue:\n%s", txt)
	}
	got := f.Call(x, w1, b, w2).Float32s()
	// float64 reference.
	xs, w1s, bs, w2s := x.Float32s(), w1.Float32s(), b.Float32s(), w2.Float32s()
	hid := make([]float64, m*h)
	for i := range m {
		for j := range h {
			s := float64(bs[j])
			for p := range k {
				s += float64(xs[i*k+p]) * float64(w1s[p*h+j])
			}
			hid[i*h+j] = math.Tanh(s)
		}
	}
	for i := range m {
		for j := range o {
			s := 0.0
			for p := range h {
				s += hid[i*h+p] * float64(w2s[p*o+j])
			}
			if d := math.Abs(float64(got[i*o+j]) - s); d > 1e-4 {
				t.Fatalf("out[%d,%d] = %v, want %v", i, j, got[i*o+j], s)
			}
		}
	}
}

func TestGradAndVmapProductsRunAsProducts(t *testing.T) {
	const m, k, h, o = 16, 12, 20, 4
	p := mlp{W1: seq(0.003, 0.1, k, h), B: seq(0.01, 0.2, h), W2: seq(0.02, 0.9, h, o)}
	x := seq(0.01, 0.4, m, k)
	g := jit.Jit(jit.Grad[func(mlp, jit.Array) mlp](mlpLoss))
	l, err := g.Lower(p, x)
	if err != nil {
		t.Fatal(err)
	}
	txt := l.AsText()
	if strings.Count(txt, "packed GEMM")+strings.Count(txt, "direct loops") < 4 || strings.Contains(txt, "= transpose") {
		t.Fatalf("the gradient's products should be products, their transposes folded:\n%s", txt)
	}
	grad := g.Call(p, x)
	// dL/dB is the column sums of (1 - hidden²)·(W2 summed over outputs).
	if n := len(grad.B.Float32s()); n != h {
		t.Fatalf("gradient of B has %d elements, want %d", n, h)
	}
	bmm := jit.Jit(jit.Vmap(func(a, b jit.Array) jit.Array { return a.MatMul(b) }))
	a3, b3 := seq(0.1, 2, 5, 6, 7), seq(0.1, 3, 5, 7, 3)
	lv, err := bmm.Lower(a3, b3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lv.AsText(), "5 batches of 6×7·7×3") {
		t.Fatalf("Vmap's product should be one batched product:\n%s", lv.AsText())
	}
	got := bmm.Call(a3, b3).Float32s()
	av, bv := a3.Float32s(), b3.Float32s()
	for bi := range 5 {
		for i := range 6 {
			for j := range 3 {
				s := 0.0
				for q := range 7 {
					s += float64(av[bi*42+i*7+q]) * float64(bv[bi*21+q*3+j])
				}
				if d := math.Abs(float64(got[bi*18+i*3+j]) - s); d > 1e-4 {
					t.Fatalf("batch %d [%d,%d] = %v, want %v", bi, i, j, got[bi*18+i*3+j], s)
				}
			}
		}
	}
}
