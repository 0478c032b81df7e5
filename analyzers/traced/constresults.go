package traced

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// A bucket chooser returns one of a few constants: directly (a switch that
// returns 16, 32 or 64), as an element of a literal it ranges over
// (for _, b := range []int{8, 16, 32}), or as a value it doubles up to a
// cap (p := 1; for p < n && p < 1024 { p *= 2 }). Calls of such a function
// take a bounded number of values, in this package or, through FewFact, in
// others.

// FewFact is the traced analyzer's fact about an exported function of any
// package that returns one of N constants only.
type FewFact struct{ N int }

// AFact marks FewFact as an analysis fact.
func (*FewFact) AFact() {}

// String is the fact's form in analysistest expectations.
func (f *FewFact) String() string { return "returns one of a few values" }

// maxConstResults caps the number of distinct constants a function may
// return and still count as a chooser.
const maxConstResults = 64

// constantsOf returns the constants that e, a value returned by the
// function fn, can be, or ok false when it is not one of the forms above.
func constantsOf(info *types.Info, files []*ast.File, fn ast.Node, e ast.Expr) ([]constant.Value, bool) {
	if v := info.Types[e].Value; v != nil {
		return []constant.Value{v}, true
	}
	if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
		return tableConstants(info, fieldTables(info, files, ix.X)) // c.buckets[k]
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	body := FuncBody(fn)
	var out []constant.Value
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || found || info.Defs[identOf(rs.Value)] != v {
			return !found
		}
		found = true
		lits := fieldTables(info, files, rs.X)
		if lit, isLit := ast.Unparen(rs.X).(*ast.CompositeLit); isLit {
			lits = []*ast.CompositeLit{lit}
		}
		out, _ = tableConstants(info, lits)
		return false
	})
	if found {
		return out, out != nil
	}
	return doubledUpTo(info, body, v)
}

// tableConstants returns the elements of the literals lits, when they are
// all constants.
func tableConstants(info *types.Info, lits []*ast.CompositeLit) ([]constant.Value, bool) {
	var out []constant.Value
	for _, lit := range lits {
		for _, elt := range lit.Elts {
			c := info.Types[elt].Value
			if c == nil {
				return nil, false
			}
			out = append(out, c)
		}
	}
	return out, out != nil
}

// fieldTables returns the literals that a struct field used as a table
// (c.buckets, ranged over by a method of c's type) is given in the
// package's struct literals (config{buckets: []int{8, 16, 64}}), or nil
// when the field is assigned anywhere else or some literal gives it a
// value that is not a literal.
func fieldTables(info *types.Info, files []*ast.File, x ast.Expr) []*ast.CompositeLit {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	field := s.Obj()
	var lits []*ast.CompositeLit
	ok = true
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if st, isStruct := info.TypeOf(n).Underlying().(*types.Struct); isStruct && structHas(st, field) {
					lit, isLit := ast.Unparen(FieldValue(info, n, field.Name())).(*ast.CompositeLit)
					ok = ok && isLit
					lits = append(lits, lit)
				}
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if ls, isSel := ast.Unparen(lhs).(*ast.SelectorExpr); isSel && info.Selections[ls] != nil && info.Selections[ls].Obj() == field {
						ok = false
					}
				}
			}
			return ok
		})
	}
	if !ok || len(lits) == 0 {
		return nil
	}
	return lits
}

// structHas reports whether st declares field itself.
func structHas(st *types.Struct, field types.Object) bool {
	for f := range st.Fields() {
		if f == field {
			return true
		}
	}
	return false
}

// doubledUpTo returns the values of v when the function starts it at a
// constant and only multiplies it by a constant (p *= 2, p <<= 1) in loops
// whose condition caps it with a constant (p < 1024 && …).
func doubledUpTo(info *types.Info, body *ast.BlockStmt, v *types.Var) ([]constant.Value, bool) {
	var start constant.Value
	var factor int64
	capped, ok := true, true
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		s, isAssign := n.(*ast.AssignStmt)
		if !isAssign || !ok || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return ok
		}
		id, isIdent := ast.Unparen(s.Lhs[0]).(*ast.Ident)
		if !isIdent || info.Defs[id] != v && info.Uses[id] != v {
			return true
		}
		k, kok := ConstInt(info, s.Rhs[0])
		switch {
		case s.Tok == token.DEFINE && start == nil && info.Types[s.Rhs[0]].Value != nil:
			start = info.Types[s.Rhs[0]].Value
		case s.Tok == token.MUL_ASSIGN && kok && k > 1 && (factor == 0 || factor == k):
			factor = k
			capped = capped && cappedBy(info, stack, v)
		case s.Tok == token.SHL_ASSIGN && kok && k > 0 && k < 8 && (factor == 0 || factor == 1<<k):
			factor = 1 << k
			capped = capped && cappedBy(info, stack, v)
		default:
			ok = false
		}
		return ok
	})
	limit, lok := capOf(info, body, v)
	if !ok || !capped || start == nil || factor == 0 || !lok {
		return nil, false
	}
	x, xok := constant.Int64Val(constant.ToInt(start))
	if !xok || x <= 0 {
		return nil, false
	}
	var out []constant.Value
	for x < limit && len(out) < maxConstResults {
		out = append(out, constant.MakeInt64(x))
		x *= factor
	}
	return append(out, constant.MakeInt64(x)), true
}

