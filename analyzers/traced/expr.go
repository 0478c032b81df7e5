package traced

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An Expr is the abstract value of an SSA value: what it holds, written in
// terms of the atoms of the function it belongs to (its parameters, free
// variables and tracing mode), the state of the loops around it at the
// current iteration, and fresh values (data: a new value each time the
// instruction that makes it runs). One domain serves every question the
// analyzers ask: a number's possible values (Const, Op, Choice, ...), a
// shape (the dims of an Array), which traced, mapped or differentiated
// inputs a value depends on (the atoms it mentions), what a function value
// can call (Func), and where a pointer points (Ptr).
//
// A function's expressions are computed once (its summary); a call
// instantiates the callee's result by substituting the call's arguments
// for the callee's atoms (subst), so values are followed through helpers,
// closures, constructors and interfaces without walking a callee again.
// Expressions are DAGs built by the constructors of this file, which
// simplify as they build; they are never mutated.
type Expr struct {
	Kind Kind
	// Op is the operator of an Op node (token.ADD, token.LSS, ...).
	Op token.Token
	// N is an index: of a parameter or free variable, a loop phi, a field,
	// a result; the rank of an Array (-1 when not known).
	N int
	// Val is the value of a Const.
	Val constant.Value
	// Args are the operands.
	Args []*Expr
	// Fn is the function of a Param, Free, Mode or Func.
	Fn *ssa.Function
	// Loop is the loop of an Iter, AtExit or Over.
	Loop *Loop
	// Site is the instruction or value that makes a Fresh, the base of a
	// Ptr (an *ssa.Alloc, *ssa.Global, *ssa.MakeMap or *ssa.MakeChan), the
	// jit call of a Wrapper or Transform, or the Op of an Array (the jit
	// call that makes it).
	Site any
	// Env binds the atoms of the function that made a Func, Ptr, AtExit or
	// Over (nil: the function whose summary holds the node, unbound).
	Env *Env
	// Type is the target of a Conv, the dynamic type of an Iface.
	Type types.Type
	// Name names a Pure function ("math.Pow"), an Array's operation
	// ("Sin", "jit.Zeros"), a Transform ("Vmap").
	Name string
	// Tr says whether an Array is traced (a boolean Expr); for a Seq whose
	// elements are not known by index, it is what each element can be; for
	// an Apply, the caller's mode.
	Tr *Expr
	// Dims are the dims of an Array (nil: not known).
	Dims []*Expr
	// Sites are, for an Input, the calls that pass its values (Args).
	Sites []any
	// depth is the height of the DAG below the node.
	depth int
}

// Kind is the kind of an Expr.
type Kind uint8

// The kinds of Expr.
const (
	kUnknown   Kind = iota // nothing is known
	kConst                 // the constant Val
	kParam                 // parameter N of Fn (a method's receiver is parameter 0)
	kFree                  // free variable N of the closure Fn
	kMode                  // true while Fn runs inside a trace
	kInput                 // parameter N of the traced function Fn at the root of a trace: Args, if any, are the values its calls (Sites) pass
	kIter                  // header phi N of Loop, at the current iteration
	kAtExit                // Args[0] (of Loop's iteration) when Loop is done
	kOver                  // any of the values Args[0] takes over Loop's iterations
	kFresh                 // a new value each time Site runs (data, a draw, a message)
	kOp                    // Op applied to Args (one operand: unary)
	kConv                  // Args[0] converted to Type
	kPure                  // the pure function Name of Args (math.Pow, ...)
	kSelect                // Args[1] if Args[0] else Args[2]
	kChoice                // one of Args
	kStruct                // a struct value, Args its fields (nil: not known)
	kField                 // field N of Args[0]
	kSeq                   // a slice or array: Args[0] its length, Args[1:] its elements by index (a nil element: not known)
	kIndex                 // element Args[1] of Args[0]
	kLen                   // the length of Args[0]
	kPtr                   // a pointer into Site at the path Args (constant field or element indexes; Unknown: some element)
	kLoad                  // the value Args[0] points to
	kFunc                  // the function Fn, its free variables bound by Env
	kApply                 // result N of calling Args[0] with Args[1:]
	kArray                 // a jit.Array made by the operation Name (at Site) from the operands Args: Dims its dims (rank N, -1 unknown), Tr whether it is traced
	kShape                 // the shape of the array Args[0], when its dims are not known yet
	kTracer                // whether the array Args[0] is a tracer, when that is not known yet
	kWrapper               // a *jit.Func made by the jit.Jit call Site of the function Args[0]; Args[1:] its options
	kTransform             // jit.Vmap, Grad or ValueAndGrad (Name) of the function Args[0]; Args[1:] the options
	kIface                 // an interface value holding Args[0] of dynamic type Type
	kTuple                 // the results of a call, Args
	kOption                // a jit.Option: Name ("StaticArgnums", "InAxes", ...) with Args
)

