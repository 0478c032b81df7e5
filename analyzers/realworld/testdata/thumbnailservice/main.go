// Command thumbnailservice serves grayscale thumbnails of stored images at
// requested sizes (optionally snapped to presets) and of uploaded images,
// exercised in-process through an httptest server.
package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

type preset struct{ W, H int }

var presets = []preset{{48, 32}, {96, 64}, {192, 128}}

// serviceStats is what /metrics reports.
var serviceStats struct{ Variants int }

// tentMatrix is the (out, in) bilinear resampling matrix, built from iotas.
func tentMatrix(out, in int) jit.Array {
	scale := float64(in) / float64(out)
	src := jit.Arange(out, jit.Float32).Add(0.5).Mul(scale).Sub(0.5).Reshape(out, 1)
	j := jit.Arange(in, jit.Float32).Reshape(1, in)
	support := math.Max(1, scale)
	w := jit.Relu(src.Sub(j).Abs().Div(support).Neg().Add(1))
	return w.Div(w.Sum(1).Reshape(out, 1))
}

// Resize maps an (H, W) image to (h, w); the target size is static.
func Resize(img jit.Array, w, h int) jit.Array {
	serviceStats.Variants++ // want traceeffect
	ry := tentMatrix(h, img.Shape()[0])
	rx := tentMatrix(w, img.Shape()[1])
	return ry.MatMul(img).MatMul(rx.Transpose(1, 0))
}

// ToneCurve applies a 32-segment piecewise-linear gamma curve.
func ToneCurve(x jit.Array) jit.Array {
	out := jit.Zeros(jit.Float32, x.Shape()...)
	for seg := 0; seg < 32; seg++ {
		lo := float64(seg) / 32
		slope := (math.Pow(lo+1.0/32, 0.8) - math.Pow(lo, 0.8)) * 32
		out = out.Add(x.Sub(lo).Max(0).Min(1.0 / 32).Mul(slope))
	}
	return out
}

// Fit scales an uploaded image to a 32x32 icon.
func Fit(img jit.Array) jit.Array { return Resize(img, 32, 32) }

func source(h, w int) jit.Array {
	px := make([]float32, h*w)
	for i := range px {
		y, x := i/w, i%w
		px[i] = float32(0.5 + 0.5*math.Sin(float64(x)/7)*math.Cos(float64(y)/5))
	}
	return jit.FromSlice(px, h, w)
}

type server struct {
	images map[string]jit.Array
	resize *jit.Func[func(jit.Array, int, int) jit.Array]
	fit    *jit.Func[func(jit.Array) jit.Array]
}

func (s *server) thumb(rw http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	src, ok := s.images[q.Get("img")]
	if !ok {
		http.Error(rw, "no such image", http.StatusNotFound)
		return
	}
	w, _ := strconv.Atoi(q.Get("w"))
	h, _ := strconv.Atoi(q.Get("h"))
	var out jit.Array
	if q.Get("snap") == "1" {
		p := presets[len(presets)-1]
		for _, c := range presets {
			if c.W >= w {
				p = c
				break
			}
		}
		out = s.resize.Call(src, p.W, p.H)
	} else {
		out = s.resize.Call(src, w, h) // want staticargs
	}
	if q.Get("tone") == "1" {
		tone := jit.Jit(ToneCurve) // a named function: one cache for all requests
		out = tone.Call(out)
	}
	if gq, err := strconv.ParseFloat(q.Get("gamma"), 64); err == nil {
		gamma := jit.Jit(func(x jit.Array) jit.Array { // want staticargs
			return x.Max(1e-6).Pow(gq)
		})
		out = gamma.Call(out)
	}
	mean := out.Mean().Item()
	rw.Header().Set("X-Mean", strconv.FormatFloat(mean, 'f', 4, 64))
	fmt.Fprintf(rw, "%dx%d", out.Shape()[1], out.Shape()[0])
}

