// Package primtest is test support for the primitive coverage tests: the
// list of primitives that jit/ir declares, read from its source, and one
// small program for each. The tests that import it (jit/ir's and the GPU
// backend's) run every sample through every consumer of jaxprs: the
// evaluator, the CPU backend, the GPU lowering, the cost model and the
// printer. A primitive added to jit/ir/prims.go without a sample here fails
// them, and the sample then shows which consumer forgot it.
package primtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"

	"github.com/jitlint/jitlint/jit/ir"
)

// Declared returns the primitive names that jit/ir/prims.go declares (the
// string constants of its const block), sorted.
func Declared() ([]string, error) {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		return nil, fmt.Errorf("primtest: cannot locate its own source")
	}
	file := filepath.Join(filepath.Dir(here), "..", "..", "ir", "prims.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("primtest: reading the primitives: %v", err)
	}
	var prims []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, err
					}
					prims = append(prims, s)
				}
			}
		}
	}
	slices.Sort(prims)
	return prims, nil
}

// Sample is a closed jaxpr whose one top-level equation applies a primitive,
// with arguments for it.
type Sample struct {
	Jaxpr *ir.ClosedJaxpr
	Args  []*ir.Buffer
}

// NoFlops are the primitives that the cost model counts as free (data
// movement, stop_gradient's identity and printing, as ir.CostOf documents);
// every other sample must cost something.
var NoFlops = map[string]bool{
	ir.BroadcastInDim: true, ir.Reshape: true, ir.Transpose: true, ir.Slice: true, ir.Pad: true,
	ir.Concatenate: true, ir.Squeeze: true, ir.Iota: true, ir.DebugPrint: true, ir.StopGradient: true,
}

func av(dt ir.DType, shape ...int) ir.Aval { return ir.Aval{DType: dt, Shape: shape} }

func lit(dt ir.DType, v float64) ir.Literal { return ir.Literal{Value: v, Aval: av(dt)} }

// buf fills a buffer of type a with small values (0.25, 0.5, ... for
// floats, 1, 2, ... for integers, alternating for bools).
func buf(a ir.Aval) *ir.Buffer {
	b := ir.NewBuffer(a.DType, a.Shape)
	for i := range b.Len() {
		switch {
		case a.DType.IsFloat():
			b.Set(i, 0.25*float64(i+1))
		case a.DType.IsInt():
			b.Set(i, float64(i+1))
		default:
			b.Set(i, float64(i%2))
		}
	}
	return b
}

// closed finishes b's jaxpr with outs and makes arguments for its inputs.
func closed(b *ir.Builder, name string, outs ...ir.Atom) Sample {
	cj := b.Done(name, outs...)
	var args []*ir.Buffer
	for _, v := range cj.Jaxpr.Invars {
		args = append(args, buf(v.Aval))
	}
	return Sample{Jaxpr: cj, Args: args}
}

// elementwise makes the sample of an elementwise unary or binary primitive
// (comparisons included) on f32[2,3], or on i32[2,3] for not, and, or.
func elementwise(prim string) Sample {
	var b ir.Builder
	dt := ir.Float32
	if prim == ir.Not || prim == ir.And || prim == ir.Or {
		dt = ir.Int32
	}
	x := b.In(dt, 2, 3)
	var params ir.Params
	if prim == ir.IntegerPow {
		params = ir.Params{"y": 3}
	}
	in := []ir.Atom{x}
	if ir.IsBinary(prim) {
		in = append(in, b.In(dt, 2, 3))
	}
	out := av(dt, 2, 3)
	if ir.IsCompare(prim) {
		out.DType = ir.Bool
	}
	return closed(&b, prim, b.Op(prim, params, out, in...))
}

// rule is a custom_jvp_call's jvp parameter that has only a name (the
// samples are run, printed and costed, never differentiated).
type rule string

// RuleName is the rule's name.
func (r rule) RuleName() string { return string(r) }

// body is { x:f32[3] . sin(x) * 2 }, the inner program of the control-flow
// samples.
func body() *ir.ClosedJaxpr {
	var b ir.Builder
	x := b.In(ir.Float32, 3)
	s := b.Same(ir.Sin, x)
	return b.Done("body", b.Same(ir.Mul, s, lit(ir.Float32, 2)))
}

