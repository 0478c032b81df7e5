// Package previewer builds and runs the preview harness of jitls (the
// language server) and of jitlint jaxpr-diff, with explicit inputs and
// no server: it parses the //jit:args signatures previews trace with
// (directive.go), checks them against a function's parameters
// (signature.go), generates the harness (generate.go), builds it with
// go test -c -overlay and runs it (Engine), and compares two previews
// (diff.go). The harness's code is a real package, jit/preview, which the
// generated file calls; the two share the result type of
// jit/preview/result, and this package never links jit.
//
// An Engine owns every process it starts and every temporary file (see
// procRunner): none outlives it, however it ends.
package previewer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit/preview/result"
)

// Config is an Engine's inputs; the zero value works.
type Config struct {
	// GoCommand is the go command ("go" if empty).
	GoCommand string
	// BuildTimeout bounds compiling a harness (2 minutes if zero);
	// RunTimeout bounds running it: tracing, compiling and timing the
	// user's code (1 minute if zero).
	BuildTimeout, RunTimeout time.Duration
	// TempRoot is where the engine's directory is made (os.TempDir() if
	// empty).
	TempRoot string
	// Logf, if set, receives the engine's log lines.
	Logf func(format string, args ...any)
}

// Engine builds preview harnesses and runs them, caching test binaries by
// the content hash of what a build depends on (Package), and results by
// that hash plus function and mode.
type Engine struct {
	cfg   Config
	procs *procRunner

	buildMu sync.Mutex // one go test -c at a time (they compete for CPUs)

	mu       sync.Mutex
	binaries map[string]string // build key → test binary path
	order    []string          // build keys, oldest first (for eviction)
	results  map[string]*result.Preview
	measured map[string]*result.Preview // dir + "\x00" + function → last measurement
}

// maxBinaries bounds the cached test binaries.
const maxBinaries = 6

// New returns an engine configured by cfg. It removes the directories
// that engines of processes that were killed left in cfg.TempRoot.
func New(cfg Config) *Engine {
	if cfg.GoCommand == "" {
		cfg.GoCommand = "go"
	}
	if cfg.BuildTimeout <= 0 {
		cfg.BuildTimeout = 2 * time.Minute
	}
	if cfg.RunTimeout <= 0 {
		cfg.RunTimeout = time.Minute
	}
	if cfg.TempRoot == "" {
		cfg.TempRoot = os.TempDir()
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	sweepStale(cfg.TempRoot)
	return &Engine{cfg: cfg, procs: newProcRunner(cfg.TempRoot), binaries: map[string]string{},
		results: map[string]*result.Preview{}, measured: map[string]*result.Preview{}}
}

// Close kills every process the engine started and removes its
// temporary files; later previews fail.
func (e *Engine) Close() { e.procs.stop() }

// GoEnv is the environment for a go command that the engine does not
// start itself (go/packages' go list): its temporary files go to the
// engine's directory too. nil (the process's environment) if that cannot
// be made.
func (e *Engine) GoEnv() []string { return e.procs.goEnv() }

// Go runs the go command with args in dir, as the engine runs its
// builds, and returns its output.
func (e *Engine) Go(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return e.procs.run(ctx, procSpec{dir: dir, path: e.cfg.GoCommand, args: args})
}

// Package is everything a harness build depends on.
type Package struct {
	Dir     string            // the package's directory
	Harness []byte            // the generated harness (Generate)
	Files   map[string][]byte // the package's files (tests included) as they are to be built: those that differ from the disk go into the overlay
	Deps    []string          // other files whose change invalidates the build (module-local dependencies, go.mod, go.sum)
	key     string
}

// NewPackage returns the build of harness in dir with files (nil: the
// disk's) and deps (see Package).
func NewPackage(dir string, harness []byte, files map[string][]byte, deps []string) *Package {
	p := &Package{Dir: dir, Harness: harness, Files: files, Deps: deps}
	h := sha256.New()
	fmt.Fprintf(h, "dir %s\nharness %d\n", dir, len(harness))
	h.Write(harness)
	for _, path := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "file %s %d\n", path, len(files[path]))
		h.Write(files[path])
	}
	for _, f := range deps {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(h, "dep %s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		}
	}
	p.key = hex.EncodeToString(h.Sum(nil))[:24]
	return p
}

// Cached returns the cached preview of fn in p's build, or nil: a jaxpr
// preview may be a measurement's.
func (e *Engine) Cached(p *Package, fn string, mode result.Mode) *result.Preview {
	e.mu.Lock()
	defer e.mu.Unlock()
	if r := e.results[p.key+"\x00"+fn+"\x00"+string(mode)]; r != nil {
		return r
	}
	if mode == result.Jaxpr {
		return e.results[p.key+"\x00"+fn+"\x00"+string(result.Measure)]
	}
	return nil
}

// LastMeasured returns the latest successful measurement of fn in dir,
// whatever the build, or nil.
func (e *Engine) LastMeasured(dir, fn string) *result.Preview {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.measured[dir+"\x00"+fn]
}

