package realworld_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// TestOracleRules checks the oracle's rules on made-up observations, so
// that a change to them shows here and not only as a corpus label that
// stops matching.
func TestOracleRules(t *testing.T) {
	at := func(line int) site { return site{"p/main.go", line} }
	lib := site{"p/lib/lib.go", 3} // a library loop: 40 times through the call at line 17, 4 through 18
	s := &sites{kinds: map[site][]kind{
		at(1): {convSite}, at(2): {convSite},
		at(3): {effectSite}, at(4): {effectSite},
		at(5): {loopSite}, at(6): {loopSite},
		at(7): {callSite}, at(8): {callSite}, at(9): {callSite}, at(10): {callSite}, at(19): {callSite}, at(20): {callSite},
		at(11): {jitSite}, at(12): {jitSite}, at(14): {jitSite}, at(15): {jitSite},
		at(13): {effectSite}, // never runs
		lib:    {loopSite},
	},
		library: map[string]bool{lib.file: true},
		defined: map[site][]string{at(11): {"p/main.go:20"}, at(12): {"p/main.go:21"}, at(14): {"p/main.go:22"}, at(15): {"fn:(*T).M"}},
		bound:   map[site]bool{at(15): true},
	}
	o := &observed{
		hits: map[string]map[string]int{
			"p/main.go:2": {"eager": 3},
			"p/main.go:3": {"trace": 1}, "p/main.go:4": {"eager": 5},
			"p/main.go:5": {"trace": 2}, "p/main.go:6": {"trace": 1},
			"p/main.go:7": {"eager": 5}, "p/main.go:8": {"eager": 30}, "p/main.go:9": {"eager": 6}, "p/main.go:10": {"eager": 2},
			"p/main.go:11": {"eager": 3}, "p/main.go:12": {"eager": 1}, "p/main.go:14": {"eager": 3}, "p/main.go:15": {"eager": 3},
			"p/main.go:16": {"eager": 3}, "p/main.go:19": {"eager": 2}, "p/main.go:20": {"eager": 5}, "p/main.go:17": {"eager": 2}, lib.String(): {"trace": 2},
		},
		compiles: map[string]map[string]int{
			"p/main.go:20": {"f (x: f32[3])": 3},                     // a literal compiled again by each new wrapper
			"p/main.go:21": {"g (x: f32[3])": 2},                     // again, but the site ran once
			"p/main.go:22": {"h (x: f32[3])": 1, "h (x: f32[4])": 1}, // a named function: one shared cache
			"fn:(*T).M":    {"(*T).M (x: f32[3])": 3},                // a method value of a new receiver each run
		},
		iterations:    map[string]int{"p/main.go:5": 33, "p/main.go:6": 32, lib.String(): 40},
		iterationsVia: map[string]map[site]int{lib.String(): {at(17): 40, at(18): 4}},
		traceErrors:   map[site][]string{at(1): {"TracerBoolConversionError"}, at(10): {"BadStaticArgError"}},
		misses: map[site]map[string]int{
			at(7):  {"static": 4}, // every call recompiles
			at(8):  {"shape": 2},  // 3 buckets for 30 calls
			at(9):  {"shape": 3},  // every other call
			at(19): {"shape": 1},  // two shapes, two calls: one recompile
			at(20): {"shape": 2},  // three compiles in five calls, the first here
		},
		firstCompiles: map[site]int{at(19): 1, at(20): 1},
	}
	truth, unexercised := oracle(s, o)
	want := map[string][]site{
		"tracedbool":   {at(1)},
		"traceeffect":  {at(3)},
		"unrolledloop": {at(5), at(17)},
		"staticargs":   {at(7), at(10), at(11)},
		"shapechurn":   {at(9), at(20)},
	}
	for name, sites := range want {
		var got []site
		for st, yes := range truth[name] {
			if yes {
				got = append(got, st)
			}
		}
		slices.SortFunc(got, func(a, b site) int { return a.line - b.line })
		if !slices.Equal(got, sites) {
			t.Errorf("%s: oracle says %v, want %v", name, got, sites)
		}
	}
	if !slices.Equal(unexercised, []string{"p/main.go:13"}) {
		t.Errorf("unexercised = %v, want [p/main.go:13]", unexercised)
	}
}

// TestProbePlacement checks where a site's probe goes: before the
// statement that holds it, and for a select's or a switch's case, before
// the select or the switch (nothing can go before a case).
func TestProbePlacement(t *testing.T) {
	src := `package p
func f(out chan float64, x interface{ Item() float64 }, k int) {
	select {
	case out <- x.Item():
	}
	switch k {
	case int(x.Item()):
	}
	y := x.Item()
	_ = y
}`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Item" {
			got = append(got, fmt.Sprintf("%T@%d", listStmt(stack, n), fset.Position(listStmt(stack, n).Pos()).Line))
		}
		return true
	})
	want := []string{"*ast.SelectStmt@3", "*ast.SwitchStmt@6", "*ast.AssignStmt@9"}
	if !slices.Equal(got, want) {
		t.Errorf("probes before %v, want %v", got, want)
	}
}