// upload takes "H W" then H*W little-endian float32 pixels.
func (s *server) upload(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var h, w int
	n, _ := fmt.Sscanf(string(body[:8]), "%3d %3d", &h, &w)
	if n != 2 {
		http.Error(rw, "bad header", http.StatusBadRequest)
		return
	}
	px := make([]float32, h*w)
	for i := range px {
		px[i] = math.Float32frombits(binary.LittleEndian.Uint32(body[8+4*i:]))
	}
	img := jit.FromSlice(px, h, w)
	var icon jit.Array
	if r.URL.Query().Get("bucket") == "1" {
		// pad to a 64x64 canvas so every upload shares one program
		canvas := jit.Zeros(jit.Float32, 64, 64)
		row := jit.Concatenate(1, img, canvas.Slice([]int{0, 0}, []int{h, 64 - w}))
		icon = s.fit.Call(jit.Concatenate(0, row, canvas.Slice([]int{0, 0}, []int{64 - h, 64})))
	} else {
		icon = s.fit.Call(img) // want shapechurn
	}
	fmt.Fprintf(rw, "icon mean %.4f", icon.Mean().Item())
}

// tryLevel stretches contrast only when the image is too dark, written
// with a Go if as in the prototype.
func tryLevel(img jit.Array) (out jit.Array, err error) {
	defer func() {
		if e := recover(); e != nil {
			err = e.(*jit.Error)
		}
	}()
	level := jit.Jit(func(x jit.Array) jit.Array {
		if x.MaxReduce().Item() < 0.5 { // want tracedbool
			return x.Div(x.MaxReduce())
		}
		return x
	})
	return level.Call(img), nil
}

// LevelWhere is the traceable version: both sides computed, one selected.
func LevelWhere(x jit.Array) jit.Array {
	peak := x.MaxReduce()
	return jit.Where(peak.Lt(0.5), x.Div(peak), x)
}

func (s *server) autoLevel(rw http.ResponseWriter, r *http.Request) {
	img := s.images[r.URL.Query().Get("img")]
	out, err := tryLevel(img)
	if err != nil {
		rw.Header().Set("X-Mean", "fallback:"+err.(*jit.Error).Kind.String())
		out = jit.Jit(LevelWhere).Call(img)
	}
	fmt.Fprintf(rw, "max %.3f", out.MaxReduce().Item())
}

func get(base, path string) string {
	resp, err := http.Get(base + path)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s mean=%s", resp.StatusCode, strings.TrimSpace(string(b)), resp.Header.Get("X-Mean"))
}

func post(base, path string, h, w int) string {
	body := []byte(fmt.Sprintf("%3d %3d ", h, w))
	for i := 0; i < h*w; i++ {
		body = binary.LittleEndian.AppendUint32(body, math.Float32bits(float32(i%7)/7))
	}
	resp, err := http.Post(base+path, "application/octet-stream", strings.NewReader(string(body)))
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

func main() {
	s := &server{
		images: map[string]jit.Array{"sunset": source(120, 180), "logo": source(64, 64).Mul(0.3)},
		resize: jit.Jit(Resize, jit.StaticArgnums(1, 2)),
		fit:    jit.Jit(Fit),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/thumb", s.thumb)
	mux.HandleFunc("/upload", s.upload)
	mux.HandleFunc("/autolevel", s.autoLevel)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	// A gallery page asks for many widths, snapped to the presets.
	for w := 40; w <= 200; w += 20 {
		fmt.Println(get(ts.URL, fmt.Sprintf("/thumb?img=sunset&w=%d&h=%d&snap=1", w, w*2/3)))
	}
	// A responsive layout asks for exact sizes.
	for w := 50; w <= 110; w += 15 {
		fmt.Println(get(ts.URL, fmt.Sprintf("/thumb?img=sunset&w=%d&h=%d", w, w/2)))
	}
	// Tone-mapped presets, and client-chosen gamma per request.
	for i, g := range []string{"0.8", "1.2", "1.6", "2.2"} {
		fmt.Println(get(ts.URL, fmt.Sprintf("/thumb?img=logo&w=48&h=32&snap=1&tone=1&gamma=%s", g)))
		if i == 0 {
			fmt.Println(get(ts.URL, "/thumb?img=logo&w=48&h=32&snap=1&tone=1"))
		}
	}
	fmt.Println(get(ts.URL, "/thumb?img=missing&w=10&h=10"))

	// Uploads of whatever size the phone produced.
	for k := 0; k < 4; k++ {
		fmt.Println(post(ts.URL, "/upload", 20+6*k, 24+5*k))
	}
	for k := 0; k < 4; k++ {
		fmt.Println(post(ts.URL, "/upload?bucket=1", 20+6*k, 24+5*k))
	}
	fmt.Println(get(ts.URL, "/autolevel?img=logo"))
	fmt.Printf("resize variants traced: %d, fit compiles: %d\n", serviceStats.Variants, s.fit.Stats().Compiles)
}
