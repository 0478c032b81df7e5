package main

import (
	"encoding/json"
	"fmt"
	"time"
)

// hintsAndTokens measures inlay hints and semantic tokens on a warm
// document (analysed, every function's preview done: funcs functions with
// perFunc hints each) with n requests of each, and prints a Markdown table.
func hintsAndTokens(c *client, uri string, lines, funcs, perFunc, n int) error {
	whole := map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": lines + 1, "character": 0}}
	hintParams := map[string]any{"textDocument": map[string]any{"uri": uri}, "range": whole}
	// The first requests start the previews in the background; wait until
	// every function has its hints.
	start := time.Now()
	count := 0
	for {
		m, err := c.request("textDocument/inlayHint", hintParams)
		if err != nil {
			return err
		}
		var hs []json.RawMessage
		if err := json.Unmarshal(m.Result, &hs); err != nil {
			return err
		}
		count = len(hs)
		if count >= perFunc*funcs {
			break
		}
		if time.Since(start) > 5*time.Minute {
			return fmt.Errorf("inlay hints incomplete after 5 minutes: %d", count)
		}
		time.Sleep(200 * time.Millisecond)
	}
	allPreviews := time.Since(start)
	var hints, full, rng []time.Duration
	tokParams := map[string]any{"textDocument": map[string]any{"uri": uri}}
	rangeParams := map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 60, "character": 0}}}
	tokens := 0
	for range n {
		t0 := time.Now()
		if _, err := c.request("textDocument/inlayHint", hintParams); err != nil {
			return err
		}
		hints = append(hints, time.Since(t0))
		t0 = time.Now()
		m, err := c.request("textDocument/semanticTokens/full", tokParams)
		if err != nil {
			return err
		}
		full = append(full, time.Since(t0))
		var res struct{ Data []int }
		if err := json.Unmarshal(m.Result, &res); err != nil {
			return err
		}
		tokens = len(res.Data) / 5
		t0 = time.Now()
		if _, err := c.request("textDocument/semanticTokens/range", rangeParams); err != nil {
			return err
		}
		rng = append(rng, time.Since(t0))
	}
	fmt.Printf("### Inlay hints and semantic tokens (warm document, issue 12)\n\n")
	fmt.Printf("The same %d-line document after its analysis and the previews of its %d functions (which the first inlay hint request starts in the background: %s until all hints were there). %d requests of each.\n\n",
		lines, funcs, ms(allPreviews), n)
	fmt.Printf("| request | result | p50 | p95 |\n|---|---|---|---|\n")
	fmt.Printf("| `textDocument/inlayHint`, whole file | %d hints | %s | %s |\n", count, ms(pct(hints, 50)), ms(pct(hints, 95)))
	fmt.Printf("| `textDocument/semanticTokens/full` | %d tokens | %s | %s |\n", tokens, ms(pct(full, 50)), ms(pct(full, 95)))
	fmt.Printf("| `textDocument/semanticTokens/range`, 60 lines | | %s | %s |\n\n", ms(pct(rng, 50)), ms(pct(rng, 95)))
	return nil
}
