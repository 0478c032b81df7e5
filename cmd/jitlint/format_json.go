package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// The JSON format is x/tools' (unitchecker's, go vet -json's), one object
// for all packages: {package ID: {analyzer: [diagnostics] or {"error":
// "..."}}}. jitlint adds two optional fields to a diagnostic: "runtime",
// what a run's events say about it (-events), and "properties", the
// numbers behind a report of the events.
type (
	jsonDiagnostic struct {
		Category       string            `json:"category,omitempty"`
		Posn           string            `json:"posn"`
		End            string            `json:"end"`
		Message        string            `json:"message"`
		SuggestedFixes []jsonFix         `json:"suggested_fixes,omitempty"`
		Related        []jsonRelatedInfo `json:"related,omitempty"`
		Runtime        string            `json:"runtime,omitempty"`
		Properties     map[string]any    `json:"properties,omitempty"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelatedInfo struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	jsonError struct {
		Err string `json:"error"`
	}
)

// analysisError is an analyzer that failed on a package.
type analysisError struct {
	pkg, analyzer string
	err           error
}

// jsonTree builds the JSON object of the findings and the errors.
func jsonTree(fs []*finding, errs []analysisError) map[string]map[string]any {
	tree := map[string]map[string]any{}
	add := func(pkg, analyzer string, v any) {
		if tree[pkg] == nil {
			tree[pkg] = map[string]any{}
		}
		if v, ok := v.(jsonDiagnostic); ok {
			ds, _ := tree[pkg][analyzer].([]jsonDiagnostic)
			tree[pkg][analyzer] = append(ds, v)
			return
		}
		tree[pkg][analyzer] = v
	}
	for _, f := range fs {
		add(f.pkg, f.rule.name, toJSON(f))
	}
	for _, e := range errs {
		add(e.pkg, e.analyzer, jsonError{e.err.Error()})
	}
	return tree
}

// printJSON prints the findings and errors as one JSON object (nothing
// when there are none, as unitchecker does).
func printJSON(w io.Writer, fs []*finding, errs []analysisError) error {
	tree := jsonTree(fs, errs)
	if len(tree) == 0 {
		return nil
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// toJSON converts f to the JSON schema.
func toJSON(f *finding) jsonDiagnostic {
	j := jsonDiagnostic{Category: f.category, Posn: f.pos.String(), End: f.end.String(), Message: f.message,
		Runtime: f.runtime, Properties: f.props}
	for _, fx := range f.fixes {
		jf := jsonFix{Message: fx.message}
		for _, e := range fx.edits {
			jf.Edits = append(jf.Edits, jsonEdit{Filename: e.start.Filename, Start: e.start.Offset, End: e.end.Offset, New: e.text})
		}
		j.SuggestedFixes = append(j.SuggestedFixes, jf)
	}
	for _, r := range f.related {
		j.Related = append(j.Related, jsonRelatedInfo{Posn: r.pos.String(), End: r.end.String(), Message: r.message})
	}
	return j
}
