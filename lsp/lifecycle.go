package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Commands the server executes (workspace/executeCommand), also the
// commands of its code lenses.
const (
	CommandShowJaxpr          = "jitls.showJaxpr"
	CommandMeasureCompileCost = "jitls.measureCompileCost"
	// CommandApplyFix applies a quick fix's workspace edit (its one
	// argument) through workspace/applyEdit, for clients that take code
	// actions only as commands.
	CommandApplyFix = "jitls.applyFix"
	// CommandDiffJaxpr traces a function under two signatures and returns
	// a JaxprDiff; its argument is {"uri", "function", "signatures": [a, b]}.
	CommandDiffJaxpr = "jitls.diffJaxpr"
)

// initializeParams is the part of InitializeParams the server reads;
// decoding only this keeps unknown 3.17 fields from ever being a problem.
type initializeParams struct {
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	Capabilities          json.RawMessage `json:"capabilities"`
	workspaceRoots
}

func (s *Server) initialize(ctx context.Context, raw json.RawMessage) (any, error) {
	var p initializeParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initialize: invalid params: %v", err)
		}
	}
	settings, err := parseInitOptions(p.InitializationOptions)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	caps, err := parseClientCaps(p.Capabilities)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	folders := s.folderPaths(p.workspaceRoots)
	s.mu.Lock()
	s.settings = settings
	s.analyzers = s.suite(settings)
	s.clientCaps = caps
	s.folders = folders
	s.state = stateInitialized
	s.mu.Unlock()
	return map[string]any{
		"capabilities": map[string]any{
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    protocol.TextDocumentSyncKindIncremental,
				"save":      map[string]any{"includeText": false},
			},
			"hoverProvider":      true,
			"diagnosticProvider": diagnosticProvider,
			"codeActionProvider": map[string]any{
				"codeActionKinds": []protocol.CodeActionKind{protocol.QuickFix},
			},
			"codeLensProvider":       map[string]any{"resolveProvider": false},
			"inlayHintProvider":      map[string]any{"resolveProvider": false},
			"semanticTokensProvider": semanticTokensProvider,
			"executeCommandProvider": map[string]any{
				"commands": []string{CommandShowJaxpr, CommandMeasureCompileCost, CommandDiffJaxpr, CommandApplyFix},
			},
			"workspace": map[string]any{
				"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true},
			},
		},
		"serverInfo": map[string]any{"name": "jitls", "version": s.opts.Version},
	}, nil
}

// shutdown stops background work; the session then waits for exit.
func (s *Server) shutdown() {
	s.mu.Lock()
	s.state = stateShutdown
	s.exitCode = 0
	s.mu.Unlock()
	s.conn.CancelAll()
	s.view.Stop()
	s.previews.Close()
}

// exit ends the session; Run then returns 0 if shutdown came first, else 1.
func (s *Server) exit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateExited {
		return
	}
	s.state = stateExited
	close(s.exited)
	s.conn.Close()
}
