// Package bus is a small in-process publish/subscribe broker.
package bus

import (
	"sync"

	"github.com/jitlint/jitlint/jit"
)

// Message is one published array.
type Message struct {
	Topic string
	Seq   int
	Tags  []string
	Data  jit.Array
}

// Broker fans each published message out to the topic's subscribers.
type Broker struct {
	mu     sync.RWMutex
	subs   map[string][]chan Message
	closed bool
}

func New() *Broker { return &Broker{subs: map[string][]chan Message{}} }

// Subscribe returns a channel receiving every message published on topic.
func (b *Broker) Subscribe(topic string, buffer int) <-chan Message {
	ch := make(chan Message, buffer)
	b.mu.Lock()
	b.subs[topic] = append(b.subs[topic], ch)
	b.mu.Unlock()
	return ch
}

// Publish delivers m to the subscribers of m.Topic.
func (b *Broker) Publish(m Message) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, ch := range b.subs[m.Topic] {
		ch <- m
	}
}

// Close closes every subscription.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for _, chs := range b.subs {
		for _, ch := range chs {
			close(ch)
		}
	}
}

// Merge forwards every message of the inputs to one channel, closed when all
// inputs are.
func Merge(ins ...<-chan Message) <-chan Message {
	out := make(chan Message)
	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Add(1)
		go func(in <-chan Message) {
			defer wg.Done()
			for m := range in {
				out <- m
			}
		}(in)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}
