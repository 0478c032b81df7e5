package traced

// Fields a loop keeps: m = update(m), where update copies m.Act into what
// it returns, leaves m.Act what it was when the loop started, on every
// iteration and once the loop is done; it varies only where the start does.

// maxKeptNesting bounds how many loops, one inside another, settled
// follows a kept field out through.
const maxKeptNesting = 4

// settled is e with each field of a loop's state that every iteration
// keeps replaced by that field of the state the loop starts from, through
// up to depth loops one inside another.
func (f *flow) settled(e *Expr, depth int) *Expr {
	if depth <= 0 {
		return e
	}
	for range maxKeptNesting {
		starts := map[atomKey]*Expr{}
		seen := map[*Expr]bool{}
		var visit func(a *Expr)
		visit = func(a *Expr) {
			if a == nil || seen[a] {
				return
			}
			seen[a] = true
			if a.Kind == kField {
				if start := f.keptStart(a, depth); start != nil {
					starts[keyOf(a)] = start
					return
				}
			}
			for _, b := range a.Args {
				visit(b)
			}
		}
		visit(e)
		if len(starts) == 0 {
			return e
		}
		e = (&substituter{f: f, env: &Env{}, memo: map[*Expr]*Expr{}, fields: starts}).do(e)
	}
	return e
}

// keptStart is, for a, a chain of fields of a loop's state at an
// iteration or at the loop's exit, those fields of the state the loop
// starts from, when every iteration keeps them (nil otherwise).
func (f *flow) keptStart(a *Expr, depth int) *Expr {
	root, path := fieldChain(a)
	it := root
	if root.Kind == kAtExit && root.Env == nil {
		it = root.Args[0] // the state once the loop is done
		if it.Loop != root.Loop {
			return nil
		}
	}
	if it.Kind != kIter || it.N < 0 {
		return nil
	}
	l := it.Loop
	l.sum.solve(l)
	next := fields(l.next[it.N], path)
	if keyOf(next) != keyOf(fields(it, path)) {
		next = f.settled(next, depth-1) // kept through a loop inside
		if keyOf(next) != keyOf(fields(it, path)) {
			return nil
		}
	}
	return fields(l.init[it.N], path)
}
