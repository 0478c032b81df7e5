package traced

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// Func is a traced function: a declaration or a literal.
type Func struct {
	// Node is the *ast.FuncDecl or *ast.FuncLit.
	Node ast.Node
	// Body is the function body.
	Body *ast.BlockStmt
	// Name describes the function in messages ("F", "func literal").
	Name string
	// Origin is the position that made the function traced (a jit.Jit call,
	// a call with traced arguments, a //jit:traced comment).
	Origin token.Pos
	// Why explains Origin ("F is traced by this jit.Jit call").
	Why string
	// Params are the parameters in order (nil entries for unnamed ones).
	Params []*types.Var
	// Static maps the static parameters (StaticArgnums) to their index.
	Static map[*types.Var]int
	// Jitted is the jit.Jit wrapper that traces this function, if any.
	Jitted []*Jitted
	// Entry is what made the function a root of tracing: the jit entry
	// point it was first given to ("Jit", "MakeJaxpr", "Cond", ...),
	// MarkedTraced, or "" when traced code passes it traced values.
	Entry string
	// EntryCalls are the calls of jit entry points (jit.Jit, jit.MakeJaxpr,
	// jit.Vmap, jit.Cond, ...) that take the function, in source order.
	EntryCalls []*ast.CallExpr
	// RecvOutlives is true for a method whose receiver outlives the trace:
	// it is traced as a method value (jit.Jit(m.Step)), or called from
	// traced code on a receiver captured from outside it. Writes through
	// such a receiver happen once per trace.
	RecvOutlives bool
	// Recv is the receiver of a method (nil for functions, literals and
	// unnamed receivers).
	Recv *types.Var
	// CalledFrom are the calls of this function in traced code.
	CalledFrom []*CallSite
}

// CallSite is a call of a traced function from traced code.
type CallSite struct {
	// In is the traced function that makes the call.
	In *Func
	// Call is the call expression.
	Call *ast.CallExpr
}

// MarkedTraced is Func.Entry for a function marked //jit:traced.
const MarkedTraced = "//jit:traced"

// Jitted is a jit.Jit call whose result is kept in a variable (or called at once).
type Jitted struct {
	// Call is the jit.Jit call.
	Call *ast.CallExpr
	// Var is the variable that holds the result (nil when called at once).
	Var types.Object
	// Target is the traced function when it is in this package and the
	// only one the argument can hold (or nil).
	Target *Func
	// Targets are all the functions of this package that the argument can
	// hold (a table entry jit.Jit(table[k]) can hold several).
	Targets []*Func
	// TargetObj is the function object passed to jit.Jit (or nil for literals).
	TargetObj *types.Func
	// Static are the StaticArgnums indexes.
	Static []int
	// StaticKnown is false when the options come from a slice that is not
	// built in this package (jit.Jit(f, opts...) with opts a parameter):
	// then Static may miss some static arguments.
	StaticKnown bool
	// StaticOpt is the jit.StaticArgnums call (or nil).
	StaticOpt *ast.CallExpr
	// Calls are the f.Call(...) calls of the jitted function.
	Calls []*ast.CallExpr
	// Indirect are the calls made through f.Call passed as a function value
	// to a function of the package.
	Indirect []*IndirectCall
}

// IndirectCall is a call of a jitted function through a parameter: Outer
// passes f.Call to Callee, whose body calls it with Inner.
type IndirectCall struct {
	Outer, Inner *ast.CallExpr
	// Callee is the function that receives f.Call.
	Callee *ast.FuncDecl
}

// IsStatic reports whether argument i is static.
func (j *Jitted) IsStatic(i int) bool { return slices.Contains(j.Static, i) }

// ParamName returns the name of parameter i of the jitted function, or ""
// when it is unknown (a function of another package) or blank.
func (j *Jitted) ParamName(i int) string {
	if j.Target == nil || i >= len(j.Target.Params) || j.Target.Params[i] == nil || j.Target.Params[i].Name() == "_" {
		return ""
	}
	return j.Target.Params[i].Name()
}

// ExternalCall is a call in traced code of a function of another package
// with traced arguments, or a jit entry point given another package's
// function. Analyzers check it against the callee's facts.
type ExternalCall struct {
	// Pos and End delimit the call.
	Pos, End token.Pos
	// Callee is the called (or traced) function.
	Callee *types.Func
	// Params are the indexes of the callee's parameters that receive traced values.
	Params []int
	// In is the traced function that contains the call (nil for entry points in eager code).
	In *Func
}

// HasParam reports whether parameter i receives a traced value.
func (c *ExternalCall) HasParam(i int) bool { return slices.Contains(c.Params, i) }

