package snapshot

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/jitlint/jitlint/internal/jitapi"
)

// Token is an identifier in a traced function that denotes a traced value
// (by the traced analyzer's own IsTraced, the definition the analyzers
// use), or a static parameter or `jit:"static"` field: what an editor
// colours before any diagnostic. No code runs to find them.
type Token struct {
	Start, End int       // byte offsets of the identifier
	Kind       TokenKind // what it names
	Static     bool      // static, not traced
}

// TokenKind is what a token's identifier names.
type TokenKind int

// The token kinds.
const (
	Variable TokenKind = iota
	Parameter
	Property // a struct field
)

// funcParams are the parameters of a function declaration or literal, in
// order (nil for unnamed ones).
func funcParams(info *types.Info, node ast.Node) []*types.Var {
	var ft *ast.FuncType
	switch n := node.(type) {
	case *ast.FuncDecl:
		ft = n.Type
	case *ast.FuncLit:
		ft = n.Type
	}
	if ft == nil || ft.Params == nil {
		return nil
	}
	var out []*types.Var
	for _, field := range ft.Params.List {
		if len(field.Names) == 0 {
			out = append(out, nil)
		}
		for _, name := range field.Names {
			v, _ := info.Defs[name].(*types.Var)
			out = append(out, v)
		}
	}
	return out
}

// Tokens returns the tokens of the file at path, in order. It needs a
// snapshot with a Result.
func (s *Snapshot) Tokens(path string) []Token {
	tr, info, fset := s.Result, s.Parsed.Pkg.TypesInfo, s.Parsed.Pkg.Fset
	params := map[*types.Var]bool{}
	static := map[*types.Var]bool{}
	for _, fn := range tr.Funcs {
		for i, v := range funcParams(info, fn.Node) {
			params[v] = true
			if slices.Contains(fn.Static, i) {
				static[v] = true
			}
		}
	}
	seen := map[token.Pos]bool{}
	var toks []Token
	add := func(id *ast.Ident, kind TokenKind, static bool) {
		if seen[id.Pos()] || id.Name == "_" {
			return
		}
		seen[id.Pos()] = true
		toks = append(toks, Token{fset.Position(id.Pos()).Offset, fset.Position(id.End()).Offset, kind, static})
	}
	inFile := func(n ast.Node) bool { return fset.Position(n.Pos()).Filename == path }
	for _, fn := range tr.Funcs {
		if !inFile(fn.Node) {
			continue
		}
		ast.Inspect(fn.Node, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if sel := info.Selections[n]; sel != nil && sel.Kind() == types.FieldVal {
					switch {
					case tr.IsStaticField(n):
						add(n.Sel, Property, true)
					case tr.IsTraced(n):
						add(n.Sel, Property, false)
					}
				}
			case *ast.Ident:
				obj := info.Defs[n]
				if obj == nil {
					obj = info.Uses[n]
				}
				v, ok := obj.(*types.Var)
				if !ok || v.IsField() {
					return true
				}
				kind := Variable
				if params[v] {
					kind = Parameter
				}
				switch {
				case static[v]:
					add(n, kind, true)
				case tr.IsTraced(n):
					add(n, kind, false)
				}
			}
			return true
		})
	}
	// `jit:"static"` fields where they are declared.
	for _, f := range s.Parsed.Pkg.Syntax {
		if !inFile(f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag == nil {
					continue
				}
				if tag, err := strconv.Unquote(field.Tag.Value); err == nil && jitapi.IsStaticTag(tag) {
					for _, id := range field.Names {
						add(id, Property, true)
					}
				}
			}
			return true
		})
	}
	slices.SortFunc(toks, func(a, b Token) int { return a.Start - b.Start })
	return toks
}
