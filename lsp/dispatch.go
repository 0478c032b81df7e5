package lsp

import (
	"context"
	"encoding/json"
	"runtime/debug"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/jitlint/jitlint/internal/jsonrpc"
)

// requestFunc handles one request; its result is sent as the reply.
type requestFunc func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

// notificationFunc handles one notification, in arrival order.
type notificationFunc func(s *Server, ctx context.Context, params json.RawMessage) error

// requests run in their own goroutine (so a slow preview never blocks
// didChange), with a context that $/cancelRequest cancels.
var requests = map[string]requestFunc{
	protocol.MethodTextDocumentCodeAction:  (*Server).codeAction,
	protocol.MethodTextDocumentCodeLens:    (*Server).codeLens,
	"textDocument/diagnostic":              (*Server).pullDiagnostics,
	protocol.MethodTextDocumentHover:       (*Server).hover,
	"textDocument/inlayHint":               (*Server).inlayHint,
	"textDocument/semanticTokens/full":     (*Server).semanticTokensFull,
	"textDocument/semanticTokens/range":    (*Server).semanticTokensRange,
	protocol.MethodWorkspaceExecuteCommand: (*Server).executeCommand,
}

// notifications run synchronously in the read loop, so document edits are
// applied in the order the client sent them.
var notifications = map[string]notificationFunc{
	protocol.MethodInitialized:                     func(*Server, context.Context, json.RawMessage) error { return nil },
	protocol.MethodTextDocumentDidOpen:             (*Server).didOpen,
	protocol.MethodTextDocumentDidChange:           (*Server).didChange,
	protocol.MethodTextDocumentDidClose:            (*Server).didClose,
	protocol.MethodTextDocumentDidSave:             (*Server).didSave,
	protocol.MethodWorkspaceDidChangeConfiguration: (*Server).didChangeConfiguration,
	protocol.MethodWorkspaceDidChangeWatchedFiles:  (*Server).didChangeWatchedFiles,
	"workspace/didChangeWorkspaceFolders":          (*Server).didChangeWorkspaceFolders,
}

// handle is the connection's handler for every request and notification.
// It never lets a panic escape: a panicking request is answered with
// InternalError.
func (s *Server) handle(ctx context.Context, m *jsonrpc.Message) {
	reply := s.conn.Replier(m)
	defer func() {
		if r := recover(); r != nil {
			s.logf("jitls: panic handling %s: %v\n%s", m.Method, r, debug.Stack())
			reply(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in jitls while handling %s: %v", m.Method, r))
		}
	}()
	if m.IsCall() {
		s.handleCall(ctx, reply, m)
	} else {
		s.handleNotification(ctx, m)
	}
}

func (s *Server) handleCall(ctx context.Context, reply func(any, error), call *jsonrpc.Message) {
	method := call.Method
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == protocol.MethodInitialize:
		if state != stateCreated {
			reply(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received; send it only once per session"))
			return
		}
		reply(s.initialize(ctx, call.Params))
		return
	case state == stateCreated:
		reply(nil, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize: send initialize first", method))
		return
	case state >= stateShutdown:
		reply(nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown: the only message accepted now is exit", method))
		return
	case method == protocol.MethodShutdown:
		s.shutdown()
		reply(nil, nil)
		return
	}
	fn, ok := requests[method]
	if !ok {
		reply(nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "jitls does not implement %s", method))
		return
	}
	s.conn.Go(ctx, call, reply, func(ctx context.Context) (any, error) { return fn(s, ctx, call.Params) })
}

func (s *Server) handleNotification(ctx context.Context, n *jsonrpc.Message) {
	method := n.Method
	if method == protocol.MethodExit {
		s.exit()
		return
	}
	if method == protocol.MethodCancelRequest {
		if err := s.conn.Cancel(n.Params); err != nil {
			s.logf("jitls: %v", err)
		}
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateInitialized {
		s.logf("jitls: ignoring %s: the server is not initialized or is shutting down", method)
		return
	}
	fn, ok := notifications[method]
	if !ok {
		// $/ notifications and unknown ones may be ignored (LSP spec).
		return
	}
	if err := fn(s, ctx, n.Params); err != nil {
		s.logf("jitls: %s: %v", method, err)
	}
}

// decodeParams unmarshals params into v, mapping failures to InvalidParams.
func decodeParams(method string, params json.RawMessage, v any) error {
	if len(params) == 0 {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: missing params", method)
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: invalid params: %v", method, err)
	}
	return nil
}
