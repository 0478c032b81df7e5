// Command fn_table serves elementwise "feature ops" from a table of jitted
// functions, dispatching requests by op name.
package main

import (
	"fmt"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

type unary = func(jit.Array) jit.Array

var ops = map[string]unary{
	"relu":     jit.Relu,
	"softplus": jit.Softplus,
	"swish":    func(x jit.Array) jit.Array { return x.Mul(x.Logistic()) },
	"gelu": func(x jit.Array) jit.Array {
		return x.Mul(x.Mul(1.702).Logistic())
	},
}

// ApplyScaled applies an op by index and scales it; both are static.
func ApplyScaled(x jit.Array, op int, scale float64) jit.Array {
	names := []string{"gelu", "relu", "softplus", "swish"}
	return ops[names[op]](x).Mul(scale)
}

// ApplyOp applies an op by index (static) and a traced scale.
func ApplyOp(x, scale jit.Array, op int) jit.Array {
	names := []string{"gelu", "relu", "softplus", "swish"}
	return ops[names[op]](x).Mul(scale)
}

// Quantize buckets values into 8 levels using host code (on concrete
// arrays only).
func Quantize(x jit.Array) jit.Array {
	vals := x.Float32s()
	out := make([]float32, len(vals))
	for i, v := range vals {
		out[i] = float32(int(v*8)) / 8
	}
	return jit.FromSlice(out, x.Shape()...)
}

// QuantizeTraced is Quantize with array ops.
func QuantizeTraced(x jit.Array) jit.Array {
	return x.Mul(8).Floor().Div(8)
}

type request struct {
	op    string
	scale float64
}

func main() {
	// Build the table once: one wrapper per op, reused by every request.
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	table := map[string]*jit.Func[unary]{}
	for _, n := range names {
		table[n] = jit.Jit(ops[n])
	}

	var reqs []request
	for i := 0; i < 16; i++ {
		reqs = append(reqs, request{names[i%len(names)], 1 + float64(i)*0.25})
	}
	x := jit.FromSlice([]float32{-2, -1, -0.5, 0, 0.5, 1, 2, 3})

	var sum float64
	for _, r := range reqs {
		sum += table[r.op].Call(x).Sum().Item() * r.scale
	}
	fmt.Printf("table: %.3f\n", sum)

	// Per-request closure: a new function (and cache) every time.
	sum = 0
	for _, r := range reqs {
		f := ops[r.op]
		scaled := jit.Jit(func(x jit.Array) jit.Array { return f(x).Mul(r.scale) }) // want staticargs
		sum += scaled.Call(x).Sum().Item()
	}
	fmt.Printf("closures: %.3f\n", sum)

	// Static op index and static scale: the scale differs on every request.
	applyS := jit.Jit(ApplyScaled, jit.StaticArgnums(1, 2))
	sum = 0
	for _, r := range reqs {
		idx := sort.SearchStrings(names, r.op)
		sum += applyS.Call(x, idx, r.scale).Sum().Item() // want staticargs
	}
	fmt.Printf("static scale: %.3f\n", sum)

	// Static op index only (4 values that repeat), traced scale.
	apply := jit.Jit(ApplyOp, jit.StaticArgnums(2))
	sum = 0
	for _, r := range reqs {
		idx := sort.SearchStrings(names, r.op)
		sum += apply.Call(x, jit.Scalar(float32(r.scale)), idx).Sum().Item()
	}
	fmt.Printf("static op: %.3f (compiles %d)\n", sum, apply.Stats().Compiles)

	host := Quantize(table["relu"].Call(x))
	dev := jit.Jit(QuantizeTraced).Call(table["relu"].Call(x))
	fmt.Println("quantized:", host, dev)
}
