package traced

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// What stages operations: a call of an Array method other than the static
// properties and host conversions, a call of a jit function that computes
// arrays, or a call of a function that does either (in this package, found
// through the builder's function resolution, or in another package, known
// from its StagesFact).

// StagesFact is the traced analyzer's fact about a function of a package
// that imports jit: it stages about Ops operations each time it runs.
type StagesFact struct{ Ops int }

// AFact marks StagesFact as an analysis fact.
func (*StagesFact) AFact() {}

// String is the fact's form in analysistest expectations.
func (f *StagesFact) String() string { return fmt.Sprintf("stages %d ops", f.Ops) }

// maxOps caps the operation counts, so that recursion and deep call chains stay cheap.
const maxOps = 1 << 20

// ops is Ops without the lock.
func (r *Result) ops(n ast.Node) int {
	if n == nil {
		return 0
	}
	total := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if r.dead[n] {
			return false // never runs while tracing
		}
		if call, ok := n.(*ast.CallExpr); ok {
			total = min(total+r.callOps(call), maxOps)
		}
		return true
	})
	return total
}

// callOps is the number of operations that one call stages itself (not
// counting its arguments, which Ops visits on their own).
func (r *Result) callOps(call *ast.CallExpr) int {
	if name, _ := ArrayMethod(r.Info, call); name != "" {
		if stagingMethods[name] {
			return 1
		}
		return 0
	}
	if name := JitFunc(r.Info, call); name != "" {
		if stagingFuncs[name] && !concreteCall(name, call) {
			return 1
		}
		return 0
	}
	nodes, obj := r.callees(call)
	best := 0
	for _, node := range nodes {
		best = max(best, r.funcOps(node))
	}
	if obj != nil && obj.Pkg() != nil && obj.Pkg() != r.pkg && r.importFact != nil {
		best = max(best, r.externalOps(obj))
	}
	return best
}

// externalOps is the operation count of a function of another package,
// from its StagesFact (memoised: facts are looked up once per function).
func (r *Result) externalOps(fn *types.Func) int {
	if n, ok := r.extOps[fn]; ok {
		return n
	}
	var f StagesFact
	if !r.importFact(fn, &f) {
		f.Ops = 0
	}
	r.extOps[fn] = f.Ops
	return f.Ops
}

// funcOps is the memoised operation count of a declaration or literal.
func (r *Result) funcOps(node ast.Node) int {
	if n, ok := r.opsMemo[node]; ok {
		return n
	}
	r.opsMemo[node] = 0 // recursion: count the cycle once
	n := r.ops(FuncBody(node))
	r.opsMemo[node] = n
	return n
}

// exportStages exports a StagesFact for each exported function or method
// of the package that stages operations (other packages can call no others).
func exportStages(pass *analysis.Pass, r *Result) {
	r.exportedFuncs(pass, func(fd *ast.FuncDecl, obj *types.Func) {
		if n := r.funcOps(fd); n > 0 {
			pass.ExportObjectFact(obj, &StagesFact{Ops: n})
		}
	})
}

// exportedFuncs calls fn for each exported function or method with a body
// declared in the package: the only ones other packages can call.
func (r *Result) exportedFuncs(pass *analysis.Pass, fn func(fd *ast.FuncDecl, obj *types.Func)) {
	for _, f := range r.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				fn(fd, obj)
			}
		}
	}
}
