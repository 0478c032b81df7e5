package analyzers_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestSharedResult runs the whole suite, whose analyzers share one traced
// Result and run in parallel, on the codelab and the jit package's tests
// (the most traced code of this module). Under go test -race it checks
// that the Result's lazily filled memo tables are safe for that.
func TestSharedResult(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages from source")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Tests: true, Dir: ".."}, "./examples/codelab", "./jit")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the packages do not load")
	}
	g, err := checker.Analyze(analyzers.All(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	findings := 0
	for act := range g.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		if act.IsRoot {
			findings += len(act.Diagnostics)
		}
	}
	if findings == 0 {
		t.Error("no findings on the codelab")
	}
}
