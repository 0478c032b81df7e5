package traced

import (
	"go/ast"
	"go/types"
)

// IsStaticField reports whether sel reads a `jit:"static"` struct field: a
// value that is part of the cache key and never traced.
func (r *Result) IsStaticField(sel *ast.SelectorExpr) bool {
	s := r.Info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal && staticField(s)
}
