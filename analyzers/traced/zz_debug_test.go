package traced

import (
	"fmt"
	"os"
	"testing"

	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

func TestZZDebug(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, pat)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, c := range r.contexts {
			fmt.Printf("ctx %s depth %d root %s %s\n", c.Fn, c.depth, c.Root.Entry, r.Fset.Position(c.Fn.Pos()))
			if os.Getenv("DBG_ENV") != "" && c.Env != nil {
				for i, p := range c.Env.Params {
					fmt.Printf("   param %d = %s\n", i, p)
				}
				for i, p := range c.Env.Frees {
					fmt.Printf("   free %d = %s\n", i, p)
				}
			}
		}
		for _, cv := range r.Conversions() {
			fmt.Printf("conv %s\n", r.Fset.Position(cv.Call.Pos()))
		}
		for _, e := range r.Effects() {
			fmt.Printf("effect %s %s %s\n", r.Fset.Position(e.Pos), e.Class, EffectMessage(e))
		}
		if fn := os.Getenv("DBG_FN"); fn != "" {
			for _, f := range r.flow.funcs {
				if f.Name() == fn {
					s := r.flow.summary(f)
					for _, b := range f.Blocks {
						for _, instr := range b.Instrs {
							if v, ok := instr.(interface{ Name() string }); ok {
								if vv, ok := instr.(interface {
									Name() string
									String() string
								}); ok {
									_ = v
									if val, ok := instr.(ssaValue); ok {
										fmt.Printf("  %s = %s   : %s\n", vv.Name(), vv.String(), s.value(val))
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

type ssaValue = interface {
	Name() string
	String() string
	Type() types.Type
	Pos() token.Pos
	Parent() *ssa.Function
	Referrers() *[]ssa.Instruction
}

func TestZZFacts(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, fn := range r.flow.funcs {
			if ps := r.problemsOf(fn); len(ps) > 0 {
				fmt.Println(fn, ps)
			}
		}
	}
}

func TestZZValues(t *testing.T) {
	dir, pat, fnName := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_FN")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, c := range r.contexts {
			if c.Fn.Name() != fnName {
				continue
			}
			fmt.Println("context", c.Fn, c.key())
			for _, b := range c.Fn.Blocks {
				fmt.Println(" block", b.Index, b.Comment, "live", c.Live(b))
				for _, instr := range b.Instrs {
					if v, ok := instr.(ssa.Value); ok {
						fmt.Printf("   %s = %s\n      sum: %s\n      ctx: %s\n", v.Name(), v, r.flow.summary(c.Fn).value(v), c.value(v, nil))
					} else {
						fmt.Printf("   %s\n", instr)
					}
				}
			}
		}
	}
}

func TestZZEffects(t *testing.T) {
	dir, pat, fnName := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_FN")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, c := range r.contexts {
			if c.Fn.Name() != fnName {
				continue
			}
			for _, b := range c.Fn.Blocks {
				for _, instr := range b.Instrs {
					if st, ok := instr.(*ssa.Store); ok {
						p, out := r.outlives(c, st.Addr, b)
						fmt.Println("store", st, r.Fset.Position(st.Pos()), "addr", c.value(st.Addr, b), "outlives", p, out, "lhs", r.assigned(st.Pos()), "fails", r.failsBefore(c, st))
					}
				}
			}
			for _, e := range r.effectsIn(c) {
				fmt.Println("effect", r.Fset.Position(e.Pos), EffectMessage(e))
			}
		}
	}
}

func TestZZCalls(t *testing.T) {
	dir, pat, fnName := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_FN")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, c := range r.contexts {
			if c.Fn.Name() != fnName {
				continue
			}
			fmt.Println("context", c.key())
			for _, b := range c.Fn.Blocks {
				for _, instr := range b.Instrs {
					if call, ok := instr.(ssa.CallInstruction); ok {
						fmt.Println(" call", call, r.Fset.Position(call.Pos()))
						for i, a := range call.Common().Args {
							fmt.Println("   arg", i, c.value(a, b))
						}
						if call.Common().IsInvoke() || call.Common().StaticCallee() == nil {
							fmt.Println("   callee", c.value(call.Common().Value, b))
						}
					}
				}
			}
		}
	}
}

func TestZZLoops(t *testing.T) {
	dir, pat, fnName := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_FN")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, c := range r.contexts {
			if fnName != "" && c.Fn.Name() != fnName {
				continue
			}
			s := r.flow.summary(c.Fn)
			for _, l := range s.loops {
				s.solve(l)
				pos := "nostmt"
				if l.Stmt != nil {
					pos = r.Fset.Position(l.Stmt.Pos()).String()
				}
				ops := 0
				for b := range l.blocks {
					ops += r.contextOps(c, b)
				}
				fmt.Printf("loop %s in %s: trips=%s pre=%s post=%s enter=%s ops=%d\n", pos, c.Fn, l.trips, l.pre, l.post, l.enter, ops)
				for k := range l.phis {
					fmt.Printf("   phi %d init=%s next=%s\n", k, l.init[k], l.next[k])
				}
			}
			for _, lc := range r.loopsIn(c) {
				fmt.Printf("  count: %+v\n", lc)
			}
		}
	}
}

