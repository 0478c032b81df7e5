package previewer

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/jit/preview/result"
)

// LineEquations returns the equations of r staged at path:line as they are
// printed; an equation printed on several lines (one with a nested jaxpr)
// is shortened to its first and last lines.
func LineEquations(r *result.Preview, path string, line int) []string {
	want := filepath.Base(path) + ":" + strconv.Itoa(line)
	known := false
	for _, e := range r.Sources {
		if e.File == path && e.Line == line {
			known = true
			break
		}
	}
	if !known {
		return nil
	}
	lines := strings.Split(r.JaxprSources, "\n")
	var out []string
	for j, l := range lines {
		eq, where := SplitSource(l)
		if where != want {
			continue
		}
		eq = strings.TrimSpace(eq)
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if strings.HasPrefix(eq, "]") || strings.HasPrefix(eq, ")") {
			for k := j - 1; k >= 0; k-- {
				if lk := lines[k]; len(lk)-len(strings.TrimLeft(lk, " ")) == indent {
					eq = strings.TrimSpace(lk) + " … " + eq
					break
				}
			}
		}
		out = append(out, eq)
	}
	return out
}
