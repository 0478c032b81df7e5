package lsp

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/jitlint/jitlint/analyzers/traced"
	"go.lsp.dev/protocol"
)

// Semantic tokens mark, in traced functions, every identifier that denotes a
// traced value (modifier "traced", by the traced analyzer's own IsTraced,
// the definition the analyzers use) and every static parameter and
// `jit:"static"` field (modifier "static"), so that an editor can colour an
// `if` on a traced value before any diagnostic. No code runs: no trust is
// needed. Other identifiers get no token (the editor's own highlighting
// stays).

// Token types and modifiers of the legend, in legend order.
var (
	semTypes     = []string{"variable", "parameter", "property"}
	semModifiers = []string{"traced", "static"}
)

const (
	semVariable = iota
	semParameter
	semProperty
)

const (
	modTraced = 1 << iota
	modStatic
)

// semanticTokensProvider is the server capability.
var semanticTokensProvider = map[string]any{
	"legend": map[string]any{"tokenTypes": semTypes, "tokenModifiers": semModifiers},
	"full":   true,
	"range":  true,
}

// semToken is one token: a byte range of an identifier, its type and
// modifier bits.
type semToken struct {
	off, end  int
	typ, mods int
}

func (s *Server) semanticTokensFull(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	}
	if err := decodeParams("textDocument/semanticTokens/full", raw, &p); err != nil {
		return nil, err
	}
	return s.semanticTokens(ctx, p.TextDocument.URI, nil)
}

func (s *Server) semanticTokensRange(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decodeParams("textDocument/semanticTokens/range", raw, &p); err != nil {
		return nil, err
	}
	return s.semanticTokens(ctx, p.TextDocument.URI, &p.Range)
}

// semanticTokens encodes the tokens of a file (within rng when not nil) as
// LSP's relative integer array.
func (s *Server) semanticTokens(ctx context.Context, u protocol.DocumentURI, rng *protocol.Range) (any, error) {
	data := []uint32{}
	res, path, err := s.resultFor(ctx, u)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return map[string]any{"data": data}, nil
	}
	m := res.analysedMapper(path)
	if m == nil || res.Result == nil {
		return map[string]any{"data": data}, nil
	}
	content := res.Parsed.Contents[path]
	var prev protocol.Position
	for _, t := range fileTokens(res, path) {
		pos := m.position(t.off)
		if rng != nil && !inRange(pos, *rng) {
			continue
		}
		dl, dc := pos.Line-prev.Line, pos.Character
		if dl == 0 {
			dc -= prev.Character
		}
		n := len(utf16.Encode([]rune(string(content[t.off:t.end]))))
		data = append(data, dl, dc, uint32(n), uint32(t.typ), uint32(t.mods))
		prev = pos
	}
	return map[string]any{"data": data}, nil
}

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

// fileTokens returns path's tokens in order.
func fileTokens(res *pkgResult, path string) []semToken {
	tr, info, fset := res.Result, res.Parsed.Pkg.TypesInfo, res.Parsed.Pkg.Fset
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
	var toks []semToken
	add := func(id *ast.Ident, typ, mods int) {
		if seen[id.Pos()] || id.Name == "_" {
			return
		}
		seen[id.Pos()] = true
		toks = append(toks, semToken{fset.Position(id.Pos()).Offset, fset.Position(id.End()).Offset, typ, mods})
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
						add(n.Sel, semProperty, modStatic)
					case tr.IsTraced(n):
						add(n.Sel, semProperty, modTraced)
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
				typ := semVariable
				if params[v] {
					typ = semParameter
				}
				switch {
				case static[v]:
					add(n, typ, modStatic)
				case tr.IsTraced(n):
					add(n, typ, modTraced)
				}
			}
			return true
		})
	}
	// `jit:"static"` fields where they are declared.
	for _, f := range res.Parsed.Pkg.Syntax {
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
				if tag, err := strconv.Unquote(field.Tag.Value); err == nil && traced.IsStaticTag(tag) {
					for _, id := range field.Names {
						add(id, semProperty, modStatic)
					}
				}
			}
			return true
		})
	}
	slices.SortFunc(toks, func(a, b semToken) int { return a.off - b.off })
	return toks
}
