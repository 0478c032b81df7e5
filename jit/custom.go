package jit

import "github.com/jitlint/jitlint/jit/ir"

// customJVP is a function with a derivative rule of its own, as JAX's
// jax.custom_jvp. Traced, it stages one custom_jvp_call equation whose
// call_jaxpr is its body: Grad differentiates that equation with the rule,
// never through the body; Vmap batches the body and keeps the rule; the
// backends run the body inlined (ir.Lowerable). On concrete arrays outside
// any trace it runs the body, as JAX does.
type customJVP struct {
	name string // JAX's name of the function, printed as name=
	body func(args []Array) Array
	rule *customRule
}

// customRule is the derivative rule of a customJVP (the jvp parameter of
// its custom_jvp_call), in reverse mode: vjp stages, after the primal
// outputs out, the residuals that the derivative with respect to the primal
// inputs in needs (act marks the differentiated ones), and returns the map
// from the outputs' cotangents to the inputs' (nil where zero).
type customRule struct {
	name string // JAX's name of the rule function, printed as jvp=
	vjp  func(in, out []Array, act []bool) backward
}

// RuleName is the rule's name, as jaxprs print it (ir.JVPRule).
func (r *customRule) RuleName() string { return r.name }

// call applies f to args.
func (f *customJVP) call(args ...Array) Array {
	if traceOf(args) == nil {
		return f.body(args)
	}
	s := traceSub("custom_jvp", f.name, avalsOf(args), func(in []Array) []Array { return []Array{f.body(in)} })
	return stageCustom(f.name, f.rule, s, args, 0)[0]
}

// stageCustom binds a custom_jvp_call of the traced body s on args (whose
// first argConsts are values an earlier body captured), the values s
// captured passed first.
func stageCustom(name string, rule ir.JVPRule, s sub, args []Array, argConsts int) []Array {
	captured := unifyConsts([]sub{s})
	params := ir.Params{"name": name, "call_jaxpr": closed(s.jaxpr), "jvp": rule,
		"num_consts": len(captured) + argConsts, "symbolic_zeros": false}
	return bind(ir.CustomJVPCall, params, s.jaxpr.OutAvals(), append(captured, args...)...)
}

// customVJP is the reverse-mode rule of a custom_jvp_call equation e: its
// rule applied to the operands after the captured values (which get no
// cotangent).
func customVJP(e *ir.Eqn, in, outs []Array, act []bool) backward {
	rule, ok := e.Params["jvp"].(*customRule)
	if !ok {
		throw(BadArgument, "Grad: custom_jvp_call %v has no derivative rule that Grad can run (its jvp parameter is a %T); "+
			"only the functions of package jit stage custom_jvp_call with one", e.Params["name"], e.Params["jvp"])
	}
	n, _ := e.Params["num_consts"].(int)
	back := rule.vjp(in[n:], outs, act[n:])
	return func(ct []Array) []Array { return append(make([]Array, n), back(ct)...) }
}

// inJit applies fn to args as a nested jit function named name (the
// `@jax.jit` of a JAX library function): a jit equation when tracing, fn
// itself otherwise.
func inJit(name string, fn func(args []Array) []Array, args []Array) []Array {
	if traceOf(args) == nil {
		return fn(args)
	}
	s := traceSub("jit", name, avalsOf(args), fn)
	captured := unifyConsts([]sub{s})
	return bind(ir.Jit, ir.Params{"name": name, "jaxpr": closed(s.jaxpr)}, s.jaxpr.OutAvals(), append(captured, args...)...)
}
