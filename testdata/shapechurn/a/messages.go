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

type scorer struct{ w jit.Array }

func (s *scorer) handle(m message) float64 {
	return sumSq.Call(jit.FromSlice(m.features)).Item() // want `argument x has a different shape`
}

func serveThroughMethod() {
	ch := make(chan message)
	go sendGrowing(ch)
	s := &scorer{}
	for m := range ch {
		s.handle(m)
	}
}

func produce(sizes []int) <-chan message {
	ch := make(chan message)
	go func() {
		defer close(ch)
		for id, n := range sizes {
			ch <- message{id: id, features: make([]float32, n)}
		}
	}()
	return ch
}

func serveProduced() {
	s := &scorer{}
	for m := range produce([]int{3, 7, 12, 5, 30, 9, 14, 21, 2, 40}) {
		s.handleProduced(m)
	}
}

func (s *scorer) handleProduced(m message) float64 {
	return sumSq.Call(jit.FromSlice(m.features)).Item() // want `argument x has a different shape`
}

func produceFixed(n int) <-chan message {
	ch := make(chan message)
	go func() {
		defer close(ch)
		for id := range n {
			ch <- message{id: id, features: make([]float32, 16)}
		}
	}()
	return ch
}

func serveFixed() {
	for m := range produceFixed(30) {
		sumSq.Call(jit.FromSlice(m.features))
	}
}
