package traced

import (
	"go/constant"
	"go/token"
	"go/types"
	"math/big"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/ssa"
)

// eval computes the expression of v in the summary's function.
func (s *summary) eval(v ssa.Value) *Expr {
	f := s.f
	at := blockOf(v)
	val := func(x ssa.Value) *Expr { return s.operand(x, at) }
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil {
			if _, ok := v.Type().Underlying().(*types.Slice); ok {
				return seq(exprZero)
			}
			if jitapi.IsArray(v.Type()) {
				return zeroArray // jit.Array{}: no array at all
			}
			if _, ok := v.Type().Underlying().(*types.Struct); ok {
				return zeroOf(v.Type()) // Model{}: its fields' zero values
			}
			return unknown
		}
		return constOf(v.Value)
	case *ssa.Parameter:
		e := node(kParam)
		e.Fn, e.N = s.fn, paramIndex(s.fn, v)
		return e
	case *ssa.FreeVar:
		for i, fv := range s.fn.FreeVars {
			if fv == v {
				e := node(kFree)
				e.Fn, e.N = s.fn, i
				return e
			}
		}
		return unknown
	case *ssa.Global:
		return pointer(v)
	case *ssa.Function:
		e := node(kFunc)
		e.Fn = v
		return e
	case *ssa.Alloc:
		return pointer(v)
	case *ssa.MakeMap:
		return pointer(v)
	case *ssa.MakeChan:
		return pointer(v)
	case *ssa.Phi:
		if l := s.loopOf[v.Block()]; l != nil && l.header == v.Block() {
			for k, p := range l.phis {
				if p == v {
					return iter(l, k)
				}
			}
		}
		return s.merge(v)
	case *ssa.Call:
		return s.call(v.Common(), v, at)
	case *ssa.BinOp:
		out := op(v.Op, val(v.X), val(v.Y))
		if wraps(v.Op, v.Type()) {
			out = conv(out, v.Type()) // as the type holds it
		}
		return out
	case *ssa.UnOp:
		switch v.Op {
		case token.MUL:
			return s.loadAt(val(v.X), v)
		case token.ARROW:
			if v.CommaOk { // v, ok := <-ch, and a range over a channel
				return node(kTuple, f.receive(val(v.X), v), unknown)
			}
			return f.receive(val(v.X), v)
		}
		return op(v.Op, val(v.X), nil)
	case *ssa.ChangeType:
		return val(v.X)
	case *ssa.ChangeInterface:
		return val(v.X)
	case *ssa.MultiConvert:
		return val(v.X)
	case *ssa.SliceToArrayPointer:
		return val(v.X)
	case *ssa.Convert:
		return conv(val(v.X), v.Type())
	case *ssa.MakeInterface:
		e := node(kIface, val(v.X))
		e.Type = v.X.Type()
		return e
	case *ssa.TypeAssert:
		x := val(v.X)
		out := unwrapIface(x)
		if v.CommaOk {
			return node(kTuple, out, assertOK(x, v.AssertedType))
		}
		return out
	case *ssa.Extract:
		return extract(val(v.Tuple), v.Index)
	case *ssa.FieldAddr:
		return f.fieldAddr(val(v.X), v.Field)
	case *ssa.Field:
		return field(val(v.X), v.Field)
	case *ssa.IndexAddr:
		return elemAddr(val(v.X), val(v.Index))
	case *ssa.Index:
		return index(val(v.X), val(v.Index))
	case *ssa.Lookup:
		x := val(v.X)
		var out *Expr
		if _, isString := v.X.Type().Underlying().(*types.Basic); isString {
			out = unknown
		} else {
			out = f.load(elemAddr(x, mapKey(val(v.Index))))
		}
		if v.CommaOk {
			return node(kTuple, out, unknown)
		}
		return out
	case *ssa.Slice:
		return f.slice(v, val(v.X), v.Low, v.High, val)
	case *ssa.MakeSlice:
		e := seq(val(v.Len))
		e.Site = pointer(v)
		return e
	case *ssa.MakeClosure:
		fn := v.Fn.(*ssa.Function)
		frees := make([]*Expr, len(v.Bindings))
		for i, b := range v.Bindings {
			frees[i] = val(b)
		}
		e := node(kFunc)
		e.Fn, e.Env = fn, &Env{Fn: fn, Frees: frees}
		return e.sized()
	case *ssa.Next:
		if k := s.mapKeys(v); k != nil {
			return node(kTuple, unknown, k, fresh(v))
		}
		return fresh(v)
	case *ssa.Select, *ssa.Range:
		return fresh(v)
	}
	return unknown
}