// maxDepth bounds the height of expressions: deeper ones are Unknown, so
// that recursion through data (a list built by a recursive helper) stays
// cheap.
const maxDepth = 48

// unknown is the one Unknown expression.
var unknown = &Expr{Kind: kUnknown}

// Constant builders.
var (
	exprTrue  = &Expr{Kind: kConst, Val: constant.MakeBool(true)}
	exprFalse = &Expr{Kind: kConst, Val: constant.MakeBool(false)}
	exprZero  = &Expr{Kind: kConst, Val: constant.MakeInt64(0)}
)

func constOf(v constant.Value) *Expr {
	if v == nil || v.Kind() == constant.Unknown {
		return unknown
	}
	return &Expr{Kind: kConst, Val: v}
}

func intConst(n int64) *Expr { return constOf(constant.MakeInt64(n)) }

func boolConst(b bool) *Expr {
	if b {
		return exprTrue
	}
	return exprFalse
}

// node makes an Expr of kind k over args, Unknown when it gets too deep.
func node(k Kind, args ...*Expr) *Expr {
	e := &Expr{Kind: k, Args: args}
	return e.sized()
}

// sized sets the depth of e, or returns Unknown when e is too deep.
func (e *Expr) sized() *Expr {
	d := 0
	for _, a := range e.Args {
		if a != nil && a.depth >= d {
			d = a.depth + 1
		}
	}
	for _, a := range e.Dims {
		if a != nil && a.depth >= d {
			d = a.depth + 1
		}
	}
	if e.Tr != nil && e.Tr.depth >= d {
		d = e.Tr.depth + 1
	}
	if p, ok := e.Site.(*Expr); ok && p != nil && p.depth >= d {
		d = p.depth + 1
	}
	if e.Env != nil {
		for _, b := range e.Env.Frees {
			if b != nil && b.depth >= d {
				d = b.depth + 1
			}
		}
		if b := e.Env.Mode; b != nil && b.depth >= d {
			d = b.depth + 1
		}
		for _, b := range e.Env.Params {
			if b != nil && b.depth >= d {
				d = b.depth + 1
			}
		}
	}
	if d > maxDepth {
		return unknown
	}
	e.depth = d
	return e
}

// isConst reports whether e is a constant, and returns it.
func (e *Expr) isConst() (constant.Value, bool) {
	if e != nil && e.Kind == kConst {
		return e.Val, true
	}
	return nil, false
}

