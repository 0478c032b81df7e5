package lsp

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// hintClient is fullClient plus inlay hint refreshes.
var hintClient = func() map[string]any {
	c := maps.Clone(fullClient)
	c["workspace"] = map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}
	return c
}()

// TestInlayHintsLineHoverAndLinks traces the sample's Chain for real: inlay
// hints with the avals of parameters and locals (the loop's last
// iteration, a scan's carry), the hover on a body line, and showJaxpr's
// links back to Go lines.
func TestInlayHintsLineHoverAndLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"relu/chain.go": chainFile})
	c := startServer(t, Options{})
	c.initializeIn(dir, hintClient, map[string]any{"allowCodeExecution": true})
	path := filepath.Join(dir, "relu", "chain.go")
	u, text := openFile(c, path)
	whole := protocol.Range{End: protocol.Position{Line: 100}}
	hints := func(u, text string) []string {
		t.Helper()
		r := c.request("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": u}, "range": whole})
		var hs []inlayHint
		if r.Error != nil || json.Unmarshal(r.Result, &hs) != nil {
			t.Fatalf("inlayHint: %+v %s", r.Error, r.Result)
		}
		lines := strings.Split(text, "\n")
		var out []string
		for _, h := range hs {
			l := lines[h.Position.Line]
			out = append(out, fmt.Sprintf("%d:%s%s", h.Position.Line+1, l[strings.LastIndexAny(l[:h.Position.Character], " \t(,")+1:h.Position.Character], h.Label))
		}
		slices.Sort(out)
		return out
	}
	// The first request answers at once (no preview yet) and starts one.
	if got := hints(u, text); len(got) != 0 {
		t.Errorf("hints before any preview: %v", got)
	}
	if _, err := c.Take(func(m wireMsg) bool { return m.Method == "workspace/inlayHint/refresh" }); err != nil {
		t.Fatal(err)
	}
	// x and the locals; not n (static), not cfg (a pytree), not k (a float).
	want := []string{"10:m: bool[3]", "12:y: f32[3]", "14:s: f32[]", "15:z: f32[3]", "8:x: f32[3]", "9:y: f32[3]"}
	if got := hints(u, text); !slices.Equal(got, want) {
		t.Errorf("hints:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// In relu.go, ReluBad fails to trace: it gets no hints, the others do.
	ru, rtext := openFile(c, filepath.Join(dir, "relu", "relu.go"))
	hints(ru, rtext)
	if _, err := c.Take(func(m wireMsg) bool { return m.Method == "workspace/inlayHint/refresh" }); err != nil {
		t.Fatal(err)
	}
	if got, want := hints(ru, rtext), []string{"19:x: f32[5]", "26:x: f32[4]", "28:x: f32[4]"}; !slices.Equal(got, want) {
		t.Errorf("relu.go hints: %v, want %v", got, want)
	}
	r := c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": ru}})
	var lenses []protocol.CodeLens
	if r.Error != nil || json.Unmarshal(r.Result, &lenses) != nil {
		t.Fatalf("codeLens: %+v %s", r.Error, r.Result)
	}
	var titles []string
	for _, l := range lenses {
		if l.Command.Command == CommandShowJaxpr {
			titles = append(titles, l.Command.Title)
		}
	}
	if want := []string{"jaxpr (tracing failed)", "jaxpr", "jaxpr"}; !slices.Equal(titles, want) { // ReluBad, ReluWhere, Power
		t.Errorf("jaxpr lens titles %v, want %v", titles, want)
	}

	// An unsaved edit moves every line down: the hints follow once the
	// preview of the edited buffer (built through the overlay) is done.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{
			"range": protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, "text": "// moved\n"}},
	})
	moved := "// moved\n" + text
	var got []string
	for range 2 { // the first answer may come before the new analysis or preview
		hints(u, moved)
		if _, err := c.Take(func(m wireMsg) bool { return m.Method == "workspace/inlayHint/refresh" }); err != nil {
			t.Fatal(err)
		}
		if got = hints(u, moved); len(got) == len(want) {
			break
		}
	}
	wantMoved := []string{"11:m: bool[3]", "13:y: f32[3]", "15:s: f32[]", "16:z: f32[3]", "9:x: f32[3]", "10:y: f32[3]"}
	slices.Sort(wantMoved)
	if !slices.Equal(got, wantMoved) {
		t.Errorf("hints after an unsaved edit: %v, want %v", got, wantMoved)
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": 3},
		"contentChanges": []any{map[string]any{"text": text}},
	})

	// Hover on the loop body line: the equations it staged (twice, n=2).
	r = c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(t, text, "y = y.Sin()", 0)})
	var h protocol.Hover
	if r.Error != nil || json.Unmarshal(r.Result, &h) != nil {
		t.Fatalf("hover: %+v %s", r.Error, r.Result)
	}
	for _, want := range []string{"Line 12 staged 6 equation(s)", "= sin ", "= cos ", "= mul ", "f32[3]"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("line hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	if strings.Contains(h.Contents.Value, "gt ") || strings.Contains(h.Contents.Value, "reduce_sum") {
		t.Errorf("line hover lists other lines' equations:\n%s", h.Contents.Value)
	}
	// The scan line shows the scan equation shortened to its first and last lines.
	r = c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(t, text, "z, _ :=", 0)})
	if r.Error != nil || json.Unmarshal(r.Result, &h) != nil || !strings.Contains(h.Contents.Value, "= scan[ … ] ") {
		t.Errorf("hover on the scan line: %+v %s", r.Error, r.Result)
	}
	// A line that stages nothing has no hover.
	r = c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": position(t, text, "for i := 0", 0)})
	if string(r.Result) != "null" {
		t.Errorf("hover on the for line: %s", r.Result)
	}

	// showJaxpr: the jaxpr with sources, each equation line linked to its Go line.
	r = c.request("workspace/executeCommand", map[string]any{"command": CommandShowJaxpr, "arguments": []any{map[string]any{"uri": u, "function": "Chain"}}})
	var jx struct {
		JaxprSources string
		Links        []jaxprLink
	}
	if r.Error != nil || json.Unmarshal(r.Result, &jx) != nil {
		t.Fatalf("showJaxpr: %+v %s", r.Error, r.Result)
	}
	jlines := strings.Split(jx.JaxprSources, "\n")
	if len(jx.Links) < 12 {
		t.Fatalf("%d links in\n%s", len(jx.Links), jx.JaxprSources)
	}
	for _, l := range jx.Links {
		jl, goLine := jlines[l.JaxprLine], strings.Split(text, "\n")[l.Location.Range.Start.Line]
		if string(l.Location.URI) != u || !strings.HasSuffix(jl, fmt.Sprintf("# chain.go:%d", l.Location.Range.Start.Line+1)) {
			t.Errorf("link %+v for jaxpr line %q", l, jl)
		}
		// The Go line stages what the jaxpr line shows.
		for prim, call := range map[string]string{" sin ": ".Sin()", " gt ": ".Gt(", " reduce_sum[": ".Sum()", " select_n ": "jit.Where("} {
			if strings.Contains(jl, prim) && !strings.Contains(goLine, call) {
				t.Errorf("jaxpr line %q links to Go line %q", jl, goLine)
			}
		}
	}
}
