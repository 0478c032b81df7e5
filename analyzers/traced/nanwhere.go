package traced

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// NaN gradients of jit.Where: reverse mode differentiates both branches of
// a Where at every element and multiplies the unchosen one's derivative
// by zero, so a branch that applies an operation with an infinite
// derivative to the value the predicate tests (Sqrt, Log of what is
// tested for > 0; a division by what is tested for == 0) gives 0 × ∞ =
// NaN there. Which Wheres are differentiated, and what their branches and
// predicates are made of, are asked of the contexts under jit.Grad and
// jit.ValueAndGrad.

// singularOps are the operations whose derivative is infinite (or
// undefined) at values a predicate typically excludes, with why.
var singularOps = map[string]string{
	"Sqrt":  "the derivative of Sqrt is infinite at 0",
	"Rsqrt": "the derivative of Rsqrt is infinite at 0",
	"Log":   "the derivative of Log is infinite at 0",
	"Log1p": "the derivative of Log1p is infinite at -1",
	"Pow":   "the derivative of a fractional power is infinite at 0",
	"Div":   "the derivative of a division is infinite where the divisor is 0",
}

var comparisonOps = map[string]bool{"Gt": true, "Ge": true, "Lt": true, "Le": true, "Eq": true, "Ne": true}

// A NaNWhere is a differentiated jit.Where whose branch Branch (1: chosen
// where the predicate holds, 2: where it does not) applies a singular
// operation to a value its predicate tests.
type NaNWhere struct {
	Call   *ast.CallExpr
	Branch int
	// Op is the singular operation's call (nil when not known), Why why
	// it is singular, Operand what it is applied to.
	Op      *ast.CallExpr
	Why     string
	Operand ast.Expr
	// Grad is the jit.Grad or ValueAndGrad call, API its name, Func the
	// name of the function it differentiates; Through is set when the
	// Where is in another function, that the differentiated one calls.
	Grad    *ast.CallExpr
	API     string
	Func    string
	Through bool
}

// NaNWheres returns the differentiated Wheres of the package whose
// gradient is NaN where their predicate excludes values, in source order.
func (r *Result) NaNWheres() []NaNWhere {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []NaNWhere
	seen := map[token.Pos]bool{}
	r.jitCallsUnder([]string{"Grad", "ValueAndGrad"}, func(c *Context, g *Expr, name string, call ssa.CallInstruction, b *ssa.BasicBlock) {
		if name != "Where" || len(call.Common().Args) != 3 {
			return
		}
		expr := r.callAt(call)
		if expr == nil || seen[expr.Pos()] {
			return
		}
		com := call.Common()
		subjects := testedBy(unwrapIface(c.value(com.Args[0], b)))
		for k := 1; k <= 2; k++ {
			op, why := singularUse(unwrapIface(c.value(com.Args[k], b)), subjects)
			if op == nil {
				continue
			}
			seen[expr.Pos()] = true
			nw := NaNWhere{Call: expr, Branch: k, Why: why, API: g.Name, Func: transformedName(g), Through: !transforms(g, c.Fn)}
			if site, ok := g.Site.(ssa.CallInstruction); ok {
				nw.Grad = r.callAt(site)
			}
			if site, ok := op.Site.(ssa.CallInstruction); ok {
				nw.Op = r.callAt(site)
				nw.Operand = operandOf(nw.Op, op.Name)
			}
			out = append(out, nw)
			break
		}
	})
	sortByPos(out, func(n NaNWhere) token.Pos { return n.Call.Pos() })
	return out
}

// testedBy returns the arrays a predicate compares (both sides of each
// comparison, through And and Or), Go numbers left out.
func testedBy(pred *Expr) map[string]bool {
	out := map[string]bool{}
	for _, p := range alternatives(pred) {
		if p.Kind != kArray {
			continue
		}
		switch {
		case comparisonOps[p.Name]:
			for _, a := range p.Args {
				if a = unwrapIface(a); a.Kind != kConst {
					out[a.String()] = true
				}
			}
		case p.Name == "And" || p.Name == "Or":
			for _, a := range p.Args {
				for s := range testedBy(a) {
					out[s] = true
				}
			}
		}
	}
	return out
}

