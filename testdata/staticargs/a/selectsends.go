package a

import "github.com/jitlint/jitlint/jit"

// A value sent in a select's case is a message as a send statement's is:
// what the receiver gets is one of the values sent, a new one per message
// when each iteration of the sending loop sends its own.

var ssPeak = jit.Jit(func(n int, x jit.Array) jit.Array { return x.Mul(float64(n)) }, jit.StaticArgnums(0))

func ssRun(done chan struct{}) {
	var jobs []int
	for i := 0; i < 20; i++ {
		jobs = append(jobs, 3*i+1)
	}
	queue := make(chan int)
	go func() {
		defer close(queue)
		for _, j := range jobs {
			select {
			case queue <- j:
			case <-done:
				return
			}
		}
	}()
	for n := range queue {
		ssPeak.Call(n, jit.Ones(jit.Float32, 4)) // want `static argument n takes a new value`
	}
}
