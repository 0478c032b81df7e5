package ir

// Primitive names, as JAX spells them. Parameters of each (keys of Eqn.Params):
//
//	elementwise unary (one operand, same type out): neg sign abs sin cos tan
//	  tanh exp log log1p expm1 sqrt rsqrt floor ceil logistic not
//	integer_pow        y int
//	elementwise binary (same shape and dtype operands; literals allowed):
//	  add sub mul div pow max min and or rem; add_any is add (the sum of
//	  cotangents in a gradient, as JAX prints it; backends run Lowerable's
//	  form, where it is add)
//	comparisons (bool out): gt ge lt le eq ne
//	select_n           operands (pred, case0, case1, ...); pred bool (2 cases) or
//	                   int32; out = cases[pred]. jit.Where(c, x, y) is select_n c y x.
//	clamp              operands (lo, x, hi)
//	convert_element_type new_dtype DType, weak_type bool, sharding nil
//	broadcast_in_dim   shape []int, broadcast_dimensions []int, sharding nil
//	reshape            new_sizes []int, dimensions nil, sharding nil
//	transpose          permutation []int
//	squeeze            dimensions []int
//	reduce_sum reduce_max reduce_min  axes []int, out_sharding nil
//	iota               dtype DType, shape []int, dimension int, sharding nil
//	concatenate        dimension int
//	pad                padding_config [][3]int (lo, hi, interior); operands (x, padval)
//	slice              start_indices []int, limit_indices []int, strides nil
//	dot_general        dimension_numbers DotDims, preferred_element_type DType (or nil),
//	                   precision nil, out_sharding nil
//	cond               branches []*ClosedJaxpr; operands (index i32[], ops...)
//	scan               jaxpr *ClosedJaxpr, length int, num_consts int, num_carry int,
//	                   reverse bool, unroll int; operands (consts, init carry, xs);
//	                   results (final carry, stacked ys)
//	while              cond_jaxpr, body_jaxpr *ClosedJaxpr, cond_nconsts, body_nconsts int;
//	                   operands (cond consts, body consts, carry); results (carry)
//	jit                name string, jaxpr *ClosedJaxpr; operands as the inner jaxpr's invars
//	custom_jvp_call    name string, call_jaxpr *ClosedJaxpr, jvp JVPRule, num_consts int,
//	                   symbolic_zeros bool; operands as call_jaxpr's invars (the first
//	                   num_consts are values it captured). A function with a derivative
//	                   rule of its own (jax.custom_jvp): Grad uses jvp, backends run
//	                   Lowerable's form, where call_jaxpr is inlined
//	debug_print        fmt string, ordered bool; no outputs
//	stop_gradient      the identity, which Grad does not differentiate through
//	                   (backends run Lowerable's form, without it)
const (
	Neg, Sign, Abs, Sin, Cos, Tan, Tanh = "neg", "sign", "abs", "sin", "cos", "tan", "tanh"
	Exp, Log, Log1p, Expm1, Sqrt, Rsqrt = "exp", "log", "log1p", "expm1", "sqrt", "rsqrt"
	Floor, Ceil, Logistic, Not          = "floor", "ceil", "logistic", "not"
	IntegerPow                          = "integer_pow"

	Add, Sub, Mul, Div, Pow, Max, Min, Rem = "add", "sub", "mul", "div", "pow", "max", "min", "rem"
	And, Or, AddAny                        = "and", "or", "add_any"
	Gt, Ge, Lt, Le, Eq, Ne                 = "gt", "ge", "lt", "le", "eq", "ne"

	SelectN, Clamp, ConvertElementType = "select_n", "clamp", "convert_element_type"
	BroadcastInDim, Reshape, Transpose = "broadcast_in_dim", "reshape", "transpose"
	Squeeze                            = "squeeze"
	ReduceSum, ReduceMax, ReduceMin    = "reduce_sum", "reduce_max", "reduce_min"
	Iota, Concatenate, Pad, Slice      = "iota", "concatenate", "pad", "slice"
	DotGeneral                         = "dot_general"

	Cond, Scan, While, Jit, DebugPrint = "cond", "scan", "while", "jit", "debug_print"
	StopGradient                       = "stop_gradient"
	CustomJVPCall                      = "custom_jvp_call"
)

// JVPRule is the jvp parameter of a custom_jvp_call equation: the derivative
// rule of the function its call_jaxpr computes. Package jit defines the
// rules; ir only prints their names, as JAX prints the rule function's name.
type JVPRule interface{ RuleName() string }

// unaryPrims are the elementwise primitives with one operand.
var unaryPrims = map[string]bool{
	Neg: true, Sign: true, Abs: true, Sin: true, Cos: true, Tan: true, Tanh: true,
	Exp: true, Log: true, Log1p: true, Expm1: true, Sqrt: true, Rsqrt: true,
	Floor: true, Ceil: true, Logistic: true, Not: true, IntegerPow: true,
}

// binaryPrims are the elementwise primitives with two operands of one type.
var binaryPrims = map[string]bool{
	Add: true, Sub: true, Mul: true, Div: true, Pow: true, Max: true, Min: true, Rem: true,
	And: true, Or: true, AddAny: true, Gt: true, Ge: true, Lt: true, Le: true, Eq: true, Ne: true,
}

// comparePrims produce bool results.
var comparePrims = map[string]bool{Gt: true, Ge: true, Lt: true, Le: true, Eq: true, Ne: true}

// transcendentalPrims count as transcendental operations in cost analysis.
var transcendentalPrims = map[string]bool{
	Sin: true, Cos: true, Tan: true, Tanh: true, Exp: true, Log: true, Log1p: true,
	Expm1: true, Sqrt: true, Rsqrt: true, Logistic: true, Pow: true,
}

// IsUnary reports whether prim is an elementwise primitive with one operand.
func IsUnary(prim string) bool { return unaryPrims[prim] }

// IsBinary reports whether prim is an elementwise primitive with two operands.
func IsBinary(prim string) bool { return binaryPrims[prim] }

// IsCompare reports whether prim is a comparison (bool result).
func IsCompare(prim string) bool { return comparePrims[prim] }

// IsTranscendental reports whether prim is counted as a transcendental op.
func IsTranscendental(prim string) bool { return transcendentalPrims[prim] }

// IsElementwise reports whether prim maps operands to a result of the same
// shape element by element (unary, binary, select_n, clamp, convert_element_type).
func IsElementwise(prim string) bool {
	return unaryPrims[prim] || binaryPrims[prim] || prim == SelectN || prim == Clamp || prim == ConvertElementType
}
