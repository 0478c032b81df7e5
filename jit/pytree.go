package jit

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/jit/ir"
)

// Pytrees: arguments and results may be Arrays, slices and arrays of
// pytrees, structs (exported fields), maps with string keys, and pointers to
// those. A struct field tagged `jit:"static"` (and a positional argument named
// by StaticArgnums) is static: its value is part of the cache key and is
// passed to the function as is. The structure (types, lengths, field names)
// is part of the cache key too.

type nodeKind uint8

const (
	leafNode   nodeKind = iota // an Array
	staticNode                 // a static value, passed as is
	tupleNode                  // the argument list or result list of a function
	structNode
	sliceNode
	arrayNode
	mapNode
	ptrNode
	nilNode   // a nil pointer, slice, map or interface
	ifaceNode // an interface-typed position holding a container
)

// treeDef is a pytree's structure.
type treeDef struct {
	kind     nodeKind
	typ      reflect.Type // the declared type at this position
	dyn      reflect.Type // ifaceNode: the dynamic type
	fields   []int        // structNode: field index of each child
	keys     []string     // mapNode: sorted keys
	children []*treeDef
	static   reflect.Value // staticNode
}

var arrayType = reflect.TypeFor[Array]()

// leaf is one flattened Array position: a concrete or traced Array, or an
// abstract ShapeDtype (arr is zero).
type leaf struct {
	path string
	arr  Array
	aval ir.Aval
}

// staticVal is one static value with its path.
type staticVal struct {
	path string
	v    any
}

// flattener walks a pytree, collecting leaves, statics and the cache key.
type flattener struct {
	leaves     []leaf
	statics    []staticVal
	key        []byte
	abstractOK bool // ShapeDtype leaves allowed (Trace, MakeJaxpr)
	outputs    bool // non-Array values are kept as constants (results)
	// passThrough: values of non-pytree types are passed as they are
	// (Vmap and Grad arguments; they have no cache key to be part of).
	passThrough bool
}

func (f *flattener) addLeaf(path string, a Array, av ir.Aval) *treeDef {
	f.leaves = append(f.leaves, leaf{path: path, arr: a, aval: av})
	f.key = appendAval(append(f.key, 'L'), av)
	return &treeDef{kind: leafNode, typ: arrayType}
}

// appendAval appends a compact, unambiguous encoding of an aval to a key.
func appendAval(b []byte, a ir.Aval) []byte {
	b = append(b, byte(a.DType))
	if a.Weak {
		b = append(b, 'w')
	}
	for _, d := range a.Shape {
		b = strconv.AppendInt(append(b, ','), int64(d), 10)
	}
	return append(b, ';')
}

func (f *flattener) addStatic(path string, decl reflect.Type, v reflect.Value) *treeDef {
	if v.IsValid() && !v.Comparable() && !f.passThrough {
		throw(BadStaticArg, "static argument %s has type %v, which is not comparable, so it cannot be part of the cache key; "+
			"pass a comparable value (a number, string, array or struct of those), or make it a traced Array", path, v.Type())
	}
	var x any
	if v.IsValid() {
		x = v.Interface()
	}
	f.statics = append(f.statics, staticVal{path: path, v: x})
	f.key = fmt.Appendf(append(f.key, 'S'), "%T:%#v;", x, x)
	return &treeDef{kind: staticNode, typ: decl, static: v}
}

