package traced

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/ssa"
)

// call is the expression of a call's result (a Tuple for several).
func (s *summary) call(c *ssa.CallCommon, instr ssa.CallInstruction, at *ssa.BasicBlock) *Expr {
	args := make([]*Expr, len(c.Args))
	for i, a := range c.Args {
		args[i] = s.operand(a, at)
	}
	if c.IsInvoke() {
		callee := node(kFunc, s.operand(c.Value, at))
		callee.Site = c.Method
		return s.f.apply(callee, args, s.mode(), instr)
	}
	switch fn := c.Value.(type) {
	case *ssa.Builtin:
		return builtin(fn.Name(), args, instr)
	case *ssa.Function:
		if name := jitName(fn); name != "" {
			return s.f.jitCall(name, fn, args, s.mode(), instr)
		}
	}
	return s.f.apply(s.operand(c.Value, at), args, s.mode(), instr)
}

// apply is the result of calling callee with args, in the caller's mode,
// at site: the callee's summary instantiated with the arguments when the
// callee is known, an Apply node when it is an atom (bound later), a
// fresh value when it is not known at all.
func (f *flow) apply(callee *Expr, args []*Expr, mode *Expr, site any) *Expr {
	switch callee.Kind {
	case kFunc:
		switch {
		case callee.Name == "jit.Call":
			return f.jittedCall(callee.Args[0], args, mode, site)
		case callee.Name == lambdaName:
			return carried(f.applyLambda(callee, args), mode)
		case callee.Fn != nil:
			return f.callFunc(callee.Fn, callee.Env, args, mode, site)
		case callee.Site != nil:
			return f.invoke(callee.Site.(*types.Func), callee.Args[0], args, mode, site)
		}
	case kTransform:
		return f.transformed(callee, args, mode, site)
	case kChoice:
		alts := make([]*Expr, len(callee.Args))
		for k, a := range callee.Args {
			alts[k] = f.apply(a, args, mode, site)
		}
		return choice(alts...)
	case kSelect:
		return sel(callee.Args[0], f.apply(callee.Args[1], args, mode, site), f.apply(callee.Args[2], args, mode, site))
	case kParam, kFree, kLoad, kApply, kField, kIndex, kInput:
		e := node(kApply, append([]*Expr{callee}, args...)...)
		e.N, e.Tr, e.Site = -1, mode, site
		return e
	}
	return fresh(site)
}

// maxApplyDepth bounds how many calls are applied inside one another
// while a call's summary is bound to its arguments: a call of a function
// value that, bound, calls another function value, and so on. Each level
// rebuilds the whole result of the level below, so the cost grows with
// the product of the results' sizes.
const maxApplyDepth = 6

// callFunc applies the function fn (its free variables bound by env).
func (f *flow) callFunc(fn *ssa.Function, env *Env, args []*Expr, mode *Expr, site any) *Expr {
	if !f.local(fn) {
		return f.external(fn, args, mode, site)
	}
	s := f.summary(fn)
	var res *Expr
	if n := fn.Signature.Results().Len(); n == 1 {
		res = s.result(0)
	} else {
		outs := make([]*Expr, n)
		for i := range outs {
			outs[i] = s.result(i)
		}
		res = node(kTuple, outs...)
	}
	if f.applying >= maxApplyDepth {
		// A function value that, bound, calls further function values
		// without end (a visitor passing itself on): what the call makes
		// is not followed further.
		return fresh(site)
	}
	f.applying++
	defer func() { f.applying-- }()
	bind := &Env{Fn: fn, Params: args, Mode: mode}
	if env != nil {
		bind.Frees = env.Frees
	}
	return (&substituter{f: f, env: bind, memo: map[*Expr]*Expr{}, freshFn: fn, freshSite: site}).do(res)
}

