// Command kvdecodecache decodes a few tokens greedily with a tiny transformer,
// comparing cache strategies: a cache that grows by one row per step, one
// preallocated to the maximum length, one that grows in chunks, and one
// indexed by a Go position.
package main

import (
	"fmt"

	"corpus/kvdecodecache/model"

	"github.com/jitlint/jitlint/jit"
)

const (
	growSteps  = 12
	fixedSteps = 40
	bos        = 1
	stopToken  = 7
)

func embed(p model.Params, tok int) jit.Array {
	return p.Embed.Slice([]int{tok, 0}, []int{tok + 1, model.DModel}).Reshape(model.DModel)
}

func argmax(logits jit.Array) int {
	best, bi := float32(-1e30), 0
	for i, v := range logits.Float32s() {
		if v > best {
			best, bi = v, i
		}
	}
	return bi
}

var cacheLens []int

// stepGrowLogged is model.StepGrow, recording the cache length it was
// called with.
func stepGrowLogged(p model.Params, c model.Cache, x jit.Array) (jit.Array, model.Cache) {
	cacheLens = append(cacheLens, c.K[0].Shape()[0]) // want traceeffect
	return model.StepGrow(p, c, x)
}

type stepFn = func(model.Params, model.Cache, jit.Array, jit.Array) (jit.Array, model.Cache)

func decodeGrowing(p model.Params) []int {
	step := jit.Jit(stepGrowLogged)
	cache := model.EmptyCache(0)
	tok, out := bos, []int{}
	for i := 0; i < growSteps; i++ {
		var logits jit.Array
		logits, cache = step.Call(p, cache, embed(p, tok)) // want shapechurn
		tok = argmax(logits)
		out = append(out, tok)
	}
	fmt.Printf("growing cache: %d compiles for %d steps, traced lengths %v\n", step.Stats().Compiles, growSteps, cacheLens)
	return out
}

func decodePrealloc(p model.Params, step *jit.Func[stepFn]) []int {
	cache := model.EmptyCache(model.MaxLen)
	tok, out := bos, []int{}
	for pos := 0; pos < fixedSteps; pos++ {
		var logits jit.Array
		logits, cache = step.Call(p, cache, embed(p, tok), jit.Scalar(int32(pos)))
		tok = argmax(logits)
		out = append(out, tok)
	}
	return out
}

func decodeChunked(p model.Params, step *jit.Func[stepFn]) []int {
	cache := model.EmptyCache(model.Chunk)
	tok, out := bos, []int{}
	for pos := 0; pos < fixedSteps; pos++ {
		if capacity := cache.K[0].Shape()[0]; pos >= capacity {
			cache = model.Grow(cache, capacity+model.Chunk)
			fmt.Printf("chunked cache: grew to %d slots at step %d\n", capacity+model.Chunk, pos)
		}
		var logits jit.Array
		logits, cache = step.Call(p, cache, embed(p, tok), jit.Scalar(int32(pos)))
		tok = argmax(logits)
		out = append(out, tok)
	}
	return out
}

func decodeAtPos(p model.Params) []int {
	step := jit.Jit(model.StepAtPos, jit.StaticArgnums(0))
	cache := model.EmptyCache(model.MaxLen)
	tok, out := bos, []int{}
	for pos := 0; pos < fixedSteps; pos++ {
		var logits jit.Array
		logits, cache = step.Call(pos, p, cache, embed(p, tok)) // want staticargs
		tok = argmax(logits)
		out = append(out, tok)
	}
	fmt.Printf("go-int position: %d compiles for %d steps\n", step.Stats().Compiles, fixedSteps)
	return out
}

// GenerateUntil decodes greedily from pos0 inside one traced function,
// stopping early once the stop token becomes likely.
func GenerateUntil(p model.Params, c model.Cache, x, pos0 jit.Array, stop jit.Array) jit.Array {
	pos := pos0
	var logits jit.Array
	for i := 0; i < 8; i++ {
		logits, c = model.StepFixed(p, c, x, pos)
		if logits.Mul(stop).Sum().Gt(3).Bool() { // want tracedbool
			break
		}
		next := logits.Eq(logits.MaxReduce()).Astype(jit.Float32)
		x = next.Reshape(1, model.Vocab).MatMul(p.Embed).Reshape(model.DModel)
		pos = pos.Add(1)
	}
	return logits
}

func generateUntil(p model.Params) int {
	gen := jit.Jit(GenerateUntil)
	stop := jit.Arange(model.Vocab, jit.Int32).Eq(stopToken).Astype(jit.Float32)
	logits := gen.Call(p, model.EmptyCache(model.MaxLen), embed(p, bos), jit.Scalar(int32(0)), stop)
	return argmax(logits)
}

func main() {
	p := model.Init()
	a := decodeGrowing(p)

	fixed := jit.Jit(model.StepFixed)
	b := decodePrealloc(p, fixed)
	c := decodeChunked(p, fixed)
	fmt.Printf("fixed-shape step: %d compiles for %d calls\n", fixed.Stats().Compiles, 2*fixedSteps)

	d := decodeAtPos(p)
	same := 0
	for i := range b {
		if b[i] == c[i] && c[i] == d[i] {
			same++
		}
	}
	fmt.Printf("tokens (grow)  %v\ntokens (fixed) %v\nagreement fixed/chunked/go-int: %d/%d\n", a, b[:growSteps], same, len(b))

	fmt.Println("in-graph generation, last token:", generateUntil(p))
}
