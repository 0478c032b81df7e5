package jit

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// Every primitive's batching rule and gradient, checked against the
// reference evaluator on random jaxprs (elementwise, layout and control
// flow): a batched run must equal stacking per-example runs, and a
// gradient must match central finite differences in float64.

// example derives the b-th example's input from a random input: floats
// scaled and shifted, integers shifted, bools flipped on odd examples.
func example(x *ir.Buffer, b int) *ir.Buffer {
	out := ir.NewBuffer(x.DType, x.Shape)
	for i := range x.Len() {
		v := x.At(i)
		switch {
		case x.DType.IsFloat():
			v = v*(1+0.15*float64(b)) + 0.1*float64(b)
		case x.DType.IsInt():
			v += float64(b % 3)
		default:
			if b%2 == 1 {
				v = 1 - v
			}
		}
		out.Set(i, v)
	}
	return out
}

// stack stacks equal-typed buffers along a new leading axis.
func stack(t *testing.T, bs []*ir.Buffer) *ir.Buffer {
	parts := make([]*ir.Buffer, len(bs))
	for i, b := range bs {
		r, err := eval.Apply(ir.Reshape, ir.Params{"new_sizes": append([]int{1}, b.Shape...), "dimensions": nil}, []*ir.Buffer{b})
		if err != nil {
			t.Fatal(err)
		}
		parts[i] = r[0]
	}
	out, err := eval.Apply(ir.Concatenate, ir.Params{"dimension": 0}, parts)
	if err != nil {
		t.Fatal(err)
	}
	return out[0]
}

