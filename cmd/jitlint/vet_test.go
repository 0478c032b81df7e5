package main

import (
	"strings"
	"testing"

	"github.com/jitlint/jitlint/analyzers"
)

func TestParseFlags(t *testing.T) {
	n := len(analyzers.Names)
	for _, tc := range []struct {
		args []string
		want int // analyzers that run
	}{
		{[]string{"-json"}, n},
		{[]string{"-json", "-staticargs=false"}, n - 1},
		{[]string{"-tracedbool", "-traceeffect=true"}, 2},
		{[]string{"-unrolledloop.max=64", "-c=2"}, n},
		{[]string{"-directive=false"}, n - 1},
	} {
		all := analyzers.All()
		_, run, _, _, err := parseFlags(all, reports, tc.args)
		if err != nil || len(run) != tc.want {
			t.Errorf("parseFlags(%q): %d analyzers, %v; want %d", tc.args, len(run), err, tc.want)
		}
		if tc.args[0] == "-unrolledloop.max=64" && all[1].Flags.Lookup("max").Value.String() != "64" {
			t.Errorf("-unrolledloop.max=64 did not set the analyzer's flag")
		}
	}
	for _, bad := range [][]string{{"-nosuch"}, {"-format=xml"}} {
		if _, _, _, _, err := parseFlags(analyzers.All(), reports, bad); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
	for args, want := range map[string]string{"": "text", "-json": "json", "-format=sarif": "sarif", "-json -format=json": "json", "-json -format=github": ""} {
		opts, _, _, _, err := parseFlags(analyzers.All(), reports, strings.Fields(args))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := opts.outputFormat(); got != want || (err == nil) != (want != "") {
			t.Errorf("jitlint %s: format %q, %v; want %q", args, got, err, want)
		}
	}
	// The reports of -events are selected like analyzers.
	_, run, on, _, err := parseFlags(analyzers.All(), reports, []string{"-recompiles"})
	if err != nil || len(run) != 0 || !on["recompiles"] || on["tracefailures"] {
		t.Errorf("parseFlags(-recompiles): %d analyzers, reports %v, %v; want only recompiles", len(run), on, err)
	}
}

func TestApplyEdits(t *testing.T) {
	src := []byte("abcdef")
	got := apply(src, []edit{{4, 5, "E"}, {0, 1, "A"}, {0, 1, "A"}, {2, 2, "+"}})
	if string(got) != "Ab+cdEf" {
		t.Errorf("apply = %q", got)
	}
	taken := map[string][]edit{"f": {{0, 3, "x"}}}
	if !conflicts(taken, map[string][]edit{"f": {{2, 4, "y"}}}) || conflicts(taken, map[string][]edit{"f": {{0, 3, "x"}}}) {
		t.Error("conflicts: overlapping edits must conflict, identical ones must not")
	}
}
