package traced

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/ssa"
)

// Memory: what a load reads is what the package stores at that place. A
// place is a base (an allocation, a global, a map or a channel) and a path
// of fields and elements below it. The stores of the package are found
// once, by the root of their address; those made through a parameter or a
// free variable are carried to the calls and closures that bind it. The
// model is flow-insensitive: a load reads one of the values stored there
// (the zero value too when nothing is stored). A store that appends to
// what it reads (g.adj = append(g.adj, e)) adds its elements once per
// run: the length is what the other stores give plus that many times the
// trips of the loops around it.

type memory struct {
	f *flow
	// byRoot are the stores of the package by the root of their address.
	byRoot map[ssa.Value][]*ssa.Store
	// roots are the keys of byRoot and updates, each once, in the order of
	// the package's code.
	roots []ssa.Value
	// updates and sends are the map updates and channel sends by root.
	updates map[ssa.Value][]ssa.Instruction
	// indirect are the roots that are not bases, parameters or free
	// variables (a pointer returned by a call or loaded from memory).
	indirect []ssa.Value
	// resolved are the stores of each base, once worked out.
	resolved map[any][]placed
	// building are the bases whose stores are being worked out, by frame.
	building map[any]int
	// outside memoizes writtenOutside.
	outside map[*ssa.Alloc]ssa.CallInstruction
}

// placed is a store at a base: the path below it and the value, in the
// atoms of the base's function (or closed).
type placed struct {
	path []*Expr
	val  *Expr
	// grows is set for a store that appends to the place's own value: val
	// is then a Seq of what it adds in all.
	grows bool
}

func newMemory(f *flow) *memory {
	m := &memory{f: f, byRoot: map[ssa.Value][]*ssa.Store{}, updates: map[ssa.Value][]ssa.Instruction{},
		resolved: map[any][]placed{}, building: map[any]int{}, outside: map[*ssa.Alloc]ssa.CallInstruction{}}
	seenIndirect := map[ssa.Value]bool{}
	note := func(root ssa.Value) {
		switch root.(type) {
		case *ssa.Alloc, *ssa.Global, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.Parameter, *ssa.FreeVar:
		default:
			if !seenIndirect[root] {
				seenIndirect[root] = true
				m.indirect = append(m.indirect, root)
			}
		}
	}
	update := func(u ssa.Instruction) {
		root := addrRoot(containerOf(u))
		if m.updates[root] == nil && m.byRoot[root] == nil {
			m.roots = append(m.roots, root)
		}
		m.updates[root] = append(m.updates[root], u)
		note(root)
	}
	for _, fn := range f.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch s := instr.(type) {
				case *ssa.Store:
					root := addrRoot(s.Addr)
					if m.byRoot[root] == nil && m.updates[root] == nil {
						m.roots = append(m.roots, root)
					}
					m.byRoot[root] = append(m.byRoot[root], s)
					note(root)
				case *ssa.MapUpdate, *ssa.Send:
					update(s)
				case *ssa.Select:
					for i, st := range s.States {
						if st.Dir == types.SendOnly {
							update(selectSend{s, i})
						}
					}
				}
			}
		}
	}
	return m
}

// addrRoot follows an address back through fields, elements, slices and
// conversions to the value it starts from.
func addrRoot(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return v
		}
	}
}

// load is the value at the address x.
func (f *flow) load(x *Expr) *Expr {
	switch x.Kind {
	case kPtr:
		switch {
		case x.Site == "value":
			return x.Args[0]
		case x.Site == nil:
			return node(kLoad, x)
		}
		return f.mem.read(x)
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = f.load(a)
		}
		return choice(alts...)
	case kSelect:
		return sel(x.Args[0], f.load(x.Args[1]), f.load(x.Args[2]))
	case kParam, kFree, kLoad, kApply, kField, kIndex, kInput:
		return node(kLoad, x)
	}
	return unknown
}

