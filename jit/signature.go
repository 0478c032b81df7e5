package jit

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// signature is a call's cache key in structured form (no array data).
type signature struct {
	tree    *treeDef
	paths   []string
	avals   []ir.Aval
	statics []staticVal
	backend string
}

// flattenFast flattens a call's arguments without paths; when the
// arguments are bad it flattens again with paths so that the error names
// the argument.
func (c *funcCore) flattenFast(args []reflect.Value) (f *flattener) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*Error); ok {
				c.flattenArgs(args, false, true)
			}
			panic(r)
		}
	}()
	f, _ = c.flattenArgs(args, false, false)
	return f
}

// flattenArgs flattens a call's arguments. Paths are computed only when
// withPaths is set (on a cache miss), keeping the hit path cheap.
func (c *funcCore) flattenArgs(args []reflect.Value, abstractOK, withPaths bool) (*flattener, *treeDef) {
	if len(args) != c.typ.NumIn() {
		throw(BadArgCount, "%s takes %d arguments, got %d", c.name, c.typ.NumIn(), len(args))
	}
	f := &flattener{abstractOK: abstractOK}
	tree := &treeDef{kind: tupleNode}
	for i, a := range args {
		path := ""
		if withPaths {
			path = c.argName(i)
		}
		decl := c.typ.In(i)
		if c.static[i] {
			if a.IsValid() && a.Kind() == reflect.Interface {
				a = a.Elem()
			}
			if a.IsValid() {
				if _, isArr := a.Interface().(Array); isArr {
					throw(BadStaticArg, "argument %d (%s) is static (StaticArgnums) but got a jit.Array; "+
						"arrays cannot be static: pass a Go value, or remove %d from StaticArgnums", i, c.argName(i), i)
				}
			}
			tree.children = append(tree.children, f.addStatic(path, decl, a))
			continue
		}
		if a.IsValid() && a.Type() != decl && !a.Type().AssignableTo(decl) && !(decl == arrayType && isTraceable(a)) {
			throw(BadArgument, "argument %d (%s): cannot use %v as %v", i, c.argName(i), a.Type(), decl)
		}
		tree.children = append(tree.children, f.walk(decl, a, path))
	}
	return f, tree
}

// isTraceable reports whether an `any` argument can stand at an Array position.
func isTraceable(v reflect.Value) bool {
	switch v.Interface().(type) {
	case Array, ShapeDtype:
		return true
	}
	return goNumber(v.Interface())
}

func (f *flattener) signature(tree *treeDef, backend string) *signature {
	s := &signature{tree: tree, statics: f.statics, backend: backend}
	for _, l := range f.leaves {
		s.paths = append(s.paths, l.path)
		s.avals = append(s.avals, l.aval)
	}
	return s
}

// String renders a signature for humans.
func (s *signature) String() string {
	b := []byte("(")
	first := true
	sep := func() {
		if !first {
			b = append(b, ", "...)
		}
		first = false
	}
	for _, st := range s.statics {
		sep()
		b = fmt.Appendf(b, "%s=%#v", st.path, st.v)
	}
	for i, p := range s.paths {
		sep()
		b = fmt.Appendf(b, "%s: %s", p, s.avals[i].StringWeak())
	}
	return string(b) + ") on " + s.backend
}

// mismatch lists how got differs from s, one line per difference ("" if none).
func (s *signature) mismatch(got *signature) string {
	var b strings.Builder
	if s.tree.String() != got.tree.String() {
		fmt.Fprintf(&b, "Argument structure compiled as %s and called with %s\n", s.tree, got.tree)
		return b.String()
	}
	for i := range s.avals {
		if !s.avals[i].Equal(got.avals[i]) {
			fmt.Fprintf(&b, "Argument '%s' compiled with %s and called with %s\n", s.paths[i], s.avals[i].StringWeak(), got.avals[i].StringWeak())
		}
	}
	for i := range s.statics {
		if s.statics[i].v != got.statics[i].v {
			fmt.Fprintf(&b, "Static argument '%s' compiled with %#v and called with %#v\n", s.statics[i].path, s.statics[i].v, got.statics[i].v)
		}
	}
	return b.String()
}
