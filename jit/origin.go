package jit

import (
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// dependsOn returns the names of t's arguments that v (a tracer of t) was
// computed from, in argument order.
func dependsOn(t *trace, v *value) []string {
	if v.t != t {
		return nil
	}
	need := map[*ir.Var]bool{v.v: true}
	for i := len(t.eqns) - 1; i >= 0; i-- {
		e := t.eqns[i]
		hit := false
		for _, o := range e.Out {
			hit = hit || need[o]
		}
		if !hit {
			continue
		}
		for _, in := range e.In {
			if iv, ok := in.(*ir.Var); ok {
				need[iv] = true
			}
		}
	}
	var names []string
	for i, iv := range t.invars {
		if need[iv] {
			names = append(names, t.argNames[i])
		}
	}
	return names
}

// argList phrases argument names as JAX does: "the argument x",
// "the arguments a and b", "the arguments a, b, and c".
func argList(names []string) string {
	switch len(names) {
	case 1:
		return "the argument " + names[0]
	case 2:
		return "the values of the arguments " + names[0] + " and " + names[1]
	}
	return "the values of the arguments " + strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
}