// blockOf returns the block of an instruction value, or nil.
func blockOf(v ssa.Value) *ssa.BasicBlock {
	if instr, ok := v.(ssa.Instruction); ok {
		return instr.Block()
	}
	return nil
}

// pointer is a pointer to the start of base.
func pointer(base any) *Expr {
	e := node(kPtr)
	e.Site = base
	return e
}

// extract is result i of a tuple.
func extract(t *Expr, i int) *Expr {
	switch t.Kind {
	case kTuple:
		if i < len(t.Args) {
			return t.Args[i]
		}
	case kChoice:
		alts := make([]*Expr, len(t.Args))
		for k, a := range t.Args {
			alts[k] = extract(a, i)
		}
		return choice(alts...)
	case kSelect:
		return sel(t.Args[0], extract(t.Args[1], i), extract(t.Args[2], i))
	case kApply:
		e := *t
		e.N = i
		return e.sized()
	case kFresh:
		return t
	}
	return unknown
}

// unwrapIface is the value inside an interface value.
func unwrapIface(x *Expr) *Expr {
	switch x.Kind {
	case kIface:
		return x.Args[0]
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = unwrapIface(a)
		}
		return choice(alts...)
	case kSelect:
		return sel(x.Args[0], unwrapIface(x.Args[1]), unwrapIface(x.Args[2]))
	}
	return x
}

// conv converts x to t: exact for constants, kept otherwise.
func conv(x *Expr, t types.Type) *Expr {
	if v, ok := x.isConst(); ok {
		if b, ok := t.Underlying().(*types.Basic); ok {
			switch {
			case b.Info()&types.IsInteger != 0:
				if i := constant.ToInt(v); i.Kind() == constant.Int {
					return constOf(truncInt(i, b))
				}
				if f, ok := constant.Float64Val(constant.ToFloat(v)); ok {
					return constOf(constant.MakeInt64(int64(f)))
				}
			case b.Info()&types.IsFloat != 0:
				return constOf(constant.ToFloat(v))
			case b.Info()&types.IsString != 0 && v.Kind() == constant.String:
				return x
			}
		}
		return x
	}
	if x.Kind == kUnknown || x.Kind == kFresh {
		return x
	}
	e := node(kConv, x)
	e.Type = t
	return e
}

// wraps reports whether the result of op on values of type t is taken
// modulo t's width: arithmetic that can overflow, on a sized integer type
// other than int and int64 (a hash, a uint32 generator's state; sizes and
// counts, in int, are taken not to overflow).
func wraps(op token.Token, t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || b.Kind() == types.Int || b.Kind() == types.Int64 || b.Kind() == types.UntypedInt {
		return false
	}
	return op == token.ADD || op == token.SUB || op == token.MUL || op == token.SHL
}

// intBits are the widths of Go's sized integer types (int, uint and
// uintptr as on 64-bit machines).
var intBits = map[types.BasicKind]uint{
	types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Int64: 64, types.Int: 64,
	types.Uint8: 8, types.Uint16: 16, types.Uint32: 32, types.Uint64: 64, types.Uint: 64, types.Uintptr: 64,
}

// truncInt is the integer v as a value of type b holds it: reduced modulo
// its width, in two's complement for a signed type.
func truncInt(v constant.Value, b *types.Basic) constant.Value {
	bits, ok := intBits[b.Kind()]
	if !ok {
		return v
	}
	n, ok := new(big.Int).SetString(v.ExactString(), 10)
	if !ok {
		return v
	}
	mod := new(big.Int).Lsh(big.NewInt(1), bits)
	n.Mod(n, mod) // in [0, mod)
	if b.Info()&types.IsUnsigned == 0 && n.Cmp(new(big.Int).Rsh(mod, 1)) >= 0 {
		n.Sub(n, mod)
	}
	return constant.Make(n)
}

