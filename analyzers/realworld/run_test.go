package realworld_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/jitlint/jitlint/jit/events"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// probeSource is added to every instrumented package: jitlintProbe(id)
// records whether it runs inside a trace (a jit trace or a control-flow
// body's sub-trace is on the stack) or eagerly, and the call site that
// entered the package (the innermost frame of another package, before jit),
// appending "id trace|eager file:line|-" to the file named by
// JITLINT_PROBE_OUT.
const probeSource = `package %s

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
)

var (
	jitlintProbeMu  sync.Mutex
	jitlintProbeOut *os.File
)

func jitlintProbe(id string) {
	var pcs [256]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	where, via := "eager", "-"
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "github.com/jitlint/jitlint/jit.(*funcCore).traceInto") ||
			strings.HasPrefix(f.Function, "github.com/jitlint/jitlint/jit.traceSub") {
			where = "trace"
			break
		}
		internal := strings.HasPrefix(f.Function, "github.com/jitlint/jitlint/") || strings.HasPrefix(f.Function, "runtime.") || strings.HasPrefix(f.Function, "reflect.")
		if via == "-" && !internal && !strings.HasPrefix(f.Function, %q) {
			via = fmt.Sprintf("%%s:%%d", f.File, f.Line)
		}
		if !more {
			break
		}
	}
	if where == "eager" && strings.HasSuffix(id, " body") {
		return // only a body's runs inside a trace are counted: a host loop's would be a write per iteration
	}
	jitlintProbeMu.Lock()
	defer jitlintProbeMu.Unlock()
	if jitlintProbeOut == nil {
		f, err := os.OpenFile(os.Getenv("JITLINT_PROBE_OUT"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			panic(err)
		}
		jitlintProbeOut = f
	}
	jitlintProbeOut.WriteString(id + " " + where + " " + via + "\n")
}
`

// observed is what the runtime showed for the corpus.
type observed struct {
	// hits counts probe executions: id → "trace"/"eager" → count.
	hits map[string]map[string]int
	// iterations is, for a loop, the most times its body ran inside a
	// trace in one run of the loop.
	iterations map[string]int
	// tracedVia are, for a site in a library package, the call sites in
	// other packages through which it ran inside a trace; iterationsVia,
	// for a loop there, the most times its body ran in one run of the loop
	// through each of them.
	tracedVia     map[string]map[site]bool
	iterationsVia map[string]map[site]int
	// traceErrors maps a site to the kinds of jit errors raised there.
	traceErrors map[site][]string
	// misses counts cache misses per call site, by what changed
	// ("static", "shape").
	misses map[site]map[string]int
	// firstCompiles counts, per call site, the compiles of a function
	// for the first signature of its cache (a miss with nothing to
	// compare with, so it explains nothing), from the events record.
	firstCompiles map[site]int
	// compiles counts the compiles of each function (by where it is
	// defined, and by "fn:" and its name) for each signature, from the
	// events record: a count over one is a signature compiled again by
	// another wrapper of the function.
	compiles map[string]map[string]int
	// callers are, by the same keys, the call sites whose calls compiled
	// the function (relative to the corpus).
	callers map[string]map[site]bool
}

// runCorpus builds every program of the corpus with the probes (through
// go build -overlay, so the tree is not written) and runs each one.
func runCorpus(t *testing.T, dir string, pkgs []*packages.Package, s *sites) *observed {
	t.Helper()
	tmp := t.TempDir()
	overlay := map[string]string{}
	for _, pkg := range pkgs {
		instrumented := false
		for _, name := range pkg.GoFiles {
			rel, _ := filepath.Rel(dir, name)
			ps := s.probes[rel]
			if len(ps) == 0 {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			sort.Slice(ps, func(i, j int) bool { return ps[i].offset > ps[j].offset })
			for _, p := range ps {
				src = append(src[:p.offset:p.offset], append([]byte(p.text), src[p.offset:]...)...)
			}
			out := filepath.Join(tmp, "src", rel)
			write(t, out, src)
			overlay[name] = out
			instrumented = true
		}
		if instrumented {
			out := filepath.Join(tmp, "src", "probe_"+strings.ReplaceAll(pkg.PkgPath, "/", "_")+".go")
			prefix := pkg.PkgPath + "."
			if pkg.Name == "main" {
				prefix = "main."
			}
			write(t, out, []byte(fmt.Sprintf(probeSource, pkg.Name, prefix)))
			overlay[filepath.Join(filepath.Dir(pkg.GoFiles[0]), "zz_jitlint_probe.go")] = out
		}
	}
	data, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	write(t, overlayFile, data)
	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-overlay", overlayFile, "-o", bin+string(filepath.Separator), "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the instrumented corpus: %v\n%s", err, out)
	}
	obs := &observed{hits: map[string]map[string]int{}, iterations: map[string]int{}, tracedVia: map[string]map[site]bool{}, iterationsVia: map[string]map[site]int{}, traceErrors: map[site][]string{}, misses: map[site]map[string]int{}, firstCompiles: map[site]int{}, compiles: map[string]map[string]int{}, callers: map[string]map[site]bool{}}
	progs, err := os.ReadDir(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		probeOut := filepath.Join(tmp, "probe-"+p.Name())
		eventsOut := filepath.Join(tmp, "events-"+p.Name())
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, filepath.Join(bin, p.Name()))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "JIT_EXPLAIN_CACHE_MISSES=1", "JITLINT_PROBE_OUT="+probeOut, "JIT_PLATFORM=cpu", "JITLINT_EVENTS="+eventsOut)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
		runErr := cmd.Run()
		timedOut := ctx.Err() == context.DeadlineExceeded
		cancel()
		if timedOut {
			t.Fatalf("program %s ran over 2 minutes", p.Name())
		}
		errs := obs.parseStderr(dir, stderr.String())
		if runErr != nil && errs == 0 {
			t.Fatalf("program %s failed without a jit error: %v\n%s", p.Name(), runErr, stderr.String())
		}
		obs.readProbes(t, dir, probeOut)
		obs.readEvents(t, dir, eventsOut)
	}
	return obs
}

