package eval

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
)

// TestMutatedJaxprsFailCleanly breaks generated jaxprs at random (an
// operand dropped, added or retyped, a parameter removed or set to a bad
// value) and checks that evaluation reports an ordinary error: no panic and
// no "internal error" from the recovery in Apply.
func TestMutatedJaxprsFailCleanly(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	badValues := []any{-1, 1000, nil, "x", []int{-1}, []int{0, 0, 0, 0, 0}, ir.DType(42), [][3]int{{-9, -9, 0}}, 2.5}
	failed := 0
	for seed := range 400 {
		opts := randjaxpr.Options{ControlFlow: seed%2 == 0, Layout: seed%3 != 0, DTypes: []ir.DType{ir.Float32, ir.Int32, ir.BFloat16}}
		j, args := randjaxpr.New(r, opts)
		e := j.Eqns[r.IntN(len(j.Eqns))]
		orig := *e
		mut := *e
		switch k := r.IntN(4); {
		case k == 0 && len(e.In) > 0:
			mut.In = e.In[:len(e.In)-1]
		case k == 1:
			mut.In = append(slices.Clone(e.In), j.Invars[0])
		case k == 2 && len(e.In) > 0:
			mut.In = slices.Clone(e.In)
			mut.In[r.IntN(len(e.In))] = ir.Literal{Value: 1, Aval: ir.Aval{DType: ir.Int64}}
		default:
			if len(e.Params) == 0 {
				continue
			}
			mut.Params = maps.Clone(e.Params)
			keys := slices.Sorted(maps.Keys(e.Params))
			key := keys[r.IntN(len(keys))]
			if r.IntN(3) == 0 {
				delete(mut.Params, key)
			} else {
				mut.Params[key] = badValues[r.IntN(len(badValues))]
			}
		}
		*e = mut
		_, err := Jaxpr(j, nil, args)
		*e = orig
		if err != nil {
			failed++
			if strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "eval") {
				t.Fatalf("seed %d: %s mutated: unclean error: %v", seed, e.Prim, err)
			}
		}
	}
	t.Logf("%d of 400 mutations gave errors", failed)
	if failed < 100 {
		t.Fatalf("only %d of 400 mutations were detected; the mutations are too weak to test anything", failed)
	}
}
