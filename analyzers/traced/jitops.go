package traced

import (
	"go/types"
	"strings"

	"github.com/jitlint/jitlint/internal/jitapi"

	"golang.org/x/tools/go/ssa"
)

// What calls of the jit API give: arrays with their shapes (shapes.go),
// static properties, host values, wrappers, transformations and options.

// jitName returns the name of a function of the jit package ("Zeros",
// "Jit"), of an Array method ("Array.Sin") or a Func method ("Func.Trace"),
// or "".
func jitName(fn *ssa.Function) string {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || !jitapi.IsJitPath(obj.Pkg().Path()) {
		return ""
	}
	obj = obj.Origin()
	recv := obj.Signature().Recv()
	if recv == nil {
		return obj.Name()
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name() + "." + obj.Name()
	}
	return ""
}

// arrayMethod returns the method name of an Array method's jit name.
func arrayMethod(name string) (string, bool) {
	if len(name) > 6 && name[:6] == "Array." {
		return name[6:], true
	}
	return "", false
}

// jitCall is the result of a call of the jit API.
func (f *flow) jitCall(name string, fn *ssa.Function, args []*Expr, mode *Expr, site any) *Expr {
	if m, ok := arrayMethod(name); ok && len(args) > 0 {
		x := args[0]
		switch {
		case m == "Shape":
			return shapeOf(x)
		case m == "Ndim":
			return length(shapeOf(x)) // the rank, once the dims are known
		case m == "Size":
			return sizeOf(x, site)
		case m == "IsTracer":
			return tracerOf(x)
		case m == "BlockUntilReady":
			return x
		case strings.HasPrefix(jitapi.HostConversionType(m), "[]"):
			return seqAny(sizeOf(x, site), []*Expr{fresh(site)}) // the data, as many elements as the array has
		case jitapi.HostConversionType(m) != "":
			return fresh(site) // the data
		case jitapi.StagingMethod(m):
			return f.arrayOp(m, site, args, mode)
		}
		return unknown
	}
	switch {
	case jitapi.StagingFunc(name) && name != "Cond" && name != "Switch" && name != "Scan" && name != "ScanN" && name != "ForiLoop" && name != "WhileLoop" && name != "DebugPrint":
		return f.arrayOp(name, site, args, mode)
	case name == "Jit":
		e := node(kWrapper, args...)
		e.Site = site
		return e
	case name == "Vmap" || name == "Grad" || name == "ValueAndGrad":
		e := node(kTransform, args...)
		e.Site, e.Name = site, name
		return e
	case name == "StaticArgnums" || name == "InAxes" || name == "OutAxes" || name == "Argnums" || name == "Name" || name == "Backend" || name == "Reverse" || name == "Unroll":
		e := node(kOption, args...)
		e.Name = name
		return e
	case name == "Cond":
		if len(args) == 4 {
			return carried(choice(f.apply(args[1], args[3:], exprTrue, site), f.apply(args[2], args[3:], exprTrue, site)), mode)
		}
	case name == "Switch":
		if len(args) == 3 {
			var alts []*Expr
			for _, br := range elements(args[1]) {
				alts = append(alts, f.apply(br, args[2:], exprTrue, site))
			}
			return carried(choice(alts...), mode)
		}
	case name == "WhileLoop":
		if len(args) == 3 {
			return carried(args[2], mode)
		}
	case name == "ForiLoop":
		if len(args) == 4 {
			return carried(args[3], mode)
		}
	case name == "Scan" || name == "ScanN":
		if len(args) >= 2 {
			return node(kTuple, carried(args[1], mode), array(name, site, nil, nil, mode))
		}
	}
	return unknown
}

// carried is what a control-flow primitive returns: values of the shapes
// its body gives, traced in the caller's mode.
func carried(x *Expr, mode *Expr) *Expr {
	switch x.Kind {
	case kArray:
		out := *x
		out.Tr = mode
		return &out
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = carried(a, mode)
		}
		return choice(alts...)
	case kTuple, kStruct:
		out := *x
		out.Args = make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			if a != nil {
				out.Args[k] = carried(a, mode)
			}
		}
		return &out
	}
	return x
}

// jittedCall is the result of calling a jitted function: what the
// function returns for these arguments, traced in the caller's mode (a
// jitted call in eager code gives concrete arrays).
func (f *flow) jittedCall(w *Expr, args []*Expr, mode *Expr, site any) *Expr {
	if w.Kind != kWrapper || len(w.Args) == 0 {
		return fresh(site)
	}
	return carried(f.apply(w.Args[0], args, exprTrue, site), mode)
}

// transformed is the result of calling a function made by jit.Vmap, Grad
// or ValueAndGrad, traced in the caller's mode: a gradient has the
// structure and dims of the argument it differentiates (the first, or the
// one Argnums names), a value of ValueAndGrad is a scalar; the shapes of
// Vmap's results are not followed.
func (f *flow) transformed(t *Expr, args []*Expr, mode *Expr, site any) *Expr {
	if t.Name == "Vmap" {
		return array(t.Name, site, args, nil, mode)
	}
	grad := array(t.Name, site, args, nil, mode)
	argnum := int64(0)
	if nums := options(t)["Argnums"]; len(nums) == 1 {
		argnum, _ = nums[0].int64Of()
	} else if len(nums) > 1 {
		argnum = -1
	}
	if argnum >= 0 && int(argnum) < len(args) {
		grad = carried(args[argnum], mode)
	}
	if t.Name == "ValueAndGrad" {
		return node(kTuple, array(t.Name, site, args, []*Expr{}, mode), grad)
	}
	return grad
}

// tracerOf is whether x is a tracer.
func tracerOf(x *Expr) *Expr {
	switch x.Kind {
	case kArray, kInput:
		if x.Tr != nil {
			return x.Tr
		}
	case kChoice:
		alts := make([]*Expr, len(x.Args))
		for k, a := range x.Args {
			alts[k] = tracerOf(a)
		}
		return choice(alts...)
	case kSelect:
		return sel(x.Args[0], tracerOf(x.Args[1]), tracerOf(x.Args[2]))
	case kUnknown:
		return unknown
	}
	return node(kTracer, x)
}