// receive is a value received from the channel x at instr.
func (f *flow) receive(x *Expr, instr ssa.Instruction) *Expr {
	if fv := x; fv.Kind == kFree && fv.Fn != nil || fv.Kind == kLoad && fv.Args[0].Kind == kFree && fv.Args[0].Fn != nil {
		// A closure's channel: the one that the only place that makes
		// the closure binds (a goroutine's input), or holds in the
		// variable it captures.
		if fv.Kind == kLoad {
			fv = fv.Args[0]
		}
		var made []*callSite
		for _, cs := range f.callSites(fv.Fn) {
			if _, ok := cs.instr.(*ssa.MakeClosure); ok {
				made = append(made, cs)
			}
		}
		if len(made) == 1 && fv.N < len(made[0].frees) {
			if bound := made[0].frees[fv.N]; x.Kind == kLoad {
				x = f.load(bound)
			} else {
				x = bound
			}
		}
	}
	if x.Kind == kPtr && x.Site != nil && x.Site != "value" {
		// The sends are placed at an element of the channel, as map
		// updates are.
		if v := f.mem.read(elemAddr(x, unknown)); v.Kind != kUnknown {
			return f.perMessage(v, instr)
		}
	}
	return fresh(instr)
}

// perMessage is a value read from a channel as the receive at instr sees
// it: what each run of a send made anew (a fresh value of the send, see
// perSend) is a new value at each run of the receive, which takes the next
// message; so is what depends on an iteration of a loop that does not run
// the receive (the loop that built the slice the sender walks): each
// message may carry another iteration's value.
func (f *flow) perMessage(v *Expr, instr ssa.Instruction) *Expr {
	v = retagFreshIf(v, isSend, instr, map[*Expr]*Expr{})
	iters := map[atomKey]*Expr{}
	v.walk(func(a *Expr) bool {
		if a.Kind == kIter && (a.Loop.fn != instr.Parent() || !a.Loop.contains(instr.Block())) {
			iters[keyOf(a)] = fresh(instr)
		}
		return true
	})
	if len(iters) == 0 {
		return v
	}
	return f.substIters(v, iters)
}

// read is the value at the resolved pointer p. A struct (or a small
// array) is read field by field, so that what is stored whole and what is
// stored into its fields are both seen.
func (m *memory) read(p *Expr) *Expr {
	bt := baseType(p.Site)
	for j, k := range p.Args {
		if _, ok := k.int64Of(); !ok && k.Kind != kUnknown && isArrayAt(bt, p.Args[:j]) {
			// An element at an index that is not a constant: that element
			// of the whole (xs[i] of a table is the i-th of its values).
			q := *p
			q.Args, q.Env = p.Args[:j], nil
			whole := m.read(&q)
			v := index(whole, k)
			for _, rest := range p.Args[j+1:] {
				if i, ok := rest.int64Of(); ok && v.Kind == kStruct {
					v = field(v, int(i))
				} else {
					v = index(v, rest)
				}
			}
			return m.bind(v, p)
		}
	}
	if t := typeAt(bt, p.Args); t != nil && len(p.Args) < 4 && !opaque(t) {
		var parts int
		switch u := t.Underlying().(type) {
		case *types.Struct:
			parts = u.NumFields()
		case *types.Array:
			if u.Len() <= maxElems {
				parts = int(u.Len())
			}
		}
		if parts > 0 {
			elems := make([]*Expr, parts)
			for i := range elems {
				q := *p
				q.Args = append(append([]*Expr(nil), p.Args...), intConst(int64(i)))
				q.Env = nil
				elems[i] = m.read(&q)
			}
			var whole *Expr
			if _, isStruct := t.Underlying().(*types.Struct); isStruct {
				whole = node(kStruct, elems...)
			} else {
				whole = seq(intConst(int64(parts)), elems...)
			}
			return m.bind(whole, p)
		}
	}
	stores := m.storesAt(p.Site)
	var alts []*Expr
	var grows []*Expr
	covered := false
	for _, st := range stores {
		v, ok := project(st, p.Args, bt)
		if !ok {
			continue
		}
		covered = true
		if st.grows {
			grows = append(grows, v)
			continue
		}
		alts = append(alts, v)
	}
	if g, ok := p.Site.(*ssa.Global); ok && g.Pkg != m.f.ssa {
		alts = append(alts, fresh(g)) // what the other package stores there (os.Stderr)
	} else if a, ok := p.Site.(*ssa.Alloc); ok && m.writtenOutside(a) != nil {
		// What another package's function stores there (json's Decode
		// into a request): new on each run of the call.
		alts = append(alts, along(fresh(m.writtenOutside(a)), p.Args, bt))
	} else if t := typeAt(bt, p.Args); !covered && t != nil || len(alts) == 0 && len(grows) > 0 && t != nil {
		alts = append(alts, zeroOf(t))
	}
	v := choice(alts...)
	for _, g := range grows {
		// The place starts as v and each run of the growing store adds g's length.
		v = seqAny(op(token.ADD, length(v), length(g)), append(elements(v), elements(g)...))
	}
	for j := len(p.Args) - 1; j >= 0; j-- {
		if _, ok := p.Args[j].int64Of(); ok {
			continue // a field, or an element at a constant index, of what is read at the index before
		}
		if len(grows) > 0 && j == len(p.Args)-1 {
			// A slice each key grows: its length is that key's.
			v = seqAny(index(length(v), p.Args[j]), elements(v))
		}
		v = elementAt(v, p.Args[j]) // one of the stored values (or a field of one), at the index read
		break
	}
	return m.bind(v, p)
}

