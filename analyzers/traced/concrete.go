package traced

import "go/ast"

// Omnistaging: inside a trace the runtime stages every jit operation, also
// on concrete, captured or global arrays, so their results are traced
// values; only the constructors below build concrete arrays there (checked
// against the runtime by TestRuntimeSemantics).

// concreteConstructors are the jit functions that build a concrete array
// even inside a trace, given the number of arguments up to which they do
// (Full, Zeros and Ones stage a broadcast when given a shape).
var concreteConstructors = map[string]int{"Scalar": 1, "FromSlice": 2, "Full": 2, "Zeros": 1, "Ones": 1}

// concreteCall reports whether a call of the jit function name gives a
// concrete array inside a trace.
func concreteCall(name string, call *ast.CallExpr) bool {
	n, ok := concreteConstructors[name]
	if !ok {
		return false
	}
	if name == "FromSlice" {
		return true // data and shape: a constant buffer
	}
	return len(call.Args) <= n && !call.Ellipsis.IsValid()
}
