// stagepipe streams sensor frames through a chain of generic pipeline
// stages connected by channels: decode, filter (a jitted FIR + gain), and
// summarise. Each stage guards its receive with a time.After timeout.
package main

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Sample is what a raw frame can hold.
type Sample interface {
	~float32 | ~float64
}

// Frame is one sensor reading window.
type Frame[T Sample] struct {
	Seq  int
	Data []T
}

// Stage transforms In values to Out values.
type Stage[In, Out any] func(In) (Out, error)

var errTimeout = errors.New("stage timed out")

// Run starts a stage goroutine reading from in and writing to the returned channel.
func Run[In, Out any](name string, in <-chan In, st Stage[In, Out], wait time.Duration) (<-chan Out, <-chan error) {
	out := make(chan Out)
	errs := make(chan error, 1)
	go func() {
		var err error
		defer func() {
			errs <- err
			close(errs)
		}()
		defer close(out)
		for {
			select {
			case v, ok := <-in:
				if !ok {
					return
				}
				r, serr := st(v)
				if serr != nil {
					err = fmt.Errorf("%s: %w", name, serr)
					return
				}
				out <- r
			case <-time.After(wait):
				err = fmt.Errorf("%s: %w", name, errTimeout)
				return
			}
		}
	}()
	return out, errs
}

// ToArray converts any sample slice to a float32 array.
func ToArray[T Sample](xs []T) jit.Array {
	f := make([]float32, len(xs))
	for i, x := range xs {
		f[i] = float32(x)
	}
	return jit.FromSlice(f)
}

var taps = func() []float64 {
	t := make([]float64, 48)
	for i := range t {
		t[i] = 1.0 / 48
	}
	return t
}()

const frameLen = 128

// FIR is a 48-tap filter written as shifted adds.
func FIR(x jit.Array) jit.Array {
	n := x.Shape()[0] - len(taps)
	y := jit.Zeros(jit.Float32, n)
	for k, t := range taps { // want unrolledloop
		y = y.Add(x.Slice([]int{k}, []int{k + n}).Mul(t))
	}
	return y
}

// Gain applies an AGC: a short 16-step loop plus a scan over frames of energy.
func Gain(x jit.Array) jit.Array {
	g := x
	for i := 0; i < 16; i++ {
		g = g.Mul(0.99).Add(g.Tanh().Mul(0.01))
	}
	energy, _ := jit.ScanN(func(e jit.Array) (jit.Array, jit.Array) {
		return e.Mul(0.9).Add(0.1), e
	}, jit.Scalar(float32(0)), 100)
	return g.Mul(energy)
}

var traceCount int

func main() {
	fir := jit.Jit(FIR)
	gain := jit.Jit(Gain)
	var seen int
	var mu sync.Mutex
	history := jit.Zeros(jit.Float32, 0)
	summarise := jit.Jit(func(x, hist jit.Array) jit.Array {
		traceCount++ // want traceeffect
		return jit.Concatenate(0, hist, x.Mean().Reshape(1)).Sum()
	})

	src := make(chan Frame[float64])
	go func() {
		defer close(src)
		for s := 0; s < 9; s++ {
			if s == 8 {
				src <- Frame[float64]{Seq: s} // a dropped frame ends the stream
				return
			}
			d := make([]float64, frameLen)
			for i := range d {
				d[i] = float64((i*7+s*3)%11) - 5
			}
			src <- Frame[float64]{Seq: s, Data: d}
		}
	}()

	decode := Stage[Frame[float64], jit.Array](func(f Frame[float64]) (jit.Array, error) {
		if len(f.Data) == 0 {
			return jit.Array{}, fmt.Errorf("frame %d is empty", f.Seq)
		}
		mu.Lock()
		seen++
		mu.Unlock()
		return ToArray(f.Data), nil
	})
	filter := Stage[jit.Array, jit.Array](func(x jit.Array) (jit.Array, error) {
		return gain.Call(fir.Call(x)), nil
	})
	summary := Stage[jit.Array, float64](func(x jit.Array) (float64, error) {
		total := summarise.Call(x, history) // want shapechurn
		history = jit.Concatenate(0, history, x.Mean().Reshape(1))
		return total.Item(), nil
	})

	wait := 2 * time.Second
	arrays, e1 := Run("decode", src, decode, wait)
	filtered, e2 := Run("filter", arrays, filter, wait)
	totals, e3 := Run("summary", filtered, summary, wait)

	i := 0
	for t := range totals {
		fmt.Printf("frame %d running total %.4f\n", i, t)
		i++
	}
	for _, ch := range []<-chan error{e1, e2, e3} {
		if err := <-ch; err != nil {
			fmt.Println("error:", err)
		}
	}
	fmt.Printf("frames=%d summarise traces=%d fir compiles=%d gain compiles=%d\n",
		seen, traceCount, fir.Stats().Compiles, gain.Stats().Compiles)
}
