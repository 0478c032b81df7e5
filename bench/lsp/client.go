package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/jitlint/jitlint/lsp/lsptest"
)

// client is the shared LSP test client over a server's stdio, with the
// waits the benchmark needs. Matched messages are removed, so that memory
// and scan time stay flat over thousands of edits.
type client struct{ *lsptest.Client }

func newClient(w io.Writer, r io.Reader) *client {
	return &client{lsptest.NewClient(w, r, 5*time.Minute)}
}

// request sends a request and waits for its response; an error response
// is an error.
func (c *client) request(method string, params any) (lsptest.Message, error) {
	id, err := c.Call(method, params)
	if err != nil {
		return lsptest.Message{}, fmt.Errorf("sending %s: %v", method, err)
	}
	m, err := c.Take(func(m lsptest.Message) bool { return m.Method == "" && string(m.ID) == id })
	if err == nil && m.Error != nil {
		err = fmt.Errorf("%s: %s", method, m.Error.Message)
	}
	return m, err
}

// diagnostics waits for a publishDiagnostics of uri at version.
func (c *client) diagnostics(uri string, version int) error {
	_, err := c.Take(func(m lsptest.Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p struct {
			URI     string `json:"uri"`
			Version int    `json:"version"`
		}
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri && p.Version == version
	})
	return err
}