// readEvents counts the compiles of one program's events record.
func (o *observed) readEvents(t *testing.T, dir, file string) {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := events.Decode(f)
	if err != nil {
		t.Fatalf("reading %s: %v", file, err)
	}
	for _, e := range evs {
		if e.Event == events.TraceError && e.Failure != nil {
			// A trace that failed, whether or not the program recovered
			// and went on.
			if st := posSite(dir, e.Failure.At); st.file != "" && !slices.Contains(o.traceErrors[st], e.Failure.Kind) {
				o.traceErrors[st] = append(o.traceErrors[st], e.Failure.Kind)
			}
			continue
		}
		if e.Event != events.Compile && e.Event != events.CacheMiss {
			continue
		}
		caller := posSite(dir, e.CallSite)
		if e.Event == events.Compile {
			o.firstCompiles[caller]++
		}
		for _, key := range []string{e.DefinedAt, "fn:" + e.Function} {
			if o.compiles[key] == nil {
				o.compiles[key], o.callers[key] = map[string]int{}, map[site]bool{}
			}
			o.compiles[key][e.Function+" "+e.Signature]++
			o.callers[key][caller] = true
		}
	}
}

var (
	missRE  = regexp.MustCompile(`^TRACING CACHE MISS at (\S+):(\d+) costing`)
	errorRE = regexp.MustCompile(`^panic: (TracerBoolConversionError|ConcretizationTypeError|BadStaticArgError): `)
	atRE    = regexp.MustCompile(`(\S+\.go):(\d+)`)
)

// relSite is the site at file:line, relative to the corpus dir.
func relSite(dir, file, line string) site {
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		rel = file
	}
	n, _ := strconv.Atoi(line)
	return site{rel, n}
}

// posSite is the site at a "file:line" position, relative to the corpus
// dir (the zero site for no position).
func posSite(dir, pos string) site {
	i := strings.LastIndexByte(pos, ':')
	if i <= 0 {
		return site{}
	}
	return relSite(dir, pos[:i], pos[i+1:])
}

// parseStderr records the cache misses and the jit error of one program's
// standard error, and returns the number of jit errors.
func (o *observed) parseStderr(dir, stderr string) int {
	lines := strings.Split(stderr, "\n")
	errors := 0
	for i, line := range lines {
		if m := missRE.FindStringSubmatch(line); m != nil {
			st := relSite(dir, m[1], m[2])
			if o.misses[st] == nil {
				o.misses[st] = map[string]int{}
			}
			for _, next := range lines[i+1:] {
				if !strings.HasPrefix(next, " ") {
					break
				}
				switch {
				case strings.Contains(next, "different static arguments"):
					o.misses[st]["static"]++
				case strings.Contains(next, "different input types"), strings.Contains(next, "different input pytree"):
					o.misses[st]["shape"]++
				}
			}
		}
		if m := errorRE.FindStringSubmatch(line); m != nil {
			// The position is the last file:line of the error message
			// (its "at" line, or the message itself).
			var at []string
			for _, l := range lines[i:] {
				if l == "" || strings.HasPrefix(l, "goroutine ") {
					break
				}
				if a := atRE.FindAllStringSubmatch(l, -1); a != nil {
					at = a[len(a)-1]
				}
			}
			if at != nil {
				st := relSite(dir, at[1], at[2])
				if !slices.Contains(o.traceErrors[st], m[1]) {
					o.traceErrors[st] = append(o.traceErrors[st], m[1])
				}
				errors++
			}
		}
	}
	return errors
}

// sawTrace reports whether any probe ran inside a trace.
func (o *observed) sawTrace() bool {
	for _, h := range o.hits {
		if h["trace"] > 0 {
			return true
		}
	}
	return false
}

// readProbes adds the probe records of one program.
func (o *observed) readProbes(t *testing.T, dir, file string) {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run := map[string]int{} // loop → body runs since the loop last started in a trace
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		line, via := line[:i], line[i+1:]
		i = strings.LastIndexByte(line, ' ')
		id, where := line[:i], line[i+1:]
		if o.hits[id] == nil {
			o.hits[id] = map[string]int{}
		}
		o.hits[id][where]++
		if where != "trace" {
			continue
		}
		var at *site
		if j := strings.LastIndexByte(via, ':'); j > 0 {
			file, ln := via[:j], via[j+1:]
			if o.tracedVia[id] == nil {
				o.tracedVia[id] = map[site]bool{}
			}
			rel, err := filepath.Rel(dir, file)
			if err != nil {
				rel = file
			}
			n, _ := strconv.Atoi(ln)
			at = &site{rel, n}
			o.tracedVia[id][*at] = true
		}
		if loop, ok := strings.CutSuffix(id, " body"); ok {
			run[loop]++
			o.iterations[loop] = max(o.iterations[loop], run[loop])
			if at != nil {
				if o.iterationsVia[loop] == nil {
					o.iterationsVia[loop] = map[site]int{}
				}
				o.iterationsVia[loop][*at] = max(o.iterationsVia[loop][*at], run[loop])
			}
		} else {
			run[id] = 0
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