// invoke calls the interface method m on recv: the methods of the dynamic
// types that reach recv.
func (f *flow) invoke(m *types.Func, recv *Expr, args []*Expr, mode *Expr, site any) *Expr {
	switch recv.Kind {
	case kIface:
		if f.prog.MethodSets.MethodSet(recv.Type).Lookup(m.Pkg(), m.Name()) == nil {
			// A value of a type without m reaches here only on a path
			// that does not run (a type switch's other case, merged).
			return fresh(site)
		}
		fn := f.prog.LookupMethod(recv.Type, m.Pkg(), m.Name())
		if fn == nil {
			return fresh(site)
		}
		return f.callFunc(fn, nil, append([]*Expr{recv.Args[0]}, args...), mode, site)
	case kChoice:
		alts := make([]*Expr, len(recv.Args))
		for k, a := range recv.Args {
			alts[k] = f.invoke(m, a, args, mode, site)
		}
		return choice(alts...)
	case kSelect:
		return sel(recv.Args[0], f.invoke(m, recv.Args[1], args, mode, site), f.invoke(m, recv.Args[2], args, mode, site))
	case kParam, kFree, kLoad, kApply, kField, kIndex, kInput:
		callee := node(kFunc, recv)
		callee.Site = m
		e := node(kApply, append([]*Expr{callee}, args...)...)
		e.N, e.Tr, e.Site = -1, mode, site
		return e
	}
	return fresh(site)
}

// external is the result of a function without a body here: a pure
// function of the standard library computed from its arguments, what
// another package's fact says it returns, or a fresh value (an array
// staged in the caller's mode, for a result that holds arrays).
func (f *flow) external(fn *ssa.Function, args []*Expr, mode *Expr, site any) *Expr {
	if orig := cmp.Or(fn.Origin(), fn); orig.Pkg != nil {
		// An instance of a generic function (slices.Index[[]string]) is
		// its generic function's.
		name := orig.Pkg.Pkg.Path() + "." + orig.Name()
		if pureFuncs[name] != nil {
			return pure(name, args)
		}
		if p := orig.Pkg.Pkg.Path(); pureName(p, orig.Name()) || p == "time" && fn.Signature.Recv() != nil {
			// A pure function, or a method of a time value: its result is
			// made of its arguments (time.Now().Unix() still reads the clock).
			if n := fn.Signature.Results().Len(); n > 1 {
				// strconv.Atoi's value and error: each made of the arguments.
				outs := []*Expr{pure(name, args)}
				for i := 1; i < n; i++ {
					outs = append(outs, pure(fmt.Sprintf("%s#%d", name, i), args))
				}
				return node(kTuple, outs...)
			}
			return pure(name, args)
		}
		if p := orig.Pkg.Pkg.Path(); (p == "math/rand" || p == "math/rand/v2") && strings.HasPrefix(orig.Name(), "New") {
			// A generator: what it is made from decides whether its draws
			// are the same on every run (effects.go).
			e := pure(name, args)
			e.Site = site
			return e
		}
	}
	var known []*Expr
	if fn.Pkg != nil {
		known = f.factResults(fn, args, site)
	}
	results := fn.Signature.Results()
	outs := make([]*Expr, results.Len())
	for i := range outs {
		_, isPtr := results.At(i).Type().Underlying().(*types.Pointer)
		switch {
		case i < len(known) && known[i] != nil:
			outs[i] = carried(known[i], mode)
		case jitapi.ContainsArray(results.At(i).Type()) && !isPtr:
			outs[i] = array("external", site, args, nil, mode)
		default:
			outs[i] = fresh(site) // a value, or an object, the call makes
		}
	}
	if len(outs) == 1 {
		return outs[0]
	}
	return node(kTuple, outs...)
}

// builtin is the result of a call of a Go builtin.
func builtin(name string, args []*Expr, site any) *Expr {
	switch name {
	case "len", "cap":
		if len(args) == 1 {
			return length(args[0])
		}
	case "min", "max":
		return pure(name, args)
	case "append":
		if len(args) == 2 {
			return appendSeq(args[0], args[1])
		}
	case "print", "println", "copy", "clear", "close", "delete", "panic", "recover":
		return unknown
	}
	return fresh(site)
}

// appendSeq is append(s, extra...).
func appendSeq(s, extra *Expr) *Expr {
	n := op(token.ADD, length(s), length(extra))
	var elems []*Expr
	if es := elements(s); es != nil || length(s) == exprZero || isZero(length(s)) {
		if more := elements(extra); more != nil && len(es)+len(more) <= maxElems {
			elems = append(append(elems, es...), more...)
		}
	}
	if elems == nil {
		// Keep what the elements can be, not where.
		if more := elements(extra); more != nil {
			if old := elements(s); old != nil || isZero(length(s)) {
				return seqAny(n, append(old, more...))
			}
			return seqAny(n, append(more, index(s, unknown)))
		}
	}
	return seq(n, elems...)
}

