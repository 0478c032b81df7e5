package lsp

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
)

var progressSeq atomic.Int64

// progress is one $/progress sequence (a no-op if the client did not
// declare window.workDoneProgress).
type progress struct {
	notify func(method string, params any) // Server.notify
	token  string
}

// startProgress creates a progress token and sends its begin message.
func (s *Server) startProgress(ctx context.Context, title string) *progress {
	if !s.caps().workDoneProgress {
		return &progress{}
	}
	token := fmt.Sprintf("jitls-%d", progressSeq.Add(1))
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := s.conn.Call(cctx, protocol.MethodWorkDoneProgressCreate, map[string]any{"token": token}, nil); err != nil {
		s.logf("jitls: the client refused a progress token: %v", err)
		return &progress{}
	}
	pr := &progress{notify: s.notify, token: token}
	pr.send(map[string]any{"kind": "begin", "title": title, "cancellable": false})
	return pr
}

func (pr *progress) send(value map[string]any) {
	if pr.token == "" {
		return
	}
	pr.notify(protocol.MethodProgress, map[string]any{"token": pr.token, "value": value})
}

// report sends a progress message.
func (pr *progress) report(msg string) { pr.send(map[string]any{"kind": "report", "message": msg}) }

// end closes the progress sequence.
func (pr *progress) end(msg string) { pr.send(map[string]any{"kind": "end", "message": msg}) }
