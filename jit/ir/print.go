package ir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// printWidth is the line width JAX formats jaxprs at.
const printWidth = 80

// String prints the closed jaxpr as JAX 0.10–0.11 prints it
// (print(jax.make_jaxpr(f)(...)) with colour off). Constant values are not
// printed; the constvars appear before the ";" of the header.
func (cj *ClosedJaxpr) String() string {
	return cj.Jaxpr.String()
}

// PrintOptions change how PrettyPrint prints a jaxpr.
type PrintOptions struct {
	// SourceInfo appends "  # file.go:line", the user's call that staged
	// it, to every equation whose source is known (JAX's
	// pretty_print(source_info=True)); every equation then starts a line.
	SourceInfo bool
}

// PrettyPrint prints the closed jaxpr as String does, with the options.
func (cj *ClosedJaxpr) PrettyPrint(o PrintOptions) string {
	return cj.Jaxpr.PrettyPrint(o)
}

// String prints the jaxpr exactly as JAX 0.10–0.11 prints it: width-80
// layout, variables named a…z, ba, bb… in print order across nested
// jaxprs, "_" for unused outputs of top-level equations, typed literals,
// parameters sorted by key (with JAX's per-primitive rules), and
// sub-jaxprs that are referenced more than once or have more than ten
// equations hoisted to the top as "let <name> = { … } in".
func (j *Jaxpr) String() string {
	return j.PrettyPrint(PrintOptions{})
}

// PrettyPrint prints the jaxpr as String does, with the options.
func (j *Jaxpr) PrettyPrint(o PrintOptions) string {
	p := newPrinter(j)
	p.sourceInfo = o.SourceInfo
	docs := make([]doc, 0, len(p.sharedOrder)+1)
	for _, sj := range p.sharedOrder {
		name := p.shared[sj]
		docs = append(docs, concat(text("let "+name+" = "), p.skeleton(sj), text(" in"), space()))
	}
	docs = append(docs, p.jaxprDoc(j))
	return layout(concat(docs...), printWidth)
}

// printer holds the naming state of one print: names are unique across the
// whole printed text, including nested and hoisted jaxprs.
type printer struct {
	names       map[*Var]string
	next        int
	shared      map[*Jaxpr]string
	sharedNames map[string]bool
	sharedOrder []*Jaxpr
	sourceInfo  bool
}

// newPrinter prepares printing top: it marks unused outputs of top's
// equations as "_" and chooses the hoisted sub-jaxprs and their names
// (JAX's pp_toplevel_jaxpr).
func newPrinter(top *Jaxpr) *printer {
	p := &printer{
		names:       map[*Var]string{},
		shared:      map[*Jaxpr]string{},
		sharedNames: map[string]bool{},
	}
	p.markDropped(top)
	p.chooseShared(top)
	return p
}

// markDropped names "_" every output of a top-level equation that no later
// equation and no output reads.
func (p *printer) markDropped(j *Jaxpr) {
	used := map[*Var]bool{}
	for _, a := range j.Outvars {
		if v, ok := a.(*Var); ok {
			used[v] = true
		}
	}
	for i := len(j.Eqns) - 1; i >= 0; i-- {
		e := j.Eqns[i]
		for _, v := range e.Out {
			if !used[v] {
				p.names[v] = "_"
			}
		}
		for _, a := range e.In {
			if v, ok := a.(*Var); ok {
				used[v] = true
			}
		}
	}
}