// writtenOutside returns a call of another package's function (or of a
// function value) that receives the address of a, or of a part of it, and
// may write there; nil if none.
func (m *memory) writtenOutside(a *ssa.Alloc) ssa.CallInstruction {
	if call, ok := m.outside[a]; ok {
		return call
	}
	var call ssa.CallInstruction
	writes := func(u ssa.CallInstruction, v ssa.Value) bool {
		callee := u.Common().StaticCallee()
		if callee == nil && !u.Common().IsInvoke() && m.f.runsLocal(u) {
			return false // a function value of the package (an option closure): its stores are placed through its parameters
		}
		return (callee == nil || !m.f.local(callee) && jitName(callee) == "") && !readOnlyArg(u, v)
	}
	if use := addressUse(a, true, func(ref ssa.Instruction, v ssa.Value) bool {
		switch u := ref.(type) {
		case ssa.CallInstruction:
			return writes(u, v)
		case *ssa.Store:
			// The address put in a call's variadic arguments (fmt.Sscanf's
			// &h): the call that takes them.
			if va, ok := addrRoot(u.Addr).(*ssa.Alloc); ok && u.Val == v && va.Comment == "varargs" {
				if c := varargsCall(va); c != nil && writes(c, nil) {
					call = c
					return true
				}
			}
		}
		return false
	}); use != nil && call == nil {
		call = use.(ssa.CallInstruction)
	}
	m.outside[a] = call
	return call
}

// varargsCall is the call that a variadic arguments array is passed to
// (through the slice made of it), or nil.
func varargsCall(va *ssa.Alloc) ssa.CallInstruction {
	for _, ref := range *va.Referrers() {
		if sl, ok := ref.(*ssa.Slice); ok {
			for _, r := range *sl.Referrers() {
				if c, ok := r.(ssa.CallInstruction); ok {
					return c
				}
			}
		}
	}
	return nil
}

// along is the part of v at path below a value of type t.
func along(v *Expr, path []*Expr, t types.Type) *Expr {
	for j, k := range path {
		if i, ok := k.int64Of(); ok {
			if _, isStruct := typeAt(t, path[:j]).Underlying().(*types.Struct); isStruct {
				v = field(v, int(i))
				continue
			}
		}
		v = index(v, k)
	}
	return v
}

// isArrayAt reports whether the value at path below a value of type t is
// an array (whose elements are kept by index).
func isArrayAt(t types.Type, path []*Expr) bool {
	at := typeAt(t, path)
	if at == nil {
		return false
	}
	_, ok := at.Underlying().(*types.Array)
	return ok
}

// opaque reports whether values of t are not taken apart: the jit
// package's own types (an Array is a value, not its fields).
func opaque(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && jitapi.IsJitPath(n.Obj().Pkg().Path())
}

// bind instantiates v, in the atoms of the base's function, with the
// pointer's environment.
func (m *memory) bind(v *Expr, p *Expr) *Expr {
	if p.Env == nil {
		return v
	}
	return m.f.subst(v, p.Env)
}

// project returns the part of a store that a read of path sees: all of it
// (same path), part of it (a longer path: a field of a struct stored whole),
// or ok false when the store is elsewhere.
func project(st placed, path []*Expr, bt types.Type) (*Expr, bool) {
	n := min(len(st.path), len(path))
	for i := 0; i < n; i++ {
		if !sameKey(st.path[i], path[i]) {
			return nil, false
		}
	}
	if len(st.path) > len(path) {
		return nil, false // a part of what is read: assembled by read
	}
	v := st.val
	for j, k := range path[len(st.path):] {
		t := typeAt(bt, path[:len(st.path)+j])
		if _, isStruct := t.(*types.Struct); t != nil && isStruct {
			i, _ := k.int64Of()
			v = field(v, int(i))
		} else if t != nil {
			if _, isStruct := t.Underlying().(*types.Struct); isStruct {
				i, _ := k.int64Of()
				v = field(v, int(i))
				continue
			}
			v = index(v, k)
		} else {
			v = index(v, k)
		}
	}
	return v, true
}

