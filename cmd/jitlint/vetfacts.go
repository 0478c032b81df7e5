package main

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"slices"

	"github.com/jitlint/jitlint/internal/factpass"
)

// The .vetx files of this driver are a gob-encoded list of
// factpass.Records: the package's own facts followed by those of its
// direct dependencies (so that facts reach packages further up).

// readVetx reads the fact files of the direct dependencies.
func readVetx(files map[string]string) (factpass.Facts, error) {
	facts := factpass.Facts{}
	for path, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading the facts of %s: %v", path, err)
		}
		if len(data) == 0 {
			continue
		}
		var recs []factpass.Record
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&recs); err != nil {
			return nil, fmt.Errorf("decoding the facts of %s (%s): %v", path, file, err)
		}
		facts.Add(recs)
	}
	return facts, nil
}

// writeOrFail writes the package's facts and its dependencies' facts to
// file and returns the exit status.
func writeOrFail(file string, deps factpass.Facts, own []factpass.Record) int {
	if file == "" {
		return 0
	}
	recs := append(slices.Clone(own), deps.Records()...)
	var buf bytes.Buffer
	if len(recs) > 0 {
		if err := gob.NewEncoder(&buf).Encode(recs); err != nil {
			fmt.Fprintf(os.Stderr, "jitlint: encoding facts: %v\n", err)
			return 1
		}
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o666); err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: writing facts: %v\n", err)
		return 1
	}
	return 0
}
