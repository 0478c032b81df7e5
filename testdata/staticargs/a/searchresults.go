package a

import (
	"slices"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// A search of a slice answers a position in it: a static index found by
// sort.SearchStrings or slices.Index in a table of four names takes at
// most five values, however many requests ask.

var srOps = []string{"gelu", "relu", "softplus", "swish"}

var srApply = jit.Jit(func(x jit.Array, op int) jit.Array { return x.Mul(float64(op)) }, jit.StaticArgnums(1))

func searchResults(x jit.Array, asked []string) {
	for _, name := range asked {
		srApply.Call(x, sort.SearchStrings(srOps, name)) // not reported: a position in four names
		srApply.Call(x, slices.Index(srOps, name))       // not reported: -1 or a position
	}
	for i := range 40 {
		srApply.Call(x, sort.Search(i, func(int) bool { return false })) // want `static argument op takes a new value on every iteration`
	}
}
