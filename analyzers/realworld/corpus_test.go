package realworld_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/jitlint/jitlint/analyzers"
)

// recorded are the scores last recorded in bench/RESULTS.md ("Analyzers on
// the runtime-confirmed corpus"): the test fails when an analyzer falls
// below them. Raise them when the analyzers get better.
var recorded = map[string]score{
	"tracedbool":   {precision: 1, recall: 1},
	"unrolledloop": {precision: 0.98, recall: 0.89},
	"staticargs":   {precision: 0.98, recall: 0.93},
	"shapechurn":   {precision: 0.92, recall: 0.83},
	"traceeffect":  {precision: 1, recall: 0.99},
}

// unrollMax is unrolledloop's default: a loop is unrolled into the trace
// when its body runs more than this many times per trace.
const unrollMax = 32

type score struct{ precision, recall float64 }

// The oracle: what the runtime says at each candidate site.
//
//   - tracedbool: the program's trace fails with TracerBoolConversionError
//     or ConcretizationTypeError at the host conversion's line (the events
//     record's trace_error, whether or not the program recovers, or the
//     crash on standard error) (in a library
//     package: at the program's call through which it was traced, as for
//     traceeffect below).
//   - traceeffect: the statement's effect runs while tracing (a probe
//     before it finds a jit trace on the stack): once per trace, not per call.
//     In a library package the finding belongs to the call in the program
//     through which it was traced (the analyzers report it there, where the
//     facts of the library meet the traced values).
//   - unrolledloop: the loop runs inside a trace, its body more than 32
//     times in one run of the loop (the body's operations are staged once
//     per iteration: the corpus's long loops all stage operations).
//   - staticargs: at a call of a jitted function, at least 2 cache misses
//     explained by a changed static argument (recompiles), with a compile
//     (the first or a recompile) for at least every other call at that
//     site (a few values that repeat are not churn), or a
//     BadStaticArgError there; at a jit.Jit call, the call runs more than
//     once and the events record shows its function compiled again for a
//     signature it was compiled for before (a new wrapper with an empty
//     cache: a closure, or a method value of the same receiver; wrappers of
//     a named function share one cache, and a method value of a receiver
//     that the run makes, outside a loop, is a new function each run; in a
//     loop each iteration's wrapper compiles it again), for at least every
//     other call of the function (a table of wrappers reused is not churn).
//   - shapechurn: at a call of a jitted function, at least 2 cache misses
//     explained by a changed input shape, counted as for staticargs.
func oracle(s *sites, o *observed) (truth map[string]map[site]bool, unexercised []string) {
	truth = map[string]map[site]bool{}
	for _, name := range analyzerNames {
		truth[name] = map[site]bool{}
	}
	for st, kinds := range s.kinds {
		id := st.String()
		h := o.hits[id]
		ran := h["eager"]+h["trace"] > 0
		for _, k := range kinds {
			switch k {
			case convSite:
				failed := slices.Contains(o.traceErrors[st], "TracerBoolConversionError") || slices.Contains(o.traceErrors[st], "ConcretizationTypeError")
				ran = ran || failed
				if !s.library[st.file] {
					truth["tracedbool"][st] = truth["tracedbool"][st] || failed
					break
				}
				truth["tracedbool"][st] = truth["tracedbool"][st] || false
				for via := range o.tracedVia[id] {
					truth["tracedbool"][via] = truth["tracedbool"][via] || failed
				}
			case effectSite:
				if !s.library[st.file] {
					truth["traceeffect"][st] = truth["traceeffect"][st] || h["trace"] > 0
					break
				}
				// Traced from another package: found at the call that
				// passes the traced values (facts flow to importers).
				truth["traceeffect"][st] = truth["traceeffect"][st] || false
				for via := range o.tracedVia[id] {
					truth["traceeffect"][via] = true
				}
			case loopSite:
				if !s.library[st.file] {
					truth["unrolledloop"][st] = truth["unrolledloop"][st] || o.iterations[id] > unrollMax
					break
				}
				// A loop of another package, unrolled by what a caller
				// passes: found at the call that passes it (facts flow to
				// importers), as for effects; at the loop itself when no
				// call of another package runs inside the trace (the
				// library's function is the one jitted).
				if len(o.iterationsVia[id]) == 0 {
					truth["unrolledloop"][st] = o.iterations[id] > unrollMax
					break
				}
				truth["unrolledloop"][st] = truth["unrolledloop"][st] || false
				for via, n := range o.iterationsVia[id] {
					truth["unrolledloop"][via] = truth["unrolledloop"][via] || n > unrollMax
				}
			case callSite:
				calls := h["eager"] + h["trace"]
				// At least two recompiles, and a compile (the first, or
				// one of them) for at least every other call.
				churn := func(misses int) bool { return misses >= 2 && 2*(misses+o.firstCompiles[st]) >= calls }
				bad := slices.Contains(o.traceErrors[st], "BadStaticArgError")
				truth["staticargs"][st] = truth["staticargs"][st] || churn(o.misses[st]["static"]) || bad
				truth["shapechurn"][st] = truth["shapechurn"][st] || churn(o.misses[st]["shape"])
				ran = ran || bad
			case jitSite:
				// Compiled again for a signature by another wrapper, and at
				// least every other call of the function compiles (wrappers
				// kept in a table and reused are not churn).
				again, compiles, calls := false, 0, 0
				for _, key := range s.defined[st] {
					for _, n := range o.compiles[key] {
						again, compiles = again || n >= 2, compiles+n
					}
					for caller := range o.callers[key] {
						calls += o.hits[caller.String()]["eager"] + o.hits[caller.String()]["trace"]
					}
				}
				truth["staticargs"][st] = truth["staticargs"][st] || h["eager"] >= 2 && again && 2*compiles >= calls && !s.bound[st]
			}
		}
		if !ran {
			unexercised = append(unexercised, id)
		}
	}
	sort.Strings(unexercised)
	return truth, unexercised
}

