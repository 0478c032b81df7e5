package snapshot

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
	"github.com/jitlint/jitlint/internal/previewer"
)

// transformAPIs are the jit transformations whose calls are preview roots:
// hovering on jit.Vmap(F, ...), jit.Grad[G](F, ...) or
// jit.ValueAndGrad[G](F, ...) (nested in each other or in jit.Jit and
// jit.MakeJaxpr too) shows the jaxpr of the transformed function.
var transformAPIs = map[string]bool{"Vmap": true, "Grad": true, "ValueAndGrad": true}

// vmapBatch is the size of the batch dimension a preview adds, for each
// Vmap, to every mapped array argument (at its InAxes position, 0 by
// default) of F's signature (from its //jit:args directive, or the f32[8]
// default). docs/editors.md documents it.
const vmapBatch = 4

// Transform is a transformation call that a preview traces: the
// tracedFunc of F it belongs to is a copy of F's with the batched
// arguments, and the harness traces jit.Jit of the same transformations.
type Transform struct {
	Spans  []Span                // the call, and the jit.Jit / jit.MakeJaxpr calls that take it
	Label  string                // the call as written, e.g. "jit.Vmap(SoftOrSharp)"
	Pos    string                // file:line:col of the call, for errors
	Base   *Func                 // F
	Layers []previewer.Transform // innermost first
}

// scanTransforms returns the transformation calls of pkg whose function
// is one of funcs (the package's traced functions, from scanTraced), each
// as a copy of that function's tracedFunc that a preview can trace. A call
// whose options are not constants in the source gets a sigErr that says so.
func scanTransforms(pkg *packages.Package, r *traced.Result, funcs []*Func) []*Func {
	if r == nil {
		return nil
	}
	info := pkg.TypesInfo
	notMapped := notMappedValue(pkg.Types)
	var out []*Func
	for _, fn := range r.Funcs {
		fd, ok := fn.Node.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := spanOf(pkg, fd.Name)
		i := slices.IndexFunc(funcs, func(tf *Func) bool { return tf.NameSpan == name })
		if i < 0 {
			continue
		}
		for _, call := range fn.EntryCalls {
			// F itself, by name: not one of the functions a table entry may hold.
			id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
			if !ok || info.Uses[id] != info.Defs[fd.Name] || !transformAPIs[jitapi.JitFunc(info, call)] {
				continue
			}
			file := fileOf(pkg, call)
			var layers []previewer.Transform
			problem := ""
			for c := call; c != nil; c = enclosingWrapper(file, info, c) {
				api := jitapi.JitFunc(info, c)
				if !transformAPIs[api] { // jit.Jit or jit.MakeJaxpr of the transformed function
					x := out[len(out)-1].Xform
					x.Spans = append(x.Spans, spanOf(pkg, c))
					break
				}
				layer, why := readLayer(info, c, api)
				if problem == "" {
					problem = why
				}
				layers = append(layers, layer)
				out = append(out, transformedFunc(pkg, funcs[i], c, slices.Clone(layers), problem, notMapped))
			}
		}
	}
	return out
}

// transformedFunc is base's copy traced through the transformation call c
// (layers, innermost first, end with c's).
func transformedFunc(pkg *packages.Package, base *Func, c *ast.CallExpr, layers []previewer.Transform, problem string, notMapped constant.Value) *Func {
	p := pkg.Fset.Position(c.Pos())
	x := &Transform{Spans: []Span{spanOf(pkg, c)}, Label: shorten(types.ExprString(c), 80),
		Pos: fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column), Base: base, Layers: layers}
	v := *base
	v.Refs, v.JitCalls, v.Defaulted, v.Xform = nil, nil, false, x
	v.Variant = fmt.Sprintf("@%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
	// Go values (literal arguments) are static for the harness's jit.Jit:
	// a transformed function passes them through, as it passes them to F.
	v.Static = nil
	for i, a := range base.Args {
		if a.Kind == previewer.ArgLiteral {
			v.Static = append(v.Static, i)
		}
	}
	if v.SigErr != "" {
		return &v
	}
	if problem != "" {
		v.SigErr = problem
		return &v
	}
	for _, l := range layers {
		if l.API == "Vmap" {
			v.Args = vmapArgs(v.Args, inAxes(l), notMapped)
		}
	}
	return &v
}

// readLayer reads the transformation call c of jit function api; the
// string says why its options cannot be read from the source ("" when
// they can).
func readLayer(info *types.Info, c *ast.CallExpr, api string) (previewer.Transform, string) {
	l := previewer.Transform{API: api}
	if api != "Vmap" {
		if inst, ok := info.Instances[calleeIdent(c)]; ok && inst.TypeArgs.Len() > 0 {
			l.Grad = inst.TypeArgs.At(0)
		}
		if l.Grad == nil {
			return l, "jitls cannot read its type argument G"
		}
		if namesLocalType(info, c.Fun) {
			return l, "its type argument names a type declared inside a function, which the preview (another file of the package) cannot name"
		}
	}
	if c.Ellipsis.IsValid() {
		return l, fmt.Sprintf("the options of %s are a slice (%s...), not option calls written in the call, so jitls cannot tell which it would get; write them in the call (e.g. jit.InAxes(0, jit.NotMapped)) to preview it",
			shorten(types.ExprString(c.Fun), 40), types.ExprString(c.Args[len(c.Args)-1]))
	}
	for _, a := range c.Args[1:] {
		oc, ok := ast.Unparen(a).(*ast.CallExpr)
		name := ""
		if ok {
			name = jitapi.JitFunc(info, oc)
		}
		if name == "" || oc.Ellipsis.IsValid() {
			return l, fmt.Sprintf("its option %s is not a jit option call with constant arguments, so jitls cannot tell what it is; write it as one (e.g. jit.InAxes(1)) to preview it", shorten(types.ExprString(a), 40))
		}
		o := previewer.Option{Name: name}
		for _, arg := range oc.Args {
			v := info.Types[arg].Value
			if v == nil || v.Kind() != constant.Int && v.Kind() != constant.String && v.Kind() != constant.Bool {
				return l, fmt.Sprintf("the argument %s of its option %s is not a constant, so jitls cannot tell what it is; write a constant to preview it", shorten(types.ExprString(arg), 40), name)
			}
			o.Args = append(o.Args, v)
		}
		l.Opts = append(l.Opts, o)
	}
	return l, ""
}