// singularUse finds in a branch a singular operation whose operand is at
// its singular point where the predicate excludes values (the tested value
// itself, or a value that is zero wherever a tested one is: |w|, y/μ) and
// through which the gradient flows (not below a nested Where, which guards
// it); it returns the operation and why it is singular.
func singularUse(branch *Expr, subjects map[string]bool) (op *Expr, why string) {
	if len(subjects) == 0 {
		return nil, ""
	}
	branch.walk(func(a *Expr) bool {
		if op != nil || a.Kind == kShape || a.Kind == kTracer {
			return false
		}
		if a.Kind != kArray {
			return true
		}
		if a.Name == "Where" {
			return false
		}
		reason, ok := singularOps[a.Name]
		if !ok || len(a.Args) == 0 {
			return true
		}
		target := unwrapIface(a.Args[0])
		flows := differentiated(target)
		switch a.Name {
		case "Div":
			if len(a.Args) < 2 {
				return true
			}
			// x/y: both ∂/∂x = 1/y and ∂/∂y = -x/y² are infinite where y is 0.
			target = unwrapIface(a.Args[1])
			flows = flows || differentiated(target)
		case "Pow":
			if len(a.Args) < 2 || !singularPower(a.Args[1]) {
				return true
			}
		}
		excluded := subjects[target.String()]
		if !excluded && a.Name != "Log1p" {
			excluded = zeroWith(target, subjects)
		}
		if excluded && flows {
			op, why = a, reason
			return false
		}
		return true
	})
	return op, why
}

// zeroWith reports whether x is zero wherever one of the tested values is:
// it is one, or its absolute value, negation or square, or a product with
// one as a factor, or a quotient with one as the dividend.
func zeroWith(x *Expr, subjects map[string]bool) bool {
	x = unwrapIface(x)
	if subjects[x.String()] {
		return true
	}
	if x.Kind != kArray || len(x.Args) == 0 {
		return false
	}
	switch x.Name {
	case "Abs", "Neg", "Square":
		return zeroWith(x.Args[0], subjects)
	case "Mul":
		return len(x.Args) == 2 && (zeroWith(x.Args[0], subjects) || zeroWith(x.Args[1], subjects))
	case "Div":
		return zeroWith(x.Args[0], subjects)
	}
	return false
}

// differentiated reports whether x depends on an argument that a Grad
// differentiates.
func differentiated(x *Expr) bool {
	return x.mentions(func(a *Expr) bool { return a.Kind == kInput && strings.Contains(a.Name, "diff") })
}

// singularPower reports whether e is a constant power whose derivative is
// infinite at 0: p·x^(p-1) with p a fraction below 1 (x^0.5; x^1.5 has
// slope 0 there).
func singularPower(e *Expr) bool {
	if e.Kind == kIface && len(e.Args) == 1 {
		e = e.Args[0]
	}
	v, ok := e.isConst()
	if !ok {
		return false
	}
	f, _ := constant.Float64Val(constant.ToFloat(v))
	return f != float64(int64(f)) && f < 1
}

// transforms reports whether the transformation t is applied to fn itself.
func transforms(t *Expr, fn *ssa.Function) bool {
	for _, f := range alternatives(t.Args[0]) {
		if f.Kind == kFunc && f.Fn == fn {
			return true
		}
	}
	return false
}

// operandOf is the syntax of what the singular call applies to: the
// receiver, or a division's divisor (nil when the call is not a method call).
func operandOf(call *ast.CallExpr, name string) ast.Expr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if name == "Div" {
		if len(call.Args) == 0 {
			return nil
		}
		return call.Args[0]
	}
	return sel.X
}
