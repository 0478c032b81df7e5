package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// options are the command-line flags of jitlint, shared by the command
// (lint.go) and the go vet driver (vet.go); analyzer flags (-NAME.flag) are
// set on the analyzers themselves.
type options struct {
	format   string // -format as given ("" when not)
	json     bool   // -json, the same as -format=json
	fix      bool
	diff     bool
	context  int  // -c: lines of context around each finding in text
	tests    bool // analyse the packages' tests too
	events   fileList
	baseline string
	enabled  map[string]*triState
}

// The output formats (-format).
const (
	formatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	formatGitHub = "github"
)

// fileList is a flag that may be given several times.
type fileList []string

func (l *fileList) String() string     { return strings.Join(*l, ",") }
func (l *fileList) Set(s string) error { *l = append(*l, s); return nil }

// triState is an analyzer's -NAME flag: unset, true or false.
type triState struct{ set, on bool }

func (t *triState) String() string   { return fmt.Sprint(t.on) }
func (t *triState) IsBoolFlag() bool { return true }
func (t *triState) Set(s string) error {
	switch s {
	case "true", "1":
		t.set, t.on = true, true
	case "false", "0":
		t.set, t.on = true, false
	default:
		return fmt.Errorf("want true or false, got %q", s)
	}
	return nil
}

// flagSet returns the flags of jitlint over opts. The analyzers in all,
// and the reports that -events adds, have a flag -NAME that selects them;
// the analyzers' own flags are -NAME.flag, as multichecker has them.
func flagSet(all []*analysis.Analyzer, reports []*rule, opts *options) *flag.FlagSet {
	fs := flag.NewFlagSet("jitlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.format, "format", "", "output format: text, json, sarif or github (see docs/analyzers.md)")
	fs.BoolVar(&opts.json, "json", false, "emit JSON output (the same as -format=json)")
	fs.BoolVar(&opts.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&opts.diff, "diff", false, "with -fix, don't update the files, but print a unified diff")
	fs.IntVar(&opts.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&opts.tests, "test", true, "indicates whether test files should be analyzed, too")
	fs.Var(&opts.events, "events", "an events file written by a run with JITLINT_EVENTS (may be repeated): report its recompiles and trace failures, and mark the findings it confirms")
	fs.StringVar(&opts.baseline, "baseline", "", "a file written by -format=json whose findings are accepted: report only the others")
	opts.enabled = map[string]*triState{}
	enable := func(name string) {
		opts.enabled[name] = &triState{}
		fs.Var(opts.enabled[name], name, fmt.Sprintf("enable %q analysis", name))
	}
	for _, a := range all {
		enable(a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	for _, r := range reports {
		enable(r.name)
	}
	// go vet's legacy flags, accepted and ignored as multichecker does.
	fs.Bool("source", false, "no effect (deprecated)")
	fs.Bool("v", false, "no effect (deprecated)")
	fs.Bool("all", false, "no effect (deprecated)")
	fs.String("tags", "", "no effect (deprecated)")
	return fs
}

// parseFlags parses args with multichecker's meaning of the analyzer
// flags: -NAME=true runs only the named analyzers, -NAME=false turns one
// off. It returns the options, the analyzers of all that run, whether each
// report is on, and the arguments after the flags.
func parseFlags(all []*analysis.Analyzer, reports []*rule, args []string) (*options, []*analysis.Analyzer, map[string]bool, []string, error) {
	opts := &options{}
	fs := flagSet(all, reports, opts)
	if err := fs.Parse(args); err != nil {
		return nil, nil, nil, nil, err
	}
	switch opts.format {
	case "", formatText, formatJSON, formatSARIF, formatGitHub:
	default:
		return nil, nil, nil, nil, fmt.Errorf("-format=%s: want text, json, sarif or github", opts.format)
	}
	anyOn := false
	for _, t := range opts.enabled {
		anyOn = anyOn || (t.set && t.on)
	}
	runs := func(name string) bool {
		t := opts.enabled[name]
		return (anyOn && t.set && t.on) || (!anyOn && !(t.set && !t.on))
	}
	var run []*analysis.Analyzer
	for _, a := range all {
		if runs(a.Name) {
			run = append(run, a)
		}
	}
	on := map[string]bool{}
	for _, r := range reports {
		on[r.name] = runs(r.name)
	}
	return opts, run, on, fs.Args(), nil
}

// outputFormat is the format the command prints: -format, json for
// -json, text when neither is given.
func (opts *options) outputFormat() (string, error) {
	switch {
	case opts.json && opts.format != "" && opts.format != formatJSON:
		return "", fmt.Errorf("-json and -format=%s: give one of them", opts.format)
	case opts.json:
		return formatJSON, nil
	case opts.format == "":
		return formatText, nil
	}
	return opts.format, nil
}

// printFlags answers go vet's -flags: the flags as JSON, so that go vet
// knows which of its command line's flags to pass on (as analysisflags
// does, without -fix, which go vet handles itself).
func printFlags(all []*analysis.Analyzer, reports []*rule) int {
	type jsonFlag struct {
		Name  string
		Bool  bool
		Usage string
	}
	var flags []jsonFlag
	flagSet(all, reports, &options{}).VisitAll(func(f *flag.Flag) {
		if f.Name == "fix" {
			return
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		flags = append(flags, jsonFlag{f.Name, ok && b.IsBoolFlag(), f.Usage})
	})
	flags = append(flags, jsonFlag{"V", false, "print version and exit"}, jsonFlag{"flags", true, "print analyzer flags in JSON"})
	data, err := json.MarshalIndent(flags, "", "\t")
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: %v\n", err)
		return 1
	}
	os.Stdout.Write(data)
	return 0
}
