package jit

import (
	"fmt"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit/events"
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
	b.WriteString("  all previously seen cache keys differ. For the closest previous key:\n")
	b.WriteString(diffText(closest(now, prev).changes(now)))
	return strings.TrimRight(b.String(), "\n")
}

// closest returns the previously compiled signature nearest to now.
func closest(now *signature, prev []*signature) *signature {
	best, bestScore, bestDist := prev[0], -1, 0
	for _, p := range prev {
		s, d := p.distance(now)
		if bestScore < 0 || s < bestScore || (s == bestScore && d < bestDist) {
			best, bestScore, bestDist = p, s, d
		}
	}
	return best
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

// changes lists the differences between s (before) and now; a different
// pytree structure is the only one reported when there is one.
func (s *signature) changes(now *signature) []events.Change {
	if s.tree.String() != now.tree.String() {
		return []events.Change{{Kind: "pytree", Before: s.tree.String(), Now: now.tree.String()}}
	}
	var out []events.Change
	if s.backend != now.backend {
		out = append(out, events.Change{Kind: events.BackendChange, Before: s.backend, Now: now.backend})
	}
	for i := range s.avals {
		a, n := s.avals[i], now.avals[i]
		switch {
		case a.Equal(n):
		case a.TypeMatch(n):
			out = append(out, events.Change{Kind: events.WeakChange, Path: now.paths[i], Before: weakString(a), Now: weakString(n)})
		default:
			out = append(out, events.Change{Kind: events.TypeChange, Path: now.paths[i], Before: a.String(), Now: n.String()})
		}
	}
	for i := range s.statics {
		if s.statics[i].v != now.statics[i].v {
			out = append(out, events.Change{Kind: events.StaticChange, Path: now.statics[i].path,
				Before: fmt.Sprintf("%#v", s.statics[i].v), Now: fmt.Sprintf("%#v", now.statics[i].v)})
		}
	}
	return out
}

// diffText renders changes as the cache-miss explanation lists them.
func diffText(cs []events.Change) string {
	var b strings.Builder
	var types, statics []string
	weak := false
	for _, c := range cs {
		switch c.Kind {
		case events.PytreeChange:
			fmt.Fprintf(&b, "  different input pytree:\n  * now %s and before %s\n", c.Now, c.Before)
		case events.BackendChange:
			fmt.Fprintf(&b, "  different backend:\n  * now %s and before %s\n", c.Now, c.Before)
		case events.TypeChange, events.WeakChange:
			weak = weak || c.Kind == events.WeakChange
			types = append(types, fmt.Sprintf("  * at %s, now %s and before %s", c.Path, c.Now, c.Before))
		case events.StaticChange:
			statics = append(statics, fmt.Sprintf("  * at %s, now %s and before %s", c.Path, c.Now, c.Before))
		}
	}
	if len(types) > 0 {
		b.WriteString("  different input types:\n" + strings.Join(types, "\n") + "\n")
	}
	if weak {
		b.WriteString("    where weak_type=True often means a Go number, and weak_type=False means a jit.Array.\n")
	}
	if len(statics) > 0 {
		b.WriteString("  different static arguments (each new value traces and compiles again):\n" + strings.Join(statics, "\n") + "\n")
	}
	return b.String()
}

func weakString(a ir.Aval) string {
	return fmt.Sprintf("%s{weak_type=%s}", a, map[bool]string{true: "True", false: "False"}[a.Weak])
}
