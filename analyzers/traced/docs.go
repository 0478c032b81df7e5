package traced

import (
	"fmt"
	"strings"
)

// extractDoc returns the Analyzer.Doc text of the analyzer called name from
// the source of its doc.go: the comment lines after "# Analyzer name", whose
// first line is "name: title".
func extractDoc(docGo, name string) string {
	var lines []string
	in := false
	for _, line := range strings.Split(docGo, "\n") {
		if !strings.HasPrefix(line, "//") {
			if in {
				break
			}
			continue
		}
		text := strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		if text == "# Analyzer "+name {
			in = true
			continue
		}
		if in {
			lines = append(lines, text)
		}
	}
	doc := strings.TrimSpace(strings.Join(lines, "\n"))
	title, ok := strings.CutPrefix(doc, name+": ")
	if !ok {
		panic(fmt.Sprintf("doc.go of analyzer %s lacks a %q line after \"# Analyzer %s\"", name, name+": ", name))
	}
	return title
}
