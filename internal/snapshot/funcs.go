package snapshot

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
	"github.com/jitlint/jitlint/internal/previewer"
)

// Func is a top-level function a preview can trace: one passed to
// jit.Jit, jit.MakeJaxpr or a transformation (jit.Vmap, jit.Grad,
// jit.ValueAndGrad) in its package, or marked //jit:traced or
// //jit:args. Which functions are traced, their static arguments and
// what is an array are the traced analyzer's answers (scanTraced reads
// its Result); the //jit:args directive is jitls's own.
type Func struct {
	Name     string
	File     string // absolute path of the declaring file
	NameSpan Span   // the function's name in its declaration
	DeclSpan Span   // the whole declaration (for code lenses and hover)
	JitCalls []Span // jit.Jit(Name, ...) and jit.MakeJaxpr(Name, ...) calls, for hover on the call
	Refs     []Span // other uses of the function's name, for hover there too
	Static   []int  // StaticArgnums indices found at the jit.Jit call
	Sig      *types.Signature

	Args      []previewer.Arg // from the directive, or the f32[8] default
	Defaulted bool            // args are the f32[8] default, not a directive
	SigErr    string          // why this function cannot be previewed, if it cannot
	Variant   string          // set on a copy traced with other args (a jaxpr diff's side, a transformation)

	Xform *Transform // set on a copy traced through a transformation call (scanTransforms)
}

// Span is a byte range in one file.
type Span struct {
	File       string
	Start, End int
}

// Key names the function (or copy) in the harness and the preview caches.
func (f *Func) Key() string { return f.Name + f.Variant }

// Title names the function in hovers and messages: its name, or the
// transformation call that a copy previews.
func (f *Func) Title() string {
	if f.Xform != nil {
		return f.Xform.Label
	}
	return f.Name
}

// Signature returns the input Signature in directive syntax.
func (f *Func) Signature() string { return previewer.Signature(f.Args) }

// Problem is a //jit:args problem reported as a diagnostic.
type Problem struct {
	At  Span
	Msg string
}

// previewEntries are the jit entry points whose function a preview traces:
// jit.Jit, jit.MakeJaxpr and the transformations (a function used only
// transformed is previewed as written, and each transformation call as
// transformed: see scanTransforms).
var previewEntries = map[string]bool{"Jit": true, "MakeJaxpr": true, "Vmap": true, "Grad": true, "ValueAndGrad": true}

// previewRoot reports whether a preview traces fn: it is marked
// //jit:traced or given to one of previewEntries.
func previewRoot(info *types.Info, fn *traced.Func) bool {
	return fn.Entry == traced.MarkedTraced || slices.ContainsFunc(fn.EntryCalls, func(c *ast.CallExpr) bool {
		return previewEntries[jitapi.JitFunc(info, c)]
	})
}

// scanTraced returns the top-level functions of a type-checked package
// that a preview can trace, from the traced analyzer's result r (nil when
// the package does not import jit) plus the functions with a //jit:args
// directive, and checks their directives.
func scanTraced(pkg *packages.Package, r *traced.Result) ([]*Func, []Problem) {
	if r == nil {
		return nil, nil
	}
	fset := pkg.Fset
	mkSpan := func(n ast.Node) Span { return spanOf(pkg, n) }
	byObj := map[types.Object]*Func{}
	decls := map[*Func]*ast.FuncDecl{}
	var out []*Func
	add := func(fd *ast.FuncDecl) *Func {
		obj := pkg.TypesInfo.Defs[fd.Name]
		if obj == nil || fd.Recv != nil || fd.Type.TypeParams != nil || byObj[obj] != nil {
			return nil
		}
		tf := &Func{Name: fd.Name.Name, NameSpan: mkSpan(fd.Name), DeclSpan: mkSpan(fd)}
		tf.File = tf.NameSpan.File
		tf.Sig, _ = obj.Type().(*types.Signature)
		byObj[obj] = tf
		decls[tf] = fd
		out = append(out, tf)
		return tf
	}
	for _, fn := range r.Funcs {
		fd, ok := fn.Node.(*ast.FuncDecl)
		if !ok || !previewRoot(pkg.TypesInfo, fn) {
			continue
		}
		tf := add(fd)
		if tf == nil {
			continue
		}
		tf.Static = append(tf.Static, fn.Static...)
		for _, c := range fn.EntryCalls {
			if name := jitapi.JitFunc(pkg.TypesInfo, c); name == "Jit" || name == "MakeJaxpr" {
				tf.JitCalls = append(tf.JitCalls, mkSpan(c))
			}
		}
		slices.Sort(tf.Static)
		tf.Static = slices.Compact(tf.Static)
	}
	for _, file := range pkg.Syntax {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && argsDirective(fd) != nil {
				add(fd)
			}
		}
	}
	for id, obj := range pkg.TypesInfo.Uses {
		if tf := byObj[obj]; tf != nil {
			tf.Refs = append(tf.Refs, mkSpan(id))
		}
	}
	slices.SortFunc(out, func(a, b *Func) int {
		return cmp.Or(strings.Compare(a.File, b.File), a.NameSpan.Start-b.NameSpan.Start)
	})
	var problems []Problem
	for _, tf := range out {
		problems = append(problems, bindSignature(tf, decls[tf], fset)...)
	}
	return out, problems
}

