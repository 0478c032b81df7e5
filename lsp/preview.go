package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// previewer builds preview harnesses and runs them, caching test binaries
// by the content hash of the package, its test files and its module-local
// dependencies, and results by that hash plus function and mode.
type previewer struct {
	s *Server

	buildMu sync.Mutex // one go test -c at a time (they compete for CPUs)

	mu       sync.Mutex
	binaries map[string]string // build key → test binary path (in the runner's directory)
	order    []string          // build keys, oldest first (for eviction)
	results  map[string]*previewResult
	measured map[string]*previewResult // dir + "\x00" + function → last measurement
	last     *buildInput               // the latest prepare of a package's own functions
}

// maxBinaries bounds the cached test binaries kept in the temp dir.
const maxBinaries = 6

func newPreviewer(s *Server) *previewer {
	return &previewer{s: s, binaries: map[string]string{}, results: map[string]*previewResult{}, measured: map[string]*previewResult{}}
}

// previewMode says how far a preview goes.
type previewMode string

const (
	modeJaxpr   previewMode = "jaxpr"   // trace only
	modeMeasure previewMode = "measure" // trace, lower, compile, time calls
)

// buildInput is everything a harness build depends on.
type buildInput struct {
	res     *pkgResult
	harness []byte
	files   map[string][]byte // package files incl. _test.go, as analysed / on disk
	key     string
}

// prepare generates the harness for funcs (res.previewable, or a jaxpr
// diff's two variants) and computes the build key.
func (p *previewer) prepare(res *pkgResult, funcs []*tracedFunc) (*buildInput, error) {
	own := len(funcs) == len(res.previewable) && (len(funcs) == 0 || &funcs[0] == &res.previewable[0])
	p.mu.Lock()
	last := p.last
	p.mu.Unlock()
	if own && last != nil && last.res == res {
		return last, nil
	}
	in, err := p.prepareInput(res, funcs)
	if err == nil && own {
		p.mu.Lock()
		p.last = in
		p.mu.Unlock()
	}
	return in, err
}

// cachedJaxpr returns tf's jaxpr preview for res's current content if it
// was already computed, nil otherwise; it never builds or runs anything.
func (p *previewer) cachedJaxpr(res *pkgResult, tf *tracedFunc) (*previewResult, error) {
	in, err := p.prepare(res, res.previewable)
	if err != nil {
		return nil, err
	}
	return p.cached(in, tf.key(), modeJaxpr), nil
}

// prepareInput generates the harness and hashes what the build depends on.
func (p *previewer) prepareInput(res *pkgResult, funcs []*tracedFunc) (*buildInput, error) {
	harness, err := generateHarness(res.uni.name, res.pp.pkg.Types, funcs)
	if err != nil {
		return nil, err
	}
	in := &buildInput{res: res, harness: harness, files: map[string][]byte{}}
	for path, c := range res.pp.contents {
		in.files[path] = c
	}
	tests, _ := filepath.Glob(filepath.Join(res.dir, "*_test.go"))
	docs := p.s.snapshotDocs(res.dir)
	for _, t := range tests {
		if d := docs[t]; d != nil {
			in.files[t] = d.text
		} else if b, err := os.ReadFile(t); err == nil {
			in.files[t] = b
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "harness %d\n", len(harness))
	h.Write(harness)
	paths := make([]string, 0, len(in.files))
	for path := range in.files {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		fmt.Fprintf(h, "file %s %d\n", path, len(in.files[path]))
		h.Write(in.files[path])
	}
	for _, f := range res.uni.local {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(h, "dep %s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		}
	}
	if res.uni.module != nil {
		for _, f := range []string{res.uni.module.GoMod, filepath.Join(filepath.Dir(res.uni.module.GoMod), "go.sum")} {
			if b, err := os.ReadFile(f); err == nil {
				fmt.Fprintf(h, "mod %s %d\n", f, len(b))
				h.Write(b)
			}
		}
	}
	in.key = hex.EncodeToString(h.Sum(nil))[:24]
	return in, nil
}

// cached returns a cached result, or nil.
func (p *previewer) cached(in *buildInput, fn string, mode previewMode) *previewResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.results[in.key+"\x00"+fn+"\x00"+string(mode)]; r != nil {
		return r
	}
	if mode == modeJaxpr {
		return p.results[in.key+"\x00"+fn+"\x00"+string(modeMeasure)]
	}
	return nil
}

// lastMeasured returns the latest measurement of fn in dir, or nil.
func (p *previewer) lastMeasured(dir, fn string) *previewResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.measured[dir+"\x00"+fn]
}

// preview returns fn's preview, from the cache or by building and running
// the harness; report describes progress.
func (p *previewer) preview(ctx context.Context, in *buildInput, fn string, mode previewMode, report func(string)) (*previewResult, error) {
	if r := p.cached(in, fn, mode); r != nil {
		return r, nil
	}
	bin, err := p.build(ctx, in, report)
	if err != nil {
		return nil, err
	}
	report("running " + fn)
	r, err := p.runBinary(ctx, in.res.dir, bin, fn, mode)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.results[in.key+"\x00"+fn+"\x00"+string(mode)] = r
	if mode == modeMeasure && r.Error == "" && r.Panic == "" {
		p.measured[in.res.dir+"\x00"+fn] = r
	}
	p.mu.Unlock()
	return r, nil
}

