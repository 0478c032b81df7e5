package jit

import (
	"fmt"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit/ir"
)

// explainMiss says why a call of an already-compiled function missed the
// cache: which argument changed, from what to what, compared with the
// closest previously compiled signature (as JAX's explain_cache_misses).
func (c *funcCore) explainMiss(callPos string, cost time.Duration, now *signature, prev []*signature) string {
	defPos, _ := c.source()
	var b strings.Builder
	fmt.Fprintf(&b, "TRACING CACHE MISS at %s costing %.3f ms because:\n", callPos, float64(cost.Microseconds())/1000)
	fmt.Fprintf(&b, "  for %s defined at %s\n", c.name, defPos)
	best, bestScore, bestDist := prev[0], -1, 0
	for _, p := range prev {
		s, d := p.distance(now)
		if bestScore < 0 || s < bestScore || (s == bestScore && d < bestDist) {
			best, bestScore, bestDist = p, s, d
		}
	}
	b.WriteString("  all previously seen cache keys differ. For the closest previous key:\n")
	b.WriteString(best.diff(now))
	return strings.TrimRight(b.String(), "\n")
}

// distance scores how far now is from s: the number of differences, and a
// tie-breaker summing how far the shapes are apart.
func (s *signature) distance(now *signature) (int, int) {
	if s.tree.String() != now.tree.String() {
		return 1 << 20, 0
	}
	n, d := 0, 0
	if s.backend != now.backend {
		n++
	}
	for i := range s.avals {
		if !s.avals[i].Equal(now.avals[i]) {
			n++
			d += shapeDistance(s.avals[i].Shape, now.avals[i].Shape)
		}
	}
	for i := range s.statics {
		if s.statics[i].v != now.statics[i].v {
			n++
		}
	}
	return n, d
}

func shapeDistance(a, b []int) int {
	if len(a) != len(b) {
		return 1 << 16
	}
	d := 0
	for i := range a {
		x := a[i] - b[i]
		if x < 0 {
			x = -x
		}
		d += x
	}
	return d
}

// diff lists the differences between s (before) and now.
func (s *signature) diff(now *signature) string {
	var b strings.Builder
	if s.tree.String() != now.tree.String() {
		b.WriteString("  different input pytree:\n")
		fmt.Fprintf(&b, "  * now %s and before %s\n", now.tree, s.tree)
		return b.String()
	}
	if s.backend != now.backend {
		fmt.Fprintf(&b, "  different backend:\n  * now %s and before %s\n", now.backend, s.backend)
	}
	var types []string
	weak := false
	for i := range s.avals {
		a, n := s.avals[i], now.avals[i]
		if a.Equal(n) {
			continue
		}
		if a.TypeMatch(n) {
			weak = true
			types = append(types, fmt.Sprintf("  * at %s, now %s and before %s", now.paths[i], weakString(n), weakString(a)))
			continue
		}
		types = append(types, fmt.Sprintf("  * at %s, now %s and before %s", now.paths[i], n, a))
	}
	if len(types) > 0 {
		b.WriteString("  different input types:\n" + strings.Join(types, "\n") + "\n")
	}
	if weak {
		b.WriteString("    where weak_type=True often means a Go number, and weak_type=False means a jit.Array.\n")
	}
	var statics []string
	for i := range s.statics {
		if s.statics[i].v != now.statics[i].v {
			statics = append(statics, fmt.Sprintf("  * at %s, now %#v and before %#v", now.statics[i].path, now.statics[i].v, s.statics[i].v))
		}
	}
	if len(statics) > 0 {
		b.WriteString("  different static arguments (each new value traces and compiles again):\n" + strings.Join(statics, "\n") + "\n")
	}
	return b.String()
}

func weakString(a ir.Aval) string {
	return fmt.Sprintf("%s{weak_type=%s}", a, map[bool]string{true: "True", false: "False"}[a.Weak])
}
