package analyzers

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func TestZZSuite(t *testing.T) {
	dir, pat := os.Getenv("DBG_DIR"), os.Getenv("DBG_PKG")
	if dir == "" {
		t.Skip()
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: false}, pat)
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Analyze(Suite(Config{}), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range res.Roots {
		if act.Err != nil {
			fmt.Println("ERR", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			fmt.Printf("D %s %s: %s\n", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message)
		}
	}
}