// build compiles the harness test binary (or reuses a cached one).
func (p *previewer) build(ctx context.Context, in *buildInput, report func(string)) (string, error) {
	p.buildMu.Lock()
	defer p.buildMu.Unlock()
	p.mu.Lock()
	bin := p.binaries[in.key]
	p.mu.Unlock()
	if bin != "" {
		return bin, nil
	}
	work, err := p.s.procs.tempDir("build-")
	if err != nil {
		return "", err
	}
	replace := map[string]string{}
	harnessPath := filepath.Join(work, harnessFile)
	if err := os.WriteFile(harnessPath, in.harness, 0o600); err != nil {
		return "", fmt.Errorf("writing the preview harness: %v", err)
	}
	replace[filepath.Join(in.res.dir, harnessFile)] = harnessPath
	docs := p.s.snapshotDocs(in.res.dir)
	i := 0
	for path, d := range docs {
		if disk, err := os.ReadFile(path); err == nil && bytes.Equal(disk, in.files[path]) {
			continue
		}
		c, ok := in.files[path]
		if !ok {
			c = d.text
		}
		i++
		backing := filepath.Join(work, fmt.Sprintf("buffer%d.go", i))
		if err := os.WriteFile(backing, c, 0o600); err != nil {
			return "", fmt.Errorf("writing an unsaved buffer for the preview: %v", err)
		}
		replace[path] = backing
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	overlayPath := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(overlayPath, overlay, 0o600); err != nil {
		return "", fmt.Errorf("writing the overlay file: %v", err)
	}
	bin = filepath.Join(work, "preview.test")
	report("compiling the preview harness (go test -c)")
	bctx, cancel := context.WithTimeout(ctx, p.s.opts.BuildTimeout)
	defer cancel()
	start := time.Now()
	out, err := p.s.procs.run(bctx, procSpec{dir: in.res.dir, path: p.s.opts.GoCommand,
		args: []string{"test", "-vet=off", "-c", "-o", bin, "-overlay", overlayPath, "."}})
	if err != nil {
		os.RemoveAll(work)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if bctx.Err() != nil {
			return "", &previewError{fmt.Sprintf("building the preview timed out after %s", p.s.opts.BuildTimeout)}
		}
		if errors.Is(err, errStopped) {
			return "", err
		}
		return "", &previewError{"the package does not build, so it cannot be previewed:\n" + cleanBuildOutput(string(out), work)}
	}
	p.s.logf("jitls: built preview harness for %s in %.0f ms", in.res.dir, float64(time.Since(start).Milliseconds()))
	p.mu.Lock()
	p.binaries[in.key] = bin
	p.order = append(p.order, in.key)
	for len(p.order) > maxBinaries {
		old := p.order[0]
		p.order = p.order[1:]
		os.RemoveAll(filepath.Dir(p.binaries[old]))
		delete(p.binaries, old)
		for k := range p.results {
			if strings.HasPrefix(k, old+"\x00") {
				delete(p.results, k)
			}
		}
	}
	p.mu.Unlock()
	return bin, nil
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

// runBinary runs the harness for one function and decodes its result.
func (p *previewer) runBinary(ctx context.Context, dir, bin, fn string, mode previewMode) (*previewResult, error) {
	outFile := bin + "." + fmt.Sprint(time.Now().UnixNano()) + ".json"
	defer os.Remove(outFile)
	rctx, cancel := context.WithTimeout(ctx, p.s.opts.RunTimeout)
	defer cancel()
	// JITLINT_EVENTS is cleared: a preview's compiles are not the user's run.
	out, err := p.s.procs.run(rctx, procSpec{dir: dir, path: bin, args: []string{"-test.run", "^" + harnessTest + "$", "-test.count=1"},
		env: []string{"JITLS_PREVIEW_FUNC=" + fn, "JITLS_PREVIEW_MODE=" + string(mode), "JITLS_PREVIEW_OUT=" + outFile, "JITLINT_EVENTS="}})
	if errors.Is(err, errStopped) {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if rctx.Err() != nil {
		return nil, &previewError{fmt.Sprintf("%s did not finish within %s (an infinite loop, or a very large trace?)", fn, p.s.opts.RunTimeout)}
	}
	data, rerr := os.ReadFile(outFile)
	if rerr != nil {
		return nil, &previewError{fmt.Sprintf("the preview of %s ended without a result (%v); its output:\n%s", fn, err, tail(string(out), 2000))}
	}
	var r previewResult
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

// runPreview checks trust and the signature, then previews tf.
func (s *Server) runPreview(ctx context.Context, res *pkgResult, tf *tracedFunc, mode previewMode) (*previewResult, error) {
	if err := s.mayRun(tf.file); err != nil {
		return nil, err
	}
	if tf.sigErr != "" {
		return nil, &previewError{fmt.Sprintf("%s cannot be previewed: %s", tf.title(), tf.sigErr)}
	}
	in, err := s.previews.prepare(res, res.previewable)
	if err != nil {
		return nil, err
	}
	if r := s.previews.cached(in, tf.key(), mode); r != nil {
		return r, nil
	}
	title := "jitls: tracing " + tf.title()
	if mode == modeMeasure {
		title = "jitls: measuring the compile cost of " + tf.title()
	}
	pr := s.startProgress(ctx, title)
	r, err := s.previews.preview(ctx, in, tf.key(), mode, pr.report)
	if err != nil {
		pr.end("failed")
		return nil, err
	}
	pr.end("done")
	return r, nil
}