// sameKey reports whether two path steps may be the same place: equal
// constants, or an index that is not a constant (some element).
func sameKey(a, b *Expr) bool {
	x, ok1 := a.int64Of()
	y, ok2 := b.int64Of()
	return !ok1 || !ok2 || x == y
}

// baseType is the type a base holds.
func baseType(base any) types.Type {
	switch b := base.(type) {
	case *ssa.Alloc:
		return b.Type().(*types.Pointer).Elem()
	case *ssa.Global:
		return b.Type().(*types.Pointer).Elem()
	case *ssa.MakeMap:
		return b.Type()
	case *ssa.MakeChan:
		return b.Type()
	case *ssa.MakeSlice:
		return b.Type()
	}
	return nil
}

// typeAt is the type at path below a value of type t.
func typeAt(t types.Type, path []*Expr) types.Type {
	for _, k := range path {
		if t == nil {
			return nil
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			i, ok := k.int64Of()
			if !ok || int(i) >= u.NumFields() {
				return nil
			}
			t = u.Field(int(i)).Type()
		case *types.Array:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Map:
			t = u.Elem()
		case *types.Chan:
			t = u.Elem()
		case *types.Pointer:
			t = u.Elem()
		default:
			return nil
		}
	}
	return t
}

// storesAt returns the stores of the package at base.
func (m *memory) storesAt(base any) []placed {
	if out, ok := m.resolved[base]; ok {
		return out
	}
	if k, ok := m.building[base]; ok {
		m.f.cut(k)
		return nil
	}
	frame := m.f.open()
	m.building[base] = frame
	var out []placed
	add := func(st placed) { out = append(out, st) }
	if v, ok := base.(ssa.Value); ok {
		owner := ownerOf(base)
		for _, st := range m.byRoot[v] {
			m.place(st, base, owner, nil, add)
		}
		for _, u := range m.updates[v] {
			m.placeElem(u, base, owner, nil, add)
		}
		m.viaParams(base, owner, add)
	}
	parts := partTypes(baseType(base))
	for _, root := range m.indirect {
		for _, st := range m.byRoot[root] {
			if holds(parts, st.Addr.Type().Underlying().(*types.Pointer).Elem()) {
				m.place(st, base, ownerOf(base), nil, add)
			}
		}
		for _, u := range m.updates[root] {
			if holds(parts, containerOf(u).Type()) {
				m.placeElemBound(u, base, ownerOf(base), add)
			}
		}
	}
	m.resolved[base] = out
	delete(m.building, base)
	m.f.close(frame, func() { delete(m.resolved, base) })
	return out
}

// partTypes are the types of the places below a value of type t (t
// itself, its fields and elements, through pointers too): a store through a
// pointer of unknown origin can write into a base only at a place of its
// type (Go's memory is typed).
func partTypes(t types.Type) []types.Type {
	var out []types.Type
	var visit func(t types.Type, depth int)
	visit = func(t types.Type, depth int) {
		if t == nil || depth > 6 || slices.ContainsFunc(out, func(u types.Type) bool { return types.Identical(u, t) }) {
			return
		}
		out = append(out, t)
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				visit(u.Field(i).Type(), depth+1)
			}
		case *types.Array:
			visit(u.Elem(), depth+1)
		case *types.Slice:
			visit(u.Elem(), depth+1)
		case *types.Map:
			visit(u.Elem(), depth+1)
		case *types.Chan:
			visit(u.Elem(), depth+1)
		case *types.Pointer:
			visit(u.Elem(), depth+1)
		}
	}
	visit(t, 0)
	return out
}

// holds reports whether t is one of parts (any type when parts are not
// known: a base of unknown type).
func holds(parts []types.Type, t types.Type) bool {
	return len(parts) == 0 || slices.ContainsFunc(parts, func(u types.Type) bool { return types.Identical(u, t) })
}

