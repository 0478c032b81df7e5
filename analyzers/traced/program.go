package traced

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// flow is the analysis of one package: its SSA form, the summaries of its
// functions (computed on demand, once each), its memory and its traced
// contexts. Everything the analyzers know comes from here.
type flow struct {
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
	pkg   *types.Package
	ssa   *ssa.Package
	prog  *ssa.Program

	// funcs are the package's functions with bodies: declared, literals,
	// and the instances of generic ones.
	funcs []*ssa.Function
	// byObj maps a declared function or method to its SSA function.
	byObj map[*types.Func]*ssa.Function
	// sums are the summaries computed so far.
	sums map[*ssa.Function]*summary
	// mem indexes the stores of the package (memory.go).
	mem *memory
	// importFact reads another package's facts (nil without facts).
	importFact func(*types.Func, analysis.Fact) bool
	// callers are the call sites of each function of the package (callgraph.go).
	callers map[*ssa.Function][]*callSite
	// ops are the operation counts of functions (facts.go).
	ops map[*ssa.Function]int
	// handlers are the functions that net/http runs once per request
	// (handlers.go).
	handlers map[*ssa.Function]bool
	// externalRoots are the roots whose function is another package's.
	externalRoots []*Root
	// asked remembers whether advancing state and objects made in a loop
	// vary over it (advance.go).
	asked map[loopQuestion]bool
	// problemFree memoizes mayHaveProblems: true for a function that
	// surely has none.
	problemFree map[*ssa.Function]bool
	// fr are the questions being answered (cycles.go).
	fr frames
	// callersFrame is the frame of the call graph while it is built (-1
	// when it is not being built).
	callersFrame int
	// applying counts the calls being applied inside one another while
	// summaries are bound to their arguments (calls.go).
	applying int
	// madeIfaces are the types the package makes interface values of,
	// with the values (callgraph.go), once asked.
	madeIfaces []madeIface
	// localCalls are the calls of function values that the call graph
	// resolves to functions of the package (callgraph.go), once asked.
	localCalls map[ssa.Instruction]bool
}

// buildSSA builds the SSA form of the package, as passes/buildssa does,
// with debug information (which expression is which value: the language
// server asks about expressions) and generic functions instantiated (a
// generic helper is analysed at the types it is used with).
func buildSSA(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) (*ssa.Package, []*ssa.Function) {
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	var create func(p *types.Package)
	create = func(p *types.Package) {
		if created[p] {
			return
		}
		created[p] = true
		for _, imp := range p.Imports() {
			create(imp)
		}
		prog.CreatePackage(p, nil, nil, true)
	}
	for _, imp := range pkg.Imports() {
		create(imp)
	}
	spkg := prog.CreatePackage(pkg, files, info, false)
	spkg.SetDebugMode(true)
	spkg.Build()

	var funcs []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		if f == nil || seen[f] || f.Blocks == nil {
			return
		}
		seen[f] = true
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(spkg.Members)) {
		switch m := spkg.Members[name].(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			mset := prog.MethodSets.MethodSet(m.Type())
			for i := range mset.Len() {
				add(prog.MethodValue(mset.At(i)))
			}
			pset := prog.MethodSets.MethodSet(types.NewPointer(m.Type()))
			for i := range pset.Len() {
				add(prog.MethodValue(pset.At(i)))
			}
		}
	}
	// Instances of generic functions and wrappers (method values,
	// expressions, bound methods) are made while building: add those
	// reached from the package's code.
	for i := 0; i < len(funcs); i++ {
		for _, b := range funcs[i].Blocks {
			for _, instr := range b.Instrs {
				for _, rand := range instr.Operands(nil) {
					if f, ok := (*rand).(*ssa.Function); ok && f.Pkg == spkg || ok && f.Pkg == nil && f.Synthetic != "" {
						add(f)
					}
				}
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					add(mc.Fn.(*ssa.Function))
				}
			}
		}
	}
	return spkg, funcs
}

// newFlow analyses a package that imports jit.
func newFlow(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, importFact func(*types.Func, analysis.Fact) bool) *flow {
	spkg, funcs := buildSSA(fset, files, pkg, info)
	f := &flow{
		fset: fset, files: files, info: info, pkg: pkg, ssa: spkg, prog: spkg.Prog,
		funcs: funcs, byObj: map[*types.Func]*ssa.Function{}, sums: map[*ssa.Function]*summary{},
		importFact: importFact, callersFrame: -1, asked: map[loopQuestion]bool{},
	}
	for _, fn := range funcs {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Origin() == nil {
			f.byObj[obj] = fn
		}
	}
	f.mem = newMemory(f)
	f.buildCallers() // first: what is worked out while it is built is not kept (cycles.go)
	return f
}

// local reports whether fn has a body in this package.
func (f *flow) local(fn *ssa.Function) bool {
	return fn != nil && fn.Blocks != nil && (fn.Pkg == f.ssa || fn.Pkg == nil && fn.Synthetic != "")
}
