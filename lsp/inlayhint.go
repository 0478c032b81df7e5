package lsp

import (
	"context"
	"encoding/json"
	"github.com/jitlint/jitlint/internal/snapshot"
	"go/ast"
	"go/token"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/analyzers/traced"
	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// Inlay hints show, in a trusted workspace, the aval of every Array
// parameter and of every local variable assigned an Array in a traced
// function, from the function's jaxpr preview (its //jit:args signature or
// the default one): `y := x.Sin()` reads `y: f32[8] := x.Sin()`. A local
// gets the result aval of the last equation its right-hand side staged (the
// value of a chained expression; in a loop, the last iteration). A request
// never waits for a preview: functions without a cached preview get none
// now, their previews run in the background, and workspace/inlayHint/refresh
// asks for hints again when they are done. A function whose preview failed
// gets no hints; its jaxpr lens says "tracing failed" and shows why.

// inlayHint is LSP 3.17's InlayHint (the protocol package predates it).
type inlayHint struct {
	Position    protocol.Position `json:"position"`
	Label       string            `json:"label"`
	Kind        int               `json:"kind"` // 1: Type
	PaddingLeft bool              `json:"paddingLeft,omitempty"`
}

const inlayHintType = 1

func (s *Server) inlayHint(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decodeParams("textDocument/inlayHint", raw, &p); err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	if path, err := filePath(p.TextDocument.URI); err != nil || s.mayRun(path) != nil {
		return hints, nil
	}
	res, path, err := s.resultFor(ctx, p.TextDocument.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return hints, nil
	}
	m := res.analysedMapper(path)
	if m == nil || res.Result == nil {
		return hints, nil
	}
	var missing []*snapshot.Func
	for _, tf := range res.Traced {
		if tf.File != path || tf.SigErr != "" {
			continue
		}
		r, err := s.cachedJaxpr(res, tf)
		if err != nil {
			s.logf("jitls: inlay hints: %v", err)
			return hints, nil
		}
		if r == nil {
			missing = append(missing, tf)
			continue
		}
		if r.Failed() {
			continue
		}
		for _, h := range funcHints(res, tf, r) {
			pos := m.position(h.off)
			if inRange(pos, p.Range) {
				hints = append(hints, inlayHint{Position: pos, Label: h.label, Kind: inlayHintType})
			}
		}
	}
	if len(missing) > 0 {
		s.hints.previewInBackground(s, res, missing)
	}
	return hints, nil
}

func inRange(pos protocol.Position, r protocol.Range) bool {
	after := pos.Line > r.Start.Line || pos.Line == r.Start.Line && pos.Character >= r.Start.Character
	before := pos.Line < r.End.Line || pos.Line == r.End.Line && pos.Character <= r.End.Character
	return after && before
}

// hintAt is a hint's byte offset and label.
type hintAt struct {
	off   int
	label string
}

// funcHints computes tf's hints from its preview r.
func funcHints(res *pkgResult, tf *snapshot.Func, r *result.Preview) []hintAt {
	fd := funcDecl(res.Result, tf)
	if fd == nil {
		return nil
	}
	fset, info := res.Parsed.Pkg.Fset, res.Parsed.Pkg.TypesInfo
	var out []hintAt
	i := 0
	for _, field := range fd.Type.Params.List {
		names := field.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, n := range names {
			if i < len(tf.Args) && tf.Args[i].Kind == previewer.ArgArray && n.Name != "_" {
				out = append(out, hintAt{fset.Position(n.End()).Offset, ": " + tf.Args[i].String()})
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
			if !ok || id.Name == "_" || !traced.IsArray(info.TypeOf(id)) {
				continue
			}
			idx := 0
			if len(lhs) > 1 && len(rhs) == 1 {
				idx = k
			}
			if idx < len(outs) {
				out = append(out, hintAt{fset.Position(id.End()).Offset, ": " + outs[idx]})
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
func funcDecl(tr *traced.Result, tf *snapshot.Func) *ast.FuncDecl {
	for _, fn := range tr.Funcs {
		if fd, ok := fn.Node.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == tf.Name {
			return fd
		}
	}
	return nil
}

// hintPreviews runs the previews that inlay hints wait for, one batch per
// package state at a time.
type hintPreviews struct {
	mu      sync.Mutex
	running map[string]bool // build key + function
}

// previewInBackground previews funcs of res and then asks the client to
// refresh its inlay hints.
func (h *hintPreviews) previewInBackground(s *Server, res *pkgResult, funcs []*snapshot.Func) {
	h.mu.Lock()
	if h.running == nil {
		h.running = map[string]bool{}
	}
	var todo []*snapshot.Func
	for _, tf := range funcs {
		k := res.Dir + "\x00" + tf.Name
		if !h.running[k] {
			h.running[k] = true
			todo = append(todo, tf)
		}
	}
	h.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	go func() {
		defer func() {
			h.mu.Lock()
			for _, tf := range todo {
				delete(h.running, res.Dir+"\x00"+tf.Name)
			}
			h.mu.Unlock()
		}()
		for _, tf := range todo {
			if _, err := s.runPreview(context.Background(), res, tf, result.Jaxpr); err != nil {
				s.logf("jitls: preview of %s for inlay hints: %v", tf.Name, err)
			}
		}
		s.refreshInlayHints()
		s.refreshCodeLenses() // a failed preview shows on its lens
	}()
}

// refreshInlayHints asks the client to re-request inlay hints.
func (s *Server) refreshInlayHints() {
	if !s.caps().inlayHintRefresh {
		return
	}
	if err := s.conn.Call(context.Background(), "workspace/inlayHint/refresh", nil, nil); err != nil {
		s.logf("jitls: workspace/inlayHint/refresh: %v", err)
	}
}
