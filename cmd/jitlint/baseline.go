package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A baseline is the findings of a file that jitlint -format=json (or go
// vet -vettool=jitlint -json) wrote, which -baseline accepts: a finding is
// reported only when the baseline has no finding left with its analyzer,
// file and message. Lines do not count, so that edits elsewhere in a file
// keep its accepted findings quiet; each baseline finding accepts one
// finding, so that a second copy of an accepted mistake is new. Files match
// when they are the same path, or when the baseline's path ends in the
// finding's path relative to its module root (the baseline may come from
// another checkout).
type baseline struct {
	left map[baselineKey][]string // the files of the accepted findings not matched yet
}

// baselineKey is what a baseline finding must share with a finding.
type baselineKey struct{ analyzer, message string }

// posnSuffix is the :line:col (or :line) that ends a JSON position.
var posnSuffix = regexp.MustCompile(`(:\d+){1,2}$`)

// readBaseline reads a baseline file.
func readBaseline(path string) (*baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-baseline: %v", err)
	}
	// go vet -json puts a "# package" line before each package's object.
	var clean bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "#") {
			clean.Write(sc.Bytes())
			clean.WriteByte('\n')
		}
	}
	b := &baseline{left: map[baselineKey][]string{}}
	dec := json.NewDecoder(&clean)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return nil, fmt.Errorf("-baseline %s is not a file written by jitlint -format=json: %v", path, err)
		}
		for _, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var diags []jsonDiagnostic
				if json.Unmarshal(raw, &diags) != nil {
					continue // {"error": ...}: an analyzer that failed
				}
				for _, d := range diags {
					k := baselineKey{analyzer, d.Message}
					b.left[k] = append(b.left[k], posnSuffix.ReplaceAllString(d.Posn, ""))
				}
			}
		}
	}
	return b, nil
}

// filter returns the findings that the baseline does not accept, and how
// many it accepted. roots are the module directories of the findings'
// files.
func (b *baseline) filter(fs []*finding, roots []string) ([]*finding, int) {
	var out []*finding
	for _, f := range fs {
		k := baselineKey{f.rule.name, f.message}
		if i := matchFile(b.left[k], f.pos.Filename, roots); i >= 0 {
			b.left[k] = append(b.left[k][:i], b.left[k][i+1:]...)
			continue
		}
		out = append(out, f)
	}
	return out, len(fs) - len(out)
}

// matchFile returns the index of the first of files that names file, or -1.
func matchFile(files []string, file string, roots []string) int {
	suffixes := []string{file}
	for _, root := range roots {
		if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
			suffixes = append(suffixes, string(filepath.Separator)+rel)
		}
	}
	for i, f := range files {
		for j, s := range suffixes {
			if (j == 0 && f == s) || (j > 0 && strings.HasSuffix(f, s)) {
				return i
			}
		}
	}
	return -1
}
