package previewer

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	a := "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"
	b := "l1\nl2\nl3\nX4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\n"
	got := unifiedDiff("a", "b", a, b)
	want := `--- a
+++ b
@@ -1,10 +1,11 @@
 l1
 l2
 l3
-l4
+X4
 l5
 l6
 l7
 l8
 l9
 l10
+l11
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := unifiedDiff("a", "b", a, a); d != "" {
		t.Errorf("equal inputs: %q", d)
	}
	// Far-apart changes make two hunks.
	long := strings.Repeat("same\n", 20)
	two := unifiedDiff("a", "b", "x\n"+long+"y\n", "X\n"+long+"Y\n")
	if strings.Count(two, "@@ ") != 2 || !strings.Contains(two, "@@ -1,4 +1,4 @@") || !strings.Contains(two, "@@ -19,4 +19,4 @@") {
		t.Errorf("two hunks expected:\n%s", two)
	}
	// Applying the script to a gives b.
	x, y := splitLines("a\nb\nc\nd\ne"), splitLines("b\nx\nd\ne\nf")
	var rebuilt []string
	for _, o := range editScript(x, y) {
		if o.kind != '-' {
			rebuilt = append(rebuilt, o.text)
		}
	}
	if strings.Join(rebuilt, ",") != "b,x,d,e,f" {
		t.Errorf("edit script rebuilds %v", rebuilt)
	}
}
