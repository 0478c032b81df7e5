package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFixHunkHeaders: the new-file start of each hunk follows from its
// old-file start and what the hunks before it in the file added or removed
// (x/tools prints "+55,7" here for a hunk at old line 67 after one with two
// edits that changed no line count).
func TestFixHunkHeaders(t *testing.T) {
	in := "--- a.go (old)\n+++ a.go (new)\n" +
		"@@ -4,7 +4,8 @@\n ctx\n-x\n+y\n+z\n" +
		"@@ -16,21 +17,21 @@ func f()\n ctx\n" +
		"@@ -67,7 +55,7 @@\n ctx\n" +
		"@@ -80,2 +70,0 @@\n-a\n-b\n" +
		"@@ -90,0 +77,1 @@\n+c\n" +
		"--- b.go (old)\n+++ b.go (new)\n" +
		"@@ -3 +3 @@\n-q\n+r\n"
	want := "--- a.go (old)\n+++ a.go (new)\n" +
		"@@ -4,7 +4,8 @@\n ctx\n-x\n+y\n+z\n" +
		"@@ -16,21 +17,21 @@ func f()\n ctx\n" +
		"@@ -67,7 +68,7 @@\n ctx\n" +
		"@@ -80,2 +80,0 @@\n-a\n-b\n" +
		"@@ -90,0 +90,1 @@\n+c\n" +
		"--- b.go (old)\n+++ b.go (new)\n" +
		"@@ -3 +3 @@\n-q\n+r\n"
	var out bytes.Buffer
	if err := fixHunkHeaders(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("fixHunkHeaders:\n%s\nwant:\n%s", out.String(), want)
	}
}