// chooseShared walks the sub-jaxprs breadth first, counting visits (a
// sub-jaxpr with more than ten equations counts twice), and hoists those
// visited more than once. A hoisted jaxpr is named after the name parameter
// of the first equation that references it ("<lambda>" gives "lambda"),
// "jaxpr" when it has none; repeated names get 1, 2, … suffixes.
func (p *printer) chooseShared(top *Jaxpr) {
	counts := map[*Jaxpr]int{}
	var order []*Jaxpr
	names := map[*Jaxpr]string{}
	queue := []*Jaxpr{top}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		if counts[j] == 0 {
			order = append(order, j)
		}
		counts[j]++
		if j != top && len(j.Eqns) > 10 {
			counts[j]++
		}
		for _, e := range j.Eqns {
			subs := subJaxprs(e)
			queue = append(queue, subs...)
			name, ok := e.Params["name"].(string)
			if !ok {
				continue
			}
			name = strings.Trim(name, "<>")
			for _, s := range subs {
				if _, seen := names[s]; !seen {
					names[s] = name
				}
			}
		}
	}
	nameCounts := map[string]int{}
	for _, j := range order {
		if counts[j] == 1 {
			continue
		}
		name, ok := names[j]
		if !ok {
			name = "jaxpr"
		}
		if c := nameCounts[name]; c > 0 {
			nameCounts[name]++
			name += strconv.Itoa(c)
		}
		nameCounts[name]++
		p.sharedNames[name] = true
		p.shared[j] = name
		p.sharedOrder = append(p.sharedOrder, j)
	}
}

// subJaxprs returns the jaxprs in an equation's parameters, in the order JAX
// binds them (keys sorted, except that while binds cond_jaxpr before
// body_jaxpr).
func subJaxprs(e *Eqn) []*Jaxpr {
	keys := sortedKeys(e.Params)
	if e.Prim == While {
		slices.SortStableFunc(keys, func(a, b string) int {
			return whileKeyRank(a) - whileKeyRank(b)
		})
	}
	var out []*Jaxpr
	for _, k := range keys {
		switch v := e.Params[k].(type) {
		case *ClosedJaxpr:
			out = append(out, v.Jaxpr)
		case []*ClosedJaxpr:
			for _, cj := range v {
				out = append(out, cj.Jaxpr)
			}
		}
	}
	return out
}

// whileKeyRank orders while's parameters as lax.while_loop binds them.
func whileKeyRank(k string) int {
	switch k {
	case "cond_nconsts":
		return 0
	case "cond_jaxpr":
		return 1
	case "body_nconsts":
		return 2
	case "body_jaxpr":
		return 3
	}
	return 4
}

