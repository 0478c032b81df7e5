package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/token"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/jitlint/jitlint/jit/events"
)

// The reports of a run's events (-events FILE): what the program or its
// tests did when they ran with JITLINT_EVENTS=FILE. They are rules like the
// analyzers' (a -NAME flag each, a SARIF rule, a section in
// docs/analyzers.md), and their findings are at the lines of the files of
// the analysed packages that the events name, when those files are the
// ones the run executed (each event records their hashes).
var (
	recompilesRule = &rule{"recompiles",
		"recompiles: call sites that compiled more than once in one process of the run\n\n" +
			"Each call site of a jitted function that traced and compiled more than once in one process, with the " +
			"number of compiles and of calls made there up to the last compile, and what changed each time (the " +
			"cache-miss explanation).",
		docsURL + "#recompiles"}
	traceFailuresRule = &rule{"tracefailures",
		"tracefailures: lines where a trace failed in the run\n\n" +
			"Each line of traced code where a trace failed in the run (TracerBoolConversionError, " +
			"ConcretizationTypeError, ...), with the error and the calls that traced it.",
		docsURL + "#tracefailures"}
	staleEventsRule = &rule{"staleevents",
		"staleevents: files that changed since the run\n\n" +
			"A file that the run's events name but whose content is not the one the run executed: its events are " +
			"not matched by line. Run the program or its tests again.",
		docsURL + "#staleevents"}
	reports = []*rule{recompilesRule, traceFailuresRule, staleEventsRule}
)

// docsURL is the documentation of the analyzers and reports.
const docsURL = "https://github.com/jitlint/jitlint/blob/main/docs/analyzers.md"

// What a run says about a static finding (its "runtime" property).
const (
	// runtimeConfirmed: the run did what the analyzer predicts, at the
	// finding (the call site recompiled, the trace failed at the line).
	runtimeConfirmed = "confirmed"
	// runtimeExercised: the run called the finding's call site or traced
	// the function that contains it, without the effect (or, for the
	// analyzers whose effect leaves no event, it cannot tell).
	runtimeExercised = "exercised"
	// runtimeNotExercised: no event of the run is at the finding.
	runtimeNotExercised = "not exercised"
	// runtimeStale: the run executed another version of the file.
	runtimeStale = "stale"
)

// evidence is an event that confirms a finding.
type evidence int

const (
	recompile    evidence = iota + 1 // the call site compiled more than once
	traceFailure                     // a trace failed at the line
)

// confirmedBy is the event that confirms the findings of each analyzer
// that predicts one.
var confirmedBy = map[string]evidence{"staticargs": recompile, "shapechurn": recompile, "tracedbool": traceFailure}

// lineKey is a line of a file.
type lineKey struct {
	file string
	line int
}

// runEvidence is what a run's events show at the files of the analysed
// packages.
type runEvidence struct {
	pkgOf      map[string]string // the analysed files and their packages
	src        sources
	findings   []*finding
	recompiled map[lineKey]bool
	failed     map[lineKey]bool
	called     map[lineKey]bool // call sites that compiled or traced
	traced     map[lineKey]bool // lines of functions the run traced
	current    map[string]bool  // files with events of their present content
	stale      map[string]int   // events of another version of a file
}

// readEventFiles decodes the events files.
func readEventFiles(paths []string) ([]events.Event, error) {
	var all []events.Event
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("-events: %v", err)
		}
		evs, err := events.Decode(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("-events %s: %v (write it with JITLINT_EVENTS=%s go test ./...)", p, err, p)
		}
		if len(evs) == 0 {
			fmt.Fprintf(os.Stderr, "jitlint: -events %s has no events (did the run set JITLINT_EVENTS=%s?)\n", p, p)
		}
		all = append(all, evs...)
	}
	return all, nil
}

