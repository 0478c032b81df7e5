// Command jitlint runs the jitlint analyzers (tracedbool, unrolledloop,
// staticargs, shapechurn, traceeffect) on Go packages that use
// github.com/jitlint/jitlint/jit. Findings are suppressed with
// //jitlint:ignore and //jitlint:file-ignore directives; the directive
// analyzer reports the directives that are wrong or suppress nothing.
//
// It is a multichecker and a go vet tool in one binary:
//
//	jitlint ./...                       report findings (exit 3 when there are some)
//	jitlint -fix ./...                  apply the suggested fixes
//	jitlint -json ./...                 findings as JSON
//	jitlint -unrolledloop.max=64 ./...  tune an analyzer; -NAME=false turns one off
//	jitlint -directive=false ./...      do not check the suppression directives
//	go vet -vettool=$(which jitlint) ./...
//	jitlint jaxpr-diff ./pkg.Func 'f32[4]' 'f32[8]'   diff a function's jaxprs under two signatures
//
// Under go vet (a *.cfg argument) it uses its own driver (vet.go): packages
// that do not import jit are skipped without being read, and the others are
// type-checked against the compiler's export data, so that go vet with
// jitlint costs far less than go vet itself.
//
// See docs/analyzers.md for what each analyzer reports and why.
package main

import (
	"os"

	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis/multichecker"
)

func main() {
	if isJaxprDiff(os.Args[1:]) {
		os.Exit(runJaxprDiff(os.Args[2:], os.Stdout, os.Stderr))
	}
	all := analyzers.All()
	if vetInvocation(os.Args[1:]) {
		os.Exit(runVet(all, os.Args[1:]))
	}
	multichecker.Main(all...)
}