func TestZZInputs(t *testing.T) {
	dir, pat, fnName := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_FN")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, c := range r.contexts {
			if c.Fn.Name() != fnName {
				continue
			}
			for i, prm := range c.Env.Params {
				prm.mentions(func(a *Expr) bool {
					if a.Kind == kInput {
						for _, v := range a.Args {
							vs := r.flow.values(v)
							fmt.Printf("param %d input %s arg %s → %v %v\n", i, a.Name, v, vs.vals, vs.bounded)
							v.mentions(func(b *Expr) bool {
								if b.Kind == kAtExit {
									ev := r.flow.newEvaluator()
									run := ev.runLoop(b.Loop, b.Env)
									fmt.Printf("   exit loop ok=%v states=%d post=%v trips=%v\n", run.ok, len(run.states), run.post, b.Loop.trips)
									x := b.Args[0]
									if b.Env != nil {
										x = r.flow.subst(x, b.Env)
									}
									fmt.Printf("   x=%s lenclosed=%s at=%v\n", x, lengthClosed(b.Loop, 0), ev.at(b.Loop, run.exit, len(run.states), x).vals)
								}
								return false
							})
						}
					}
					return false
				})
			}
		}
	}
}

func TestZZSummary(t *testing.T) {
	dir, pat, fnName := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG"), os.Getenv("DBG_FN")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, _ := packages.Load(cfg, pat)
	for _, p := range pkgs {
		r := Build(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		if r == nil {
			continue
		}
		for _, fn := range r.flow.funcs {
			if fn.Name() != fnName {
				continue
			}
			s := r.flow.summary(fn)
			for _, b := range fn.Blocks {
				fmt.Println(" block", b.Index, b.Comment)
				for _, instr := range b.Instrs {
					if v, ok := instr.(ssa.Value); ok {
						e := s.value(v)
						fmt.Printf("   %s = %s\n      sum: %s  vals=%v\n", v.Name(), v, e, r.flow.values(e).vals)
					} else {
						fmt.Printf("   %s\n", instr)
					}
				}
			}
			for _, l := range s.loops {
				s.solve(l)
				for k := range l.init {
					fmt.Printf(" loop state %d init=%s next=%s\n", k, l.init[k], l.next[k])
				}
				ev := r.flow.newEvaluator()
				run := ev.runLoop(l, nil)
				fmt.Printf(" run ok=%v n=%d\n", run.ok, len(run.states))
				for k := len(l.phis); k < len(l.init); k++ {
					n, ok := ev.distinct(l, iter(l, k), nil)
					fmt.Printf("  mem %d distinct %d %v\n", k, n, ok)
				}
			}
		}
	}
}
