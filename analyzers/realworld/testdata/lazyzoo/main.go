// Command lazyzoo serves several models from a zoo shared between request
// handlers: one cache looks the compiled model up before building it; the
// other hands sync.Map.LoadOrStore a freshly jitted wrapper on every
// request, which builds (and throws away) a wrapper each time even though
// the cached one is returned.
package main

import (
	"fmt"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

type model = func(jit.Array) jit.Array

func linear(x jit.Array) jit.Array { return x.Mul(0.5).Sum(1) }
func mlp(x jit.Array) jit.Array    { return x.Mul(0.5).Tanh().Mul(1.5).Tanh().Sum(1) }
func gelu(x jit.Array) jit.Array {
	return x.Mul(0.5).Mul(x.Mul(0.7978846).Mul(x.Mul(x).Mul(0.044715).Add(1)).Tanh().Add(1)).Sum(1)
}

// zoo is the table of models, built once at start-up.
var zoo = map[string]model{"linear": linear, "mlp": mlp, "gelu": gelu}

// lookupCache jits a model the first time it is asked for.
type lookupCache struct {
	mu       sync.Mutex
	compiled map[string]*jit.Func[model]
}

func (c *lookupCache) get(name string) *jit.Func[model] {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.compiled[name]; ok {
		return f
	}
	f := jit.Jit(zoo[name])
	c.compiled[name] = f
	return f
}

// storeCache keeps one wrapper per name but builds the candidate eagerly.
var storeCache sync.Map

func getStored(name string) *jit.Func[model] {
	f, _ := storeCache.LoadOrStore(name, jit.Jit(mlp)) // a named function: its wrappers share one cache
	return f.(*jit.Func[model])
}

func request(i int) jit.Array {
	data := make([]float32, 4*6)
	for k := range data {
		data[k] = float32((k+i)%7) / 7
	}
	return jit.FromSlice(data, 4, 6)
}

func main() {
	c := &lookupCache{compiled: map[string]*jit.Func[model]{}}
	names := []string{"linear", "mlp", "gelu"}
	for i := 0; i < 9; i++ {
		name := names[i%3]
		out := c.get(name).Call(request(i))
		fmt.Println(name, out.Sum().Item())
	}
	for i := 0; i < 5; i++ {
		out := getStored("mlp").Call(request(i))
		fmt.Println("stored mlp", out.Sum().Item())
	}
}
