package a

import "github.com/jitlint/jitlint/jit"

// A goroutine's closure that receives from a channel it captures
// receives what is sent on the channel its only MakeClosure binds: the
// sizes the sender makes.

var gcFIR = jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })

func gcSource(chunks int, out chan<- []float32) {
	defer close(out)
	for c := 0; c < chunks; c++ {
		n := 256
		if c == chunks-1 {
			n = 100 // the stream ends mid-chunk
		}
		out <- make([]float32, n)
	}
}

func gcGrowing(chunks int, out chan<- []float32) {
	defer close(out)
	for c := 0; c < chunks; c++ {
		out <- make([]float32, 8*(c+1))
	}
}

func gcPipeline() {
	raw := make(chan []float32, 4)
	grown := make(chan []float32, 4)
	done := make(chan bool)
	go gcSource(12, raw)
	go gcGrowing(12, grown)
	go func() {
		for buf := range raw {
			gcFIR.Call(jit.FromSlice(buf)) // not reported: two sizes
		}
		for buf := range grown {
			gcFIR.Call(jit.FromSlice(buf)) // want `argument x has a different shape on each iteration`
		}
		done <- true
	}()
	<-done
}
