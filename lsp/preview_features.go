package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"
)

// errRequestFailed is LSP's RequestFailed code, for readable failures.
const errRequestFailed jsonrpc2.Code = -32803

// untrustedHelp says how to enable code execution.
const untrustedHelp = "Previews and compile-cost measurements build and run your code, so jitls only runs them in a trusted workspace. " +
	"Enable them by starting jitls with initializationOptions {\"allowCodeExecution\": true} " +
	"(VS Code: trust the workspace; Neovim: init_options = { allowCodeExecution = true })."

// suite returns the analyzers for settings.
func (s *Server) suite(st Settings) []*analysis.Analyzer {
	if s.opts.Analyzers == nil {
		return nil
	}
	return s.opts.Analyzers(st)
}

func (s *Server) trusted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.AllowCodeExecution
}

// resultFor waits for the analysis of the package containing u.
func (s *Server) resultFor(ctx context.Context, u protocol.DocumentURI) (*pkgResult, string, error) {
	path, err := filePath(u)
	if err != nil {
		return nil, "", err
	}
	res, err := s.diags.waitResult(ctx, filepath.Dir(path))
	if err != nil {
		return nil, "", err
	}
	if res.pp == nil {
		if res.err != nil {
			return nil, "", res.err
		}
		return nil, "", fmt.Errorf("no analysis of %s is available", u)
	}
	return res, path, nil
}

// tracedAt returns the traced function whose name or jit.Jit call contains
// the byte offset off of file path, or nil.
func (r *pkgResult) tracedAt(path string, off int) (*tracedFunc, span) {
	for _, tf := range r.traced {
		for _, sp := range append([]span{tf.nameSpan}, tf.jitCalls...) {
			if sp.file == path && sp.start <= off && off <= sp.end {
				return tf, sp
			}
		}
	}
	return nil, span{}
}

func (r *pkgResult) tracedNamed(name string) *tracedFunc {
	for _, tf := range r.traced {
		if tf.name == name {
			return tf
		}
	}
	return nil
}

// runPreview checks trust and the signature, then previews tf.
func (s *Server) runPreview(ctx context.Context, res *pkgResult, tf *tracedFunc, mode previewMode) (*previewResult, error) {
	if !s.trusted() {
		return nil, &previewError{untrustedHelp}
	}
	if tf.sigErr != "" {
		return nil, &previewError{fmt.Sprintf("%s cannot be previewed: %s", tf.name, tf.sigErr)}
	}
	in, err := s.previews.prepare(res)
	if err != nil {
		return nil, err
	}
	if r := s.previews.cached(in, tf.name, mode); r != nil {
		return r, nil
	}
	title := "jitls: tracing " + tf.name
	if mode == modeMeasure {
		title = "jitls: measuring the compile cost of " + tf.name
	}
	pr := s.startProgress(ctx, title)
	r, err := s.previews.preview(ctx, in, tf.name, mode, pr.report)
	if err != nil {
		pr.end("failed")
		return nil, err
	}
	pr.end("done")
	return r, nil
}

// userError formats a harness-reported failure (error or panic in user code).
func userError(tf *tracedFunc, r *previewResult) error {
	switch {
	case r.Panic != "":
		return &previewError{fmt.Sprintf("%s panicked while being traced with (%s): %s\n%s", tf.name, tf.signature(), r.Panic, userStack(r.Stack))}
	case r.Error != "":
		return &previewError{fmt.Sprintf("%s with (%s): %s", tf.name, tf.signature(), r.Error)}
	}
	return nil
}

// userStack keeps the frames of a panic's stack that are not the
// runtime's, testing's or the harness's.
func userStack(stack string) string {
	lines := strings.Split(stack, "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn, loc := lines[i], lines[i+1]
		if strings.HasPrefix(fn, "runtime") || strings.HasPrefix(fn, "testing.") || strings.Contains(fn, "jitlsPreview") || strings.Contains(loc, harnessFile) {
			continue
		}
		out = append(out, fn, loc)
		if len(out) >= 16 {
			break
		}
	}
	return strings.Join(out, "\n")
}

func (s *Server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decodeParams("textDocument/hover", raw, &p); err != nil {
		return nil, err
	}
	res, path, err := s.resultFor(ctx, p.TextDocument.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	m := res.mappers[path]
	if m == nil {
		return nil, nil
	}
	off, err := m.offset(p.Position)
	if err != nil {
		return nil, nil
	}
	tf, sp := res.tracedAt(path, off)
	if tf == nil {
		return nil, nil
	}
	rng := m.rangeOf(sp.start, sp.end)
	text := s.hoverText(ctx, res, tf)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: text}, Range: &rng}, nil
}