// assertOK is whether x, an interface value, holds a t (or implements t):
// known when the dynamic types x can have are (any(zero).(float64) in an
// instance of a generic function).
func assertOK(x *Expr, t types.Type) *Expr {
	alts := alternatives(x)
	outs := make([]*Expr, 0, len(alts))
	for _, a := range alts {
		if a.Kind != kIface || a.Type == nil {
			return unknown
		}
		ok := types.Identical(a.Type, t)
		if it, isIface := t.Underlying().(*types.Interface); isIface {
			ok = types.Implements(a.Type, it)
		}
		outs = append(outs, boolConst(ok))
	}
	if len(outs) == 0 {
		return unknown
	}
	return choice(outs...)
}

// fieldAddr is the address of field i of what x points to.
// maxPath bounds the fields and elements below a base that a place names:
// deeper places (the nodes of a linked list or tree reached through
// pointers) are not followed.
const maxPath = 8

func (f *flow) fieldAddr(x *Expr, i int) *Expr {
	switch x.Kind {
	case kPtr:
		switch x.Site {
		case nil:
			if symbolicDepth(x) >= maxPath {
				return unknown // a place deep in a linked structure (l.parent.parent…)
			}
			// &p.f.g of a parameter p: kept, and resolved when p is bound.
			e := node(kPtr, x, intConst(int64(i)))
			e.Name = "field"
			return e
		case "value":
			return node(kPtr, field(x.Args[0], i)).withSite("value") // &p.f of a pointer to a known value
		}
		if len(x.Args) >= maxPath {
			return unknown // a place deep in a linked structure (l.parent.parent…)
		}
		e := *x
		e.Args = append(append([]*Expr(nil), x.Args...), intConst(int64(i)))
		return e.sized()
	case kWrapper:
		if i == 0 { // &f.Call: the jitted function's Call field
			e := node(kFunc, x)
			e.Name = "jit.Call"
			return node(kPtr, e).withSite("value")
		}
		return unknown
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = f.fieldAddr(a, i)
		}
		return choice(alts...)
	case kSelect:
		return sel(x.Args[0], f.fieldAddr(x.Args[1], i), f.fieldAddr(x.Args[2], i))
	case kUnknown:
		return unknown
	}
	e := node(kPtr, x, intConst(int64(i)))
	e.Name = "field"
	return e
}

// symbolicDepth is how many fields and elements deep a pointer below a
// value not known yet (a parameter) is.
func symbolicDepth(x *Expr) int {
	n := 0
	for x.Kind == kPtr && x.Site == nil && (x.Name == "field" || x.Name == "elem") && len(x.Args) > 0 {
		n++
		x = x.Args[0]
	}
	return n
}

// withSite sets a Ptr's Site.
func (e *Expr) withSite(site any) *Expr {
	if e.Kind == kPtr {
		e.Site = site
	}
	return e
}

// mapKey is the path step of a map read at key k: k when it is not a
// constant (it matches every update, and a slice each key grows has that
// key's length), else some element (updates are placed at one).
func mapKey(k *Expr) *Expr {
	if k.Kind == kConst {
		return unknown
	}
	return k
}

// elemAddr is the address of element i of x (a pointer to an array, or a
// slice, or a map).
func elemAddr(x, i *Expr) *Expr {
	switch x.Kind {
	case kPtr:
		if x.Site == nil && symbolicDepth(x) < maxPath {
			e := node(kPtr, x, i) // &p.xs[i] of a parameter p: resolved when p is bound
			e.Name = "elem"
			return e
		}
		if x.Site == nil || x.Site == "value" || len(x.Args) >= maxPath {
			return unknown
		}
		e := *x
		e.Args = append(append([]*Expr(nil), x.Args...), i) // a non-constant index is some element
		return e.sized()
	case kSeq:
		if p, ok := x.Site.(*Expr); ok {
			return elemAddr(p, i)
		}
		v := index(x, i)
		return node(kPtr, v).withSite("value")
	case kShape:
		return node(kPtr, index(x, i)).withSite("value") // x.Shape()[i]
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = elemAddr(a, i)
		}
		return choice(alts...)
	case kUnknown:
		return unknown
	}
	e := node(kPtr, x, i) // the index kept: bound later, it may matter (xs[t])
	e.Name = "elem"
	return e
}

