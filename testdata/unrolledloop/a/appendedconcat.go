package a

import "github.com/jitlint/jitlint/jit"

// Concatenating what a loop appends gives as many rows as the loop ran
// times the rows of each part: a loop over those rows in traced code runs
// as many times as the draft was long.

func acDraft(x jit.Array, k int) jit.Array {
	toks := make([]jit.Array, 0, k)
	for i := 0; i < k; i++ { // want `loop is unrolled into the trace up to 40 times \(static argument k is 40`
		x = x.Add(1)
		toks = append(toks, x.Sum().Reshape(1))
	}
	return jit.Concatenate(0, toks...)
}

func acScore(draft jit.Array) jit.Array {
	acc := draft.Sum()
	for j := 0; j < draft.Shape()[0]; j++ { // not reported: 4 rows at most
		acc = acc.Add(draft.Slice([]int{j}, []int{j + 1}).Sum())
	}
	return acc
}

func acLong(draft jit.Array) jit.Array {
	acc := draft.Sum()
	for j := 0; j < draft.Shape()[0]; j++ { // want `loop is unrolled into the trace up to 40 times \(draft.Shape\(\)\[0\] is 40\)`
		acc = acc.Mul(draft.Slice([]int{j}, []int{j + 1}).Sum())
	}
	return acc
}

var (
	acDraftJ = jit.Jit(acDraft, jit.StaticArgnums(1))
	acScoreJ = jit.Jit(acScore)
	acLongJ  = jit.Jit(acLong)
)

func acRun(x jit.Array) {
	for _, k := range []int{4, 2, 4} {
		acScoreJ.Call(acDraftJ.Call(x, k))
	}
	acLongJ.Call(acDraftJ.Call(x, 40))
}
