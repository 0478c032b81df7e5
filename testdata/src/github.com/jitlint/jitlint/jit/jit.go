// Package jit is a small copy of the public API of github.com/jitlint/jitlint/jit
// (names and signatures from docs api.md) for the analyzers' analysistest fixtures.
// Bodies do nothing useful: only the types matter to the analyzers.
package jit

// DType is an element type.
type DType int

// Element types.
const (
	Float32 DType = iota
	Float64
	BFloat16
	Float16
	Int32
	Int64
	Bool
)

// String gives the short name.
func (d DType) String() string { return "f32" }

// Name gives the long name.
func (d DType) Name() string { return "float32" }

// Array is an immutable array or a tracer.
type Array struct{ p *int }

// ShapeDtype describes an argument without data.
type ShapeDtype struct {
	Shape []int
	Dtype DType
}

// Spec makes a ShapeDtype.
func Spec(dt DType, shape ...int) ShapeDtype { return ShapeDtype{shape, dt} }

func Arange(n int, dt DType) Array                 { return Array{} }
func Zeros(dt DType, shape ...int) Array           { return Array{} }
func Ones(dt DType, shape ...int) Array            { return Array{} }
func Full(v float64, dt DType, shape ...int) Array { return Array{} }

func FromSlice[T float32 | float64 | int32 | int64 | bool](data []T, shape ...int) Array {
	return Array{}
}
func Scalar[T float32 | float64 | int32 | int64 | bool](v T) Array { return Array{} }

func (a Array) Shape() []int           { return nil }
func (a Array) Dtype() DType           { return Float32 }
func (a Array) Ndim() int              { return 0 }
func (a Array) Size() int              { return 0 }
func (a Array) WeakType() bool         { return false }
func (a Array) String() string         { return "" }
func (a Array) Bool() bool             { return false }
func (a Array) Item() float64          { return 0 }
func (a Array) Int() int               { return 0 }
func (a Array) Float32s() []float32    { return nil }
func (a Array) Float64s() []float64    { return nil }
func (a Array) Int32s() []int32        { return nil }
func (a Array) Bools() []bool          { return nil }
func (a Array) Int64s() []int64        { return nil }
func (a Array) IsTracer() bool         { return false }
func (a Array) BlockUntilReady() Array { return a }

func (a Array) Add(b any) Array { return a }
func (a Array) Sub(b any) Array { return a }
func (a Array) Mul(b any) Array { return a }
func (a Array) Div(b any) Array { return a }
func (a Array) Pow(b any) Array { return a }
func (a Array) Max(b any) Array { return a }
func (a Array) Min(b any) Array { return a }
func (a Array) Gt(b any) Array  { return a }
func (a Array) Ge(b any) Array  { return a }
func (a Array) Lt(b any) Array  { return a }
func (a Array) Le(b any) Array  { return a }
func (a Array) Eq(b any) Array  { return a }
func (a Array) Ne(b any) Array  { return a }
func (a Array) And(b any) Array { return a }
func (a Array) Or(b any) Array  { return a }
func (a Array) Not() Array      { return a }
func (a Array) Neg() Array      { return a }
func (a Array) Abs() Array      { return a }
func (a Array) Sin() Array      { return a }
func (a Array) Cos() Array      { return a }
func (a Array) Tanh() Array     { return a }
func (a Array) Exp() Array      { return a }
func (a Array) Log() Array      { return a }
func (a Array) Sqrt() Array     { return a }

func (a Array) Sum(axes ...int) Array          { return a }
func (a Array) Mean(axes ...int) Array         { return a }
func (a Array) MaxReduce(axes ...int) Array    { return a }
func (a Array) Reshape(shape ...int) Array     { return a }
func (a Array) Transpose(perm ...int) Array    { return a }
func (a Array) Astype(dt DType) Array          { return a }
func (a Array) Slice(start, limit []int) Array { return a }
func (a Array) MatMul(b Array) Array           { return a }

func Where(cond, x, y any) Array                  { return Array{} }
func Concatenate(axis int, arrays ...Array) Array { return Array{} }
func Softplus(x Array) Array                      { return x }
func Relu(x Array) Array                          { return x }

// PadTo right-pads a 1-D array.
func PadTo(x Array, size int) (padded, mask Array, err error) { return x, x, nil }

// Option configures Jit.
type Option struct{ n []int }

func StaticArgnums(i ...int) Option { return Option{i} }
func Name(s string) Option          { return Option{} }

// Func is a jitted function.
type Func[F any] struct {
	Call F
}

// Jit wraps fn.
func Jit[F any](fn F, opts ...Option) *Func[F] { return &Func[F]{Call: fn} }

// ClosedJaxpr is a traced program.
type ClosedJaxpr struct{}

func MakeJaxpr(fn any, opts ...Option) func(args ...any) (*ClosedJaxpr, error) { return nil }

func DebugPrint(format string, args ...any) {}

type ScanOption struct{}

func Cond[O, R any](pred any, trueFn, falseFn func(O) R, operand O) R { var r R; return r }
func Switch[O, R any](index any, branches []func(O) R, operand O) R   { var r R; return r }
func Scan[C, X, Y any](body func(carry C, x X) (C, Y), init C, xs X, opts ...ScanOption) (C, Y) {
	var y Y
	return init, y
}
func ScanN[C, Y any](body func(carry C) (C, Y), init C, length int, opts ...ScanOption) (C, Y) {
	var y Y
	return init, y
}
func ForiLoop[C any](lower, upper any, body func(i Array, carry C) C, init C) C { return init }
func WhileLoop[C any](cond func(C) Array, body func(C) C, init C) C             { return init }