// slice is x[lo:hi].
func (f *flow) slice(v *ssa.Slice, x *Expr, lo, hi ssa.Value, val func(ssa.Value) *Expr) *Expr {
	low := exprZero
	if lo != nil {
		low = val(lo)
	}
	if x.Kind == kPtr && x.Site != nil && x.Site != "value" {
		// A slice of an array: its elements are what was stored at each index.
		t, _ := v.X.Type().Underlying().(*types.Pointer)
		if t == nil {
			return unknown
		}
		arr, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			return unknown
		}
		n := intConst(arr.Len())
		high := n
		if hi != nil {
			high = val(hi)
		}
		var elems []*Expr
		start, sok := low.int64Of()
		end, eok := high.int64Of()
		if sok && eok && end-start <= maxElems && start >= 0 && end <= arr.Len() {
			for k := start; k < end; k++ {
				elems = append(elems, f.load(elemAddr(x, intConst(k))))
			}
		}
		e := seq(op(token.SUB, high, low), elems...)
		e.Site = x
		return e
	}
	switch x.Kind {
	case kSeq:
		high := x.Args[0]
		if hi != nil {
			high = val(hi)
		}
		var elems []*Expr
		if start, ok := low.int64Of(); ok && start >= 0 && int(start)+1 <= len(x.Args) {
			elems = x.Args[start+1:]
			if end, ok := high.int64Of(); ok && end >= start && int(end-start) < len(elems) {
				elems = elems[:end-start]
			}
		}
		e := seq(op(token.SUB, high, low), elems...)
		if p, ok := x.Site.(*Expr); ok {
			e.Site = p
		}
		return e
	case kConst:
		if hi == nil && lo == nil {
			return x
		}
		return seq(op(token.SUB, orLen(val, hi, x), low))
	}
	if hi != nil {
		return seq(op(token.SUB, val(hi), low))
	}
	return seq(op(token.SUB, length(x), low))
}

func orLen(val func(ssa.Value) *Expr, hi ssa.Value, x *Expr) *Expr {
	if hi != nil {
		return val(hi)
	}
	return length(x)
}

// mapKeys is the key that a range over a map the function makes itself
// reads: one of the keys its updates store there (those of a loop, one of
// the values over it), when they take a bounded number of values; nil
// when they do not, the map is not the function's own, or something else
// writes it.
func (s *summary) mapKeys(next *ssa.Next) *Expr {
	rng, ok := next.Iter.(*ssa.Range)
	if !ok || next.IsString {
		return nil
	}
	root := addrRoot(rng.X)
	if u, isLoad := root.(*ssa.UnOp); isLoad && u.Op == token.MUL {
		root = addrRoot(u.X)
	}
	mk, isMake := root.(*ssa.MakeMap)
	if !isMake || mk.Parent() != s.fn || !ownMap(mk) {
		return nil
	}
	var keys []*Expr
	for _, u := range s.f.mem.updates[root] {
		up, isUpdate := u.(*ssa.MapUpdate)
		if !isUpdate || up.Parent() != s.fn {
			return nil
		}
		k := s.operand(up.Key, up.Block())
		for l := s.loopOf[up.Block()]; l != nil && !l.contains(next.Block()); l = l.parent {
			k = overLoop(l, k)
		}
		keys = append(keys, k)
	}
	k := choice(keys...)
	if _, few := s.f.newEvaluator().formBound(k); keys == nil || !few {
		return nil // keys made of data: a new one for each row, as far as is known
	}
	return k
}

// ownMap reports whether only the function that makes the map m uses it:
// it updates, reads and ranges over it, and hands it to no one.
func ownMap(m *ssa.MakeMap) bool {
	for _, ref := range *m.Referrers() {
		switch u := ref.(type) {
		case *ssa.MapUpdate, *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
		case *ssa.Call:
			if b, ok := u.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
				return false
			}
		default:
			return false
		}
	}
	return true
}