// sameValue compares a batched result element with the reference.
func sameValue(dt ir.DType, got, want float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	if got == want {
		return true
	}
	tol := 1e-12
	if dt == ir.Float32 {
		tol = 2e-6
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func TestVmapRandomJaxprs(t *testing.T) {
	const size = 3
	for seed := range uint64(120) {
		r := rand.New(rand.NewPCG(seed, 13))
		j, args := randjaxpr.New(r, randjaxpr.Options{ControlFlow: seed%2 == 0, Layout: seed%3 != 2,
			DTypes: []ir.DType{ir.Float32, ir.Float64, ir.Int32}})
		mapped := make([]bool, len(args))
		for i := range mapped {
			mapped[i] = i == 0 || r.IntN(3) > 0
		}
		per := make([][]*ir.Buffer, size) // per[b][i]: example b's input i
		for b := range per {
			for i, a := range args {
				if mapped[i] {
					per[b] = append(per[b], example(a, b))
				} else {
					per[b] = append(per[b], a)
				}
			}
		}
		want := make([][]*ir.Buffer, size)
		for b := range want {
			var err error
			if want[b], err = eval.Jaxpr(j, nil, per[b]); err != nil {
				t.Fatalf("seed %d: reference: %v", seed, err)
			}
		}
		in := make([]Array, len(args))
		bdims := make([]int, len(args))
		for i, a := range args {
			bdims[i] = unbatched
			in[i] = concrete(a, false)
			if mapped[i] {
				col := make([]*ir.Buffer, size)
				for b := range col {
					col[b] = per[b][i]
				}
				in[i], bdims[i] = concrete(stack(t, col), false), 0
			}
		}
		run := func(xs []Array) []Array {
			vals := make([]bval, len(xs))
			for i, x := range xs {
				vals[i] = bval{x, bdims[i]}
			}
			b := &batcher{size: size}
			outs := b.run(j, nil, vals)
			res := make([]Array, len(outs))
			for k, o := range outs {
				res[k] = b.full(o)
			}
			return res
		}
		eager := run(in)
		jitted := Jit(run).Call(in)
		for name, got := range map[string][]Array{"eager": eager, "jitted": jitted} {
			for k, o := range got {
				ob := o.val().buf
				for b := range size {
					w := want[b][k]
					n := w.Len()
					for e := range n {
						if g := ob.At(b*n + e); !sameValue(w.DType, g, w.At(e)) {
							t.Fatalf("seed %d (%s): output %d of example %d, element %d: batched %v, per-example %v\n%s",
								seed, name, k, b, e, g, w.At(e), (&ir.ClosedJaxpr{Jaxpr: j}).String())
						}
					}
				}
			}
		}
	}
}

// loss is Σ_k Σ weights[k]·outs[k] over the float results of j at args.
func loss(t *testing.T, j *ir.Jaxpr, args, weights []*ir.Buffer) float64 {
	outs, err := eval.Jaxpr(j, nil, args)
	if err != nil {
		t.Fatal(err)
	}
	s := 0.0
	for k, o := range outs {
		if weights[k] == nil {
			continue
		}
		for e := range o.Len() {
			s += weights[k].At(e) * o.At(e)
		}
	}
	return s
}

func TestGradRandomJaxprs(t *testing.T) {
	checked, skipped, whiles := 0, 0, 0
	for seed := range uint64(150) {
		r := rand.New(rand.NewPCG(seed, 31))
		j, args := randjaxpr.New(r, randjaxpr.Options{ControlFlow: seed%2 == 0, Layout: seed%3 != 2,
			DTypes: []ir.DType{ir.Float64}})
		weights := make([]*ir.Buffer, len(j.Outvars))
		cts := make([]Array, len(j.Outvars))
		for k, o := range j.Outvars {
			a := o.Type()
			if !a.DType.IsFloat() {
				continue
			}
			w := ir.NewBuffer(a.DType, a.Shape)
			for e := range w.Len() {
				w.Set(e, r.Float64()*2-1)
			}
			weights[k], cts[k] = w, concrete(w, false)
		}
		in := make([]Array, len(args))
		active := make([]bool, len(args))
		for i, a := range args {
			in[i], active[i] = concrete(a, false), a.DType.IsFloat()
		}
		var g []Array
		err := func() (err error) {
			defer recoverError(&err)
			_, g = vjpJaxpr(j, nil, in, active, cts)
			return nil
		}()
		if err != nil {
			var je *Error
			if errors.As(err, &je) && strings.Contains(je.Msg, "does not work for WhileLoop") {
				whiles++
				continue
			}
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i, a := range args {
			if !active[i] {
				continue
			}
			for e := range a.Len() {
				fd := func(h float64) float64 {
					plus, minus := cloneBuffers(args), cloneBuffers(args)
					plus[i].Set(e, a.At(e)+h)
					minus[i].Set(e, a.At(e)-h)
					return (loss(t, j, plus, weights) - loss(t, j, minus, weights)) / (2 * h)
				}
				d1, d2 := fd(1e-5), fd(5e-6)
				if math.Abs(d1-d2) > 1e-5*math.Max(1, math.Abs(d1)) || math.IsNaN(d1) {
					skipped++ // a kink (max, clamp, floor, select) within h: not smooth here
					continue
				}
				got := 0.0
				if g[i].v != nil {
					got = g[i].val().buf.At(e)
				}
				if math.Abs(got-d1) > 1e-5*math.Max(1, math.Abs(d1)) {
					t.Fatalf("seed %d: d loss / d input %d[%d] = %v, finite differences %v\n%s",
						seed, i, e, got, d1, (&ir.ClosedJaxpr{Jaxpr: j}).String())
				}
				checked++
			}
		}
	}
	t.Logf("%d partial derivatives checked, %d at kinks skipped, %d jaxprs with a differentiated while loop", checked, skipped, whiles)
	if checked < 500 || skipped > checked/5 {
		t.Errorf("too few derivatives checked: %d (skipped %d)", checked, skipped)
	}
}

func cloneBuffers(bs []*ir.Buffer) []*ir.Buffer {
	out := make([]*ir.Buffer, len(bs))
	for i, b := range bs {
		c := ir.NewBuffer(b.DType, b.Shape)
		for e := range b.Len() {
			c.Set(e, b.At(e))
		}
		out[i] = c
	}
	return out
}