var analyzerNames = analyzers.Names[:5]

// corpusDir is the corpus module: testdata, or the directory named by
// JITLINT_CORPUS (a held-out round of programs, checked and scored the same
// way before it joins the corpus).
func corpusDir() string {
	if d := os.Getenv("JITLINT_CORPUS"); d != "" {
		return d
	}
	return "testdata"
}

// TestCorpus runs the corpus and checks its labels against the runtime,
// then scores the analyzers against the labels.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the corpus programs")
	}
	dir, err := filepath.Abs(corpusDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir, Env: append(os.Environ(), "GOPROXY=off", "GOWORK=off")}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the corpus does not type-check")
	}
	s, err := findSites(dir, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := readLabels(dir, pkgs)
	if err != nil {
		t.Fatal(err)
	}

	// (1) Every label is true at run time, every unlabelled site is clean.
	obs := runCorpus(t, dir, pkgs, s)
	if !obs.sawTrace() {
		t.Fatal("no probe ran inside a trace: the probe looks for jit's (*funcCore).traceInto and traceSub on the stack; if they were renamed, update probeSource in run_test.go")
	}
	truth, unexercised := oracle(s, obs)
	for _, id := range unexercised {
		t.Errorf("%s: the site never runs, so the runtime cannot confirm it: make the program run it", id)
	}
	for _, name := range analyzerNames {
		for st := range labels[name] {
			if _, candidate := truth[name][st]; !candidate {
				t.Errorf("%s: labelled %s, but there is no %s site on the line", st, name, name)
			} else if !truth[name][st] {
				t.Errorf("%s: labelled %s, but the runtime does not confirm it", st, name)
			}
		}
		for st, yes := range truth[name] {
			if yes && !labels[name][st] {
				t.Errorf("%s: the runtime shows a %s finding, but the line has no label", st, name)
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if os.Getenv("JITLINT_CORPUS_LABELS_ONLY") == "1" {
		t.Logf("every label of the %d programs is confirmed by the runtime; the analyzers were not run", programs(pkgs))
		return
	}

	// (2) The analyzers against the labels.
	reports := runAnalyzers(t, pkgs, dir)
	var table strings.Builder
	fmt.Fprintf(&table, "| analyzer | labelled | reported | true | precision | recall |\n|---|---|---|---|---|---|\n")
	var notes []string
	for _, name := range analyzerNames {
		tp, fp, fn := 0, 0, 0
		for st := range reports[name] {
			if labels[name][st] {
				tp++
			} else {
				fp++
				notes = append(notes, fmt.Sprintf("false report: %s %s", name, st))
			}
		}
		for st := range labels[name] {
			if !reports[name][st] {
				fn++
				notes = append(notes, fmt.Sprintf("miss: %s %s", name, st))
			}
		}
		sc := score{ratio(tp, tp+fp), ratio(tp, tp+fn)}
		fmt.Fprintf(&table, "| %s | %d | %d | %d | %.2f | %.2f |\n", name, tp+fn, tp+fp, tp, sc.precision, sc.recall)
		if want := recorded[name]; os.Getenv("JITLINT_CORPUS") == "" && (sc.precision < want.precision-1e-9 || sc.recall < want.recall-1e-9) {
			t.Errorf("%s: precision %.2f, recall %.2f; recorded %.2f, %.2f", name, sc.precision, sc.recall, want.precision, want.recall)
		}
	}
	sort.Strings(notes)
	t.Logf("analyzers on the corpus (%d programs):\n%s\n%s", programs(pkgs), table.String(), strings.Join(notes, "\n"))
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func programs(pkgs []*packages.Package) int {
	n := 0
	for _, p := range pkgs {
		if p.Name == "main" {
			n++
		}
	}
	return n
}

// readLabels reads the "// want <analyzer>..." comments of the corpus.
func readLabels(dir string, pkgs []*packages.Package) (map[string]map[site]bool, error) {
	labels := map[string]map[site]bool{}
	for _, name := range analyzerNames {
		labels[name] = map[site]bool{}
	}
	for _, pkg := range pkgs {
		for _, f := range pkg.Syntax {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					rest, ok := strings.CutPrefix(c.Text, "// want ")
					if !ok {
						continue
					}
					pos := pkg.Fset.Position(c.Pos())
					rel, _ := filepath.Rel(dir, pos.Filename)
					for _, name := range strings.Fields(rest) {
						if labels[name] == nil {
							return nil, fmt.Errorf("%s:%d: unknown analyzer %q in label", rel, pos.Line, name)
						}
						labels[name][site{rel, pos.Line}] = true
					}
				}
			}
		}
	}
	return labels, nil
}

// runAnalyzers runs the suite on the corpus and returns the sites of the
// findings of each analyzer.
func runAnalyzers(t *testing.T, pkgs []*packages.Package, dir string) map[string]map[site]bool {
	t.Helper()
	graph, err := checker.Analyze(analyzers.All(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[site]bool{}
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			rel, _ := filepath.Rel(dir, pos.Filename)
			if out[act.Analyzer.Name] == nil {
				out[act.Analyzer.Name] = map[site]bool{}
			}
			out[act.Analyzer.Name][site{rel, pos.Line}] = true
		}
	}
	return out
}
