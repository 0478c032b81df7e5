package traced

import (
	"time"
	"fmt"
	"os"
	"testing"

	"go/ast"
	"go/types"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

func TestZZJitted(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		if os.Getenv("DBG_RJ") != "" {
			r.RepeatedJits()
		}
		for _, j := range r.JittedCalls() {
			fmt.Printf("call %s static %v known %v\n", r.Fset.Position(j.Call.Pos()), j.Static, j.StaticKnown)
			if !j.StaticKnown { dbgWrapper(r, j) }
			for k := range j.Call.Args {
				if t := j.ParamType(k); t != nil && IsArray(t) && !j.IsStatic(k) {
					s := r.flow.summary(j.instr.Parent())
					e := s.operand(j.instr.Common().Args[k], j.instr.Block())
					t0 := time.Now()
					c := j.ShapeChurn(k)
					fmt.Printf("   shape %d = %s churn %+v  %v\n", k, shapeTuple(e), c, time.Since(t0))
					if os.Getenv("DBG_SHAPE") != "" { dbgShape(r, j, k) }
				}
				if j.IsStatic(k) {
					s := r.flow.summary(j.instr.Parent())
					fmt.Printf("   arg %d = %s churn %+v\n", k, s.operand(j.instr.Common().Args[k], j.instr.Block()), j.ArgChurn(k, nil))
				}
			}
		}
	}
}

func dbgWrapper(r *Result, j *JittedCall) {
	s := r.flow.summary(j.instr.Parent())
	for _, v := range alternatives(s.operand(j.instr.Common().Value, j.instr.Block())) {
		fmt.Printf("   callee %s\n", v)
	}
}

func TestZZGlobal(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		for _, m := range r.flow.ssa.Members {
			g, ok := m.(*ssa.Global)
			if !ok || g.Name() != os.Getenv("DBG_G") {
				continue
			}
			for _, st := range r.flow.mem.storesAt(g) {
				fmt.Printf("store %v = %s\n", st.path, st.val)
				for _, a := range st.val.Args {
					fmt.Printf("   arg %s kind %d\n", a, a.Kind)
					if a.Kind == kPtr || len(a.Args) > 0 {
						for _, pp := range pointers(a) {
							fmt.Printf("     ptr %s site %T\n", pp, pp.Site)
							for _, s2 := range r.flow.mem.storesAt(pp.Site) {
								fmt.Printf("       st %v = %s\n", s2.path, s2.val)
							}
						}
					}
				}
			}
		}
	}
}


func dbgShape(r *Result, j *JittedCall, k int) {
	s := r.flow.summary(j.instr.Parent())
	e := shapeTuple(s.operand(j.instr.Common().Args[k], j.instr.Block()))
	ev := r.flow.newEvaluator()
	if x := s.operand(j.instr.Common().Args[k], j.instr.Block()); x.Kind == kIter && x.N >= 0 {
		x.Loop.sum.solve(x.Loop)
		fmt.Printf("     carry init %s\n     carry next %s\n     next dims %v\n", x.Loop.init[x.N], x.Loop.next[x.N], ev.arrayDims(x.Loop.next[x.N]))
	}
	for l := s.loopOf[j.instr.Block()]; l != nil; l = l.parent {
		n, ok, ex := ev.count(l, e, nil)
		rl := ev.runLoop(l, nil)
		for j, st := range rl.states {
			fmt.Println("       state", j, st, valueKeys(func(x *Expr) vset { return ev.at(l, st, j, x) }, e))
		}
		fmt.Printf("     loop %v distinct %d %v exact %v run %v %d\n", r.Fset.Position(l.header.Instrs[0].Pos()), n, ok, ex, rl.ok, len(rl.states))
		for _, a := range e.Args {
			if a.Kind == kLen {
				el := ev.elementOf(a.Args[0])
				fmt.Printf("     elem %s\n", el)
				if el != nil {
					n, ok := ev.formBound(length(el)); fmt.Println("     ", n, ok)
				}
			}
		}
	}
}

func TestZZWhere(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, _ := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		for _, c := range r.contexts {
			g := c.under("Grad", "ValueAndGrad", "Vmap")
			fmt.Printf("ctx %s root %s transforms %d under %v\n", c.Fn, c.Root.Entry, len(c.Root.Transforms), g != nil)
			for _, b := range c.Fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok || call.Common().StaticCallee() == nil || jitName(call.Common().StaticCallee()) != "Where" {
						continue
					}
					for k, a := range call.Common().Args {
						fmt.Printf("   where arg %d = %s\n", k, c.value(a, b))
					}
				}
			}
		}
	}
}

func TestZZCallArgs(t *testing.T) {
	dir, pat, name := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_CALLEE")
	if dir == "" {
		t.Skip()
	}
	pkgs, _ := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		for _, c := range r.contexts {
			for _, b := range c.Fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok || call.Common().StaticCallee() == nil || call.Common().StaticCallee().Name() != name {
						continue
					}
					fmt.Printf("ctx %s call %s\n", c.Fn, r.Fset.Position(instr.Pos()))
					for k, a := range call.Common().Args {
						v := c.value(a, b)
						_, out := r.outlivesExpr(v)
						fmt.Printf("   arg %d = %s outlives %v\n", k, v, out)
					}
				}
			}
		}
	}
}

func TestZZIsTraced(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, _ := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if _, ok := p.TypesInfo.ObjectOf(id).(*types.Var); ok {
						fmt.Println(p.Fset.Position(id.Pos()), id.Name, r.IsTraced(id))
					}
				}
				return true
			})
		}
	}
}

func TestZZIllTyped(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, _ := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	for _, p := range pkgs {
		fmt.Println("errors", len(p.TypeErrors))
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo, p.TypeErrors...)
		fmt.Println("result", r != nil)
		if r != nil {
			for _, f := range r.Funcs {
				fmt.Println("func", f.Name)
			}
		}
	}
}

func TestZZFuncs(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, _ := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		for _, f := range r.Funcs {
			fmt.Println("func", f.Name, f.Entry, len(f.EntryCalls))
			for _, c := range f.EntryCalls {
				fmt.Println("   ", p.Fset.Position(c.Pos()))
			}
		}
	}
}
