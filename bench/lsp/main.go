// Command lsp measures jitls (issues 4 and 11): diagnostics latency after an
// edit on a ~2000-line package, with the old (50 ms debounce) and current
// (analyse at once) strategies and compared with two other ways of running
// the same analyzers (go/packages with an overlay + checker, and go vet
// -vettool with -overlay); hover jaxpr latency warm and cold (against go
// test -c of the same package); inlay hints and semantic tokens on the warm
// document (issue 12); the server's RSS after many edits; and the
// first diagnostics with an empty build cache against go list -export
// -deps. Run from the repository root:
//
//	go run ./bench/lsp [-edits 40] [-rss-edits 1000] [-cold=false]
//
// It prints a Markdown section for bench/RESULTS.md.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/jitlint/jitlint/analyzers"
	"github.com/jitlint/jitlint/lsp/lsptest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func main() {
	edits := flag.Int("edits", 40, "timed edits per strategy (jitls)")
	altEdits := flag.Int("alt-edits", 8, "timed edits for the slower alternative strategies")
	rssEdits := flag.Int("rss-edits", 1000, "edits before the RSS measurement")
	hovers := flag.Int("hovers", 50, "warm hovers")
	cold := flag.Bool("cold", true, "also measure the first diagnostics with an empty build cache (compiles every dependency twice)")
	flag.Parse()
	if err := run(*edits, *altEdits, *rssEdits, *hovers, *cold); err != nil {
		fmt.Fprintln(os.Stderr, "bench/lsp:", err)
		os.Exit(1)
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func run(edits, altEdits, rssEdits, hovers int, coldCache bool) error {
	root, err := os.Getwd()
	must(err)
	if _, err := os.Stat(filepath.Join(root, "lsp", "testdata", "lspmod")); err != nil {
		return fmt.Errorf("run this from the repository root (go run ./bench/lsp)")
	}
	tmp, err := os.MkdirTemp("", "jitls-bench-")
	must(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	for _, c := range []string{"jitls", "jitlint"} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(bin, c), "./cmd/"+c).CombinedOutput()
		if err != nil {
			return fmt.Errorf("building %s: %v\n%s", c, err, out)
		}
	}
	mod := filepath.Join(tmp, "mod")
	src := bigPackage(100)
	must(lsptest.WriteSampleModule(root, mod, map[string]string{"big/big.go": src}))
	file := filepath.Join(mod, "big", "big.go")
	lines := strings.Count(src, "\n")

	fmt.Printf("## Language server (issues 4 and 11)\n\n")
	fmt.Printf("Measured with `go run ./bench/lsp` (edits=%d, alt-edits=%d, rss-edits=%d, hovers=%d) on %s/%s, %d CPUs, %s, %s.\n",
		edits, altEdits, rssEdits, hovers, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	fmt.Printf("Package: a generated %d-line package (`big`, 100 traced functions with `//jit:args`) in a module that uses this checkout; the 5 jitlint analyzers.\n\n", lines)

	// 1. jitls: didChange → publishDiagnostics, with the old strategy (a
	// 50 ms debounce after each edit) and the current one (analyse at
	// once, cancel superseded work), each in its own server process.
	oldSrv, err := startJitls(bin, mod, "50ms")
	if err != nil {
		return err
	}
	oldFirst, oldLat, err := oldSrv.latency(file, src, edits)
	oldSrv.close()
	if err != nil {
		return err
	}
	srv, err := startJitls(bin, mod, "0")
	if err != nil {
		return err
	}
	defer srv.cmd.Process.Kill()
	first, lat, err := srv.latency(file, src, edits)
	if err != nil {
		return err
	}
	c, cmd, uri := srv.c, srv.cmd, "file://"+file
	fmt.Printf("### Diagnostics latency after `didChange` (%d-line package)\n\n", lines)
	fmt.Printf("| strategy | first load | p50 | p95 | edits |\n|---|---|---|---|---|\n")
	fmt.Printf("| jitls, old strategy: 50 ms debounce after each edit (`-diagnostics-delay=50ms`), then the analysis below | %s | %s | %s | %d |\n",
		ms(oldFirst), ms(pct(oldLat, 50)), ms(pct(oldLat, 95)), len(oldLat))
	fmt.Printf("| jitls, current strategy: analyse at once (an edit during an analysis cancels it at its next step): re-type-check the edited package against dependency types and facts loaded once, run the analyzers in process | %s | %s | %s | %d |\n",
		ms(first), ms(pct(lat, 50)), ms(pct(lat, 95)), len(lat))

	// 2. go/packages with an overlay + checker, per edit.
	if altEdits == 0 {
		fmt.Println()
	}
	var a []time.Duration
	for i := range altEdits {
		content := strings.Replace(src, "0.5", fmt.Sprintf("0.%d", 6+i%3), 1)
		start := time.Now()
		cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: filepath.Dir(file), Overlay: map[string][]byte{file: []byte(content)}}
		pkgs, err := packages.Load(cfg, ".")
		if err != nil {
			return err
		}
		if _, err := checker.Analyze(analyzers.All(), pkgs, nil); err != nil {
			return err
		}
		a = append(a, time.Since(start))
	}
	if altEdits > 0 {
		fmt.Printf("| go/packages `LoadAllSyntax` + overlay, then `checker.Analyze` (per edit, in process) | – | %s | %s | %d |\n", ms(pct(a, 50)), ms(pct(a, 95)), len(a))
	}

	// 3. go vet -vettool=jitlint -overlay -json, per edit.
	var v []time.Duration
	for i := range altEdits {
		content := strings.Replace(src, "0.5", fmt.Sprintf("0.%d", 6+i%3), 1)
		buf := filepath.Join(tmp, "buf.go")
		must(os.WriteFile(buf, []byte(content), 0o644))
		ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{file: buf}})
		ovPath := filepath.Join(tmp, "overlay.json")
		must(os.WriteFile(ovPath, ov, 0o644))
		start := time.Now()
		vet := exec.Command("go", "vet", "-vettool="+filepath.Join(bin, "jitlint"), "-overlay="+ovPath, "-json", "./big")
		vet.Dir = mod
		if out, err := vet.CombinedOutput(); err != nil {
			return fmt.Errorf("go vet: %v\n%s", err, out)
		}
		v = append(v, time.Since(start))
	}
	if altEdits > 0 {
		fmt.Printf("| `go vet -vettool=jitlint -overlay=… -json ./big` (per edit, a process per run) | – | %s | %s | %d |\n\n", ms(pct(v, 50)), ms(pct(v, 95)), len(v))
	}

	// 4. Hover: cold (builds the harness) and warm (cached).
	pos := strings.Index(src, "func F7(") + 5
	hoverParams := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": position(src, pos)}
	start := time.Now()
	m, err := c.request("textDocument/hover", hoverParams)
	if err != nil {
		return err
	}
	cold := time.Since(start)
	if !strings.Contains(string(m.Result), "lambda") {
		return fmt.Errorf("cold hover has no jaxpr: %s", m.Result)
	}
	var warm []time.Duration
	for range hovers {
		start := time.Now()
		if _, err := c.request("textDocument/hover", hoverParams); err != nil {
			return err
		}
		warm = append(warm, time.Since(start))
	}
	// The reference: go test -c of the same package with a one-test file
	// (also through an overlay, so that it builds and links a test binary).
	refTest := filepath.Join(tmp, "ref_test.go")
	must(os.WriteFile(refTest, []byte("package big\n\nimport \"testing\"\n\nfunc TestRef(t *testing.T) {}\n"), 0o644))
	refOv, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(mod, "big", "zz_ref_test.go"): refTest}})
	refOvPath := filepath.Join(tmp, "ref-overlay.json")
	must(os.WriteFile(refOvPath, refOv, 0o644))
	start = time.Now()
	gtc := exec.Command("go", "test", "-vet=off", "-c", "-overlay="+refOvPath, "-o", filepath.Join(tmp, "big.test"), "./big")
	gtc.Dir = mod
	if out, err := gtc.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c: %v\n%s", err, out)
	}
	testC := time.Since(start)
	fmt.Printf("### Hover jaxpr (function `F7` of the same package)\n\n| case | time |\n|---|---|\n")
	fmt.Printf("| cold hover (generate harness, `go test -c -overlay`, run it, trace) | %s |\n", ms(cold))
	fmt.Printf("| `go test -vet=off -c` of the same package with a one-test file, build cache warm (reference) | %s |\n", ms(testC))
	fmt.Printf("| warm hover p50 / p95 (%d hovers, cached by content hash) | %s / %s |\n\n", len(warm), ms(pct(warm, 50)), ms(pct(warm, 95)))

	// 5. Inlay hints and semantic tokens on the warm document: each
	// function of bigPackage has 4 hints (x, and y assigned three times).
	if err := hintsAndTokens(c, uri, lines, 100, 4, hovers); err != nil {
		return err
	}

	// 6. RSS after many edits.
	before := rss(cmd.Process.Pid)
	if _, err := srv.edits(rssEdits); err != nil {
		return err
	}
	runtime.GC()
	after := rss(cmd.Process.Pid)
	fmt.Printf("### Server memory\n\n| when | RSS |\n|---|---|\n| after the first analyses and hovers | %s |\n| after %d more edits (each analysed and published) | %s |\n\n", before, rssEdits, after)
	srv.close()

	// 6. First diagnostics with an empty build cache, against go list
	// -export -deps of the same package (what jitls's load runs).
	if coldCache {
		ref, err := goListCold(filepath.Dir(file))
		if err != nil {
			return err
		}
		progress, first, err := coldStart(bin, mod, file, src)
		if err != nil {
			return err
		}
		fmt.Printf("### First diagnostics with an empty build cache (`GOCACHE` a new directory)\n\n| what | time |\n|---|---|\n")
		fmt.Printf("| `go list -export -deps .` in `big` (reference) | %s |\n", ms(ref))
		fmt.Printf("| jitls: `didOpen` → first `$/progress` (\"loading dependencies\") | %s |\n", ms(progress))
		fmt.Printf("| jitls: `didOpen` → full diagnostics | %s (%.2f× the reference) |\n\n", ms(first), first.Seconds()/ref.Seconds())
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// position converts a byte offset of ASCII text to an LSP position.
func position(text string, off int) map[string]int {
	line := strings.Count(text[:off], "\n")
	return map[string]int{"line": line, "character": off - strings.LastIndex(text[:off], "\n") - 1}
}

// rss reads a process's resident set size from /proc.
func rss(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "n/a (" + err.Error() + ")"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "n/a"
}

// bigPackage generates a package of n traced functions (about 20 lines each).
func bigPackage(n int) string {
	var b bytes.Buffer
	b.WriteString("// Package big is generated by bench/lsp.\npackage big\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/jitlint/jitlint/jit\"\n)\n\n")
	for i := range n {
		fmt.Fprintf(&b, `// F%[1]d is traced.
//
//jit:args f32[16]
func F%[1]d(x jit.Array) jit.Array {
	y := x.Mul(0.5)
	for j := 0; j < 3; j++ {
		y = y.Sin().Mul(y.Cos()).Add(y.Tanh())
	}
	if x.Shape()[0] > 4 {
		y = y.Add(1)
	}
	return jit.Where(y.Gt(0), y, x)
}

var f%[1]d = jit.Jit(F%[1]d)

// describe%[1]d is ordinary Go code.
func describe%[1]d(v []float32) string {
	return fmt.Sprintf("%%d values", len(v))
}

`, i)
	}
	return b.String()
}
