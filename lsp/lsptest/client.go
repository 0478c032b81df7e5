package lsptest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Message is any JSON-RPC message the server sent to a Client.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Client is a minimal LSP client speaking raw JSON-RPC over a byte stream
// (a server's stdin and stdout, or in-memory pipes). It answers every
// request from the server with a null result (or the one set by ReplyTo)
// and keeps every message until a wait matches it.
type Client struct {
	w       io.Writer
	timeout time.Duration

	wmu sync.Mutex // one frame at a time

	mu      sync.Mutex
	msgs    []Message
	changed chan struct{} // closed (and replaced) when msgs or done change
	done    bool          // the server's output ended
	readErr error         // why reading stopped early (invalid JSON)
	nextID  int
	replies map[string]string // method → raw JSON result for server requests
}

// NewClient starts reading the server's messages from r; requests are
// written to w. Every wait fails after timeout.
func NewClient(w io.Writer, r io.Reader, timeout time.Duration) *Client {
	c := &Client{w: w, timeout: timeout, changed: make(chan struct{})}
	go c.read(bufio.NewReader(r))
	return c
}

// read collects messages until r ends or sends something that is not JSON.
func (c *Client) read(r *bufio.Reader) {
	var readErr error
	defer func() {
		c.mu.Lock()
		c.done, c.readErr = true, readErr
		c.signalLocked()
		c.mu.Unlock()
	}()
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m Message
		if err := json.Unmarshal(body, &m); err != nil {
			readErr = fmt.Errorf("server sent invalid JSON: %s", body)
			return
		}
		if m.Method != "" && len(m.ID) > 0 { // a request from the server: accept it
			c.mu.Lock()
			result, ok := c.replies[m.Method]
			c.mu.Unlock()
			if !ok {
				result = "null"
			}
			c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result))
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.signalLocked()
		c.mu.Unlock()
	}
}

// ReplyTo makes the client answer the server's requests of method with
// result (raw JSON) instead of null.
func (c *Client) ReplyTo(method, result string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.replies == nil {
		c.replies = map[string]string{}
	}
	c.replies[method] = result
}

// signalLocked wakes every wait; c.mu is held.
func (c *Client) signalLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Err reports why the client stopped reading before the server's output
// ended (the server sent invalid JSON), or nil.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readErr
}

// WriteRaw writes s as is (for malformed frames).
func (c *Client) WriteRaw(s string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := io.WriteString(c.w, s)
	return err
}

// Send writes one frame with the given body.
func (c *Client) Send(body string) error {
	return c.WriteRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	p, _ := json.Marshal(params)
	return c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, p))
}

// Call sends a request with the next numeric id and returns that id (as
// raw JSON, for Response).
func (c *Client) Call(method string, params any) (string, error) {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.mu.Unlock()
	return id, c.CallID(id, method, params)
}

// CallID sends a request with the given raw JSON id.
func (c *Client) CallID(id, method string, params any) error {
	p, _ := json.Marshal(params)
	return c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, p))
}

// Response waits for the response to request id.
func (c *Client) Response(id string) (Message, error) {
	return c.Wait(func(m Message) bool { return m.Method == "" && string(m.ID) == id })
}

// Request sends a request and waits for its response; an error response
// is returned as the message, not as an error.
func (c *Client) Request(method string, params any) (Message, error) {
	id, err := c.Call(method, params)
	if err != nil {
		return Message{}, fmt.Errorf("sending %s: %v", method, err)
	}
	return c.Response(id)
}

// Wait returns the first message received so far or later that matches
// pred; the message stays, so a later Wait may match it again.
func (c *Client) Wait(pred func(Message) bool) (Message, error) { return c.wait(pred, false) }

// Take is Wait that also removes the message it returns.
func (c *Client) Take(pred func(Message) bool) (Message, error) { return c.wait(pred, true) }

func (c *Client) wait(pred func(Message) bool, remove bool) (Message, error) {
	deadline := time.NewTimer(c.timeout)
	defer deadline.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for i, m := range c.msgs {
			if pred(m) {
				if remove {
					c.msgs = append(c.msgs[:i:i], c.msgs[i+1:]...)
				}
				return m, nil
			}
		}
		switch {
		case c.readErr != nil:
			return Message{}, c.readErr
		case c.done:
			return Message{}, errors.New("no matching message: the server's output ended")
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			c.mu.Lock()
			return Message{}, fmt.Errorf("no matching message within %s", c.timeout)
		}
		c.mu.Lock()
	}
}

// Has reports whether a message received so far matches pred (without
// waiting for more).
func (c *Client) Has(pred func(Message) bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.ContainsFunc(c.msgs, pred)
}

// Clear forgets the messages received so far.
func (c *Client) Clear() {
	c.mu.Lock()
	c.msgs = nil
	c.mu.Unlock()
}
