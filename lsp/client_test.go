package lsp

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/jitlint/jitlint/internal/textdoc"
	"github.com/jitlint/jitlint/lsp/lsptest"
)

// testTimeout bounds every wait in the protocol tests (a hang is a failure,
// not a timing assertion).
const testTimeout = 60 * time.Second

// wireMsg is any JSON-RPC message seen by the test client.
type wireMsg = lsptest.Message

// testClient drives a Server over in-memory pipes with raw JSON-RPC,
// turning the shared client's errors into test failures.
type testClient struct {
	*lsptest.Client
	t     *testing.T
	toSrv *io.PipeWriter
	exit  chan int
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
	c := &testClient{Client: lsptest.NewClient(cw, sr, testTimeout), t: t, toSrv: cw, exit: make(chan int, 1)}
	srv := New(opts)
	go func() { c.exit <- srv.Run(context.Background(), pipeConn{cr, sw}) }()
	t.Cleanup(func() {
		cw.Close()
		select {
		case <-c.exit:
		case <-time.After(testTimeout):
			t.Errorf("server did not stop after its input closed")
		}
		if err := c.Err(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// logWrite logs a failed write (the server may have stopped on purpose).
func (c *testClient) logWrite(err error) {
	if err != nil {
		c.t.Logf("write to server: %v", err)
	}
}

// sendRaw writes one frame with the given body.
func (c *testClient) sendRaw(body string) { c.logWrite(c.Send(body)) }

// writeRaw writes bytes as is (for malformed frames).
func (c *testClient) writeRaw(s string) { c.logWrite(c.WriteRaw(s)) }

// call sends a request and returns its id (as raw JSON).
func (c *testClient) call(method string, params any) string {
	id, err := c.Call(method, params)
	c.logWrite(err)
	return id
}

func (c *testClient) callID(id, method string, params any) { c.logWrite(c.CallID(id, method, params)) }

func (c *testClient) notify(method string, params any) { c.logWrite(c.Notify(method, params)) }

// waitFor returns the first message matching pred.
func (c *testClient) waitFor(what string, pred func(wireMsg) bool) wireMsg {
	c.t.Helper()
	m, err := c.Wait(pred)
	if err != nil {
		c.t.Fatalf("waiting for %s: %v", what, err)
	}
	return m
}

// response waits for the response to request id.
func (c *testClient) response(id string) wireMsg {
	c.t.Helper()
	m, err := c.Response(id)
	if err != nil {
		c.t.Fatalf("waiting for response %s: %v", id, err)
	}
	return m
}

// request sends a request and waits for its response.
func (c *testClient) request(method string, params any) wireMsg {
	c.t.Helper()
	return c.response(c.call(method, params))
}

// fullClient is the capabilities of a client that supports everything
// jitls can use except pull diagnostics (which it then pushes).
var fullClient = map[string]any{
	"window": map[string]any{"workDoneProgress": true},
	"textDocument": map[string]any{
		"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"publishDiagnostics": map[string]any{
			"relatedInformation": true, "versionSupport": true, "codeDescriptionSupport": true,
		},
		"codeAction": map[string]any{
			"isPreferredSupport":       true,
			"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix"}}},
		},
	},
}

// initialize performs the initialize handshake as fullClient.
func (c *testClient) initialize(initOpts any) {
	c.t.Helper()
	c.initializeAs(fullClient, initOpts)
}

// initializeAs performs the initialize handshake with the given client
// capabilities, without a workspace folder.
func (c *testClient) initializeAs(caps map[string]any, initOpts any) {
	c.t.Helper()
	c.initializeIn("", caps, initOpts)
}

// initializeIn performs the initialize handshake with the given client
// capabilities and folder (if not "") as the workspace folder.
func (c *testClient) initializeIn(folder string, caps map[string]any, initOpts any) {
	c.t.Helper()
	root := any(nil)
	if folder != "" {
		root = textdoc.FileURI(folder)
	}
	r := c.request("initialize", map[string]any{
		"processId": nil, "rootUri": root, "initializationOptions": initOpts, "capabilities": caps,
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