// sortedKeys returns the parameter names in sorted order.
func sortedKeys(ps Params) []string {
	keys := make([]string, 0, len(ps))
	for k := range ps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// name returns v's printed name, assigning the next free one (a…z, ba, …,
// skipping hoisted jaxprs' names) on first use.
func (p *printer) name(v *Var) string {
	if n, ok := p.names[v]; ok {
		return n
	}
	for {
		n := alphaName(p.next)
		p.next++
		if !p.sharedNames[n] {
			p.names[v] = n
			return n
		}
	}
}

// alphaName encodes n in base 26 with digits a…z: a, …, z, ba, bb, ….
func alphaName(n int) string {
	var b []byte
	for len(b) == 0 || n > 0 {
		b = append(b, byte('a'+n%26))
		n /= 26
	}
	slices.Reverse(b)
	return string(b)
}

// atom prints an operand or output: a variable's name or a typed literal.
func (p *printer) atom(a Atom) string {
	switch t := a.(type) {
	case *Var:
		return p.name(t)
	case Literal:
		return t.String()
	case *Literal:
		return t.String()
	}
	return "?"
}

// vars lays out a list of variables or atoms: each separator is its own
// group, so the list wraps only where it reaches the line width.
func (p *printer) vars(items []doc, sep string) doc {
	return nest(2, group(joinDocs(concat(text(sep), group(space())), items)))
}

// binders prints variables with their types (a:f32[4]).
func (p *printer) binders(vs []*Var) doc {
	items := make([]doc, len(vs))
	for i, v := range vs {
		items[i] = text(p.name(v) + ":" + v.Aval.String())
	}
	return p.vars(items, "")
}

// atoms prints operands or outputs by name.
func (p *printer) atoms(as []Atom, sep string) doc {
	items := make([]doc, len(as))
	for i, a := range as {
		items[i] = text(p.atom(a))
	}
	return p.vars(items, sep)
}

// jaxprDoc prints a nested jaxpr, or its name when it is hoisted.
func (p *printer) jaxprDoc(j *Jaxpr) doc {
	if name, ok := p.shared[j]; ok {
		return text(name)
	}
	return p.skeleton(j)
}

// skeleton lays out { lambda consts ; ins . let eqns in (outs) }.
func (p *printer) skeleton(j *Jaxpr) doc {
	consts := p.binders(j.Constvars)
	ins := p.binders(j.Invars)
	eqns := make([]doc, len(j.Eqns))
	for i, e := range j.Eqns {
		eqns[i] = p.eqn(e)
	}
	close := ")"
	if len(j.Outvars) == 1 {
		close = ",)"
	}
	outs := concat(text("("), p.atoms(j.Outvars, ","), text(close))
	return concat(group(nest(2, concat(
		text("{ lambda "), consts, text("; "), ins, text(". let"),
		nest(2, concat(space(), joinDocs(brk("; "), eqns))),
		space(), text("in "), outs,
	))), text(" }"))
}

// eqn lays out outs = prim[params] ins.
func (p *printer) eqn(e *Eqn) doc {
	keys := p.printedParams(e)
	outs := p.binders(e.Out)
	params := p.params(e, keys)
	ins := concat(text(" "), p.atoms(e.In, ""))
	src := nilDoc()
	if p.sourceInfo && e.Source != nil {
		src = comment("  # " + e.Source.Short())
	}
	if len(e.Out) == 0 {
		return concat(text(e.Prim), params, ins, src)
	}
	return concat(outs, text(" = "), text(e.Prim), params, ins, src)
}

// params lays out [k=v k=v …], breaking one per line when it does not fit.
func (p *printer) params(e *Eqn, keys []string) doc {
	if len(keys) == 0 {
		return nilDoc()
	}
	kvs := make([]doc, len(keys))
	for i, k := range keys {
		kvs[i] = concat(text(k+"="), p.value(e, k))
	}
	return group(concat(
		nest(2, concat(text("["), brk(""), joinDocs(space(), kvs))),
		brk(""), text("]"),
	))
}

// value prints one parameter value as JAX's str() shows it.
func (p *printer) value(e *Eqn, key string) doc {
	v := e.Params[key]
	switch t := v.(type) {
	case *ClosedJaxpr:
		return p.jaxprDoc(t.Jaxpr)
	case []*ClosedJaxpr:
		js := make([]doc, len(t))
		for i, cj := range t {
			js[i] = p.jaxprDoc(cj.Jaxpr)
		}
		return group(concat(
			nest(2, concat(text("("), brk(""), joinDocs(space(), js))),
			brk(""), text(")"),
		))
	case DotDims:
		// dot_general's rule prints dimension numbers as lists.
		return text("((" + pyList(t.LhsContract) + ", " + pyList(t.RhsContract) + "), (" +
			pyList(t.LhsBatch) + ", " + pyList(t.RhsBatch) + "))")
	}
	return text(pyStr(v))
}

// accuracyPrims have an accuracy parameter that JAX hides when it is None.
var accuracyPrims = map[string]bool{
	Exp: true, Log: true, Expm1: true, Log1p: true, Tanh: true, Logistic: true,
	Sin: true, Cos: true, Tan: true, Sqrt: true, Rsqrt: true,
}

// jitTrivialParams are jit parameters that JAX's rule hides when trivial.
var jitTrivialParams = []string{
	"donated_invars", "in_shardings", "out_shardings", "in_layouts", "out_layouts",
	"keep_unused", "ctx_mesh", "compiler_options_kvs",
}

// printedParams returns the keys of the parameters JAX prints for e, in
// print order, applying JAX's per-primitive printing rules. For a jit
// equation whose jaxpr is not hoisted it also makes the inner jaxpr's inputs
// and outputs reuse the names of the equation's operands and results.
func (p *printer) printedParams(e *Eqn) []string {
	drop := map[string]bool{}
	switch {
	case accuracyPrims[e.Prim]:
		drop["accuracy"] = e.Params["accuracy"] == nil
	case e.Prim == Mul:
		drop["out_dtype"] = e.Params["out_dtype"] == nil
	case e.Prim == ConvertElementType:
		drop["sharding"] = true
	case e.Prim == BroadcastInDim:
		drop["shape"], drop["sharding"] = true, true
		drop["broadcast_dimensions"] = isEmpty(e.Params["broadcast_dimensions"])
	case e.Prim == DotGeneral:
		for k, v := range e.Params {
			drop[k] = v == nil
		}
		drop["out_sharding"] = true
	case e.Prim == CustomJVPCall:
		drop["name"] = true
		drop["num_consts"] = isEmpty(e.Params["num_consts"])
	case e.Prim == Jit:
		drop["inline"], drop["name"] = true, true
		for _, k := range jitTrivialParams {
			drop[k] = isEmpty(e.Params[k])
		}
		if cj, ok := e.Params["jaxpr"].(*ClosedJaxpr); ok {
			if _, hoisted := p.shared[cj.Jaxpr]; !hoisted {
				p.alias(varAtoms(cj.Jaxpr.Invars), e.In)
				p.alias(cj.Jaxpr.Outvars, varAtoms(e.Out))
			}
		}
	}
	var keys []string
	if _, ok := e.Params["name"]; ok && (e.Prim == Jit || e.Prim == CustomJVPCall) {
		keys = append(keys, "name")
	}
	for _, k := range sortedKeys(e.Params) {
		if !drop[k] {
			keys = append(keys, k)
		}
	}
	return keys
}

// varAtoms converts variables to atoms.
func varAtoms(vs []*Var) []Atom {
	out := make([]Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// alias gives each not-yet-named variable in inner the name of the variable
// at the same position in outer (JAX's suggest_same_var_names); an outer
// variable lends its name only once.
func (p *printer) alias(inner, outer []Atom) {
	if len(inner) != len(outer) {
		return
	}
	lent := map[*Var]bool{}
	for i, a := range inner {
		ov, ok := outer[i].(*Var)
		in, isVar := a.(*Var)
		if !ok || !isVar || lent[ov] {
			continue
		}
		if _, named := p.names[in]; named {
			continue
		}
		lent[ov] = true
		p.names[in] = p.name(ov)
	}
}

// isEmpty reports whether a parameter value is trivial: nil, false, zero or
// an empty list.
func isEmpty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case bool:
		return !t
	case int:
		return t == 0
	case []int:
		return len(t) == 0
	case []bool:
		return !slices.Contains(t, true)
	case string:
		return t == ""
	}
	return false
}

// pyStr prints a parameter value as Python's str() prints the value JAX
// stores: tuples for []int, True/False, None, numpy dtype names.
func pyStr(v any) string {
	switch t := v.(type) {
	case nil:
		return "None"
	case bool:
		if t {
			return "True"
		}
		return "False"
	case int:
		return strconv.Itoa(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case float64:
		return PyFloatRepr(t)
	case string:
		return t
	case DType:
		return t.Name()
	case []int:
		return pyTuple(t)
	case []bool:
		items := make([]string, len(t))
		for i, b := range t {
			items[i] = pyStr(b)
		}
		return pySeq("(", items, ")", true)
	case [][3]int:
		items := make([]string, len(t))
		for i, c := range t {
			items[i] = pyTuple(c[:])
		}
		return pySeq("(", items, ")", true)
	case JVPRule:
		return t.RuleName()
	}
	return fmt.Sprint(v)
}

// pyTuple prints ints as a Python tuple: (), (0,), (1, 2).
func pyTuple(xs []int) string { return pySeq("(", intStrs(xs), ")", true) }

// pyList prints ints as a Python list: [], [0], [1, 2].
func pyList(xs []int) string { return pySeq("[", intStrs(xs), "]", false) }

// intStrs formats each int in decimal.
func intStrs(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Itoa(x)
	}
	return out
}

// pySeq joins items with ", " between open and close; a one-item tuple gets
// Python's trailing comma.
func pySeq(open string, items []string, close string, tuple bool) string {
	s := open + strings.Join(items, ", ")
	if tuple && len(items) == 1 {
		s += ","
	}
	return s + close
}