// hoverText is the markdown shown on a traced function.
func (s *Server) hoverText(ctx context.Context, res *pkgResult, tf *tracedFunc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (traced by jit)\n\n", tf.name)
	r, err := s.runPreview(ctx, res, tf, modeJaxpr)
	if err == nil {
		err = userError(tf, r)
	}
	if err != nil {
		var pe *previewError
		if errors.As(err, &pe) && pe.msg == untrustedHelp {
			b.WriteString(untrustedHelp + "\n")
			return b.String()
		}
		fmt.Fprintf(&b, "No jaxpr preview:\n\n```text\n%s\n```\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "Input signature: `%s`", tf.signature())
	if tf.defaulted {
		b.WriteString(" (default shapes; choose others with a `//jit:args` directive, e.g. `//jit:args f32[1024]`)")
	}
	fmt.Fprintf(&b, "\n\n```text\n%s\n```\n\n%d equations", strings.TrimRight(r.Jaxpr, "\n"), r.Eqns)
	if m := s.previews.lastMeasured(res.dir, tf.name); m != nil {
		fmt.Fprintf(&b, " · %s", costTitle(m))
	}
	b.WriteString("\n")
	return b.String()
}

// costTitle is the one-line summary of a measurement.
func costTitle(m *previewResult) string {
	where := m.Backend
	if m.Device != "" && m.Backend != "cpu" {
		where += " (" + m.Device + ")"
	}
	return fmt.Sprintf("compile %s · cached %s · %s", fmtMs(m.CompileMs+m.LowerMs), fmtMs(m.CachedCallMs), where)
}

func fmtMs(ms float64) string {
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0f ms", ms)
	case ms >= 1:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.2f ms", ms)
}

func (s *Server) codeLens(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeLensParams
	if err := decodeParams("textDocument/codeLens", raw, &p); err != nil {
		return nil, err
	}
	lenses := []protocol.CodeLens{}
	res, path, err := s.resultFor(ctx, p.TextDocument.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return lenses, nil
	}
	m := res.mappers[path]
	for _, tf := range res.traced {
		if tf.file != path || m == nil {
			continue
		}
		start := m.position(tf.declSpan.start)
		rng := protocol.Range{Start: start, End: start}
		arg := map[string]any{"uri": string(p.TextDocument.URI), "function": tf.name}
		cost := "compile cost"
		if r := s.previews.lastMeasured(res.dir, tf.name); r != nil {
			cost = costTitle(r)
		}
		lenses = append(lenses,
			protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: "jaxpr", Command: CommandShowJaxpr, Arguments: []any{arg}}},
			protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: cost, Command: CommandMeasureCompileCost, Arguments: []any{arg}}})
	}
	return lenses, nil
}

// commandArg is the argument object of jitls's commands.
type commandArg struct {
	URI      protocol.DocumentURI `json:"uri"`
	Function string               `json:"function"`
}

func (s *Server) executeCommand(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decodeParams("workspace/executeCommand", raw, &p); err != nil {
		return nil, err
	}
	var mode previewMode
	switch p.Command {
	case CommandShowJaxpr:
		mode = modeJaxpr
	case CommandMeasureCompileCost:
		mode = modeMeasure
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q; jitls provides %s and %s", p.Command, CommandShowJaxpr, CommandMeasureCompileCost)
	}
	var arg commandArg
	if len(p.Arguments) != 1 || json.Unmarshal(p.Arguments[0], &arg) != nil || arg.URI == "" || arg.Function == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument {\"uri\": \"file:///…\", \"function\": \"Name\"}", p.Command)
	}
	if !s.trusted() {
		return nil, jsonrpc2.NewError(errRequestFailed, untrustedHelp)
	}
	res, _, err := s.resultFor(ctx, arg.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, jsonrpc2.NewError(errRequestFailed, err.Error())
	}
	tf := res.tracedNamed(arg.Function)
	if tf == nil {
		return nil, jsonrpc2.Errorf(errRequestFailed, "%s is not a traced top-level function of the package of %s (pass it to jit.Jit or mark it //jit:traced)", arg.Function, arg.URI)
	}
	r, err := s.runPreview(ctx, res, tf, mode)
	if err == nil {
		err = userError(tf, r)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, jsonrpc2.NewError(errRequestFailed, err.Error())
	}
	if mode == modeJaxpr {
		return map[string]any{"function": tf.name, "signature": tf.signature(), "jaxpr": r.Jaxpr, "eqns": r.Eqns}, nil
	}
	s.refreshCodeLenses()
	return map[string]any{"function": tf.name, "signature": tf.signature(), "backend": r.Backend, "device": r.Device,
		"traceMs": r.TraceMs, "lowerMs": r.LowerMs, "compileMs": r.CompileMs, "firstCallMs": r.FirstCallMs, "cachedCallMs": r.CachedCallMs}, nil
}

// refreshCodeLenses asks the client to re-request lenses (LSP 3.16), so
// that a measured cost shows in the lens title.
func (s *Server) refreshCodeLenses() {
	s.mu.Lock()
	ok := s.clientCaps.codeLensRefresh
	s.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		if _, err := s.conn.Call(context.Background(), "workspace/codeLens/refresh", nil, nil); err != nil {
			s.logf("jitls: workspace/codeLens/refresh: %v", err)
		}
	}()
}