// containerOf is the map a map update writes, or the channel a send sends on.
func containerOf(instr ssa.Instruction) ssa.Value {
	target, _ := updated(instr)
	return target
}

// updated is the map and value of a map update, or the channel and
// message of a send.
func updated(instr ssa.Instruction) (target, value ssa.Value) {
	switch u := instr.(type) {
	case *ssa.MapUpdate:
		return u.Map, u.Value
	case *ssa.Send:
		return u.Chan, u.X
	case selectSend:
		st := u.States[u.state]
		return st.Chan, st.Send
	}
	return nil, nil
}

// A selectSend is the send of one case of a select statement, which the
// memory model places as it does a send statement.
type selectSend struct {
	*ssa.Select
	state int
}

// isSend reports whether instr sends on a channel (a send statement or a
// select's case).
func isSend(instr ssa.Instruction) bool {
	switch instr.(type) {
	case *ssa.Send, selectSend:
		return true
	}
	return false
}

// ownerOf is the function that makes base (nil for a global).
func ownerOf(base any) *ssa.Function {
	if instr, ok := base.(ssa.Instruction); ok {
		return instr.Parent()
	}
	return nil
}

// place adds st when its address, evaluated in its function (and bound
// by env, for a store reached through a parameter), points into base.
func (m *memory) place(st *ssa.Store, base any, owner *ssa.Function, env *Env, add func(placed)) {
	s := m.f.summary(st.Parent())
	addr := s.operand(st.Addr, st.Block())
	if env != nil {
		addr = m.f.subst(addr, env)
	}
	for _, p := range pointers(addr) {
		if p.Site != base {
			continue
		}
		if grow, ok := m.growth(st); ok {
			add(placed{path: p.Args, val: m.closed(s, grow, env, owner, st), grows: true})
			continue
		}
		if selfUpdate(st) {
			add(placed{path: p.Args, val: fresh(advance{st})})
			continue
		}
		path, val := outOfLoops(s, st.Block(), base, p.Args, m.closed(s, s.operand(st.Val, st.Block()), env, owner, st))
		add(placed{path: path, val: val})
	}
}

// outOfLoops is a store made in loops as a read sees it, from anywhere: at
// some element (for an index the loops step) one of the values stored
// over their iterations; loops that make the base anew in each iteration
// are left as they are (what the iteration stores, it reads).
func outOfLoops(s *summary, b *ssa.BasicBlock, base any, path []*Expr, val *Expr) ([]*Expr, *Expr) {
	path = slices.Clone(path)
	for l := s.loopOf[b]; l != nil; l = l.parent {
		if made, ok := base.(ssa.Instruction); ok && made.Parent() == l.fn && made.Block() != nil && l.contains(made.Block()) {
			continue
		}
		inLoop := func(a *Expr) bool { return a.Kind == kIter && a.Loop == l }
		for i, k := range path {
			if k.mentions(inLoop) {
				path[i] = unknown
			}
		}
		val = overLoop(l, val)
	}
	return path, val
}

// placeElemBound is placeElem for an update through a pointer loaded
// from memory: when it is not known to be into base as the updating
// function sees it, it may be once that function's parameters and free
// variables are bound (a goroutine's closure sending on a channel it
// captured by reference) at its calls in the function that makes base.
func (m *memory) placeElemBound(u ssa.Instruction, base any, owner *ssa.Function, add func(placed)) {
	found := false
	m.placeElem(u, base, owner, nil, func(p placed) { found = true; add(p) })
	if found || owner == nil {
		return
	}
	fn := u.Parent()
	for _, cs := range m.f.callSites(fn) {
		if cs.caller == owner && cs.caller != fn {
			m.placeElem(u, base, owner, &Env{Fn: fn, Params: cs.args, Frees: cs.frees}, add)
		}
	}
}

// placeElem adds a map update or channel send into base, made through a
// parameter or free variable that env binds when env is not nil.
func (m *memory) placeElem(instr ssa.Instruction, base any, owner *ssa.Function, env *Env, add func(placed)) {
	s := m.f.summary(instr.Parent())
	target, value := updated(instr)
	tgt := s.operand(target, instr.Block())
	if env != nil {
		tgt = m.f.subst(tgt, env)
	}
	v := s.operand(value, instr.Block())
	if isSend(instr) {
		v = m.perSend(s, v, instr)
	}
	val, grows := m.closed(s, v, env, owner, instr), false
	if added := mapGrowth(instr); added != nil {
		// m[k] = append(m[k], x): each key's slice is as long as the updates
		// that hit it, which the data decide.
		val, grows = seqAny(fresh(instr), elements(m.closed(s, s.operand(added, instr.Block()), env, owner, instr))), true
	}
	for _, p := range pointers(tgt) {
		if p.Site == base {
			add(placed{path: append(append([]*Expr(nil), p.Args...), unknown), val: val, grows: grows})
		}
	}
}

