package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/previewer"
)

// diffJaxprCommand carries out jitls.diffJaxpr: it traces a function under
// two signatures and returns a previewer.JaxprDiff.
func (s *Server) diffJaxprCommand(ctx context.Context, args []json.RawMessage) (any, error) {
	var arg struct {
		URI        protocol.DocumentURI `json:"uri"`
		Function   string               `json:"function"`
		Signatures []string             `json:"signatures"`
	}
	if len(args) != 1 || json.Unmarshal(args[0], &arg) != nil || arg.URI == "" || arg.Function == "" || len(arg.Signatures) != 2 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument {\"uri\": \"file:///…\", \"function\": \"Name\", \"signatures\": [\"f32[4]\", \"f32[8]\"]}", CommandDiffJaxpr)
	}
	res, tf, err := s.commandTarget(ctx, arg.URI, arg.Function)
	if err != nil {
		return nil, err
	}
	pr := s.startProgress(ctx, "jitls: tracing "+tf.Name+" twice for a jaxpr diff")
	t := previewer.Target{Key: tf.Name, Func: tf.Name, Sig: tf.Sig, Static: tf.Static}
	d, err := s.previews.Diff(ctx, res.Source(), t, [2]string{arg.Signatures[0], arg.Signatures[1]}, pr.report)
	if err != nil {
		pr.end("failed")
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, jsonrpc2.NewError(errRequestFailed, err.Error())
	}
	pr.end("done")
	return d, nil
}
