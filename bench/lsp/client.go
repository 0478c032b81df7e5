package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// message is any JSON-RPC message from the server.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	at time.Time
}

// client is a minimal LSP client over a server's stdio.
type client struct {
	w      io.Writer
	wmu    sync.Mutex
	mu     sync.Mutex
	cond   *sync.Cond
	msgs   []message
	nextID int
	closed bool
}

func newClient(w io.Writer, r io.Reader) *client {
	c := &client{w: w}
	c.cond = sync.NewCond(&c.mu)
	go c.read(bufio.NewReader(r))
	return c
}

func (c *client) read(r *bufio.Reader) {
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	for {
		n := -1
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
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		m.at = time.Now()
		if m.Method != "" && len(m.ID) > 0 {
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

func (c *client) send(body string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (c *client) notify(method string, params any) {
	p, _ := json.Marshal(params)
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, p))
}

// request sends a request and waits for its response.
func (c *client) request(method string, params any) (message, error) {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.mu.Unlock()
	p, _ := json.Marshal(params)
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, p))
	m, err := c.wait(func(m message) bool { return m.Method == "" && string(m.ID) == id })
	if err == nil && m.Error != nil {
		err = fmt.Errorf("%s: %s", method, m.Error.Message)
	}
	return m, err
}

// wait returns (and removes) the first message matching pred.
func (c *client) wait(pred func(message) bool) (message, error) {
	deadline := time.Now().Add(5 * time.Minute)
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for i, m := range c.msgs {
			if pred(m) {
				c.msgs = append(c.msgs[:i:i], c.msgs[i+1:]...)
				return m, nil
			}
		}
		if c.closed || time.Now().After(deadline) {
			return message{}, fmt.Errorf("no matching message (server closed: %v)", c.closed)
		}
		go func() { time.Sleep(time.Second); c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() }()
		c.cond.Wait()
	}
}

// diagnostics waits for a publishDiagnostics of uri at version.
func (c *client) diagnostics(uri string, version int) (message, int, error) {
	var count int
	m, err := c.wait(func(m message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p struct {
			URI         string            `json:"uri"`
			Version     int               `json:"version"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
		}
		if json.Unmarshal(m.Params, &p) != nil || p.URI != uri || p.Version != version {
			return false
		}
		count = len(p.Diagnostics)
		return true
	})
	return m, count, err
}