// mapGrowth returns what a map update that appends to the value it reads
// at a key (m[k] = append(m[k], x)) appends, or nil.
func mapGrowth(instr ssa.Instruction) ssa.Value {
	u, ok := instr.(*ssa.MapUpdate)
	if !ok {
		return nil
	}
	from, added, ok := appendOf(u.Value)
	if !ok {
		return nil
	}
	if ex, ok := from.(*ssa.Extract); ok {
		from = ex.Tuple
	}
	if lk, ok := from.(*ssa.Lookup); ok && lk.X == u.Map {
		return added
	}
	return nil
}

// appendOf returns the slice that v appends to and what it appends, when
// v is a call of the builtin append (SSA passes the elements as one
// slice: append(s, e...)).
func appendOf(v ssa.Value) (s, added ssa.Value, ok bool) {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Common().Args) != 2 {
		return nil, nil, false
	}
	if b, ok := call.Common().Value.(*ssa.Builtin); !ok || b.Name() != "append" {
		return nil, nil, false
	}
	return call.Common().Args[0], call.Common().Args[1], true
}

// perSend is a message v, sent by send, with the iterations of the loops
// around the send made fresh values of the send: each run sends the value
// of one iteration, and which one a receive gets is not known (a length
// that grows with the iteration is then a new length per message; one of
// two lengths, chosen by the iteration, stays one of two).
func (m *memory) perSend(s *summary, v *Expr, send ssa.Instruction) *Expr {
	iters := map[atomKey]*Expr{}
	for l := s.loopOf[send.Block()]; l != nil; l = l.parent {
		for k := range l.phis {
			iters[keyOf(iter(l, k))] = fresh(send)
		}
	}
	if len(iters) == 0 {
		return v
	}
	return m.f.substIters(v, iters)
}

// closed is a stored value as the base's function sees it: as is when the
// store is there, bound by env when it is reached through a parameter, and
// otherwise only when it depends on nothing of the storing function (else
// a fresh value of the store).
func (m *memory) closed(s *summary, v *Expr, env *Env, owner *ssa.Function, st ssa.Instruction) *Expr {
	if env != nil {
		v = m.f.subst(v, env)
	}
	fn := s.fn
	if env != nil {
		fn = nil // bound: now in the caller's atoms
	}
	if fn == owner && owner != nil {
		return v
	}
	return closedOver(s.fn, v, st)
}

// closedOver is v with what depends on fn's atoms replaced by fresh
// values of st, field by field in a struct (a message's fields that depend
// on nothing of the sender keep their values).
func closedOver(fn *ssa.Function, v *Expr, st ssa.Instruction) *Expr {
	if !v.mentions(func(a *Expr) bool { return isAtomOf(a, fn) }) {
		return v
	}
	if v.Kind != kStruct || len(v.Args) == 0 {
		return fresh(st)
	}
	fields := make([]*Expr, len(v.Args))
	for i, a := range v.Args {
		if a != nil {
			fields[i] = closedOver(fn, a, st)
		}
	}
	return node(kStruct, fields...)
}

// isAtomOf reports whether a is a parameter, free variable, mode or loop
// iteration of fn.
func isAtomOf(a *Expr, fn *ssa.Function) bool {
	switch a.Kind {
	case kParam, kFree, kMode:
		return a.Fn == fn
	case kIter:
		return a.Loop.fn == fn
	}
	return false
}

// growth recognises a store that appends to the value it reads from the
// same address (x.f = append(x.f, e...)), and returns what one run adds,
// times the trips of the loops around it.
func (m *memory) growth(st *ssa.Store) (*Expr, bool) {
	from, elems, ok := appendOf(st.Val)
	if !ok {
		return nil, false
	}
	ld, ok := from.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL || !sameAddress(ld.X, st.Addr) {
		return nil, false
	}
	s := m.f.summary(st.Parent())
	added := s.operand(elems, st.Block())
	n := length(added)
	for l := s.loopOf[st.Block()]; l != nil; l = l.parent {
		s.solve(l)
		if l.trips == nil {
			return seqAny(fresh(st), elements(added)), true
		}
		n = op(token.MUL, n, l.trips)
	}
	return seqAny(n, elements(added)), true
}