// int64Of returns the value of an integer constant.
func (e *Expr) int64Of() (int64, bool) {
	v, ok := e.isConst()
	if !ok {
		return 0, false
	}
	v = constant.ToInt(v)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// choice is one of alts: flattened, duplicates and Unknowns kept apart
// (an Unknown alternative makes the choice not fully known).
func choice(alts ...*Expr) *Expr {
	var out []*Expr
	seen := map[*Expr]bool{}
	var consts []constant.Value
	var add func(*Expr)
	add = func(a *Expr) {
		if a == nil || seen[a] {
			return
		}
		seen[a] = true
		if a.Kind == kChoice {
			for _, b := range a.Args {
				add(b)
			}
			return
		}
		if v, ok := a.isConst(); ok {
			for _, c := range consts {
				if constant.Compare(c, token.EQL, v) && c.Kind() == v.Kind() {
					return
				}
			}
			consts = append(consts, v)
		}
		out = append(out, a)
	}
	for _, a := range alts {
		add(a)
	}
	switch len(out) {
	case 0:
		return unknown
	case 1:
		return out[0]
	}
	if len(out) > maxAlternatives {
		return unknown
	}
	return node(kChoice, out...)
}

// maxAlternatives bounds the alternatives of a Choice.
const maxAlternatives = 64

// op applies a Go operator, folding constants.
func op(tok token.Token, x, y *Expr) *Expr {
	if x == nil || x.Kind == kUnknown || y != nil && y.Kind == kUnknown {
		return unknown
	}
	if y == nil {
		if v, ok := x.isConst(); ok {
			if tok == token.NOT && v.Kind() == constant.Bool {
				return boolConst(!constant.BoolVal(v))
			}
			if v.Kind() == constant.Int || v.Kind() == constant.Float {
				return constOf(constant.UnaryOp(tok, v, 0))
			}
		}
		return node(kOp, x).withOp(tok)
	}
	if a, ok := x.isConst(); ok {
		if b, ok := y.isConst(); ok {
			if c := foldBinary(tok, a, b); c != nil {
				return constOf(c)
			}
		}
	}
	if tok == token.ADD || tok == token.SUB {
		if l := linearOf(node(kOp, x, y).withOp(tok)); l != nil {
			return l.expr()
		}
	}
	return node(kOp, x, y).withOp(tok)
}

func (e *Expr) withOp(tok token.Token) *Expr {
	if e.Kind == kOp {
		e.Op = tok
	}
	return e
}

// foldBinary computes a binary operator on constants (nil: not defined).
func foldBinary(tok token.Token, a, b constant.Value) (out constant.Value) {
	defer func() {
		if recover() != nil {
			out = nil // mixed kinds, division by zero
		}
	}()
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return constant.MakeBool(constant.Compare(a, tok, b))
	case token.SHL, token.SHR:
		s, ok := constant.Uint64Val(constant.ToInt(b))
		if !ok || s > 62 {
			return nil
		}
		return constant.Shift(constant.ToInt(a), tok, uint(s))
	case token.QUO:
		if constant.Sign(b) == 0 {
			return nil
		}
		if a.Kind() == constant.Int && b.Kind() == constant.Int {
			return constant.BinaryOp(a, token.QUO_ASSIGN, b) // integer division
		}
	case token.LAND, token.LOR:
		if a.Kind() != constant.Bool || b.Kind() != constant.Bool {
			return nil
		}
		if tok == token.LAND {
			return constant.MakeBool(constant.BoolVal(a) && constant.BoolVal(b))
		}
		return constant.MakeBool(constant.BoolVal(a) || constant.BoolVal(b))
	}
	return constant.BinaryOp(a, tok, b)
}

// sel is cond ? then : els, folded when cond is a constant or both agree.
func sel(cond, then, els *Expr) *Expr {
	if v, ok := cond.isConst(); ok && v.Kind() == constant.Bool {
		if constant.BoolVal(v) {
			return then
		}
		return els
	}
	if then == els || sameForm(then, els) {
		return then
	}
	if then == nil || els == nil || then.Kind == kUnknown || els.Kind == kUnknown {
		return choice(then, els)
	}
	return node(kSelect, cond, then, els)
}

// sameForm reports whether a and b are the same expression written twice
// (a select of it under any condition is it), for expressions shallow
// enough that String writes them whole.
func sameForm(a, b *Expr) bool {
	return a != nil && b != nil && a.Kind == b.Kind && a.Kind != kUnknown && a.depth == b.depth && a.depth < 12 && a.String() == b.String()
}

// field projects field i of x, through the structs, choices and selects
// that x is made of.
func field(x *Expr, i int) *Expr {
	switch x.Kind {
	case kStruct:
		if i < len(x.Args) && x.Args[i] != nil {
			return x.Args[i]
		}
		return unknown
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = field(a, i)
		}
		return choice(alts...)
	case kSelect:
		return sel(x.Args[0], field(x.Args[1], i), field(x.Args[2], i))
	case kUnknown:
		return unknown
	}
	e := node(kField, x)
	e.N = i
	return e
}

// seq is a slice or array of length n with the given elements by index
// (elems may be shorter than n, or nil when not known).
func seq(n *Expr, elems ...*Expr) *Expr { return node(kSeq, append([]*Expr{n}, elems...)...) }

// length is the length of x.
func length(x *Expr) *Expr {
	switch x.Kind {
	case kSeq:
		return x.Args[0]
	case kConst:
		if x.Val.Kind() == constant.String {
			return intConst(int64(len(constant.StringVal(x.Val))))
		}
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = length(a)
		}
		return choice(alts...)
	case kSelect:
		return sel(x.Args[0], length(x.Args[1]), length(x.Args[2]))
	case kUnknown:
		return unknown
	case kAtExit, kOver:
		e := *x
		e.Args = []*Expr{length(x.Args[0])}
		return e.sized()
	}
	return node(kLen, x)
}