// Preview returns the preview of the target fn (its key) of p in mode,
// from the cache or by building and running the harness; report describes
// the progress. The result may be a failure of the user's code (see
// UserError); the error is one of the build or the run.
func (e *Engine) Preview(ctx context.Context, p *Package, fn string, mode result.Mode, report func(string)) (*result.Preview, error) {
	if r := e.Cached(p, fn, mode); r != nil {
		return r, nil
	}
	bin, err := e.build(ctx, p, report)
	if err != nil {
		return nil, err
	}
	report("running " + fn)
	r, err := e.run(ctx, p.Dir, bin, fn, mode)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.results[p.key+"\x00"+fn+"\x00"+string(mode)] = r
	if mode == result.Measure && !r.Failed() {
		e.measured[p.Dir+"\x00"+fn] = r
	}
	e.mu.Unlock()
	return r, nil
}

// build compiles p's harness test binary (or reuses a cached one).
func (e *Engine) build(ctx context.Context, p *Package, report func(string)) (string, error) {
	e.buildMu.Lock()
	defer e.buildMu.Unlock()
	e.mu.Lock()
	bin := e.binaries[p.key]
	e.mu.Unlock()
	if bin != "" {
		return bin, nil
	}
	work, err := e.procs.tempDir("build-")
	if err != nil {
		return "", err
	}
	overlay, err := writeOverlay(work, p)
	if err != nil {
		os.RemoveAll(work)
		return "", err
	}
	bin = filepath.Join(work, "preview.test")
	report("compiling the preview harness (go test -c)")
	bctx, cancel := context.WithTimeout(ctx, e.cfg.BuildTimeout)
	defer cancel()
	start := time.Now()
	out, err := e.Go(bctx, p.Dir, "test", "-vet=off", "-c", "-o", bin, "-overlay", overlay, ".")
	if err != nil {
		os.RemoveAll(work)
		switch {
		case ctx.Err() != nil:
			return "", ctx.Err()
		case bctx.Err() != nil:
			return "", fmt.Errorf("building the preview timed out after %s", e.cfg.BuildTimeout)
		case errors.Is(err, errStopped):
			return "", err
		}
		return "", errors.New("the package does not build, so it cannot be previewed:\n" + cleanBuildOutput(string(out), work))
	}
	e.cfg.Logf("jitls: built preview harness for %s in %.0f ms", p.Dir, float64(time.Since(start).Milliseconds()))
	e.mu.Lock()
	defer e.mu.Unlock()
	e.binaries[p.key] = bin
	e.order = append(e.order, p.key)
	for len(e.order) > maxBinaries {
		old := e.order[0]
		e.order = e.order[1:]
		os.RemoveAll(filepath.Dir(e.binaries[old]))
		delete(e.binaries, old)
		for k := range e.results {
			if strings.HasPrefix(k, old+"\x00") {
				delete(e.results, k)
			}
		}
	}
	return bin, nil
}

// writeOverlay writes p's harness and the files that differ from the disk
// into work, and the go command's overlay file that maps them in; it
// returns the overlay file's path.
func writeOverlay(work string, p *Package) (string, error) {
	harness := filepath.Join(work, HarnessFile)
	if err := os.WriteFile(harness, p.Harness, 0o600); err != nil {
		return "", fmt.Errorf("writing the preview harness: %v", err)
	}
	replace := map[string]string{filepath.Join(p.Dir, HarnessFile): harness}
	for i, path := range slices.Sorted(maps.Keys(p.Files)) {
		if disk, err := os.ReadFile(path); err == nil && bytes.Equal(disk, p.Files[path]) {
			continue
		}
		backing := filepath.Join(work, fmt.Sprintf("buffer%d.go", i))
		if err := os.WriteFile(backing, p.Files[path], 0o600); err != nil {
			return "", fmt.Errorf("writing an unsaved buffer for the preview: %v", err)
		}
		replace[path] = backing
	}
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o600); err != nil {
		return "", fmt.Errorf("writing the overlay file: %v", err)
	}
	return overlay, nil
}

// cleanBuildOutput trims go's output and hides the temp paths of buffers.
func cleanBuildOutput(out, work string) string {
	out = strings.ReplaceAll(out, work+string(filepath.Separator), "")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) > 30 {
		lines = append(lines[:30], "…")
	}
	return strings.Join(lines, "\n")
}

// run runs the harness binary for one function and decodes its result.
func (e *Engine) run(ctx context.Context, dir, bin, fn string, mode result.Mode) (*result.Preview, error) {
	outFile := bin + "." + fmt.Sprint(time.Now().UnixNano()) + ".json"
	defer os.Remove(outFile)
	rctx, cancel := context.WithTimeout(ctx, e.cfg.RunTimeout)
	defer cancel()
	// JITLINT_EVENTS is cleared: a preview's compiles are not the user's run.
	out, err := e.procs.run(rctx, procSpec{dir: dir, path: bin, args: []string{"-test.run", "^" + result.TestName + "$", "-test.count=1"},
		env: []string{result.EnvFunction + "=" + fn, result.EnvMode + "=" + string(mode), result.EnvOut + "=" + outFile, "JITLINT_EVENTS="}})
	switch {
	case errors.Is(err, errStopped):
		return nil, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case rctx.Err() != nil:
		return nil, fmt.Errorf("%s did not finish within %s (an infinite loop, or a very large trace?)", fn, e.cfg.RunTimeout)
	}
	data, rerr := os.ReadFile(outFile)
	if rerr != nil {
		return nil, fmt.Errorf("the preview of %s ended without a result (%v); its output:\n%s", fn, err, tail(string(out), 2000))
	}
	var r result.Preview
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decoding the preview result of %s: %v", fn, err)
	}
	return &r, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
