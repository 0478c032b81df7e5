package main

import (
	"fmt"
	"io"
	"strings"
)

// printGitHub prints each finding as a GitHub Actions workflow command,
// which the runner turns into an annotation of the file at the finding:
//
//	::warning file=pkg/a.go,line=12,col=5,endLine=12,endColumn=9,title=jitlint tracedbool::message
//
// Paths are relative to the current directory (the checkout's root in a
// workflow) and columns count Unicode code points. The related positions
// follow the message on lines of their own.
func printGitHub(w io.Writer, fs []*finding, src sources, paths *pathNamer) {
	for _, f := range fs {
		msg := f.message + runtimeSuffix(f.runtime)
		for _, r := range f.related {
			msg += fmt.Sprintf("\n%s:%d:%d: %s", paths.rel(r.pos.Filename), r.pos.Line, src.runeColumn(r.pos), r.message)
		}
		fmt.Fprintf(w, "::warning file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			escapeProperty(paths.rel(f.pos.Filename)), f.pos.Line, src.runeColumn(f.pos), f.end.Line, src.runeColumn(f.end),
			escapeProperty("jitlint "+f.rule.name), escapeData(msg))
	}
}

// escapeData escapes a workflow command's message as the runner
// (actions/toolkit's command.ts) expects.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
