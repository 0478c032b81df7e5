// Command serving answers batched inference requests for several models:
// a registry that jits each model once and caches the wrapper by name,
// a handler that jits its model on every request, requests of arbitrary
// batch size passed as they come, and the same requests padded to a few
// bucket sizes.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

type fn = func(jit.Array) jit.Array

func small(x jit.Array) jit.Array { return x.Mul(0.5).Tanh().Sum(1) }
func large(x jit.Array) jit.Array { return x.Mul(0.5).Tanh().Mul(2).Tanh().Sum(1) }

// registry jits each model the first time it is asked for.
type registry struct {
	models map[string]fn
	cache  map[string]*jit.Func[fn]
}

func (r *registry) get(name string) *jit.Func[fn] {
	if f, ok := r.cache[name]; ok {
		return f
	}
	f := jit.Jit(r.models[name])
	r.cache[name] = f
	return f
}

// handleUncached jits the model for every request.
func handleUncached(x jit.Array) jit.Array {
	f := jit.Jit(small) // a named function: its wrappers share one cache
	return f.Call(x)
}

// bucketSize is the smallest of a few sizes that holds n rows.
func bucketSize(n int) int {
	for _, b := range []int{8, 16, 32} {
		if n <= b {
			return b
		}
	}
	return 64
}

func request(rows int) jit.Array {
	data := make([]float32, rows*4)
	for i := range data {
		data[i] = float32(i%9) / 9
	}
	return jit.FromSlice(data, rows, 4)
}

func main() {
	reg := &registry{models: map[string]fn{"small": small, "large": large}, cache: map[string]*jit.Func[fn]{}}
	sizes := []int{3, 7, 12, 5, 20, 9, 31, 14}
	for i, n := range sizes {
		name := []string{"small", "large"}[i%2]
		x := request(n)
		out := reg.get(name).Call(x) // want shapechurn
		fmt.Println(name, n, out.Sum().Item())
	}
	for _, n := range sizes[:3] {
		handleUncached(request(4)).Sum().Item()
		fmt.Println("uncached", n)
	}
	bucketed := reg.get("small")
	for _, n := range sizes {
		x := request(n)
		b := bucketSize(n)
		padded := jit.Concatenate(0, x, jit.Zeros(jit.Float32, b-n, 4))
		out := bucketed.Call(padded).Slice([]int{0}, []int{n})
		fmt.Println("bucketed", n, "→", b, out.Sum().Item())
	}
	fmt.Println("models cached:", len(reg.cache))
}
