package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jitlint/jitlint/internal/jsonrpc"
)

// frame wraps a JSON-RPC body in LSP's Content-Length framing.
func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// FuzzServer feeds any byte stream to a server: it must never panic (a
// panic in any goroutine fails the fuzz run), never hang (Run returns soon
// after the input ends), write only well-formed frames of JSON-RPC 2.0
// messages, and answer a frame whose body is not JSON with a ParseError.
// Seeds are a session's messages and the malformed input the protocol
// tests use; URIs are untitled: so that no input makes the server load
// packages from disk.
func FuzzServer(f *testing.F) {
	init := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"textDocument":{"hover":{"contentFormat":["plaintext"]},"diagnostic":{}}}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	open := frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a.go","languageId":"go","version":1,"text":"package a\n"}}}`)
	lensBody := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"textDocument/codeLens","params":{"textDocument":{"uri":"untitled:a.go"}}}`
	}
	lens := func(id string) string { return frame(lensBody(id)) }
	for _, seed := range []string{
		"",
		init,
		init + open + frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:a.go","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":8},"end":{"line":0,"character":9}},"text":"b"}]}}`),
		init + frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:a.go"},"position":{"line":0,"character":0}}}`),
		init + frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"untitled:a.go"}}}`),
		init + frame(`{"jsonrpc":"2.0","id":"s","method":"workspace/executeCommand","params":{"command":"jitls.applyFix","arguments":[{}]}}`),
		init + frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99999999999}}`),
		init + frame(`{"jsonrpc":"2.0","id":4,"method":"shutdown"}`) + frame(`{"jsonrpc":"2.0","method":"exit"}`),
		frame(`{"jsonrpc":"2.0","id":77,"method":`),
		frame(`{"jsonrpc":"2.0","id":78,"params":{}}`),
		frame(`[1,2,3]`),
		"Content-Length: banana\r\n\r\n",
		"Content-Length: 99999999999\r\n\r\n{}",
		"no colon here\r\n\r\n" + frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":null}`),
		"Content-Length: 5\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"a\":",
		// Framing that must resynchronise (issue 22): a line without a
		// colon before a frame, one inside a header block, a Content-Length
		// over the limit or unreadable before a body and more frames.
		"garbage line\r\n" + init + "garbage line\r\n" + lens(`5`) + lens(`6`),
		init + "Content-Length: 88\r\nnot a header\r\n\r\n" + lensBody(`"hdr"`) + lens(`7`),
		init + "Content-Length: 99999999999\r\n\r\n" + lensBody(`8`) + lens(`9`) + lens(`10`),
		init + "Content-Length: banana\r\n\r\n" + lensBody(`11`) + lens(`12`),
		init + "Content-Length: 12\r\n\r\n" + lensBody(`13`) + lens(`14`),
		// Ids echoed as sent, and a file: URI that names no file.
		init + lens(`""`) + lens(`null`) + lens(`99999999999`) + lens(`1.5`) + lens(`{}`),
		init + frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///home/u/%ZZ/x.go","languageId":"go","version":1,"text":"package x\n"}}}`) +
			frame(`{"jsonrpc":"2.0","id":15,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///home/u/%ZZ/x.go"},"position":{"line":0,"character":0}}}`),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		out := runOn(t, input)
		for _, m := range out {
			if !json.Valid(m) {
				t.Fatalf("server wrote invalid JSON %q for input %q", m, input)
			}
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Method  string          `json:"method"`
				Result  json.RawMessage `json:"result"`
				Error   *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(m, &msg); err != nil || msg.JSONRPC != "2.0" || msg.Method == "" && msg.Result == nil && msg.Error == nil {
				t.Fatalf("server wrote %s, not a JSON-RPC 2.0 message, for input %q", m, input)
			}
		}
		if body, ok := singleFrame(input); ok && !json.Valid(body) {
			found := false
			for _, m := range out {
				found = found || bytes.Contains(m, []byte(`"code":-32700`))
			}
			if !found {
				t.Fatalf("no ParseError for the non-JSON frame %q; the server wrote %q", input, out)
			}
		}
	})
}

// runOn serves input to a new server and returns the bodies of the frames
// it wrote. It fails the test if Run does not return soon after the input
// ends or the output is not well framed.
func runOn(t *testing.T, input []byte) [][]byte {
	cr, cw := io.Pipe()
	sr, sw := io.Pipe()
	done := make(chan int, 1)
	go func() { done <- New(Options{}).Run(context.Background(), pipeConn{cr, sw}) }()
	outc := make(chan [][]byte, 1)
	errc := make(chan error, 1)
	go func() {
		bodies, err := readFrames(sr)
		outc <- bodies
		errc <- err
	}()
	go func() {
		cw.Write(input)
		cw.Close()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the server did not stop within 20 s after the input %q ended", input)
	}
	sw.Close() // ends readFrames if the server left its output open
	cr.Close() // unblocks the writer if the server stopped reading early
	out := <-outc
	if err := <-errc; err != nil {
		t.Fatalf("server output for input %q: %v", input, err)
	}
	return out
}

// readFrames reads Content-Length frames until r ends.
func readFrames(r io.Reader) ([][]byte, error) {
	br := bufio.NewReader(r)
	var bodies [][]byte
	for {
		length := -1
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				if line == "" && length < 0 {
					return bodies, nil
				}
				return bodies, fmt.Errorf("truncated header %q", line)
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			v, ok := strings.CutPrefix(line, "Content-Length: ")
			if !ok {
				return bodies, fmt.Errorf("unexpected header line %q", line)
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return bodies, fmt.Errorf("bad Content-Length %q", v)
			}
			length = n
		}
		if length < 0 {
			return bodies, fmt.Errorf("frame without Content-Length")
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(br, body); err != nil {
			return bodies, fmt.Errorf("truncated body: %v", err)
		}
		bodies = append(bodies, body)
	}
}

// singleFrame returns the body if input is exactly one frame with only a
// Content-Length header.
func singleFrame(input []byte) ([]byte, bool) {
	s := string(input)
	v, rest, ok := strings.Cut(strings.TrimPrefix(s, "Content-Length: "), "\r\n\r\n")
	if !ok || !strings.HasPrefix(s, "Content-Length: ") {
		return nil, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n != len(rest) || n > jsonrpc.MaxFrameBytes {
		return nil, false
	}
	return []byte(rest), true
}
