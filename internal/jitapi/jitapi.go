// Package jitapi is what the tools know of jit's API: its import path, the
// Array and function types, which functions and methods stage operations,
// which give static values or copy values to the host, and the struct tag
// of static fields. The analyzers, the language server and the preview
// builder read jit by these names; none of them links jit. Its test checks
// the tables against the real package, so that a name added to jit fails
// until it is classified here.
package jitapi

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Every exported function of jit
// is in stagingFuncs or nonOps (and maybe tracingEntryPoints), every exported
// Array method in exactly one of staticMethods, hostConversions,
// stagingMethods and nonOpMethods: TestJitAPIClassified checks these tables
// against the real package, so a name added to jit fails the test until it is
// classified here. Names not in the tables (a newer jit) stage nothing.

// JitPath is the import path of the jit package whose API the analyzers know.
const JitPath = "github.com/jitlint/jitlint/jit"

// staticMethods are the Array methods that give static (trace-time known) values.
var staticMethods = map[string]bool{
	"Shape": true, "Dtype": true, "Ndim": true, "Size": true, "WeakType": true, "String": true,
}

// hostConversions maps the Array methods that copy a value to the host to the Go
// type they produce (for messages).
var hostConversions = map[string]string{
	"Bool": "bool", "Item": "float64", "Int": "int",
	"Float32s": "[]float32", "Float64s": "[]float64", "Int32s": "[]int32", "Int64s": "[]int64", "Bools": "[]bool",
}

// stagingFuncs are the jit functions that stage an operation when called
// inside a trace (omnistaging), also on concrete arrays; concreteConstructors
// says which of them still give a concrete array there.
var stagingFuncs = map[string]bool{
	"Arange": true, "Concatenate": true, "Cond": true, "DebugPrint": true, "ForiLoop": true, "FromSlice": true, "Full": true, "Ones": true,
	"PadTo": true, "Relu": true, "Scalar": true, "Scan": true, "ScanN": true, "Softplus": true, "Switch": true, "Where": true,
	"WhileLoop": true, "Zeros": true, "StopGradient": true,
}

// stagingMethods are the Array methods that stage an operation inside a trace.
var stagingMethods = map[string]bool{
	"Abs": true, "Add": true, "And": true, "Astype": true, "Ceil": true, "Cos": true, "Div": true, "Eq": true,
	"Exp": true, "Expm1": true, "Floor": true, "Ge": true, "Gt": true, "Le": true, "Log": true, "Log1p": true,
	"Logistic": true, "Lt": true, "MatMul": true, "Max": true, "MaxReduce": true, "Mean": true, "Min": true, "MinReduce": true,
	"Mul": true, "Ne": true, "Neg": true, "Not": true, "Or": true, "Pow": true, "Reshape": true, "Rsqrt": true,
	"Sign": true, "Sin": true, "Slice": true, "Sqrt": true, "Sub": true, "Sum": true, "Tan": true, "Tanh": true,
	"Transpose": true,
}

// nonOpMethods are the Array methods that neither stage an operation nor
// read a static property or the value.
var nonOpMethods = map[string]bool{"BlockUntilReady": true, "IsTracer": true}

// nonOps are the jit functions that stage no operation: wrappers, options,
// specs and configuration.
var nonOps = map[string]bool{
	"Backend": true, "BackendError": true, "ClearCaches": true, "DefaultBackend": true, "Devices": true, "Jit": true, "MakeJaxpr": true, "Name": true,
	"Reverse": true, "SetEventsFile": true, "SetExplainCacheMisses": true, "SetLogCompiles": true, "SetLogOutput": true, "Spec": true, "StaticArgnums": true, "Unroll": true,
	"Vmap": true, "Grad": true, "ValueAndGrad": true, "InAxes": true, "OutAxes": true, "Argnums": true,
}

