package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// ErrRequestCancelled is LSP's RequestCancelled (-32800): the answer to a
// request that the client cancelled.
var ErrRequestCancelled = jsonrpc2.NewError(-32800, "request cancelled")

// requests are the requests a Conn's handlers are running.
type requests struct {
	mu       sync.Mutex
	inflight map[string]context.CancelFunc // request id (IDKey) → cancel
	running  sync.WaitGroup
}

// Replier returns the function that answers m, with m's id exactly as the
// client sent it, at most once; for a notification it does nothing.
func (c *Conn) Replier(m *Message) func(result any, err error) {
	var done atomic.Bool
	return func(result any, err error) {
		if !m.IsCall() || !done.CompareAndSwap(false, true) {
			return
		}
		if werr := c.Reply(m.ID, result, err); werr != nil {
			c.logf("jitls: replying to %s: %v", m.Method, werr)
		}
	}
}

// Go runs fn for the request call in a goroutine of its own and answers
// with what it returns. fn's context ends with ctx or when Cancel names
// call's id, and a request the client cancelled is answered with
// ErrRequestCancelled; a panic in fn is logged and answered with
// InternalError.
func (c *Conn) Go(ctx context.Context, call *Message, reply func(any, error), fn func(context.Context) (any, error)) {
	key := IDKey(call.ID)
	rctx, cancel := context.WithCancel(ctx)
	c.reqs.mu.Lock()
	if c.reqs.inflight == nil {
		c.reqs.inflight = map[string]context.CancelFunc{}
	}
	c.reqs.inflight[key] = cancel
	c.reqs.mu.Unlock()
	c.reqs.running.Add(1)
	go func() {
		defer c.reqs.running.Done()
		defer func() {
			if r := recover(); r != nil {
				c.logf("jitls: panic in %s: %v\n%s", call.Method, r, debug.Stack())
				reply(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in jitls while handling %s: %v", call.Method, r))
			}
			c.reqs.mu.Lock()
			delete(c.reqs.inflight, key)
			c.reqs.mu.Unlock()
			cancel()
		}()
		res, err := fn(rctx)
		if rctx.Err() != nil && ctx.Err() == nil {
			err = ErrRequestCancelled
		}
		reply(res, err)
	}()
}

// Cancel cancels the running request that $/cancelRequest's params name
// (a numeric or string id).
func (c *Conn) Cancel(params json.RawMessage) error {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || ValidID(p.ID) == nil {
		return fmt.Errorf("$/cancelRequest without a usable id (a number or a string): %s", params)
	}
	c.reqs.mu.Lock()
	cancel := c.reqs.inflight[IDKey(ValidID(p.ID))]
	c.reqs.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

// CancelAll cancels every running request.
func (c *Conn) CancelAll() {
	c.reqs.mu.Lock()
	defer c.reqs.mu.Unlock()
	for _, cancel := range c.reqs.inflight {
		cancel()
	}
}

// WaitRequests waits until every request started by Go has answered, or
// timeout has passed (a stuck one is left behind).
func (c *Conn) WaitRequests(timeout time.Duration) {
	done := make(chan struct{})
	go func() {
		c.reqs.running.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(timeout):
	}
}
