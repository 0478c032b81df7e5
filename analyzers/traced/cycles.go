package traced

// Cycles. The analysis computes what it knows on demand and remembers it:
// the expression of a value, a function's results, the stores at a base,
// the call graph. These questions can ask themselves again (a load whose
// stores are made through a parameter needs the call sites, and working
// out the call sites evaluates that load); the inner question then gets a
// provisional answer (nothing known, or what is known so far). An answer
// that used a provisional one is not final: it is remembered only until
// the question it depended on is answered, and asked again after that.
// Otherwise what is remembered would depend on the order the questions
// came in, and so would the findings.
//
// Each question being answered is a frame; frames nest. low[i] is the
// outermost frame that frame i's answer depends on through a cycle (i
// itself when none); drops[i] are the remembered answers that depend on
// frame i, forgotten when it closes.
type frames struct {
	low   []int
	drops [][]func()
}

// open starts a frame for a question and returns its index.
func (f *flow) open() int {
	f.fr.low = append(f.fr.low, len(f.fr.low))
	f.fr.drops = append(f.fr.drops, nil)
	return len(f.fr.low) - 1
}

// cut records that the question of the innermost frame used a
// provisional answer of frame k (a question still being answered).
func (f *flow) cut(k int) {
	if top := len(f.fr.low) - 1; top >= 0 && k < f.fr.low[top] {
		f.fr.low[top] = k
	}
}

// close ends frame i, whose answer has been remembered: drop forgets it.
// It reports whether the answer is final; if not, drop runs when the
// frame it depends on closes.
func (f *flow) close(i int, drop func()) bool {
	l := f.fr.low[i]
	for _, d := range f.fr.drops[i] {
		d()
	}
	f.fr.low, f.fr.drops = f.fr.low[:i], f.fr.drops[:i]
	if i > 0 && l < f.fr.low[i-1] {
		f.fr.low[i-1] = l
	}
	if l < i {
		f.fr.drops[l] = append(f.fr.drops[l], drop)
		return false
	}
	return true
}