// elementAt is the element at index i of a sequence whose elements are
// each one of alts: one of the values a loop appended, at an index that
// the over node keeps (in Tr), so that a loop ranging over the sequence
// sees a different element on each iteration.
func elementAt(alts, i *Expr) *Expr {
	switch alts.Kind {
	case kOver:
		if _, ok := i.int64Of(); !ok && i.Kind != kUnknown {
			out := *alts
			out.Tr = i
			return out.sized()
		}
	case kChoice:
		out := make([]*Expr, len(alts.Args))
		for k, a := range alts.Args {
			out[k] = elementAt(a, i)
		}
		return choice(out...)
	case kField:
		if inner := elementAt(alts.Args[0], i); inner != alts.Args[0] {
			return field(inner, alts.N) // a field of the element read (a record's array)
		}
	}
	return alts
}

// index is element i of x.
func index(x, i *Expr) *Expr {
	switch x.Kind {
	case kSeq:
		if k, ok := i.int64Of(); ok && k >= 0 && int(k)+1 < len(x.Args) && x.Args[k+1] != nil {
			return x.Args[k+1]
		}
		if len(x.Args) == 1 {
			if x.Tr != nil {
				return elementAt(x.Tr, i) // each element is one of these
			}
			return unknown
		}
		elems := x.Args[1:]
		if !allKnown(elems) {
			return unknown
		}
		if i.Kind == kConst {
			return unknown // an index past the known elements
		}
		return node(kIndex, x, i)
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = index(a, i)
		}
		return choice(alts...)
	case kUnknown:
		return unknown
	}
	return node(kIndex, x, i)
}

// allKnown reports whether no element of es is nil or Unknown.
func allKnown(es []*Expr) bool {
	for _, e := range es {
		if e == nil || e.Kind == kUnknown {
			return false
		}
	}
	return true
}

// elements returns the possible elements of the sequence x (nil when not
// all are known).
func elements(x *Expr) []*Expr {
	switch x.Kind {
	case kSeq:
		if len(x.Args) > 1 && allKnown(x.Args[1:]) {
			return x.Args[1:]
		}
		if len(x.Args) == 1 && x.Tr != nil {
			return []*Expr{x.Tr}
		}
	case kChoice:
		var out []*Expr
		for _, a := range x.Args {
			es := elements(a)
			if es == nil {
				return nil
			}
			out = append(out, es...)
		}
		return out
	}
	return nil
}

// fresh is a new value each time site runs.
func fresh(site any) *Expr {
	e := node(kFresh)
	e.Site = site
	return e
}

// array is a jit.Array made by the operation name (at site) from the
// operands args, of the given dims (nil: rank not known), traced when tr is.
func array(name string, site any, args []*Expr, dims []*Expr, tr *Expr) *Expr {
	e := node(kArray, args...)
	if e.Kind != kArray {
		return unknown
	}
	e.N = len(dims)
	if dims == nil {
		e.N = -1
	}
	for _, d := range dims {
		if d != nil && d.depth >= e.depth {
			e.depth = d.depth + 1
		}
	}
	e.Name, e.Site, e.Tr, e.Dims = name, site, tr, dims
	return e
}

// mentions reports whether e mentions an atom for which pred holds,
// looking through environments.
func (e *Expr) mentions(pred func(*Expr) bool) bool {
	seen := map[*Expr]bool{}
	var walk func(*Expr) bool
	walk = func(x *Expr) bool {
		if x == nil || seen[x] {
			return false
		}
		seen[x] = true
		if pred(x) {
			return true
		}
		for _, a := range x.Args {
			if walk(a) {
				return true
			}
		}
		if x.Tr != nil && walk(x.Tr) {
			return true
		}
		if x.Env != nil {
			for _, b := range x.Env.Params {
				if walk(b) {
					return true
				}
			}
			for _, b := range x.Env.Frees {
				if walk(b) {
					return true
				}
			}
		}
		return false
	}
	return walk(e)
}

func constOfString(s string) *Expr { return constOf(constant.MakeString(s)) }

// walk calls visit for e and the nodes below it (through environments),
// each once; visit returns false to skip a node's operands.
func (e *Expr) walk(visit func(*Expr) bool) {
	seen := map[*Expr]bool{}
	var rec func(*Expr)
	rec = func(x *Expr) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		if !visit(x) {
			return
		}
		for _, a := range x.Args {
			rec(a)
		}
		rec(x.Tr)
		if x.Env != nil {
			for _, b := range x.Env.Params {
				rec(b)
			}
			for _, b := range x.Env.Frees {
				rec(b)
			}
		}
	}
	rec(e)
}
