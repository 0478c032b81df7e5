package a

import (
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// A range over a map the function makes and fills itself reads one of
// the keys it stored: grouping rows by a bucket size and then ranging over
// the groups gives as many shapes as buckets; grouping by the rows' own
// lengths gives one per length.

var mkSum = jit.Jit(func(x jit.Array) jit.Array { return x.Sum() })

func mkBucket(n int) int {
	if n <= 32 {
		return 32
	}
	return 64
}

func mkGroups(rows [][]float32) {
	byBucket := map[int][][]float32{}
	for _, r := range rows {
		b := mkBucket(len(r))
		byBucket[b] = append(byBucket[b], r)
	}
	keys := make([]int, 0, len(byBucket))
	for k := range byBucket {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, size := range keys {
		for range byBucket[size] {
			mkSum.Call(jit.Zeros(jit.Float32, size)) // not reported: two buckets
		}
	}
	byLen := map[int]int{}
	for _, r := range rows {
		byLen[len(r)]++
	}
	for n := range byLen {
		mkSum.Call(jit.Zeros(jit.Float32, n)) // want `argument x has a different shape on each iteration`
	}
}