// Samples returns a sample for every primitive it knows, by name: the
// elementwise ones among declared (see Declared) and each of the others.
func Samples(declared []string) map[string]Sample {
	out := map[string]Sample{}
	for _, p := range declared {
		if ir.IsUnary(p) || ir.IsBinary(p) {
			out[p] = elementwise(p)
		}
	}
	f23 := av(ir.Float32, 2, 3)
	one := func(prim string, params ir.Params, outAval ir.Aval, ins ...ir.Aval) {
		var b ir.Builder
		var in []ir.Atom
		for _, a := range ins {
			in = append(in, b.Input(a))
		}
		out[prim] = closed(&b, prim, b.Op(prim, params, outAval, in...))
	}
	one(ir.SelectN, nil, f23, av(ir.Bool, 2, 3), f23, f23)
	one(ir.Clamp, nil, f23, f23, f23, f23)
	one(ir.StopGradient, nil, f23, f23)
	one(ir.ConvertElementType, ir.Params{"new_dtype": ir.Int32, "weak_type": false, "sharding": nil}, av(ir.Int32, 2, 3), f23)
	one(ir.BroadcastInDim, ir.Params{"shape": []int{4, 2, 3}, "broadcast_dimensions": []int{1, 2}, "sharding": nil}, av(ir.Float32, 4, 2, 3), f23)
	one(ir.Reshape, ir.Params{"new_sizes": []int{3, 2}, "dimensions": nil, "sharding": nil}, av(ir.Float32, 3, 2), f23)
	one(ir.Transpose, ir.Params{"permutation": []int{1, 0}}, av(ir.Float32, 3, 2), f23)
	one(ir.Squeeze, ir.Params{"dimensions": []int{0}}, av(ir.Float32, 3), av(ir.Float32, 1, 3))
	for _, p := range []string{ir.ReduceSum, ir.ReduceMax, ir.ReduceMin} {
		one(p, ir.Params{"axes": []int{1}, "out_sharding": nil}, av(ir.Float32, 2), f23)
	}
	one(ir.Concatenate, ir.Params{"dimension": 0}, av(ir.Float32, 4, 3), f23, f23)
	one(ir.Pad, ir.Params{"padding_config": [][3]int{{1, 0, 0}, {0, 2, 1}}}, av(ir.Float32, 3, 7), f23, av(ir.Float32))
	one(ir.Slice, ir.Params{"start_indices": []int{0, 1}, "limit_indices": []int{2, 3}, "strides": nil}, av(ir.Float32, 2, 2), f23)
	one(ir.DotGeneral, ir.Params{"dimension_numbers": ir.DotDims{LhsContract: []int{1}, RhsContract: []int{0}},
		"precision": nil, "preferred_element_type": ir.Float32, "out_sharding": nil}, av(ir.Float32, 2, 2), f23, av(ir.Float32, 3, 2))
	{
		var b ir.Builder
		x := b.In(ir.Float32, 2, 3)
		io := b.Op(ir.Iota, ir.Params{"dtype": ir.Float32, "shape": []int{2, 3}, "dimension": 1, "sharding": nil}, f23)
		out[ir.Iota] = closed(&b, ir.Iota, b.Same(ir.Add, io, x))
	}
	f3 := av(ir.Float32, 3)
	{
		var b ir.Builder
		i := b.In(ir.Int32)
		x := b.In(ir.Float32, 3)
		c := b.Op(ir.Cond, ir.Params{"branches": []*ir.ClosedJaxpr{body(), body()}}, f3, i, x)
		out[ir.Cond] = closed(&b, ir.Cond, c)
	}
	{
		// scan over xs f32[4,3] with a carry f32[3]: carry' = body(carry) + x.
		var sb ir.Builder
		carry := sb.In(ir.Float32, 3)
		x := sb.In(ir.Float32, 3)
		s := sb.Same(ir.Sin, carry)
		next := sb.Same(ir.Add, s, x)
		step := sb.Done("step", next, s)
		var b ir.Builder
		init := b.In(ir.Float32, 3)
		xs := b.In(ir.Float32, 4, 3)
		outs := b.Multi(ir.Scan, ir.Params{"jaxpr": step, "length": 4, "num_consts": 0, "num_carry": 1, "reverse": false, "unroll": 1},
			[]ir.Aval{f3, av(ir.Float32, 4, 3)}, init, xs)
		out[ir.Scan] = closed(&b, ir.Scan, outs[0], outs[1])
	}
	{
		// while i < 3: (i, x) -> (i+1, body(x)).
		i32 := av(ir.Int32)
		var cb ir.Builder
		ci := cb.Input(i32)
		cb.Input(f3)
		cond := cb.Done("cond", cb.Compare(ir.Lt, ci, lit(ir.Int32, 3)))
		var bb ir.Builder
		bi := bb.Input(i32)
		bx := bb.Input(f3)
		y := bb.Multi(ir.Jit, ir.Params{"name": "body", "jaxpr": body()}, []ir.Aval{f3}, bx)[0]
		loop := bb.Done("loop", bb.Same(ir.Add, bi, lit(ir.Int32, 1)), y)
		var b ir.Builder
		x := b.In(ir.Float32, 3)
		outs := b.Multi(ir.While, ir.Params{"cond_jaxpr": cond, "body_jaxpr": loop, "cond_nconsts": 0, "body_nconsts": 0},
			[]ir.Aval{i32, f3}, lit(ir.Int32, 0), x)
		out[ir.While] = closed(&b, ir.While, outs[1])
	}
	{
		var b ir.Builder
		x := b.In(ir.Float32, 3)
		y := b.Op(ir.Jit, ir.Params{"name": "body", "jaxpr": body()}, f3, x)
		out[ir.Jit] = closed(&b, ir.Jit, y)
	}
	{
		var b ir.Builder
		x := b.In(ir.Float32, 3)
		y := b.Op(ir.CustomJVPCall, ir.Params{"name": "body", "call_jaxpr": body(), "jvp": rule("body_jvp"),
			"num_consts": 0, "symbolic_zeros": false}, f3, x)
		out[ir.CustomJVPCall] = closed(&b, ir.CustomJVPCall, y)
	}
	{
		var b ir.Builder
		x := b.In(ir.Float32, 3)
		b.Multi(ir.DebugPrint, ir.Params{"fmt": "x = %v", "ordered": false}, nil, x)
		out[ir.DebugPrint] = closed(&b, ir.DebugPrint, b.Same(ir.Neg, x))
	}
	return out
}