// walk flattens value v found at a position of declared type decl.
func (f *flattener) walk(decl reflect.Type, v reflect.Value, path string) *treeDef {
	if decl == arrayType || decl.Kind() == reflect.Interface {
		if !v.IsValid() || (v.Kind() == reflect.Interface && v.IsNil()) {
			f.key = append(f.key, 'N')
			return &treeDef{kind: nilNode, typ: decl}
		}
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		switch x := v.Interface().(type) {
		case Array:
			if x.v == nil {
				throw(BadArgument, "%s is a zero jit.Array (declared but never assigned)", path)
			}
			return f.addLeaf(path, x, x.v.aval)
		case ShapeDtype:
			if !f.abstractOK {
				throw(BadArgument, "%s is a jit.ShapeDtype: shapes without data can be traced (Trace, Lower, MakeJaxpr) but not executed", path)
			}
			return f.addLeaf(path, Array{}, x.aval())
		}
		if goNumber(v.Interface()) {
			if f.outputs {
				return f.addStatic(path, decl, v)
			}
			a := asArray(v.Interface())
			return f.addLeaf(path, a, a.v.aval)
		}
		if decl == arrayType {
			throw(BadArgument, "%s: cannot use a value of type %v as a jit.Array", path, v.Type())
		}
		f.key = fmt.Appendf(append(f.key, 'I'), "%v;", v.Type())
		return &treeDef{kind: ifaceNode, typ: decl, dyn: v.Type(), children: []*treeDef{f.walk(v.Type(), v, path)}}
	}
	switch decl.Kind() {
	case reflect.Struct:
		return f.walkStruct(decl, v, path)
	case reflect.Slice, reflect.Array:
		if decl.Kind() == reflect.Slice && v.IsNil() {
			f.key = append(f.key, 'N')
			return &treeDef{kind: nilNode, typ: decl}
		}
		n := &treeDef{kind: sliceNode, typ: decl}
		if decl.Kind() == reflect.Array {
			n.kind = arrayNode
		}
		f.key = strconv.AppendInt(append(f.key, '['), int64(v.Len()), 10)
		for i := 0; i < v.Len(); i++ {
			n.children = append(n.children, f.walk(decl.Elem(), v.Index(i), fmt.Sprintf("%s[%d]", path, i)))
		}
		f.key = append(f.key, ']')
		return n
	case reflect.Map:
		if decl.Key().Kind() != reflect.String {
			throw(BadArgument, "%s: map keys must be strings in a pytree, got %v", path, decl)
		}
		if v.IsNil() {
			f.key = append(f.key, 'N')
			return &treeDef{kind: nilNode, typ: decl}
		}
		n := &treeDef{kind: mapNode, typ: decl}
		for _, k := range v.MapKeys() {
			n.keys = append(n.keys, k.String())
		}
		sort.Strings(n.keys)
		f.key = append(f.key, '{')
		for _, k := range n.keys {
			f.key = append(append(f.key, k...), ':')
			n.children = append(n.children, f.walk(decl.Elem(), v.MapIndex(reflect.ValueOf(k).Convert(decl.Key())), fmt.Sprintf("%s[%q]", path, k)))
		}
		f.key = append(f.key, '}')
		return n
	case reflect.Pointer:
		if v.IsNil() {
			f.key = append(f.key, 'N')
			return &treeDef{kind: nilNode, typ: decl}
		}
		f.key = append(f.key, '*')
		return &treeDef{kind: ptrNode, typ: decl, children: []*treeDef{f.walk(decl.Elem(), v.Elem(), path)}}
	}
	if f.outputs || f.passThrough {
		return f.addStatic(path, decl, v)
	}
	throw(BadArgument, "%s has type %v, which is not an Array or a pytree of Arrays; "+
		"mark it static with jit.StaticArgnums (or a struct field with `jit:\"static\"`) so its value becomes part of the cache key", path, decl)
	return nil
}

func (f *flattener) walkStruct(decl reflect.Type, v reflect.Value, path string) *treeDef {
	n := &treeDef{kind: structNode, typ: decl}
	f.key = fmt.Appendf(append(f.key, '('), "%v;", decl)
	for i := 0; i < decl.NumField(); i++ {
		sf := decl.Field(i)
		fp := path + "." + sf.Name
		if !sf.IsExported() {
			throw(BadArgument, "%s: struct %v has unexported field %s; pytrees are made of exported fields "+
				"(export it, or tag it `jit:\"static\"` after exporting it)", path, decl, sf.Name)
		}
		var c *treeDef
		if sf.Tag.Get("jit") == "static" {
			c = f.addStatic(fp, sf.Type, v.Field(i))
		} else {
			c = f.walk(sf.Type, v.Field(i), fp)
		}
		n.fields = append(n.fields, i)
		n.children = append(n.children, c)
	}
	f.key = append(f.key, ')')
	return n
}

