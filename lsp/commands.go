package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/snapshot"
	"github.com/jitlint/jitlint/internal/textdoc"
	"github.com/jitlint/jitlint/jit/preview/result"
)

// errRequestFailed is LSP's RequestFailed code, for readable failures.
const errRequestFailed jsonrpc2.Code = -32803

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
	var mode result.Mode
	switch p.Command {
	case CommandApplyFix:
		return s.applyFix(ctx, p.Arguments)
	case CommandDiffJaxpr:
		return s.diffJaxprCommand(ctx, p.Arguments)
	case CommandShowJaxpr:
		mode = result.Jaxpr
	case CommandMeasureCompileCost:
		mode = result.Measure
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q; jitls provides %s, %s, %s and %s", p.Command, CommandShowJaxpr, CommandMeasureCompileCost, CommandDiffJaxpr, CommandApplyFix)
	}
	var arg commandArg
	if len(p.Arguments) != 1 || json.Unmarshal(p.Arguments[0], &arg) != nil || arg.URI == "" || arg.Function == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument {\"uri\": \"file:///…\", \"function\": \"Name\"}", p.Command)
	}
	res, tf, err := s.commandTarget(ctx, arg.URI, arg.Function)
	if err != nil {
		return nil, err
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
	if mode == result.Jaxpr {
		return map[string]any{"function": tf.Name, "signature": tf.Signature(), "jaxpr": r.Jaxpr, "eqns": r.Eqns,
			"jaxprSources": r.JaxprSources, "links": jaxprLinks(r)}, nil
	}
	s.refreshCodeLenses()
	return map[string]any{"function": tf.Name, "signature": tf.Signature(), "backend": r.Backend, "device": r.Device,
		"traceMs": r.TraceMs, "lowerMs": r.LowerMs, "compileMs": r.CompileMs, "firstCallMs": r.FirstCallMs, "cachedCallMs": r.CachedCallMs, "gpuEstimate": r.GPUEstimate}, nil
}

// commandTarget checks trust and finds the traced function a preview
// command names, as a JSON-RPC error when it cannot.
func (s *Server) commandTarget(ctx context.Context, u protocol.DocumentURI, function string) (*pkgResult, *snapshot.Func, error) {
	path, err := textdoc.FilePath(u)
	if err != nil {
		return nil, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	if err := s.mayRun(path); err != nil {
		return nil, nil, jsonrpc2.NewError(errRequestFailed, err.Error())
	}
	res, _, err := s.resultFor(ctx, u)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, jsonrpc2.NewError(errRequestFailed, err.Error())
	}
	tf := res.TracedNamed(function)
	if tf == nil {
		return nil, nil, jsonrpc2.Errorf(errRequestFailed, "%s is not a traced top-level function of the package of %s (pass it to jit.Jit or mark it //jit:traced)", function, u)
	}
	return res, tf, nil
}

// applyFix asks the client to apply the workspace edit of a quick fix
// offered as a command.
func (s *Server) applyFix(ctx context.Context, args []json.RawMessage) (any, error) {
	var edit json.RawMessage
	if len(args) != 1 || json.Unmarshal(args[0], &edit) != nil || len(edit) == 0 || edit[0] != '{' {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument, a WorkspaceEdit", CommandApplyFix)
	}
	var res struct {
		Applied       bool   `json:"applied"`
		FailureReason string `json:"failureReason"`
	}
	if err := s.conn.Call(ctx, "workspace/applyEdit", map[string]any{"label": "jitls quick fix", "edit": edit}, &res); err != nil {
		return nil, jsonrpc2.Errorf(errRequestFailed, "workspace/applyEdit: %v", err)
	}
	if !res.Applied {
		return nil, jsonrpc2.Errorf(errRequestFailed, "the editor did not apply the quick fix: %s", res.FailureReason)
	}
	return nil, nil
}
