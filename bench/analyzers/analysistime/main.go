// Command analysistime times the jitlint analyzers in process, without the
// go command around them: it loads the packages (with their tests) once,
// then runs the whole suite on them and their dependencies -runs times and
// prints the fastest and the median run. Run it from the module root, side
// by side with a build of another revision, to compare analysis cost:
//
//	go run ./bench/analyzers/analysistime -runs 60 ./jit
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func main() {
	runs := flag.Int("runs", 60, "number of timed runs")
	flag.Parse()
	if *runs < 1 || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: analysistime [-runs n] packages...")
		os.Exit(2)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Tests: true}, flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "analysistime:", err)
		os.Exit(1)
	}
	if packages.PrintErrors(pkgs) > 0 {
		os.Exit(1)
	}
	var times []time.Duration
	findings := 0
	for range *runs {
		start := time.Now()
		g, err := checker.Analyze(analyzers.All(), pkgs, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "analysistime:", err)
			os.Exit(1)
		}
		times = append(times, time.Since(start))
		findings = 0
		for act := range g.All() {
			if act.IsRoot {
				findings += len(act.Diagnostics)
			}
		}
	}
	slices.Sort(times)
	fmt.Printf("%d runs: fastest %v, median %v; %d findings\n", *runs, times[0], times[len(times)/2], findings)
}