// wrapperTracing and wrapperInspecting are the methods of a jit.Func
// wrapper (made by jit.Jit) that trace its function, and those that only
// read its cache; its Call field traces too.
var (
	wrapperTracing    = map[string]bool{"Lower": true, "Trace": true}
	wrapperInspecting = map[string]bool{"Signatures": true, "Stats": true}
)

// WrapperInspects reports whether the jit.Func method name only reads the
// wrapper's cache: a wrapper used only so traces nothing.
func WrapperInspects(name string) bool { return wrapperInspecting[name] }

// tracingEntryPoints are the jit functions whose function arguments are traced.
var tracingEntryPoints = map[string]bool{
	"Jit": true, "MakeJaxpr": true, "Cond": true, "Switch": true,
	"Scan": true, "ScanN": true, "ForiLoop": true, "WhileLoop": true,
	"Vmap": true, "Grad": true, "ValueAndGrad": true,
}

// wrappers are the entry points that take the function first and options
// after it.
var wrappers = map[string]bool{"Jit": true, "MakeJaxpr": true, "Vmap": true, "Grad": true, "ValueAndGrad": true}

// IsJitPath reports whether path is the jit package (possibly vendored).
func IsJitPath(path string) bool {
	return path == JitPath || strings.HasSuffix(path, "/vendor/"+JitPath)
}

// ImportsJit reports whether pkg imports the jit package directly. Only such
// packages can name jit.Array, so the analyzers skip all others.
func ImportsJit(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if IsJitPath(imp.Path()) {
			return true
		}
	}
	return false
}

// IsArray reports whether t is jit.Array.
func IsArray(t types.Type) bool { return isJitType(t, "Array") }

// IsFunc reports whether t is a jitted function, *jit.Func[F] or jit.Func[F].
func IsFunc(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isJitType(t, "Func")
}

// isJitType reports whether t is the named type name of package jit.
func isJitType(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && IsJitPath(obj.Pkg().Path())
}

// ContainsArray reports whether t is jit.Array or a pytree that can hold one:
// a pointer, slice, array or map of such, or a struct with such a field that
// is not tagged `jit:"static"`.
func ContainsArray(t types.Type) bool {
	return containsArray(t, map[types.Type]bool{})
}

func containsArray(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if IsArray(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return containsArray(u.Elem(), seen)
	case *types.Slice:
		return containsArray(u.Elem(), seen)
	case *types.Array:
		return containsArray(u.Elem(), seen)
	case *types.Map:
		return containsArray(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if IsStaticTag(u.Tag(i)) {
				continue
			}
			if containsArray(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if containsArray(u.At(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// IsStaticTag reports whether a struct tag marks a static pytree field (`jit:"static"`).
func IsStaticTag(tag string) bool {
	return reflect.StructTag(tag).Get("jit") == "static"
}

// JitFunc returns the name of the jit package-level function that call calls,
// or "" if it calls something else.
func JitFunc(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || !IsJitPath(fn.Pkg().Path()) {
		return ""
	}
	if fn.Signature().Recv() != nil {
		return ""
	}
	return fn.Name()
}

// concreteConstructors are the jit functions that build a concrete array
// even inside a trace (omnistaging stages every other operation): Scalar
// and FromSlice always, Full, Zeros and Ones when given no shape (with one
// they stage a broadcast). TestRuntimeSemantics checks this against the
// runtime.
var concreteConstructors = map[string]bool{"Scalar": true, "FromSlice": true, "Full": true, "Zeros": true, "Ones": true}

// HostConversionType returns the Go type the Array method m copies a value
// to the host as ("bool" for Bool), or "" if m is no host conversion.
func HostConversionType(m string) string { return hostConversions[m] }

// StagingFunc reports whether the jit function name stages an operation.
func StagingFunc(name string) bool { return stagingFuncs[name] }

// StagingMethod reports whether the Array method name stages an operation.
func StagingMethod(name string) bool { return stagingMethods[name] }

// ConcreteConstructor reports whether the jit function name makes a
// concrete (not traced) Array from host values.
func ConcreteConstructor(name string) bool { return concreteConstructors[name] }
