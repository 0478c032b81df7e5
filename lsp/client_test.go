package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testTimeout bounds every wait in the protocol tests (a hang is a failure,
// not a timing assertion).
const testTimeout = 60 * time.Second

// wireMsg is any JSON-RPC message seen by the test client.
type wireMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// testClient drives a Server over in-memory pipes with raw JSON-RPC.
type testClient struct {
	t      *testing.T
	toSrv  *io.PipeWriter
	exit   chan int
	mu     sync.Mutex
	seen   []wireMsg
	signal chan struct{}
	nextID int
}

type pipeConn struct {
	io.Reader
	io.WriteCloser
}

// startServer runs a server with opts and returns a client connected to it.
func startServer(t *testing.T, opts Options) *testClient {
	t.Helper()
	cr, cw := io.Pipe() // client → server
	sr, sw := io.Pipe() // server → client
	c := &testClient{t: t, toSrv: cw, exit: make(chan int, 1), signal: make(chan struct{}, 1)}
	srv := New(opts)
	go func() { c.exit <- srv.Run(context.Background(), pipeConn{cr, sw}) }()
	go c.readLoop(bufio.NewReader(sr))
	t.Cleanup(func() {
		cw.Close()
		select {
		case <-c.exit:
		case <-time.After(testTimeout):
			t.Errorf("server did not stop after its input closed")
		}
	})
	return c
}

func (c *testClient) readLoop(r *bufio.Reader) {
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
		var m wireMsg
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			return
		}
		if m.Method != "" && len(m.ID) > 0 { // a request from the server: accept it
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
		}
		c.mu.Lock()
		c.seen = append(c.seen, m)
		c.mu.Unlock()
		select {
		case c.signal <- struct{}{}:
		default:
		}
	}
}

// sendRaw writes one frame with the given body.
func (c *testClient) sendRaw(body string) {
	c.writeRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// writeRaw writes bytes as is (for malformed frames).
func (c *testClient) writeRaw(s string) {
	if _, err := io.WriteString(c.toSrv, s); err != nil {
		c.t.Logf("write to server: %v", err)
	}
}

// call sends a request and returns its id (as raw JSON).
func (c *testClient) call(method string, params any) string {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.mu.Unlock()
	c.callID(id, method, params)
	return id
}

func (c *testClient) callID(id, method string, params any) {
	p, _ := json.Marshal(params)
	c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, p))
}

func (c *testClient) notify(method string, params any) {
	p, _ := json.Marshal(params)
	c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, p))
}

// waitFor returns the first message (from index from on) matching pred.
func (c *testClient) waitFor(what string, pred func(wireMsg) bool) wireMsg {
	c.t.Helper()
	deadline := time.After(testTimeout)
	for {
		c.mu.Lock()
		for _, m := range c.seen {
			if pred(m) {
				c.mu.Unlock()
				return m
			}
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// response waits for the response to request id.
func (c *testClient) response(id string) wireMsg {
	c.t.Helper()
	return c.waitFor("response "+id, func(m wireMsg) bool { return m.Method == "" && string(m.ID) == id })
}

// request sends a request and waits for its response.
func (c *testClient) request(method string, params any) wireMsg {
	c.t.Helper()
	return c.response(c.call(method, params))
}

// clear forgets the messages seen so far.
func (c *testClient) clear() {
	c.mu.Lock()
	c.seen = nil
	c.mu.Unlock()
}

// initialize performs the initialize handshake.
func (c *testClient) initialize(initOpts any) {
	c.t.Helper()
	r := c.request("initialize", map[string]any{
		"processId": nil, "rootUri": nil, "initializationOptions": initOpts,
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	})
	if r.Error != nil {
		c.t.Fatalf("initialize failed: %+v", r.Error)
	}
	c.notify("initialized", map[string]any{})
}

// exitCode waits for the server to stop.
func (c *testClient) exitCode() int {
	c.t.Helper()
	select {
	case code := <-c.exit:
		c.exit <- code // for Cleanup
		return code
	case <-time.After(testTimeout):
		c.t.Fatalf("server did not exit")
		return -1
	}
}
