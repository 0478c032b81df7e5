package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/jitlint/jitlint/analyzers/suppress"
	"github.com/jitlint/jitlint/jit/events"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/packages"
)

// The command: jitlint [flags] packages. It loads the packages (load.go:
// from source where the analyzers run, from export data elsewhere), runs
// the analyzers with x/tools' checker, adds what the
// events files of -events show, drops what the -baseline file accepts, and
// prints the findings in the -format asked for. -fix, -V and help are
// multichecker's.

// Exit statuses of the command.
const (
	exitClean    = 0 // no findings (or -format=json)
	exitFailed   = 1 // a package, an analyzer, an events or baseline file failed
	exitFindings = 3 // findings were printed (text, sarif, github)
)

// runCommand runs the command on args (os.Args[1:]) and returns its exit
// status; it does not return for what multichecker does.
func runCommand(all []*analysis.Analyzer, args []string) int {
	if len(args) == 1 && (args[0] == "-flags" || args[0] == "--flags") {
		return printFlags(all, reports)
	}
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-V") || strings.HasPrefix(a, "--V") }) {
		multichecker.Main(all...) // prints the version for go vet
	}
	opts, run, reportOn, patterns, err := parseFlags(all, reports, args)
	if err == nil {
		opts.format, err = opts.outputFormat()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v (see jitlint help)\n", err)
		return exitFailed
	}
	if opts.fix || len(patterns) == 0 || patterns[0] == "help" {
		if opts.format != formatText || len(opts.events) > 0 || opts.baseline != "" {
			fmt.Fprintln(os.Stderr, "jitlint: -fix and help do not combine with -format, -events or -baseline")
			return exitFailed
		}
		if opts.fix && opts.diff && os.Getenv(diffChildEnv) == "" {
			return fixDiff(args)
		}
		multichecker.Main(all...) // applies the fixes, or prints the usage or help
	}
	// The events and the baseline are read first, so that a bad file fails at once.
	var evs []events.Event
	if len(opts.events) > 0 {
		if evs, err = readEventFiles(opts.events); err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
			return exitFailed
		}
	}
	var base *baseline
	if opts.baseline != "" {
		if base, err = readBaseline(opts.baseline); err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
			return exitFailed
		}
	}
	pkgs, err := loadPackages(patterns, opts.tests)
	if err == nil && len(pkgs) == 0 {
		err = fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
		return exitFailed
	}
	code := exitClean
	if packages.PrintErrors(pkgs) > 0 {
		code = exitFailed
	}
	graph, err := checker.Analyze(run, pkgs, &checker.Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
		return exitFailed
	}
	fs, errs := graphFindings(graph)
	if len(errs) > 0 {
		code = exitFailed
	}
	src := sources{}
	rules := analyzerRules(run)
	if len(opts.events) > 0 {
		reported := judgeByEvents(evs, fs, pkgs, src)
		for _, r := range reports {
			if reportOn[r.name] {
				rules = append(rules, r)
			}
		}
		for _, f := range reported {
			if reportOn[f.rule.name] {
				fs = append(fs, f)
			}
		}
	}
	sortFindings(fs)
	if base != nil {
		var accepted int
		fs, accepted = base.filter(fs, moduleRoots(pkgs))
		if accepted > 0 {
			fmt.Fprintf(os.Stderr, "jitlint: %d findings accepted by the baseline %s\n", accepted, opts.baseline)
		}
	}
	if err := print(os.Stdout, os.Stderr, opts, fs, rules, errs, src); err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
		return exitFailed
	}
	for _, e := range errs {
		fmt.Fprintf(os.Stderr, "jitlint: %s: analyzer %s failed: %v\n", e.pkg, e.analyzer, e.err)
	}
	if code == exitClean && len(fs) > 0 && opts.format != formatJSON {
		code = exitFindings
	}
	return code
}

// graphFindings returns the findings of the analysis (once each, though
// a file is in a package and in its test variant) and the analyzers that
// failed.
func graphFindings(g *checker.Graph) ([]*finding, []analysisError) {
	var fs []*finding
	var errs []analysisError
	for act := range g.All() {
		if act.Err != nil {
			errs = append(errs, analysisError{act.Package.ID, act.Analyzer.Name, act.Err})
			continue
		}
		if act.IsRoot {
			r := analyzerRule(act.Analyzer)
			for _, d := range act.Diagnostics {
				fs = append(fs, newFinding(act.Package.Fset, act.Package.Syntax, r, act.Package.ID, d))
			}
		}
	}
	return dedupe(fs), errs
}

// judgeByEvents sets the verdict of the run's events on each of the
// analyzers' findings fs (the directive analyzer's aside), and returns the
// findings of the reports of the events.
func judgeByEvents(evs []events.Event, fs []*finding, pkgs []*packages.Package, src sources) []*finding {
	ev := newRunEvidence(evs, filePackages(pkgs), src)
	for _, f := range fs {
		if f.rule.name != suppress.Name {
			f.runtime = ev.judge(f)
		}
	}
	return ev.findings
}

// analyzerRules are the rules of the analyzers.
func analyzerRules(as []*analysis.Analyzer) []*rule {
	var out []*rule
	for _, a := range as {
		out = append(out, analyzerRule(a))
	}
	return out
}

// filePackages maps each Go file of pkgs to the ID of the first package
// that has it.
func filePackages(pkgs []*packages.Package) map[string]string {
	m := map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if _, ok := m[f]; !ok {
				m[f] = p.ID
			}
		}
	}
	return m
}

// moduleRoots are the directories of the modules of pkgs.
func moduleRoots(pkgs []*packages.Package) []string {
	var out []string
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Dir != "" && !slices.Contains(out, p.Module.Dir) {
			out = append(out, p.Module.Dir)
		}
	}
	return out
}

// print prints the findings in the format of opts: text on stderr as go
// vet does, the others on stdout.
func print(stdout, stderr io.Writer, opts *options, fs []*finding, rules []*rule, errs []analysisError, src sources) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	paths := &pathNamer{cwd}
	switch opts.format {
	case formatJSON:
		return printJSON(stdout, fs, errs)
	case formatSARIF:
		return printSARIF(stdout, fs, rules, errs, src, paths)
	case formatGitHub:
		printGitHub(stdout, fs, src, paths)
	default:
		printText(stderr, fs, opts.context, src)
	}
	return nil
}