// newRunEvidence matches evs with the files of the analysed packages
// (pkgOf: file → package ID) and makes the reports' findings.
func newRunEvidence(evs []events.Event, pkgOf map[string]string, src sources) *runEvidence {
	ev := &runEvidence{pkgOf: pkgOf, src: src, recompiled: map[lineKey]bool{}, failed: map[lineKey]bool{},
		called: map[lineKey]bool{}, traced: map[lineKey]bool{}, current: map[string]bool{}, stale: map[string]int{}}
	for _, e := range evs {
		if k, ok := ev.at(e.DefinedAt, e.Sources); ok {
			ev.traced[k] = true
		}
	}
	bySite := map[lineKey][]*events.Site{}
	for _, st := range events.Sites(evs) {
		if k, ok := ev.at(st.CallSite, st.Sources); ok {
			ev.called[k] = true
			bySite[k] = append(bySite[k], st)
		}
	}
	for _, k := range sortedKeys(bySite) {
		if f := ev.recompileFinding(k, bySite[k]); f != nil {
			ev.recompiled[k] = true
			ev.findings = append(ev.findings, f)
		}
	}
	ev.traceFailures(evs)
	for _, file := range slices.Sorted(maps.Keys(ev.stale)) {
		p := token.Position{Filename: file, Line: 1, Column: 1}
		ev.findings = append(ev.findings, &finding{rule: staleEventsRule, pkg: ev.pkgOf[file], pos: p, end: p,
			message: fmt.Sprintf("%d positions in the run's events are in another version of this file (it changed since the run): "+
				"they are not matched by line; run the program or its tests again with JITLINT_EVENTS", ev.stale[file])})
	}
	return ev
}

// at returns the line that pos names when it is in an analysed file that
// the run executed as it is now (sources are the hashes the event
// recorded), and counts the stale ones.
func (ev *runEvidence) at(pos string, sources map[string]string) (lineKey, bool) {
	file, line, ok := events.SplitPos(pos)
	if _, analysed := ev.pkgOf[file]; !ok || !analysed {
		return lineKey{}, false
	}
	if !events.SameSource(sources, file, ev.src.get(file)) {
		ev.stale[file]++
		return lineKey{}, false
	}
	ev.current[file] = true
	return lineKey{file, line}, true
}

// recompileFinding reports the call site at k if it compiled more than
// once in a process (sites are its compiles by process); the message is
// that of the process that compiled most.
func (ev *runEvidence) recompileFinding(k lineKey, sites []*events.Site) *finding {
	top := slices.MaxFunc(sites, func(a, b *events.Site) int { return cmp.Compare(a.Compiles, b.Compiles) })
	if top.Compiles < 2 {
		return nil
	}
	msg := fmt.Sprintf("%d compiles", top.Compiles)
	if top.Calls > 0 {
		msg += fmt.Sprintf(" in %d calls", top.Calls)
	}
	var causes []string
	for _, c := range top.Causes {
		causes = append(causes, causeText(c))
	}
	if len(causes) > 0 {
		msg += ": " + strings.Join(causes, "; ")
	}
	procs := 0
	for _, st := range sites {
		if st.Compiles > 1 {
			procs++
		}
	}
	if procs > 1 {
		msg += fmt.Sprintf(" (the most of %d processes that recompiled here)", procs)
	}
	pos, end := lineSpan(ev.src, k)
	f := &finding{rule: recompilesRule, pkg: ev.pkgOf[k.file], pos: pos, end: end, message: msg,
		props: map[string]any{"compiles": top.Compiles, "calls": top.Calls, "processes": procs, "function": top.Function,
			"compile_ms": top.MS}}
	if file, line, ok := events.SplitPos(top.DefinedAt); ok && events.SameSource(top.Sources, file, ev.src.get(file)) {
		p, e := lineSpan(ev.src, lineKey{file, line})
		f.related = append(f.related, related{p, e, top.Function + " is defined here"})
	}
	return f
}

