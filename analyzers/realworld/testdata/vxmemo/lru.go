package main

import "container/list"

// LRU is a fixed-capacity least-recently-used cache.
type LRU[K comparable, V any] struct {
	capacity int
	order    *list.List
	items    map[K]*list.Element
	// OnEvict, if set, is called with each entry pushed out.
	OnEvict      func(K, V)
	Hits, Misses int
}

type lruEntry[K comparable, V any] struct {
	key K
	val V
}

func NewLRU[K comparable, V any](capacity int) *LRU[K, V] {
	return &LRU[K, V]{capacity: capacity, order: list.New(), items: make(map[K]*list.Element)}
}

func (c *LRU[K, V]) Get(k K) (v V, ok bool) {
	if el, found := c.items[k]; found {
		c.order.MoveToFront(el)
		c.Hits++
		return el.Value.(*lruEntry[K, V]).val, true
	}
	c.Misses++
	return v, false
}

func (c *LRU[K, V]) Put(k K, v V) {
	if el, found := c.items[k]; found {
		el.Value.(*lruEntry[K, V]).val = v
		c.order.MoveToFront(el)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry[K, V]{k, v})
	for c.order.Len() > c.capacity {
		last := c.order.Back()
		e := c.order.Remove(last).(*lruEntry[K, V])
		delete(c.items, e.key)
		if c.OnEvict != nil {
			c.OnEvict(e.key, e.val)
		}
	}
}

// Memo returns f memoized through c.
func Memo[K comparable, V any](c *LRU[K, V], f func(K) V) func(K) V {
	return func(k K) V {
		if v, ok := c.Get(k); ok {
			return v
		}
		v := f(k)
		c.Put(k, v)
		return v
	}
}