// Result is what the traced analyzer computes for one package. A nil
// *Result means the package does not import jit.
type Result struct {
	// Info and Fset are the package's type information and file set.
	Info *types.Info
	Fset *token.FileSet
	// Files are the package's files.
	Files []*ast.File
	// Funcs are the traced functions, in source order.
	Funcs []*Func
	// Jitted are the jit.Jit calls of the package, in source order.
	Jitted []*Jitted
	// OtherCalls are the f.Call(...) calls of jitted functions that do not
	// come straight from a jit.Jit call of the package (a wrapper returned
	// by a method or kept in a map: reg.get(name).Call(x)), in source order.
	OtherCalls []*ast.CallExpr
	// External are the calls into other packages from traced code.
	External []*ExternalCall

	// mu serialises the queries below, which fill the memo maps lazily:
	// the analyzers of a suite share one Result and may run concurrently.
	mu sync.Mutex

	tainted map[types.Object]bool
	byNode  map[ast.Node]*Func
	dead    map[ast.Node]bool // statements that never run while tracing (guard.go)
	pkg     *types.Package
	decls   map[*types.Func]*ast.FuncDecl

	// Function values (see funcs.go): the expressions stored in each
	// variable, field or table, the tables a range variable walks, what
	// they resolve to, the implementations of interface methods, and the
	// closure constructors being resolved.
	stored    map[types.Object][]ast.Expr
	aliases   map[types.Object][]types.Object
	funcs     map[types.Object][]ast.Node
	impls     map[*types.Func][]ast.Node
	returning map[ast.Node]bool

	// Staging (see stages.go): operation counts of functions, and the
	// importer of other packages' StagesFacts (nil without facts).
	opsMemo    map[ast.Node]int
	extOps     map[*types.Func]int
	importFact func(*types.Func, analysis.Fact) bool
}

// FuncOf returns the traced function for a *ast.FuncDecl or *ast.FuncLit, or nil.
func (r *Result) FuncOf(n ast.Node) *Func { return r.byNode[n] }

// File returns the file that contains pos.
func (r *Result) File(pos token.Pos) *ast.File {
	for _, f := range r.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Walk calls visit for every node of fn's body in depth-first order, with
// the stack of enclosing nodes (outermost first: fn.Node, then its body
// and so on; the node itself excluded).
// Nested function literals that are traced functions of their own are
// skipped: they are visited as Funcs themselves; so are the statements that
// never run while tracing (see Dead). visit returns false to skip a node's
// children.
func (r *Result) Walk(fn *Func, visit func(n ast.Node, stack []ast.Node) bool) {
	ast.PreorderStack(fn.Body, []ast.Node{fn.Node}, func(n ast.Node, stack []ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && r.byNode[lit] != nil && r.byNode[lit] != fn {
			return false
		}
		if r.dead[n] {
			return false
		}
		return visit(n, stack)
	})
}

// Where returns "file.go:line" for pos: the base name of its file and its line.
func (r *Result) Where(pos token.Pos) string {
	p := r.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// Related returns related information that points at what made fn traced.
func (fn *Func) Related() []analysis.RelatedInformation {
	if !fn.Origin.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: fn.Origin, End: fn.Origin, Message: fn.Why}}
}

// PathTo returns the nodes that enclose n, outermost first (n excluded), as
// a stack for Loops and MaxInt.
func (r *Result) PathTo(n ast.Node) []ast.Node {
	f := r.File(n.Pos())
	if f == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f, n.Pos(), n.End())
	var stack []ast.Node
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != n {
			stack = append(stack, path[i])
		}
	}
	return stack
}

// IsTraced reports whether e, an expression of traced code, holds a traced
// value. Safe for concurrent use, like the other queries below.
func (r *Result) IsTraced(e ast.Expr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.isTraced(e)
}

// AnyTraced reports whether one of es holds a traced value.
func (r *Result) AnyTraced(es []ast.Expr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.anyTraced(es)
}

// Ops estimates the number of operations that n stages each time it runs:
// the staging calls it contains, counting a call of a function by that
// function's own count (loops are counted once; callers multiply by trip
// counts). Zero means that n stages nothing.
func (r *Result) Ops(n ast.Node) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ops(n)
}

// Few reports whether e takes at most MaxFew distinct values in the scope
// or loop l, whatever the number of iterations (a table of three sizes
// indexed by a draw).
func (r *Result) Few(l *Loop, e ast.Expr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k, ok := r.distinct(l, e, map[types.Object]bool{})
	return ok && k <= MaxFew
}

// Repeats reports whether e takes so few distinct values over the
// iterations of l that most calls with it hit a cache: what a bucket
// chooser returns (bounded by the program, not the data), or a number of
// values (a bool, x % k, an element of a fixed table, a value assigned from
// those in the loop) that is at most MaxFew and fewer than the
// iterations, or at most half of them.
func (r *Result) Repeats(l *Loop, e ast.Expr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.repeats(l, e)
}

// StagesOps reports whether n contains a call that stages a jit operation
// (an Array method other than the static ones and host conversions, or a
// jit function that computes arrays, or a call of a function that does).
func (r *Result) StagesOps(n ast.Node) bool { return r.Ops(n) > 0 }
