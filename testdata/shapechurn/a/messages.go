package a

import "github.com/jitlint/jitlint/jit"

// Sizes that come in messages: each message received is a new one, so a
// size read from it is a new size on each receive, unless every message
// has the same size or the size is bucketed.

type message struct {
	id       int
	features []float32
	fixed    []float32
}

func sendGrowing(ch chan<- message) {
	for id := 0; id < 14; id++ {
		ch <- message{id: id, features: make([]float32, 20+9*id), fixed: make([]float32, 16)}
	}
	close(ch)
}

func serveMessages() {
	ch := make(chan message)
	go sendGrowing(ch)
	for m := range ch {
		sumSq.Call(jit.FromSlice(m.features)) // want `argument x has a different shape`
		sumSq.Call(jit.FromSlice(m.fixed))
	}
}

func serveOneByOne() {
	ch := make(chan message, 14)
	go sendGrowing(ch)
	for {
		m, ok := <-ch
		if !ok {
			return
		}
		sumSq.Call(jit.FromSlice(m.features)) // want `argument x has a different shape`
	}
}

func serveLocal() {
	ch := make(chan message, 14)
	for id := 0; id < 14; id++ {
		ch <- message{id: id, features: make([]float32, 20+9*id), fixed: make([]float32, 16)}
	}
	close(ch)
	for m := range ch {
		sumSq.Call(jit.FromSlice(m.features)) // want `argument x has a different shape`
		sumSq.Call(jit.FromSlice(m.fixed))
	}
}
