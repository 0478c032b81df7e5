package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxFrameBytes bounds the Content-Length a client may announce, so that a
// corrupt header cannot make the server allocate gigabytes.
const maxFrameBytes = 256 << 20

// frameStream is a jsonrpc2.Stream with LSP's Content-Length framing that,
// unlike jsonrpc2.NewStream, survives bad input: a frame whose body is not
// JSON is answered with a ParseError, a body that is JSON but not a JSON-RPC
// message with an InvalidRequest error, and a malformed header is skipped up
// to the next blank line. Only end of input or a failed write ends the stream.
type frameStream struct {
	rwc  io.ReadWriteCloser
	in   *bufio.Reader
	wmu  sync.Mutex // serialises writes from the connection and from Read's error replies
	logf func(format string, args ...any)
}

func newFrameStream(rwc io.ReadWriteCloser, logf func(string, ...any)) *frameStream {
	return &frameStream{rwc: rwc, in: bufio.NewReader(rwc), logf: logf}
}

// Read returns the next well-formed message, answering bad frames itself.
func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readFrame()
		if err != nil {
			var bad badHeaderError
			if errors.As(err, &bad) {
				s.logf("jitls: skipping malformed frame header: %v", err)
				continue
			}
			return nil, n, err
		}
		// DecodeMessage ignores data after the first JSON value, so a
		// decoded frame is checked in full by looksLikeMessage.
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			err = looksLikeMessage(body)
		}
		if errors.Is(err, errNotJSON) || err != nil && !json.Valid(body) { // only a failed frame pays for json.Valid
			s.logf("jitls: frame body is not valid JSON (%d bytes)", len(body))
			s.writeError(nil, jsonrpc2.ParseError, "the message body is not valid JSON")
			continue
		}
		if err != nil {
			s.logf("jitls: not a JSON-RPC 2.0 message: %v", err)
			s.writeError(rawID(body), jsonrpc2.InvalidRequest, "not a JSON-RPC 2.0 request: "+err.Error())
			continue
		}
		return msg, n, nil
	}
}

// badHeaderError marks a frame header that could not be understood but after
// which reading can continue.
type badHeaderError struct{ msg string }

func (e badHeaderError) Error() string { return e.msg }

// readFrame reads one header block and the body it announces.
func (s *frameStream) readFrame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	var headerErr error
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if err == io.EOF && total == 0 {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("reading frame header: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if total <= 2 { // a stray blank line between frames
				total = 0
				continue
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			headerErr = badHeaderError{fmt.Sprintf("header line %q has no colon", line)}
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || v <= 0 || v > maxFrameBytes {
				headerErr = badHeaderError{fmt.Sprintf("bad Content-Length %q", strings.TrimSpace(value))}
				continue
			}
			length = v
		}
	}
	if headerErr != nil {
		return nil, total, headerErr
	}
	if length < 0 {
		return nil, total, badHeaderError{"frame header has no Content-Length"}
	}
	// The buffer grows with the data that arrives, so a header announcing
	// a huge body costs memory only if the body really comes.
	var buf bytes.Buffer
	buf.Grow(int(min(length, 1<<20)))
	if _, err := buf.ReadFrom(io.LimitReader(s.in, length)); err != nil || int64(buf.Len()) < length {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, total, fmt.Errorf("reading %d-byte frame body: %w", length, err)
	}
	return buf.Bytes(), total + length, nil
}

// Write sends one framed message.
func (s *frameStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeBody(data)
}

func (s *frameStream) writeBody(data []byte) (int64, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := fmt.Fprintf(s.rwc, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), fmt.Errorf("writing frame header: %w", err)
	}
	m, err := s.rwc.Write(data)
	return int64(n + m), err
}

// writeError answers a message the connection never sees; id is the raw
// JSON id, or nil for null.
func (s *frameStream) writeError(id json.RawMessage, code jsonrpc2.Code, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(code, message)})
	if _, err := s.writeBody(data); err != nil {
		s.logf("jitls: writing error reply: %v", err)
	}
}

// Close closes the underlying connection.
func (s *frameStream) Close() error { return s.rwc.Close() }

// rawID extracts a usable "id" from a JSON object, or nil.
func rawID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// errNotJSON is looksLikeMessage's error for a body that is not JSON.
var errNotJSON = errors.New("the message body is not valid JSON")

// looksLikeMessage checks that body is one JSON object with a method, a
// result or an error (jsonrpc2.DecodeMessage takes anything else for an
// empty response and drops it silently, and ignores trailing data).
func looksLikeMessage(body []byte) error {
	var m struct {
		Method *string         `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return errNotJSON
		}
		return err
	}
	if m.Method == nil && m.Result == nil && m.Error == nil {
		return errors.New("it has no method (a request) and no result or error (a response)")
	}
	return nil
}
