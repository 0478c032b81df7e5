// Command inferserver runs a toy scoring service: a client goroutine sends
// variable-length feature vectors over a channel and a worker scores them
// with jitted kernels.
package main

import (
	"fmt"
	"log"
	"os"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

type request struct {
	id       int
	features []float32
	reply    chan<- response
}

type response struct {
	id     int
	raw    float64
	padded float64
	norm   float64
}

// scoreRaw scores an unpadded vector.
func scoreRaw(w, x jit.Array) jit.Array {
	return x.Mul(w.Slice([]int{0}, []int{1})).Add(w.Slice([]int{1}, []int{2})).Tanh().Mean()
}

// scoreMasked scores a padded vector, ignoring the padding.
func scoreMasked(w, x, mask jit.Array) jit.Array {
	log.Printf("scoreMasked: building kernel for %v", x.Shape()) // want traceeffect
	h := x.Mul(w.Slice([]int{0}, []int{1})).Add(w.Slice([]int{1}, []int{2})).Tanh()
	return h.Mul(mask).Sum().Div(mask.Sum().Max(1))
}

// centered subtracts the masked mean.
func centered(x, mask jit.Array) jit.Array {
	mu := x.Mul(mask).Sum().Div(mask.Sum().Max(1))
	jit.DebugPrint("centered: mean %v", mu)
	return x.Sub(mu).Mul(mask)
}

type server struct {
	weights jit.Array
	raw     *jit.Func[func(w, x jit.Array) jit.Array]
	masked  *jit.Func[func(w, x, mask jit.Array) jit.Array]
	served  int
}

func bucket(n int) int {
	for _, b := range []int{64, 128, 256} {
		if n <= b {
			return b
		}
	}
	return 512
}

func (s *server) handle(req request) response {
	s.served++
	x := jit.FromSlice(req.features)
	padded, mask, err := jit.PadTo(x, bucket(len(req.features)))
	if err != nil {
		return response{id: req.id, raw: -1, padded: -1}
	}
	norm := jit.Jit(func(x, mask jit.Array) jit.Array { // want staticargs
		return x.Mul(mask).Pow(2).Sum().Sqrt()
	})
	c := jit.Jit(centered).Call(padded, mask)
	return response{
		id:     req.id,
		raw:    s.raw.Call(s.weights, x).Item(), // want shapechurn
		padded: s.masked.Call(s.weights, padded, mask).Item(),
		norm:   norm.Call(c, mask).Item(),
	}
}

func main() {
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	s := &server{
		weights: jit.FromSlice([]float32{0.8, -0.1}),
		raw:     jit.Jit(scoreRaw),
		masked:  jit.Jit(scoreMasked),
	}
	requests := make(chan request)
	replies := make(chan response, 16)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for req := range requests {
			req.reply <- s.handle(req)
		}
	}()

	go func() {
		for id := 0; id < 14; id++ {
			n := 20 + 9*id
			f := make([]float32, n)
			for i := range f {
				f[i] = float32((i*7+id)%11)/10 - 0.5
			}
			requests <- request{id: id, features: f, reply: replies}
		}
		close(requests)
	}()

	go func() { wg.Wait(); close(replies) }()
	total := 0.0
	for r := range replies {
		total += r.padded
		fmt.Printf("req %2d  raw %+.4f  padded %+.4f  norm %.3f\n", r.id, r.raw, r.padded, r.norm)
	}
	fmt.Printf("served %d requests, mean score %+.4f\n", s.served, total/float64(s.served))
	fmt.Printf("compiles: raw=%d masked=%d\n", s.raw.Stats().Compiles, s.masked.Stats().Compiles)
}
