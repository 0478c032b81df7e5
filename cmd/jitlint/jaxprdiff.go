package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/jitlint/jitlint/lsp"
)

const jaxprDiffUsage = `usage: jitlint jaxpr-diff [-json] [PKG.]FUNC SIGNATURE_A SIGNATURE_B

Traces the traced function FUNC of package PKG (a directory such as
./examples/codelab or an import path; the current directory when omitted)
under two input signatures in //jit:args syntax and prints a one-line summary
of what differs (avals, equation counts, primitives) and a unified diff of the
two jaxprs. It builds and runs the package's code, as a jitls preview does.

  jitlint jaxpr-diff ./examples/codelab.Model 'f32[4]' 'f32[8]'
  jitlint jaxpr-diff ./examples/codelab.Power '2, f32[4]' '3, f32[4]'
`

// isJaxprDiff reports whether the command line asks for a jaxpr diff.
func isJaxprDiff(args []string) bool {
	return len(args) > 0 && (args[0] == "jaxpr-diff" || args[0] == "-jaxpr-diff" || args[0] == "--jaxpr-diff")
}

// runJaxprDiff runs the jaxpr-diff subcommand and returns the exit code:
// 0 on success (whether or not the jaxprs differ), 2 on a usage or tracing
// error.
func runJaxprDiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jaxpr-diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	fs.Usage = func() { fmt.Fprint(stderr, jaxprDiffUsage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 3 {
		fs.Usage()
		return 2
	}
	dir, fn, err := resolveFunc(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "jitlint jaxpr-diff: %v\n", err)
		return 2
	}
	d, err := lsp.DiffJaxpr(context.Background(), dir, fn, fs.Arg(1), fs.Arg(2))
	if err != nil {
		fmt.Fprintf(stderr, "jitlint jaxpr-diff: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(d)
		return 0
	}
	fmt.Fprintf(stdout, "%s: %s\n", d.Function, d.Summary)
	if d.Diff != "" {
		fmt.Fprintf(stdout, "\n%s", d.Diff)
	}
	return 0
}

// resolveFunc splits "[PKG.]FUNC" and finds PKG's directory with go list.
func resolveFunc(arg string) (dir, fn string, err error) {
	i := strings.LastIndex(arg, ".")
	if i < 0 {
		dir, err = os.Getwd()
		return dir, arg, err
	}
	pkg, fn := arg[:i], arg[i+1:]
	if fn == "" || pkg == "" {
		return "", "", fmt.Errorf("%q: want FUNC or PKG.FUNC, e.g. ./examples/codelab.Model", arg)
	}
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).CombinedOutput()
	if err != nil {
		return "", "", fmt.Errorf("finding package %s: %s", pkg, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), fn, nil
}