// build rebuilds a value of the tree's type, taking leaves in order.
func (t *treeDef) build(leaves []Array, next *int) reflect.Value {
	switch t.kind {
	case leafNode:
		a := leaves[*next]
		*next++
		return reflect.ValueOf(a)
	case staticNode:
		if !t.static.IsValid() {
			return reflect.Zero(t.typ)
		}
		return t.static
	case nilNode:
		return reflect.Zero(t.typ)
	case ifaceNode:
		return t.children[0].build(leaves, next)
	case structNode:
		v := reflect.New(t.typ).Elem()
		for i, c := range t.children {
			setValue(v.Field(t.fields[i]), c.build(leaves, next))
		}
		return v
	case sliceNode, arrayNode:
		var v reflect.Value
		if t.kind == sliceNode {
			v = reflect.MakeSlice(t.typ, len(t.children), len(t.children))
		} else {
			v = reflect.New(t.typ).Elem()
		}
		for i, c := range t.children {
			setValue(v.Index(i), c.build(leaves, next))
		}
		return v
	case mapNode:
		v := reflect.MakeMapWithSize(t.typ, len(t.keys))
		for i, c := range t.children {
			v.SetMapIndex(reflect.ValueOf(t.keys[i]).Convert(t.typ.Key()), c.build(leaves, next))
		}
		return v
	case ptrNode:
		p := reflect.New(t.typ.Elem())
		setValue(p.Elem(), t.children[0].build(leaves, next))
		return p
	case tupleNode:
		panic("jit: build of a tuple node")
	}
	panic("jit: bad tree node")
}

func setValue(dst, v reflect.Value) {
	if v.IsValid() {
		dst.Set(v)
	}
}

// buildTuple rebuilds the elements of a tuple node.
func (t *treeDef) buildTuple(leaves []Array) []reflect.Value {
	next := 0
	out := make([]reflect.Value, len(t.children))
	for i, c := range t.children {
		out[i] = c.build(leaves, &next)
	}
	return out
}

// String describes the structure (types, lengths, field names, static
// positions) without leaf types, for cache-miss explanations.
func (t *treeDef) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *treeDef) write(b *strings.Builder) {
	switch t.kind {
	case leafNode:
		b.WriteString("*")
	case staticNode:
		b.WriteString("static")
	case nilNode:
		b.WriteString("nil")
	case ifaceNode, ptrNode:
		if t.kind == ptrNode {
			b.WriteString("&")
		}
		t.children[0].write(b)
	case tupleNode, sliceNode, arrayNode:
		open, close := "(", ")"
		if t.kind != tupleNode {
			open, close = "[", "]"
		}
		b.WriteString(open)
		for i, c := range t.children {
			if i > 0 {
				b.WriteString(", ")
			}
			c.write(b)
		}
		b.WriteString(close)
	case structNode, mapNode:
		b.WriteString(t.typ.String() + "{")
		for i, c := range t.children {
			if i > 0 {
				b.WriteString(", ")
			}
			if t.kind == structNode {
				b.WriteString(t.typ.Field(t.fields[i]).Name + ": ")
			} else {
				b.WriteString(strconv.Quote(t.keys[i]) + ": ")
			}
			c.write(b)
		}
		b.WriteString("}")
	}
}

// flattenTree flattens a pytree value of static type T into Array leaves.
func flattenTree[T any](x T, path string) ([]Array, *treeDef) {
	f := &flattener{}
	tree := f.walk(reflect.TypeFor[T](), reflect.ValueOf(&x).Elem(), path)
	arrs := make([]Array, len(f.leaves))
	for i, l := range f.leaves {
		arrs[i] = l.arr
	}
	return arrs, tree
}

// unflattenTree rebuilds a value of type T from leaves.
func unflattenTree[T any](tree *treeDef, leaves []Array) T {
	next := 0
	v := tree.build(leaves, &next)
	if !v.IsValid() {
		var zero T
		return zero
	}
	return v.Interface().(T)
}