// causeText is a cause as the recompiles report lists it: the argument and
// its successive values ("x f32[5] → f32[9] → f32[12]").
func causeText(c *events.Cause) string {
	if len(c.Values) == 0 {
		return c.What()
	}
	what := c.Path
	if what == "" {
		what = string(c.Kind)
	}
	return what + " " + strings.Join(c.Values, " → ")
}

// failureKey groups the trace failures of a run: the line and the error.
type failureKey struct {
	at         lineKey
	kind, text string
}

// traceFailures reports each line where a trace failed, with the calls
// that traced it as related positions.
func (ev *runEvidence) traceFailures(evs []events.Event) {
	var order []failureKey
	byKey := map[failureKey][]events.Event{}
	for _, e := range evs {
		if e.Event != events.TraceError || e.Failure == nil {
			continue
		}
		if k, ok := ev.at(e.CallSite, e.Sources); ok {
			ev.called[k] = true
		}
		k, ok := ev.at(e.Failure.At, e.Sources)
		if !ok {
			continue
		}
		text, _, _ := strings.Cut(e.Failure.Message, "\n")
		fk := failureKey{k, e.Failure.Kind, text}
		if byKey[fk] == nil {
			order = append(order, fk)
		}
		byKey[fk] = append(byKey[fk], e)
	}
	for _, fk := range order {
		es := byKey[fk]
		ev.failed[fk.at] = true
		msg := fmt.Sprintf("the trace of %s failed here in the run: %s: %s", es[0].Function, fk.kind, fk.text)
		if len(es) > 1 {
			msg += fmt.Sprintf(" (%d times)", len(es))
		}
		pos, end := lineSpan(ev.src, fk.at)
		f := &finding{rule: traceFailuresRule, pkg: ev.pkgOf[fk.at.file], pos: pos, end: end, message: msg,
			props: map[string]any{"error": fk.kind, "count": len(es), "function": es[0].Function}}
		seen := map[string]bool{}
		for _, e := range es {
			file, line, ok := events.SplitPos(e.CallSite)
			if ok && !seen[e.CallSite] && events.SameSource(e.Sources, file, ev.src.get(file)) {
				seen[e.CallSite] = true
				p, end := lineSpan(ev.src, lineKey{file, line})
				f.related = append(f.related, related{p, end, "the call that traced " + e.Function})
			}
		}
		ev.findings = append(ev.findings, f)
	}
}

// judge returns what the run says about a finding of an analyzer.
func (ev *runEvidence) judge(f *finding) string {
	file := f.pos.Filename
	if !ev.current[file] && ev.stale[file] > 0 {
		return runtimeStale
	}
	exercised := ev.traced[lineKey{file, f.funcLine}]
	for line := f.pos.Line; line <= f.end.Line; line++ {
		k := lineKey{file, line}
		switch confirmedBy[f.rule.name] {
		case recompile:
			if ev.recompiled[k] {
				return runtimeConfirmed
			}
		case traceFailure:
			if ev.failed[k] {
				return runtimeConfirmed
			}
		}
		exercised = exercised || ev.called[k]
	}
	if exercised {
		return runtimeExercised
	}
	return runtimeNotExercised
}

// lineSpan returns the positions of line k without its indentation (the
// file's start when it has no such line).
func lineSpan(src sources, k lineKey) (token.Position, token.Position) {
	start, end, ok := src.lineBounds(k.file, k.line)
	if !ok {
		p := token.Position{Filename: k.file, Line: k.line, Column: 1}
		return p, p
	}
	text := src.get(k.file)[start:end]
	indent := len(text) - len(bytes.TrimLeft(text, " \t"))
	pos := token.Position{Filename: k.file, Offset: start + indent, Line: k.line, Column: indent + 1}
	return pos, token.Position{Filename: k.file, Offset: end, Line: k.line, Column: end - start + 1}
}

// sortedKeys returns the lines of m in order.
func sortedKeys[V any](m map[lineKey]V) []lineKey {
	return slices.SortedFunc(maps.Keys(m), func(a, b lineKey) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
}
