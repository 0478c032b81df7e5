package a

import (
	"fixtures/shapechurn/batches"

	"github.com/jitlint/jitlint/jit"
)

// An array that another package's function returns has the dims its
// parameters give (batches.Dense: the batch's rows and MaxLen), bound to
// what each call passes.

func isEncode(ids jit.Array) jit.Array { return ids.Sum(1) }

func isBatches() {
	enc := jit.Jit(isEncode)
	for i := 0; i < 6; i++ {
		enc.Call(batches.Dense(batches.Batch{MaxLen: 3 + 2*i})) // want `argument ids has a different shape on each iteration`
	}
	for i := 0; i < 6; i++ {
		enc.Call(batches.Dense(batches.Batch{MaxLen: 16})) // not reported: one MaxLen
	}
}
