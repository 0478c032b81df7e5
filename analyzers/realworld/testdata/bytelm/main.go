// Command bytelm scores a tokenizer-free byte-level model over a text: the
// text is cut into chunks of 128 bytes (one shape, plus a short last
// chunk), or into lines (one shape per line length). A progress counter is
// bumped atomically by the host loop, and, by mistake, also inside the
// jitted loss, where it counts traces.
package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/jitlint/jitlint/jit"
)

var (
	seen   int64
	traced int64
)

var emb = jit.Full(0.01, jit.Float32, 256, 8)

// loss is the mean embedding energy of the byte ids.
func loss(ids jit.Array) jit.Array {
	atomic.AddInt64(&traced, 1) // want traceeffect
	oneHot := ids.Reshape(ids.Shape()[0], 1).Eq(jit.Arange(256, jit.Float32).Reshape(1, 256)).Astype(jit.Float32)
	h := oneHot.MatMul(emb).Tanh()
	return h.Mul(h).Mean()
}

// chunk cuts data into pieces of size bytes; the last one may be shorter.
func chunk(data []byte, size int) [][]byte {
	var out [][]byte
	for off := 0; off < len(data); off += size {
		out = append(out, data[off:min(off+size, len(data))])
	}
	return out
}

func ids(b []byte) jit.Array {
	f := make([]float32, len(b))
	for i, c := range b {
		f[i] = float32(c)
	}
	return jit.FromSlice(f, len(f))
}

func corpus() []byte {
	var sb strings.Builder
	for i := range 24 {
		sb.WriteString(strings.Repeat("ab", i+1))
		sb.WriteString(" line\n")
	}
	return []byte(sb.String())
}

func main() {
	text := corpus()
	f := jit.Jit(loss)
	total := 0.0
	for _, c := range chunk(text, 128) {
		total += f.Call(ids(c)).Item()
		atomic.AddInt64(&seen, int64(len(c)))
	}
	fmt.Printf("chunks: loss %.4f over %d bytes, compiles %d\n", total, atomic.LoadInt64(&seen), f.Stats().Compiles)

	g := jit.Jit(loss)
	for _, line := range bytes.Split(bytes.TrimSpace(text), []byte("\n")) {
		total += g.Call(ids(line)).Item() // want shapechurn
	}
	fmt.Printf("lines: compiles %d, traces counted %d\n", g.Stats().Compiles, atomic.LoadInt64(&traced))
}
