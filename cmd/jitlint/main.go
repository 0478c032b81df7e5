// Command jitlint runs the jitlint analyzers (tracedbool, unrolledloop,
// staticargs, shapechurn, traceeffect, wherenan, batchedcond) on Go packages
// that use github.com/jitlint/jitlint/jit. Findings are suppressed with
// //jitlint:ignore and //jitlint:file-ignore directives; the directive
// analyzer reports the directives that are wrong or suppress nothing.
//
// It is a multichecker and a go vet tool in one binary:
//
//	jitlint ./...                       report findings (exit 3 when there are some)
//	jitlint -fix ./...                  apply the suggested fixes
//	jitlint -json ./...                 findings as JSON (the same as -format=json)
//	jitlint -format=sarif ./...         findings as a SARIF 2.1.0 log (or text, json, github)
//	jitlint -events FILE ./...          add what a run with JITLINT_EVENTS=FILE did
//	jitlint -baseline FILE ./...        report only findings that FILE (-format=json) lacks
//	jitlint -unrolledloop.max=64 ./...  tune an analyzer; -NAME=false turns one off
//	jitlint -directive=false ./...      do not check the suppression directives
//	go vet -vettool=$(which jitlint) ./...
//	jitlint jaxpr-diff ./pkg.Func 'f32[4]' 'f32[8]'   diff a function's jaxprs under two signatures
//
// The command's own driver (lint.go) loads the packages with go/packages,
// type-checking from source only those the analyzers run on and reading the
// others' types from export data (load.go), and runs the analyzers with
// x/tools' checker; -fix, -V and help are
// multichecker's. Under go vet (a *.cfg argument) it uses its own driver
// (vet.go): packages that do not import jit are skipped without being
// read, and the others are type-checked against the compiler's export
// data, so that go vet with jitlint costs far less than go vet itself. With
// JITLINT_VET=unitchecker in the environment it uses the stock
// golang.org/x/tools unitchecker instead (the fallback, should a Go release
// change the go vet protocol); TestVetDriverMatchesUnitchecker requires
// both to give the same output.
//
// See docs/analyzers.md for what each analyzer reports and why.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis/multichecker"
)

// gcPercent is the garbage collector's target when GOGC is not set: the
// analysis allocates much and briefly, and a short-lived command gains
// from fewer collections (jitlint -test ./... on this module: 3.4 → 2.9 s,
// peak RSS 0.56 → 0.74 GB; 400 was no faster and took 1.06 GB).
const gcPercent = 200

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if isJaxprDiff(os.Args[1:]) {
		os.Exit(runJaxprDiff(os.Args[2:], os.Stdout, os.Stderr))
	}
	all := analyzers.All()
	args := os.Args[1:]
	switch driver := os.Getenv("JITLINT_VET"); driver {
	case "":
	case "unitchecker":
		// multichecker.Main runs unitchecker on a *.cfg argument and
		// answers go vet's -flags; only the tool's identity for go vet's
		// cache changes.
		if len(args) == 1 && args[0] == "-V=full" {
			os.Exit(printVetToolID(driver))
		}
		if vetInvocation(args) || (len(args) == 1 && args[0] == "-flags") {
			multichecker.Main(all...)
		}
	default:
		fmt.Fprintf(os.Stderr, "jitlint: JITLINT_VET=%q: want unitchecker (the stock go vet driver) or nothing (jitlint's own)\n", driver)
		os.Exit(1)
	}
	if vetInvocation(args) {
		os.Exit(runVet(all, args))
	}
	os.Exit(runCommand(all, args))
}

// printVetToolID answers go vet's -V=full as multichecker does (the
// executable's SHA-256 as its build ID) with the driver's name added to the
// ID: go vet caches a tool's output under that ID, and must not hand back
// one driver's results for the other.
func printVetToolID(driver string) int {
	exe, err := os.Executable()
	if err == nil {
		var data []byte
		if data, err = os.ReadFile(exe); err == nil {
			fmt.Printf("%s version devel comments-go-here buildID=%x-%s\n", exe, sha256.Sum256(data), driver)
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "jitlint: -V=full: %v\n", err)
	return 1
}
