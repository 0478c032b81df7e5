package a

import "github.com/jitlint/jitlint/jit"

// State that a method mutates, called from a helper that the loop calls:
// the store is made two calls below the function that makes the state.

type walker struct{ pos, limit float64 }

// move advances the walker by a traced step and reports whether it left
// its range.
func (w *walker) move(step float64) bool {
	w.pos += step
	return w.pos > w.limit
}

// walk moves w until it leaves its range, or 60 steps.
func walk(w *walker, act *jit.Func[func(jit.Array) jit.Array]) []float32 {
	var path []float32
	for {
		step := act.Call(jit.FromSlice([]float32{float32(w.pos)})).Item()
		path = append(path, float32(w.pos))
		if w.move(step) || len(path) >= 60 {
			return path
		}
	}
}

func walks(act *jit.Func[func(jit.Array) jit.Array]) {
	for ep := range 5 {
		w := &walker{pos: 0.05, limit: 0.5 + float64(ep)}
		sumSq.Call(jit.FromSlice(walk(w, act))) // want `argument x has a different shape on each iteration: one compile per distinct shape \(up to 5 compiles, one per iteration\)`
	}
	// Not reported: every episode starts from the same state, so it walks
	// the same path.
	for range 5 {
		w := &walker{pos: 0.05, limit: 0.5}
		sumSq.Call(jit.FromSlice(walk(w, act)))
	}
}
