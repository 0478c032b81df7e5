package main

import (
	"fmt"
	"go/token"
	"io"
	"strings"
)

// printText prints findings as go vet does: "file:line:col: message"
// lines, each related position on a line of its own with its message
// indented, and with context >= 0 the finding's lines and that many lines
// around them. A finding that a run's events judged ends in "(the run:
// STATUS)".
func printText(w io.Writer, fs []*finding, context int, src sources) {
	print := func(from, to token.Position, message string) {
		fmt.Fprintf(w, "%s: %s\n", from, message)
		if context < 0 {
			return
		}
		lines := strings.Split(string(src.get(from.Filename)), "\n")
		for i := from.Line - context; i <= to.Line+context; i++ {
			if 1 <= i && i <= len(lines) {
				fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
			}
		}
	}
	for _, f := range fs {
		print(f.pos, f.end, f.message+runtimeSuffix(f.runtime))
		for _, r := range f.related {
			print(r.pos, r.end, "\t"+r.message)
		}
	}
}

// runtimeSuffix is the text that says what a run's events say about a
// finding.
func runtimeSuffix(status string) string {
	if status == "" {
		return ""
	}
	return " (the run: " + status + ")"
}