// inAxes returns the InAxes of a Vmap (the last such option wins, as in
// jit), or nil for the default (axis 0 of every argument).
func inAxes(l previewer.Transform) []constant.Value {
	var axes []constant.Value
	for _, o := range l.Opts {
		if o.Name == "InAxes" {
			axes = o.Args
		}
	}
	return axes
}

// vmapArgs adds a batch dimension of vmapBatch to every array of args that
// Vmap maps: at its InAxes position (axes nil: 0). An axis jit would reject
// (out of range) leaves the argument as it is, and jit's error shows.
func vmapArgs(args []previewer.Arg, axes []constant.Value, notMapped constant.Value) []previewer.Arg {
	out := make([]previewer.Arg, len(args))
	for i, a := range args {
		ax := 0
		if i < len(axes) {
			if notMapped != nil && constant.Compare(axes[i], token.EQL, notMapped) {
				out[i] = a
				continue
			}
			n, ok := constant.Int64Val(axes[i])
			if !ok {
				out[i] = a
				continue
			}
			ax = int(n)
		}
		out[i] = batchArg(a, ax)
	}
	return out
}

// batchArg inserts the batch dimension at axis ax of every array of a (a
// pytree's leaves too); Go values stay as they are.
func batchArg(a previewer.Arg, ax int) previewer.Arg {
	switch a.Kind {
	case previewer.ArgArray:
		at := ax
		if at < 0 {
			at += len(a.Dims) + 1
		}
		if at < 0 || at > len(a.Dims) {
			return a
		}
		a.Dims = slices.Insert(slices.Clone(a.Dims), at, vmapBatch)
	case previewer.ArgTree:
		elems := make([]previewer.Arg, len(a.Elems))
		for i, e := range a.Elems {
			elems[i] = batchArg(e, ax)
		}
		a.Elems = elems
	}
	return a
}

// notMappedValue returns the value of jit.NotMapped as pkg's imports know
// it, or nil.
func notMappedValue(pkg *types.Package) constant.Value {
	for _, imp := range pkg.Imports() {
		if jitapi.IsJitPath(imp.Path()) {
			if c, ok := imp.Scope().Lookup("NotMapped").(*types.Const); ok {
				return c.Val()
			}
		}
	}
	return nil
}

// calleeIdent is the identifier that names the function of call (Sel of
// jit.Grad[G], or the name itself).
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel
	case *ast.Ident:
		return f
	}
	return nil
}

// namesLocalType reports whether e names a type declared inside a
// function (or a type parameter).
func namesLocalType(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if tn, ok := info.Uses[id].(*types.TypeName); ok && tn.Pkg() != nil && tn.Parent() != tn.Pkg().Scope() {
				found = true
			}
		}
		return !found
	})
	return found
}

// enclosingWrapper returns the call of a transformation, jit.Jit or
// jit.MakeJaxpr whose function argument is c, or nil.
func enclosingWrapper(file *ast.File, info *types.Info, c *ast.CallExpr) *ast.CallExpr {
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, c.Pos(), c.End())
	for _, n := range path[1:] {
		switch p := n.(type) {
		case *ast.ParenExpr:
			continue
		case *ast.CallExpr:
			if len(p.Args) > 0 && ast.Unparen(p.Args[0]) == c {
				if name := jitapi.JitFunc(info, p); transformAPIs[name] || name == "Jit" || name == "MakeJaxpr" {
					return p
				}
			}
		}
		return nil
	}
	return nil
}

// fileOf returns the file of pkg that contains n.
func fileOf(pkg *packages.Package, n ast.Node) *ast.File {
	for _, f := range pkg.Syntax {
		if f.FileStart <= n.Pos() && n.Pos() < f.FileEnd {
			return f
		}
	}
	return nil
}

// spanOf returns n's span.
func spanOf(pkg *packages.Package, n ast.Node) Span {
	start, end := pkg.Fset.Position(n.Pos()), pkg.Fset.Position(n.End())
	return Span{start.Filename, start.Offset, end.Offset}
}

// shorten cuts s to at most n runes, with "…".
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// BatchNote says where a transformed preview's signature comes from.
func (x *Transform) BatchNote() string {
	from := x.Base.Name + "'s //jit:args shapes"
	if x.Base.Defaulted {
		from = x.Base.Name + "'s default shapes (f32[8]; choose others with a //jit:args directive on " + x.Base.Name + ")"
	}
	if !slices.ContainsFunc(x.Layers, func(l previewer.Transform) bool { return l.API == "Vmap" }) {
		return " (" + from + ")"
	}
	return fmt.Sprintf(" (%s with a batch dimension of %d for each Vmap)", from, vmapBatch)
}