// sameAddress reports whether two addresses are the same field path of
// the same root value.
func sameAddress(a, b ssa.Value) bool {
	for {
		if a == b {
			return true
		}
		fa, ok1 := a.(*ssa.FieldAddr)
		fb, ok2 := b.(*ssa.FieldAddr)
		if !ok1 || !ok2 || fa.Field != fb.Field {
			return false
		}
		a, b = fa.X, fb.X
	}
}

// pointers returns the resolved pointers among the alternatives of x.
func pointers(x *Expr) []*Expr {
	switch x.Kind {
	case kPtr:
		if x.Site != nil && x.Site != "value" {
			return []*Expr{x}
		}
	case kChoice:
		var out []*Expr
		for _, a := range x.Args {
			out = append(out, pointers(a)...)
		}
		return out
	case kSelect:
		return append(pointers(x.Args[1]), pointers(x.Args[2])...)
	}
	return nil
}

// viaParams adds the stores that functions make through a parameter or
// free variable bound to a pointer into base: at the calls that pass it
// and the closures that capture it, in the function that makes the base
// or one call above it.
func (m *memory) viaParams(base any, owner *ssa.Function, add func(placed)) {
	for _, root := range m.roots {
		stores := m.byRoot[root]
		var fn *ssa.Function
		var idx int
		isFree := false
		switch r := root.(type) {
		case *ssa.Parameter:
			fn, idx = r.Parent(), paramIndex(r.Parent(), r)
		case *ssa.FreeVar:
			fn, isFree = r.Parent(), true
			for i, fv := range fn.FreeVars {
				if fv == r {
					idx = i
				}
			}
		default:
			continue
		}
		for _, cs := range m.f.callSites(fn) {
			var env *Env
			if isFree {
				if cs.frees == nil || idx >= len(cs.frees) {
					continue
				}
				env = &Env{Fn: fn, Frees: cs.frees}
			} else {
				if idx >= len(cs.args) {
					continue
				}
				env = &Env{Fn: fn, Params: cs.args, Frees: cs.frees} // a closure's own variables too (an option's value)
			}
			if cs.caller != owner && !isFree && slices.ContainsFunc(pointers(cs.args[idx]), func(p *Expr) bool { return p.Site == base }) {
				// The object itself, passed by a function that does not make
				// it (the receiver of an interface call that the package's
				// types bind).
				m.placeVia(root, stores, base, owner, env, add)
				continue
			}
			if cs.caller != owner {
				// A caller that passes on a parameter of its own
				// (rollout(e) calling e.Step(a)): the calls of that caller
				// in the function that makes the base.
				if !isFree && idx < len(cs.args) && cs.args[idx].Kind == kParam && cs.args[idx].Fn == cs.caller && cs.atoms == cs.caller {
					for _, up := range m.f.callSites(cs.caller) {
						if up.caller == owner && up.atoms == owner && up.caller != fn {
							m.placeVia(root, stores, base, owner, m.f.compose(env, &Env{Fn: cs.caller, Params: up.args}), add)
						}
					}
				}
				continue
			}
			m.placeVia(root, stores, base, owner, env, add)
		}
	}
}

// placeVia adds the stores, map updates and sends made through root, a
// parameter or free variable that env binds.
func (m *memory) placeVia(root ssa.Value, stores []*ssa.Store, base any, owner *ssa.Function, env *Env, add func(placed)) {
	for _, st := range stores {
		m.place(st, base, owner, env, add)
	}
	for _, u := range m.updates[root] {
		m.placeElem(u, base, owner, env, add)
	}
}

// compose is the binding of inner's atoms that inner gives, with the atoms
// it is written in bound in turn by outer.
func (f *flow) compose(inner, outer *Env) *Env {
	bind := func(es []*Expr) []*Expr {
		out := make([]*Expr, len(es))
		for i, e := range es {
			out[i] = f.subst(e, outer)
		}
		return out
	}
	return &Env{Fn: inner.Fn, Params: bind(inner.Params), Frees: bind(inner.Frees), Mode: f.subst(inner.Mode, outer)}
}
