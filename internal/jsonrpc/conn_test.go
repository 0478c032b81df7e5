package jsonrpc

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// pipe is an io.ReadWriteCloser that reads in and collects what is written.
type pipe struct {
	io.Reader
	out bytes.Buffer
}

func (p *pipe) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p *pipe) Close() error                { return nil }

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func call(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"m","params":{}}`
}

// TestServeResynchronises: after a line that is not a header, a
// malformed header line, an oversized and an unreadable Content-Length,
// the requests that follow are all handed to the handler, with their ids
// exactly as sent, and the oversized frame is answered with an error.
func TestServeResynchronises(t *testing.T) {
	in := "garbage line\r\n" + frame(call(`"a"`)) +
		"Content-Length: " + fmt.Sprint(len(call("1"))) + "\r\nnot a header\r\n\r\n" + call("1") +
		"Content-Length: 99999999999\r\n\r\n" + call("2") + frame(call("3")) +
		"Content-Length: banana\r\n\r\n" + call("4") + frame(call(`""`)) + frame(call("1.5"))
	p := &pipe{Reader: strings.NewReader(in)}
	c := NewConn(p, t.Logf)
	var ids []string
	c.Serve(func(m *Message) { ids = append(ids, string(m.ID)) })
	if got, want := strings.Join(ids, " "), `"a" 1 3 "" 1.5`; got != want {
		t.Errorf("requests handled: %s, want %s", got, want)
	}
	if !strings.Contains(p.out.String(), "99999999999") {
		t.Errorf("no error reply names the oversized frame; wrote %q", p.out.String())
	}
	select {
	case <-c.Done():
	default:
		t.Errorf("Done is not closed after the input ended")
	}
}

// TestReplyEchoesTheID: a reply carries the request's id as the client
// wrote it, and a replier answers once.
func TestReplyEchoesTheID(t *testing.T) {
	for _, id := range []string{`""`, `"7"`, `7`, `99999999999`, `1.5`} {
		p := &pipe{Reader: strings.NewReader("")}
		c := NewConn(p, t.Logf)
		reply := c.Replier(&Message{ID: []byte(id), Method: "m"})
		reply("ok", nil)
		reply("again", nil)
		if got := p.out.String(); strings.Count(got, "Content-Length") != 1 || !strings.Contains(got, `"id":`+id+`,`) && !strings.Contains(got, `"id":`+id+`}`) {
			t.Errorf("reply to id %s: %q", id, got)
		}
	}
}
