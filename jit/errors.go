package jit

import (
	"fmt"
	"runtime"
	"strings"
)

// ErrorKind classifies an *Error.
type ErrorKind int

// The kinds of *Error.
const (
	// TracerBoolConversion: Bool() was called on a traced value.
	TracerBoolConversion ErrorKind = iota + 1
	// Concretization: a traced value was needed as a concrete Go value (Item, Int, Float32s, ...).
	Concretization
	// ShapeMismatch: operand shapes are incompatible.
	ShapeMismatch
	// DTypeMismatch: operand dtypes are incompatible.
	DTypeMismatch
	// BadStaticArg: a static argument is not comparable, or is out of range.
	BadStaticArg
	// BadArgCount: a jitted function was called with the wrong number of arguments.
	BadArgCount
	// BackendFailure: the backend failed to lower, compile or run a program.
	BackendFailure
	// BranchMismatch: the branches of Cond/Switch (or a loop body and its carry) disagree on output types.
	BranchMismatch
	// BadArgument: an argument is of a type that cannot be traced, or a function has the wrong shape.
	BadArgument
	// LeakedTracer: a traced value was used outside the trace that made it.
	LeakedTracer
)

var kindNames = map[ErrorKind]string{
	TracerBoolConversion: "TracerBoolConversionError",
	Concretization:       "ConcretizationTypeError",
	ShapeMismatch:        "ShapeMismatchError",
	DTypeMismatch:        "DTypeMismatchError",
	BadStaticArg:         "BadStaticArgError",
	BadArgCount:          "BadArgCountError",
	BackendFailure:       "BackendError",
	BranchMismatch:       "BranchMismatchError",
	BadArgument:          "BadArgumentError",
	LeakedTracer:         "UnexpectedTracerError",
}

// String returns the error class name, e.g. "TracerBoolConversionError".
func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is the error type of package jit. A jitted function called through
// Func.Call panics with an *Error on misuse (as JAX raises); the AOT stages
// return it as an error.
type Error struct {
	Kind ErrorKind
	// Msg says what happened and what to do instead.
	Msg string
	// Pos is the user's file:line where it happened (found from the call
	// stack, outside package jit), or "" when unknown.
	Pos string
}

// Error formats the error as "<Kind>: <Msg>" followed by the position.
func (e *Error) Error() string {
	s := e.Kind.String() + ": " + e.Msg
	if e.Pos != "" && !strings.Contains(e.Msg, e.Pos) {
		s += "\n  at " + e.Pos
	}
	return s
}

// newError builds an *Error positioned at the first caller frame outside
// package jit.
func newError(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Pos: userPos()}
}

// throw panics with a positioned *Error.
func throw(kind ErrorKind, format string, args ...any) {
	panic(newError(kind, format, args...))
}

const jitPkg = "github.com/jitlint/jitlint/jit."

// userPos returns file:line of the innermost stack frame that is not in
// package jit (nor in the runtime or reflect).
func userPos() string {
	f, ok := userFrame()
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

// userFrame returns the innermost stack frame outside jit, runtime and reflect.
func userFrame() (runtime.Frame, bool) {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !internalFrame(f.Function) {
			return f, true
		}
		if !more {
			return runtime.Frame{}, false
		}
	}
}

func internalFrame(fn string) bool {
	// jit itself (generic instantiations print as .../jit.Cond[...]), its
	// subpackages (the GPU backend among them), and the runtime's own frames.
	for _, p := range []string{jitPkg, "github.com/jitlint/jitlint/jit/", "runtime.", "reflect."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// recoverError turns a panic carrying an *Error into a returned error; other
// panics propagate.
func recoverError(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*Error); ok {
			*err = e
			return
		}
		panic(r)
	}
}
