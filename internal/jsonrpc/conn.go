package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
)

// Message is one JSON-RPC 2.0 Message the client sent. The id stays the
// raw JSON the client wrote (a string, a number or null), so that the reply
// carries it exactly as sent; it is nil when the Message has no id member
// (a notification).
type Message struct {
	ID     json.RawMessage
	Method string // "" for a response
	Params json.RawMessage
	Result json.RawMessage // a response's result
	Err    *jsonrpc2.Error // a response's error
}

// IsCall reports whether m is a request that needs a reply.
func (m *Message) IsCall() bool { return m.Method != "" && m.ID != nil }

// badMessage is a frame that is not a JSON-RPC 2.0 message: the error the
// server answers it with, and the id to answer with (nil for null).
type badMessage struct {
	id   json.RawMessage
	code jsonrpc2.Code
	msg  string
}

// decodeMessage parses and checks one frame's body.
func decodeMessage(body []byte) (*Message, *badMessage) {
	var w struct {
		Version *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   *jsonrpc2.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			return nil, &badMessage{nil, jsonrpc2.ParseError, "the message body is not valid JSON"}
		case len(bytes.TrimSpace(body)) > 0 && bytes.TrimSpace(body)[0] == '[':
			return nil, &badMessage{nil, jsonrpc2.InvalidRequest, "batches (a JSON array of messages) are not supported; send one message per frame"}
		case len(bytes.TrimSpace(body)) > 0 && bytes.TrimSpace(body)[0] != '{':
			return nil, &badMessage{nil, jsonrpc2.InvalidRequest, "a JSON-RPC message is a JSON object"}
		}
		return nil, &badMessage{ValidID(rawMember(body, "id")), jsonrpc2.InvalidRequest, "not a JSON-RPC 2.0 message: " + err.Error()}
	}
	id := ValidID(w.ID)
	if w.ID != nil && id == nil {
		return nil, &badMessage{nil, jsonrpc2.InvalidRequest, fmt.Sprintf("the id %s is neither a string, a number nor null", w.ID)}
	}
	if w.Version == nil || *w.Version != "2.0" {
		return nil, &badMessage{id, jsonrpc2.InvalidRequest, `not a JSON-RPC 2.0 message: "jsonrpc" must be "2.0"`}
	}
	m := &Message{ID: id, Params: w.Params}
	switch {
	case w.Method != nil && *w.Method == "":
		return nil, &badMessage{id, jsonrpc2.InvalidRequest, "the method is empty"}
	case w.Method != nil:
		m.Method = *w.Method
	case w.Result != nil || w.Error != nil:
		if id == nil {
			return nil, &badMessage{nil, jsonrpc2.InvalidRequest, "a response without an id"}
		}
		m.Result, m.Err = w.Result, w.Error
	default:
		return nil, &badMessage{id, jsonrpc2.InvalidRequest, "not a JSON-RPC 2.0 request: it has no method (a request) and no result or error (a response)"}
	}
	return m, nil
}

// ValidID returns id, compacted, if it is a JSON-RPC id (a string, a
// number or null), else nil.
func ValidID(id json.RawMessage) json.RawMessage {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return nil
	}
	switch id[0] {
	case '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return nil
		}
	case 'n':
		if string(id) != "null" {
			return nil
		}
	default:
		var n json.Number
		if json.Unmarshal(id, &n) != nil {
			return nil
		}
	}
	return id
}

// rawMember returns the raw value of a top-level member of a JSON object,
// or nil.
func rawMember(body []byte, name string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return m[name]
}

// IDKey is the key of a request id in maps: the same for the same id
// however it is spelled ("a" and "\u0061" are one id).
func IDKey(id json.RawMessage) string {
	var s string
	if len(id) > 0 && id[0] == '"' && json.Unmarshal(id, &s) == nil {
		return strconv.Quote(s)
	}
	return string(id)
}

// Conn is the server's JSON-RPC 2.0 connection over a frameStream. It
// reads messages and hands requests and notifications to a handler in
// arrival order, answers messages that are not JSON-RPC itself, matches the
// client's responses to the server's own requests, and writes replies with
// the request's id exactly as the client sent it.
type Conn struct {
	stream *frameStream
	logf   func(format string, args ...any)
	seq    atomic.Int64

	mu      sync.Mutex
	pending map[string]chan *Message // id of a request to the client → its response

	done chan struct{} // closed when reading stops
	reqs requests      // the requests Go runs
}

// NewConn returns a connection that speaks JSON-RPC 2.0 in LSP's
// Content-Length frames over rwc, logging what it skips of bad input with
// logf.
func NewConn(rwc io.ReadWriteCloser, logf func(string, ...any)) *Conn {
	return &Conn{stream: newFrameStream(rwc, logf), logf: logf, pending: map[string]chan *Message{}, done: make(chan struct{})}
}

// Done is closed when reading stops (the input ended or failed).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Serve reads messages until the stream ends, calling handle for each
// request and notification.
func (c *Conn) Serve(handle func(*Message)) {
	defer close(c.done)
	for {
		body, err := c.stream.readFrame()
		var big *oversizedFrame
		switch {
		case errors.As(err, &big):
			c.logf("jitls: %v", err)
			c.replyError(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error()))
			continue
		case err != nil:
			if !errors.Is(err, io.EOF) {
				c.logf("jitls: %v", err)
			}
			return
		}
		m, bad := decodeMessage(body)
		if bad != nil {
			c.logf("jitls: answering a bad message (%d bytes): %s", len(body), bad.msg)
			c.replyError(bad.id, jsonrpc2.NewError(bad.code, bad.msg))
			continue
		}
		if m.Method == "" {
			c.mu.Lock()
			ch := c.pending[IDKey(m.ID)]
			delete(c.pending, IDKey(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		handle(m)
	}
}

// write sends one message.
func (c *Conn) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("marshaling a message: %v", err)
	}
	return c.stream.writeFrame(data)
}

// Reply answers the request with id: result, or err as a JSON-RPC error
// (InternalError unless it is a *jsonrpc2.Error).
func (c *Conn) Reply(id json.RawMessage, result any, err error) error {
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		return c.replyError(id, rpcErr)
	}
	res, err := json.Marshal(result)
	if err != nil {
		return c.replyError(id, jsonrpc2.NewError(jsonrpc2.InternalError, "marshaling the result: "+err.Error()))
	}
	return c.write(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
	}{"2.0", orNull(id), res})
}

// replyError answers the request with id (nil: null) with an error.
func (c *Conn) replyError(id json.RawMessage, e *jsonrpc2.Error) error {
	err := c.write(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", orNull(id), e})
	if err != nil {
		c.logf("jitls: writing an error reply: %v", err)
	}
	return err
}

func orNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}

// Notify sends a notification to the client.
func (c *Conn) Notify(method string, params any) error {
	return c.write(struct {
		Version string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
}

// Call sends a request to the client and waits for its response, decoding
// its result into result (unless nil).
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	id := json.RawMessage(strconv.FormatInt(c.seq.Add(1), 10))
	ch := make(chan *Message, 1)
	c.mu.Lock()
	c.pending[IDKey(id)] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, IDKey(id))
		c.mu.Unlock()
	}()
	err := c.write(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  any             `json:"params,omitempty"`
	}{"2.0", id, method, params})
	if err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Err != nil {
			return m.Err
		}
		if result == nil || len(m.Result) == 0 {
			return nil
		}
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("the client's response to %s: %v", method, err)
		}
		return nil
	case <-c.done:
		return fmt.Errorf("%s: the connection closed before the client answered", method)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close closes the stream.
func (c *Conn) Close() error { return c.stream.Close() }
