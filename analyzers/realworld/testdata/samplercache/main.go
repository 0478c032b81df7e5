// samplercache keeps jitted sampling kernels in an LRU keyed by request
// parameters, so each (temperature, top-k) configuration compiles once.
package main

import (
	"container/list"
	"fmt"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const vocab = 64

type kernel = *jit.Func[func(jit.Array) jit.Array]

// lru is a small mutex-guarded LRU cache.
type lru[K comparable, V any] struct {
	mu     sync.Mutex
	cap    int
	ll     *list.List
	items  map[K]*list.Element
	misses int
}

type lruEntry[K comparable, V any] struct {
	key K
	val V
}

func newLRU[K comparable, V any](capacity int) *lru[K, V] {
	return &lru[K, V]{cap: capacity, ll: list.New(), items: map[K]*list.Element{}}
}

func (c *lru[K, V]) getOrBuild(k K, build func() V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).val
	}
	c.misses++
	v := build()
	c.items[k] = c.ll.PushFront(&lruEntry[K, V]{key: k, val: v})
	if c.ll.Len() > c.cap {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*lruEntry[K, V]).key)
	}
	return v
}

type samplingRequest struct {
	ID          int
	Temperature float64
	TopK        int
}

type samplingKey struct {
	Temperature float64
	TopK        int
}

var kernelUses = map[samplingKey]int{}

// softmaxTopK keeps the k most likely candidates (the vocabulary is sorted by
// prior) and renormalises them at temperature t.
func softmaxTopK(logits jit.Array, t float64, k int) jit.Array {
	head := logits.Slice([]int{0}, []int{k}).Div(t)
	e := head.Sub(head.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

// TopKProb is the top-k probability mass of the first candidate, with k static.
func TopKProb(logits jit.Array, k int) jit.Array {
	return softmaxTopK(logits, 1, k).Slice([]int{0}, []int{1}).Sum()
}

func makeLogits(seed int) jit.Array {
	v := make([]float32, vocab)
	for i := range v {
		v[i] = float32(vocab-i)*0.05 + float32((seed*7+i*3)%11)*0.01
	}
	return jit.FromSlice(v)
}

func makeRequests(n int, configs []samplingKey) []samplingRequest {
	reqs := make([]samplingRequest, n)
	for i := range reqs {
		c := configs[i%len(configs)]
		reqs[i] = samplingRequest{ID: 1000 + i, Temperature: c.Temperature, TopK: c.TopK}
	}
	return reqs
}

func main() {
	configs := []samplingKey{{0.7, 8}, {1.0, 16}, {1.3, 4}}
	reqs := makeRequests(30, configs)
	logits := makeLogits(1)

	// Keyed by the sampling parameters: three configurations, three compiles.
	byParams := newLRU[samplingKey, kernel](4)
	sum := 0.0
	for _, r := range reqs {
		key := samplingKey{r.Temperature, r.TopK}
		k := byParams.getOrBuild(key, func() kernel {
			return jit.Jit(func(l jit.Array) jit.Array { return softmaxTopK(l, key.Temperature, key.TopK) })
		})
		sum += k.Call(logits).MaxReduce().Item()
	}
	fmt.Printf("by params: misses=%d sum=%.4f\n", byParams.misses, sum)

	// Keyed by the whole request, ID included: no two requests share a kernel.
	byRequest := newLRU[samplingRequest, kernel](64)
	sum = 0
	for _, r := range reqs[:12] {
		k := byRequest.getOrBuild(r, func() kernel {
			return jit.Jit(func(l jit.Array) jit.Array { return softmaxTopK(l, r.Temperature, r.TopK) }) // want staticargs
		})
		sum += k.Call(logits).MaxReduce().Item()
	}
	fmt.Printf("by request: misses=%d sum=%.4f\n", byRequest.misses, sum)

	// Keyed well, but two slots for three round-robin configurations.
	small := newLRU[samplingKey, kernel](2)
	sum = 0
	for _, r := range reqs[:12] {
		key := samplingKey{r.Temperature, r.TopK}
		k := small.getOrBuild(key, func() kernel {
			return jit.Jit(func(l jit.Array) jit.Array { // want staticargs
				kernelUses[key]++ // want traceeffect
				return softmaxTopK(l, key.Temperature, key.TopK)
			})
		})
		sum += k.Call(logits).MaxReduce().Item()
	}
	fmt.Printf("small lru: misses=%d traced configs=%d sum=%.4f\n", small.misses, len(kernelUses), sum)

	// Top-k as a static argument of one named function.
	topk := jit.Jit(TopKProb, jit.StaticArgnums(1))
	mass := 0.0
	for i := 0; i < 40; i++ {
		k := 8
		if i%2 == 1 {
			k = 16
		}
		mass += topk.Call(logits, k).Item()
	}
	fmt.Printf("topk alternating: mass=%.4f compiles=%d\n", mass, topk.Stats().Compiles)

	// A caller sweeping k to pick the best one.
	best, bestK := 0.0, 0
	for k := 2; k <= 12; k++ {
		p := topk.Call(logits, k).Item() // want staticargs
		if p*float64(k) > best {
			best, bestK = p*float64(k), k
		}
	}
	fmt.Printf("sweep: best k=%d score=%.4f\n", bestK, best)

	// A session whose prompt grows one token per turn.
	score := jit.Jit(func(hist jit.Array) jit.Array { return hist.Tanh().Mean() })
	var history []float32
	turns := 0.0
	for turn := 0; turn < 10; turn++ {
		history = append(history, float32(turn%4)*0.5)
		turns += score.Call(jit.FromSlice(history)).Item() // want shapechurn
	}
	fmt.Printf("history: %.4f\n", turns)

	// The same session, padded to fixed buckets.
	masked := jit.Jit(func(hist, mask jit.Array) jit.Array {
		return hist.Tanh().Mul(mask).Sum().Div(mask.Sum().Max(1))
	})
	history = history[:0]
	turns = 0
	for turn := 0; turn < 10; turn++ {
		history = append(history, float32(turn%4)*0.5)
		size := 8
		if len(history) > 8 {
			size = 16
		}
		x, mask, err := jit.PadTo(jit.FromSlice(history), size)
		if err != nil {
			panic(err)
		}
		turns += masked.Call(x, mask).Item()
	}
	fmt.Printf("padded history: %.4f compiles=%d\n", turns, masked.Stats().Compiles)
}
