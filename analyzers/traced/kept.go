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
		iters := map[atomKey]*Expr{}
		seen := map[*Expr]bool{}
		var visit func(a *Expr)
		visit = func(a *Expr) {
			if a == nil || seen[a] {
				return
			}
			seen[a] = true
			if a.Kind == kField {
				if start := f.keptStart(a, depth); start != nil {
					iters[keyOf(a)] = start
					return
				}
			}
			for _, b := range a.Args {
				visit(b)
			}
		}
		visit(e)
		if len(iters) == 0 {
			return e
		}
		e = (&substituter{f: f, env: &Env{}, memo: map[*Expr]*Expr{}, iters: iters}).do(e)
	}
	return e
}

// keptStart is, for a, a chain of fields of a loop's state at an
// iteration or at the loop's exit, those fields of the state the loop
// starts from, when every iteration keeps them (nil otherwise).
func (f *flow) keptStart(a *Expr, depth int) *Expr {
	it, path := carryPath(a)
	if it == nil {
		root := a
		for root.Kind == kField {
			root = root.Args[0]
		}
		if root.Kind != kAtExit || root.Env != nil {
			return nil
		}
		inner, p := carryPath(root.Args[0])
		if inner == nil || inner.Loop != root.Loop || len(p) > 0 {
			return nil
		}
		it, path = inner, fieldPath(a)
	}
	l := it.Loop
	l.sum.solve(l)
	project := func(e *Expr) *Expr {
		for _, i := range path {
			e = field(e, i)
		}
		return e
	}
	next := project(l.next[it.N])
	if keyOf(next) != keyOf(project(it)) {
		next = f.settled(next, depth-1) // kept through a loop inside
		if keyOf(next) != keyOf(project(it)) {
			return nil
		}
	}
	return project(l.init[it.N])
}

// fieldPath is the field indexes of a chain of fields, outermost value
// first.
func fieldPath(a *Expr) []int {
	var path []int
	for ; a.Kind == kField; a = a.Args[0] {
		path = append([]int{a.N}, path...)
	}
	return path
}
