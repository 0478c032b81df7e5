package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// MaxFrameBytes bounds the Content-Length a client may announce, so that a
// corrupt header cannot make the server allocate gigabytes.
const MaxFrameBytes = 256 << 20

// frameStream reads and writes LSP's Content-Length frames, and survives
// bad input. Headers are read line by line: a line that is not a header is
// logged and ignored, and so is anything before the next "Content-Length:"
// after a frame the server could not read (its body is then never taken
// for a header: the search for the next Content-Length skips it). A body
// is exactly the announced number of bytes after the header block's blank
// line. Only the end of input or a failed read ends the stream.
type frameStream struct {
	rwc  io.ReadWriteCloser
	in   *bufio.Reader
	wmu  sync.Mutex // one frame at a time
	logf func(format string, args ...any)

	// resync is set while the input up to the next Content-Length is
	// skipped (after a frame that could not be read), which is logged
	// once, with the bytes skipped, when a usable header is found.
	resync  bool
	skipped int64
}

func newFrameStream(rwc io.ReadWriteCloser, logf func(string, ...any)) *frameStream {
	return &frameStream{rwc: rwc, in: bufio.NewReader(rwc), logf: logf}
}

// oversizedFrame is readFrame's error for a frame larger than
// MaxFrameBytes: the frame is skipped, and reading can continue.
type oversizedFrame struct{ length int64 }

func (e *oversizedFrame) Error() string {
	return fmt.Sprintf("a message of %d bytes (its Content-Length) is larger than jitls accepts (%d bytes); it was skipped", e.length, MaxFrameBytes)
}

// contentLength is the one header the server reads (lower case: header
// names are case-insensitive).
var contentLength = []byte("content-length")

// readFrame returns the body of the next frame.
func (s *frameStream) readFrame() ([]byte, error) {
	length, err := s.readHeader()
	if err != nil {
		return nil, err
	}
	if length > MaxFrameBytes {
		s.resync = true
		return nil, &oversizedFrame{length}
	}
	// The buffer grows with the data that arrives, so a header announcing
	// a large body costs memory only if the body really comes.
	var buf bytes.Buffer
	buf.Grow(int(min(length, 1<<20)))
	if _, err := buf.ReadFrom(io.LimitReader(s.in, length)); err != nil || int64(buf.Len()) < length {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading %d-byte frame body: %w", length, err)
	}
	return buf.Bytes(), nil
}

// readHeader reads header lines up to the blank line that ends a header
// block with a usable Content-Length, and returns that length. A
// Content-Length is looked for anywhere in a line, so that one glued to the
// end of a skipped body (which ends without a newline) is found too.
func (s *frameStream) readHeader() (int64, error) {
	length := int64(-1)
	block := false // a header line was read since the last blank line
	for {
		line, n, err := s.readLine()
		if err != nil {
			if err == io.EOF && n == 0 && length < 0 {
				return 0, io.EOF
			}
			return 0, fmt.Errorf("reading frame header: %w", io.ErrUnexpectedEOF)
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			if length >= 0 {
				return length, nil
			}
			if block && !s.resync {
				s.logf("jitls: skipping a frame header without a usable Content-Length")
				s.resync = true
			}
			block = false
			continue
		}
		block = true
		i := lastIndexASCIIFold(trimmed, contentLength)
		if i < 0 {
			s.skipped += int64(n)
			if !s.resync && bytes.IndexByte(trimmed, ':') < 0 {
				s.logf("jitls: ignoring malformed frame header line %s", quoteStart(trimmed))
			}
			continue
		}
		if s.resync || i > 0 || n > len(line) {
			s.logf("jitls: skipped %d bytes of input up to the next Content-Length header", s.skipped+int64(n-len(line)+i))
		}
		s.resync, s.skipped = false, 0
		value, ok := bytes.CutPrefix(bytes.TrimLeft(trimmed[i+len(contentLength):], " \t"), []byte(":"))
		v, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
		if !ok || err != nil || v <= 0 {
			s.logf("jitls: ignoring frame header %s: not a positive Content-Length; its body is skipped", quoteStart(trimmed[i:]))
			length, s.resync = -1, true
			continue
		}
		length = v
	}
}

// lastIndexASCIIFold is bytes.LastIndex of a lower-case ASCII pattern,
// ignoring ASCII case (bytes.ToLower would change the length of invalid
// UTF-8, and with it the index).
func lastIndexASCIIFold(b, pattern []byte) int {
	for i := len(b) - len(pattern); i >= 0; i-- {
		j := 0
		for j < len(pattern) && lowerASCII(b[i+j]) == pattern[j] {
			j++
		}
		if j == len(pattern) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// maxLineKept is how much of a long line readLine keeps: its end, where a
// Content-Length glued to skipped input is.
const maxLineKept = 256

// readLine returns the next line (with its newline) and the bytes it
// spanned; of a line longer than the reader's buffer only the last part
// (at least maxLineKept bytes) is returned.
func (s *frameStream) readLine() ([]byte, int, error) {
	var kept []byte
	n := 0
	for {
		chunk, err := s.in.ReadSlice('\n')
		n += len(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			kept = append(kept[:0], chunk[max(0, len(chunk)-maxLineKept):]...)
			continue
		}
		return append(kept, chunk...), n, err
	}
}

// quoteStart quotes the start of b for a log line.
func quoteStart(b []byte) string {
	if len(b) > 60 {
		return strconv.Quote(string(b[:60])) + "…"
	}
	return strconv.Quote(string(b))
}

// writeFrame sends one framed body, in one write.
func (s *frameStream) writeFrame(body []byte) error {
	frame := fmt.Appendf(make([]byte, 0, len(body)+32), "Content-Length: %d\r\n\r\n", len(body))
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, err := s.rwc.Write(append(frame, body...)); err != nil {
		return fmt.Errorf("writing a frame: %w", err)
	}
	return nil
}

// Close closes the underlying connection.
func (s *frameStream) Close() error { return s.rwc.Close() }
