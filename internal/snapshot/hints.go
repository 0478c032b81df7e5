package snapshot

import (
	"go/ast"
	"go/token"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/jitapi"
	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// Hint is an aval to show after an identifier: a byte offset and a label
// (": f32[8]").
type Hint struct {
	Off   int
	Label string
}

// Hints returns the avals of tf's Array parameters and of the locals its
// body assigns Arrays, from its jaxpr preview r: a parameter's is its
// argument's; a local's is the result aval of the last equation its
// right-hand side staged (the value of a chained expression; in a loop,
// the last iteration). It needs a snapshot with a Result.
func (s *Snapshot) Hints(tf *Func, r *result.Preview) []Hint {
	fd := funcDecl(s.Result, tf)
	if fd == nil {
		return nil
	}
	fset, info := s.Parsed.Pkg.Fset, s.Parsed.Pkg.TypesInfo
	var out []Hint
	i := 0
	for _, field := range fd.Type.Params.List {
		names := field.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, n := range names {
			if i < len(tf.Args) && tf.Args[i].Kind == previewer.ArgArray && n.Name != "_" {
				out = append(out, Hint{fset.Position(n.End()).Offset, ": " + tf.Args[i].String()})
			}
			i++
		}
	}
	lastOut := lastOutByLine(r, tf.File)
	assign := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(rhs) == 0 {
			return
		}
		best := eqnOut{seq: -1}
		for _, l := range stagingLines(fset, rhs) {
			if o, ok := lastOut[l]; ok && o.seq > best.seq {
				best = o
			}
		}
		outs := best.out
		for k, e := range lhs {
			id, ok := e.(*ast.Ident)
			if !ok || id.Name == "_" || !jitapi.IsArray(info.TypeOf(id)) {
				continue
			}
			idx := 0
			if len(lhs) > 1 && len(rhs) == 1 {
				idx = k
			}
			if idx < len(outs) {
				out = append(out, Hint{fset.Position(id.End()).Offset, ": " + outs[idx]})
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE || n.Tok == token.ASSIGN {
				assign(n.Lhs, n.Rhs)
			}
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			assign(lhs, n.Values)
		}
		return true
	})
	return out
}

// eqnOut is the result avals of the last equation staged on a line and its
// index in the preview's equation list.
type eqnOut struct {
	seq int
	out []string
}

// lastOutByLine maps each line of file to the last equation staged there.
func lastOutByLine(r *result.Preview, file string) map[int]eqnOut {
	m := map[int]eqnOut{}
	for i, e := range r.Sources {
		if e.File == file && len(e.Out) > 0 {
			m[e.Line] = eqnOut{i, e.Out}
		}
	}
	return m
}

// stagingLines returns the lines of es, leaving out the bodies of function
// literals (a scan or cond body stages into its own jaxpr).
func stagingLines(fset *token.FileSet, es []ast.Expr) []int {
	skip := map[int]bool{}
	lines := map[int]bool{}
	for _, e := range es {
		for l := fset.Position(e.Pos()).Line; l <= fset.Position(e.End()).Line; l++ {
			lines[l] = true
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if fl, ok := n.(*ast.FuncLit); ok {
				for l := fset.Position(fl.Body.Lbrace).Line + 1; l < fset.Position(fl.Body.Rbrace).Line; l++ {
					skip[l] = true
				}
				return false
			}
			return true
		})
	}
	var out []int
	for l := range lines {
		if !skip[l] {
			out = append(out, l)
		}
	}
	return out
}

// funcDecl returns tf's declaration from the traced analyzer's result.
func funcDecl(tr *traced.Result, tf *Func) *ast.FuncDecl {
	for _, fn := range tr.Funcs {
		if fd, ok := fn.Node.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == tf.Name {
			return fd
		}
	}
	return nil
}