// cappedBy reports whether the innermost loop of stack is a for loop whose
// condition caps v with a constant.
func cappedBy(info *types.Info, stack []ast.Node, v *types.Var) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if f, ok := stack[i].(*ast.ForStmt); ok {
			_, capped := capIn(info, f.Cond, v)
			return capped
		}
	}
	return false
}

// capOf returns the constant that the loop conditions of body cap v with.
func capOf(info *types.Info, body *ast.BlockStmt, v *types.Var) (int64, bool) {
	var limit int64
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if f, ok := n.(*ast.ForStmt); ok {
			if c, ok := capIn(info, f.Cond, v); ok {
				limit, found = max(limit, c), true
			}
		}
		return true
	})
	return limit, found
}

// capIn finds v < C or v <= C among the conjuncts of cond.
func capIn(info *types.Info, cond ast.Expr, v *types.Var) (int64, bool) {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return 0, false
	}
	if b.Op == token.LAND {
		if c, ok := capIn(info, b.X, v); ok {
			return c, true
		}
		return capIn(info, b.Y, v)
	}
	id, ok := ast.Unparen(b.X).(*ast.Ident)
	c, cok := ConstInt(info, b.Y)
	if !ok || !cok || info.Uses[id] != v || b.Op != token.LSS && b.Op != token.LEQ {
		return 0, false
	}
	return c, true
}

// countConstants returns how many distinct constants the values that the
// functions return can be.
func countConstants(info *types.Info, files []*ast.File, values []Return) (int64, bool) {
	seen := map[string]bool{}
	for _, v := range values {
		cs, ok := constantsOf(info, files, v.Func, v.Value)
		if !ok {
			return 0, false
		}
		for _, c := range cs {
			seen[c.ExactString()] = true
		}
	}
	return int64(len(seen)), len(seen) > 0 && len(seen) <= maxConstResults
}

// LocalModule reports whether m is a module whose source is local — the
// main module, a workspace module or a directory replacement: its version
// is not known. Schedules and bucket choosers that jitted code calls live
// in such modules, in packages that need not import jit.
func LocalModule(m *analysis.Module) bool { return m != nil && m.Path != "" && m.Version == "" }

// NeedsFacts reports whether a package needs the jitlint analyzers to run
// for its facts: it imports jit, or it belongs to a local module and may
// declare a bucket chooser (MayChoose). Every driver (the jitlint command,
// go vet, jitls) asks it, so that all see the same facts.
func NeedsFacts(importsJit bool, m *analysis.Module, files []*ast.File) bool {
	return importsJit || LocalModule(m) && MayChoose(files)
}

// MayChoose reports, from syntax alone, whether files declare a function
// for which exportFew may export a FewFact: exported, no receiver, one
// result, and a return of a literal or a name.
func MayChoose(files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && chooserShape(fd) && returnsLiteral(fd.Body) {
				return true
			}
		}
	}
	return false
}

// chooserShape reports whether fd is an exported function with a body, no
// receiver and one result.
func chooserShape(fd *ast.FuncDecl) bool {
	return fd.Body != nil && fd.Recv == nil && fd.Name.IsExported() && fd.Type.Results != nil && fd.Type.Results.NumFields() == 1
}

// returnsLiteral reports whether body returns a basic literal or a name.
func returnsLiteral(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			switch ast.Unparen(ret.Results[0]).(type) {
			case *ast.BasicLit, *ast.Ident:
				found = true
			}
		}
		_, lit := n.(*ast.FuncLit)
		return !found && !lit
	})
	return found
}

// exportFew exports a FewFact for each function of the package that
// chooserShape accepts and that returns only a few constants, in packages
// of local modules and packages that import jit (see NeedsFacts).
func exportFew(pass *analysis.Pass) {
	if !LocalModule(pass.Module) && !ImportsJit(pass.Pkg) {
		return
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !chooserShape(fd) {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if _, basic := obj.Signature().Results().At(0).Type().Underlying().(*types.Basic); !basic {
				continue
			}
			var values []Return
			bare := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					if len(n.Results) == 1 {
						values = append(values, Return{fd, n.Results[0]})
					} else {
						bare = true
					}
				}
				return true
			})
			if n, ok := countConstants(pass.TypesInfo, pass.Files, values); ok && !bare {
				pass.ExportObjectFact(obj, &FewFact{N: int(n)})
			}
		}
	}
}
