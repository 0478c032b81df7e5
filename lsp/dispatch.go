package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
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
}

// errRequestCancelled is LSP's RequestCancelled (-32800).
var errRequestCancelled = jsonrpc2.NewError(-32800, "request cancelled")

// handle is the jsonrpc2 handler for every incoming message. It never
// returns an error (that would close the connection) and never lets a
// panic escape: a panicking request is answered with InternalError.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	once := onceReplier(reply)
	defer func() {
		if r := recover(); r != nil {
			s.logf("jitls: panic handling %s: %v\n%s", req.Method(), r, debug.Stack())
			if _, ok := req.(*jsonrpc2.Call); ok {
				_ = once(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in jitls while handling %s: %v", req.Method(), r))
			}
		}
	}()
	switch req := req.(type) {
	case *jsonrpc2.Call:
		s.handleCall(ctx, once, req)
	case *jsonrpc2.Notification:
		s.handleNotification(ctx, req)
	}
	return nil
}

// onceReplier makes a Replier that answers at most once and always through
// a context that is not cancelled (jsonrpc2 drops writes on a cancelled
// context, which would leave the client waiting forever).
func onceReplier(reply jsonrpc2.Replier) jsonrpc2.Replier {
	var done atomic.Bool
	return func(ctx context.Context, result any, err error) error {
		if !done.CompareAndSwap(false, true) {
			return nil
		}
		return reply(context.WithoutCancel(ctx), result, err)
	}
}

func (s *Server) handleCall(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) {
	method := call.Method()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == protocol.MethodInitialize:
		if state != stateCreated {
			_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received; send it only once per session"))
			return
		}
		res, err := s.initialize(ctx, call.Params())
		_ = reply(ctx, res, err)
		return
	case state == stateCreated:
		_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize: send initialize first", method))
		return
	case state >= stateShutdown:
		_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown: the only message accepted now is exit", method))
		return
	case method == protocol.MethodShutdown:
		s.shutdown()
		_ = reply(ctx, nil, nil)
		return
	}
	fn, ok := requests[method]
	if !ok {
		_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "jitls does not implement %s", method))
		return
	}
	key := fmt.Sprintf("%q", call.ID())
	rctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.inflight[key] = cancel
	s.mu.Unlock()
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.logf("jitls: panic in %s: %v\n%s", method, r, debug.Stack())
				_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in jitls while handling %s: %v", method, r))
			}
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		res, err := fn(s, rctx, call.Params())
		if rctx.Err() != nil && ctx.Err() == nil {
			err = errRequestCancelled
		}
		var perr *jsonrpc2.Error
		if err != nil && !errors.As(err, &perr) {
			err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		_ = reply(ctx, res, err)
	}()
}

func (s *Server) handleNotification(ctx context.Context, n *jsonrpc2.Notification) {
	method := n.Method()
	if method == protocol.MethodExit {
		s.exit()
		return
	}
	if method == protocol.MethodCancelRequest {
		s.cancelRequest(n.Params())
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
	if err := fn(s, ctx, n.Params()); err != nil {
		s.logf("jitls: %s: %v", method, err)
	}
}

// cancelRequest handles $/cancelRequest with a numeric or string id.
func (s *Server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.ID) == 0 {
		s.logf("jitls: $/cancelRequest without a usable id: %s", params)
		return
	}
	var key string
	var num int64
	var str string
	switch {
	case json.Unmarshal(p.ID, &num) == nil:
		key = fmt.Sprintf("%q", jsonrpc2.NewNumberID(int32(num)))
		if num != int64(int32(num)) {
			key = "#" + strconv.FormatInt(num, 10)
		}
	case json.Unmarshal(p.ID, &str) == nil:
		key = fmt.Sprintf("%q", jsonrpc2.NewStringID(str))
	default:
		s.logf("jitls: $/cancelRequest id %s is neither a number nor a string", p.ID)
		return
	}
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
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