// seqAny is a sequence of length n whose elements are each one of alts.
func seqAny(n *Expr, alts []*Expr) *Expr {
	e := seq(n)
	if c := choice(alts...); c.Kind != kUnknown {
		e.Tr = c
	}
	return e
}

func isZero(e *Expr) bool {
	n, ok := e.int64Of()
	return ok && n == 0
}

// pure applies a pure function (min, max, the math package) to its
// arguments, computing it when they are constants.
func pure(name string, args []*Expr) *Expr {
	for _, a := range args {
		if a == nil || a.Kind == kUnknown {
			return unknown
		}
	}
	if name == "min" || name == "max" {
		var best constant.Value
		var rest []*Expr
		for _, a := range args {
			if v, ok := a.isConst(); ok {
				if best == nil || name == "min" && constant.Compare(v, token.LSS, best) || name == "max" && constant.Compare(v, token.GTR, best) {
					best = v
				}
			} else {
				rest = append(rest, a)
			}
		}
		if len(rest) == 0 {
			return constOf(best)
		}
		if best != nil {
			rest = append(rest, constOf(best))
		}
		if len(rest) == 1 {
			return rest[0]
		}
		e := node(kPure, rest...)
		e.Name = name
		return e
	}
	if r := stringCall(name, args); r != nil {
		return r
	}
	if impl := pureFuncs[name]; impl != nil {
		vals := make([]float64, len(args))
		allConst := true
		for i, a := range args {
			v, ok := a.isConst()
			if !ok {
				allConst = false
				break
			}
			vals[i], _ = constant.Float64Val(constant.ToFloat(v))
		}
		if allConst {
			r := impl(vals)
			if !math.IsNaN(r) && !math.IsInf(r, 0) {
				return constOf(constant.MakeFloat64(r))
			}
		}
	}
	e := node(kPure, args...)
	e.Name = name
	return e
}

// pureFuncs are the pure functions of the standard library that the
// analysis computes (their results depend only on their arguments).
var pureFuncs = map[string]func([]float64) float64{
	"math.Pow":   func(a []float64) float64 { return math.Pow(a[0], a[1]) },
	"math.Min":   func(a []float64) float64 { return math.Min(a[0], a[1]) },
	"math.Max":   func(a []float64) float64 { return math.Max(a[0], a[1]) },
	"math.Floor": func(a []float64) float64 { return math.Floor(a[0]) },
	"math.Ceil":  func(a []float64) float64 { return math.Ceil(a[0]) },
	"math.Trunc": func(a []float64) float64 { return math.Trunc(a[0]) },
	"math.Round": func(a []float64) float64 { return math.Round(a[0]) },
	"math.Sqrt":  func(a []float64) float64 { return math.Sqrt(a[0]) },
	"math.Exp":   func(a []float64) float64 { return math.Exp(a[0]) },
	"math.Log":   func(a []float64) float64 { return math.Log(a[0]) },
	"math.Log2":  func(a []float64) float64 { return math.Log2(a[0]) },
	"math.Abs":   func(a []float64) float64 { return math.Abs(a[0]) },
	"math.Cos":   func(a []float64) float64 { return math.Cos(a[0]) },
	"math.Sin":   func(a []float64) float64 { return math.Sin(a[0]) },
	"math.Tanh":  func(a []float64) float64 { return math.Tanh(a[0]) },
	"math.Mod":   func(a []float64) float64 { return math.Mod(a[0], a[1]) },
}

// pureName reports whether an external function is pure: the math
// package, strings and strconv formatting, fmt.Sprint*; used by the
// effect rules (effects.go).
func pureName(path, name string) bool {
	switch path {
	case "math", "math/bits", "strings", "strconv", "unicode", "unicode/utf8", "sort", "slices", "maps", "errors", "cmp":
		return true
	case "fmt":
		return strings.HasPrefix(name, "Sprint") || name == "Errorf" || name == "Sscan" || name == "Sscanf"
	}
	return false
}