// argsDirective returns the (last) //jit:args line of fd's doc comment, or nil.
func argsDirective(fd *ast.FuncDecl) *ast.Comment {
	var dir *ast.Comment
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			if strings.HasPrefix(c.Text, "//jit:args") {
				dir = c
			}
		}
	}
	return dir
}

// bindSignature sets tf.args from the directive (or the default) and
// returns the directive's problems.
func bindSignature(tf *Func, fd *ast.FuncDecl, fset *token.FileSet) []Problem {
	if tf.Sig == nil {
		tf.SigErr = "its type is unknown (the package has type errors)"
		return nil
	}
	params := tf.Sig.Params()
	dir := argsDirective(fd)
	if dir == nil {
		for i := range params.Len() {
			p := params.At(i)
			if slices.Contains(tf.Static, i) || !jitapi.IsArray(p.Type()) {
				tf.SigErr = fmt.Sprintf("parameter %d (%s %s) needs a value: add a //jit:args directive to %s's doc comment, e.g. //jit:args %s",
					i+1, p.Name(), p.Type(), tf.Name, previewer.ExampleArgs(params, tf.Static))
				return nil
			}
			tf.Args = append(tf.Args, previewer.Arg{Kind: previewer.ArgArray, DType: "f32", Dims: []int{8}})
		}
		tf.Defaulted = true
		return nil
	}
	args, problem, at, whole := parseDirectiveComment(dir, fset)
	if problem != nil {
		tf.SigErr = "its //jit:args directive is malformed"
		return []Problem{*problem}
	}
	if i, msg := previewer.Mismatch(tf.Name, tf.Sig, tf.Static, args, "//jit:args"); msg != "" {
		tf.SigErr = "its //jit:args directive does not match its parameters"
		if i < 0 {
			return []Problem{{whole, msg}}
		}
		return []Problem{{at(args[i].Col, len(args[i].String())), msg}}
	}
	tf.Args = args
	return nil
}

// parseDirectiveComment parses a //jit:args comment. It returns the
// arguments or the syntax problem, and for later problems a function that
// locates a column of the directive's text and the whole comment's span.
func parseDirectiveComment(dir *ast.Comment, fset *token.FileSet) ([]previewer.Arg, *Problem, func(col, n int) Span, Span) {
	pos := fset.Position(dir.Pos())
	text := strings.TrimPrefix(dir.Text, "//jit:args")
	textStart := pos.Offset + len("//jit:args")
	at := func(col, n int) Span {
		return Span{pos.Filename, textStart + col, textStart + col + max(n, 1)}
	}
	whole := Span{pos.Filename, pos.Offset, pos.Offset + len(dir.Text)}
	if text != "" && text[0] != ' ' && text[0] != '\t' {
		return nil, &Problem{whole, "malformed //jit:args directive: put a space after //jit:args"}, at, whole
	}
	args, err := previewer.ParseArgs(text)
	if err != nil {
		de := err.(*previewer.SyntaxError)
		return nil, &Problem{at(de.Col, len(text)-de.Col), de.Msg}, at, whole
	}
	return args, nil, at, whole
}

// OverlayProblems returns the //jit:args syntax problems of open buffers:
// what can be reported before (or without) the package's types.
func OverlayProblems(overlay map[string]File) []Problem {
	var out []Problem
	for path, f := range overlay {
		fset := token.NewFileSet()
		if file, _ := parser.ParseFile(fset, path, f.Content, parser.ParseComments|parser.SkipObjectResolution); file != nil {
			out = append(out, syntaxProblems(file, fset)...)
		}
	}
	return out
}

// syntaxProblems returns the //jit:args syntax problems of a parsed file.
func syntaxProblems(f *ast.File, fset *token.FileSet) []Problem {
	var out []Problem
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			if dir := argsDirective(fd); dir != nil {
				if _, p, _, _ := parseDirectiveComment(dir, fset); p != nil {
					out = append(out, *p)
				}
			}
		}
	}
	return out
}
