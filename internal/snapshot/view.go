package snapshot

import (
	"context"
	"slices"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/internal/factpass"
)

// Config is what a View needs from its owner (the language server): it
// reads the open buffers and the analyzers through it and reports back
// through it; a View holds nothing else of the server.
type Config struct {
	// Delay is how long the View waits after a Schedule before it
	// analyses (Schedules meanwhile restart the wait). Zero analyses at
	// once; a Schedule while an analysis runs cancels it at its next step.
	Delay time.Duration
	// Analyzers returns the analyzers to run now.
	Analyzers func() []*analysis.Analyzer
	// Overlay returns the open buffers of a directory.
	Overlay func(dir string) map[string]File
	// GoEnv returns the go command's environment for loading (nil: the
	// process's).
	GoEnv func() []string
	// Logf logs a line.
	Logf func(format string, args ...any)
	// Loading, if set, is called while the dependencies of dir load (first:
	// dir has no snapshot yet); it must return once done is closed. The
	// server shows progress and the syntax-level findings meanwhile.
	Loading func(ctx context.Context, dir string, first bool, done <-chan struct{})
	// Analyzed, if set, is called with every new snapshot once Wait
	// returns it; background says the analysis had a reason the client did
	// not cause (see ScheduleBackground).
	Analyzed func(s *Snapshot, background bool)
}

// View analyses package directories on request: one analysis at a time
// per directory, abandoning work that a newer Schedule has superseded. It
// keeps each directory's dependency types and the dependencies' facts
// between analyses.
type View struct {
	cfg Config

	mu      sync.Mutex
	dirs    map[string]*dirState
	ctx     context.Context
	cancel  context.CancelFunc
	stopped bool
	facts   *factCache
}

// dirState is the analysis state of one package directory.
type dirState struct {
	timer   *time.Timer
	gen     uint64     // generation of the latest scheduled analysis
	running sync.Mutex // held while an analysis of this directory runs
	uni     *Universe
	result  *Snapshot
	done    chan struct{} // closed (and replaced) whenever result changes
	refresh bool          // a background analysis is pending
}

// NewView returns a View configured by cfg.
func NewView(cfg Config) *View {
	ctx, cancel := context.WithCancel(context.Background())
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	return &View{cfg: cfg, dirs: map[string]*dirState{}, ctx: ctx, cancel: cancel, facts: newFactCache()}
}

// Stop cancels pending work; later Schedules are ignored.
func (v *View) Stop() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.stopped = true
	v.cancel()
	for _, ds := range v.dirs {
		if ds.timer != nil {
			ds.timer.Stop()
		}
	}
}

func (v *View) state(dir string) *dirState {
	ds := v.dirs[dir]
	if ds == nil {
		ds = &dirState{done: make(chan struct{})}
		v.dirs[dir] = ds
	}
	return ds
}

// Schedule starts (or, with a delay, re-times) dir's analysis after an
// edit or for a client request.
func (v *View) Schedule(dir string) { v.scheduleFor(dir, false) }

// ScheduleBackground starts dir's analysis for a reason the client did
// not cause (a settings change, a file saved elsewhere, a closed buffer):
// Analyzed is told so.
func (v *View) ScheduleBackground(dir string) { v.scheduleFor(dir, true) }

func (v *View) scheduleFor(dir string, background bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stopped {
		return
	}
	ds := v.state(dir)
	ds.refresh = ds.refresh || background
	ds.gen++
	gen := ds.gen
	if ds.timer != nil {
		ds.timer.Stop()
	}
	if v.cfg.Delay <= 0 {
		// Older runs waiting for the directory return at once, and a
		// running one stops at its next check of current.
		go v.run(dir, gen)
		return
	}
	ds.timer = time.AfterFunc(v.cfg.Delay, func() { v.run(dir, gen) })
}

// RescheduleAll re-analyses every known directory in the background.
func (v *View) RescheduleAll() { v.reschedule("", false) }

// InvalidateDependents drops the dependency types of every directory
// other than changedDir ("" = all) and re-analyses them in the background.
func (v *View) InvalidateDependents(changedDir string) { v.reschedule(changedDir, true) }

// reschedule re-analyses every known directory but except in the
// background, first dropping its dependency types if dropTypes.
func (v *View) reschedule(except string, dropTypes bool) {
	v.mu.Lock()
	var dirs []string
	for dir, ds := range v.dirs {
		if dir == except {
			continue
		}
		if dropTypes {
			ds.uni = nil
		}
		dirs = append(dirs, dir)
	}
	v.mu.Unlock()
	for _, dir := range dirs {
		v.ScheduleBackground(dir)
	}
}

// current reports whether gen is still the latest generation of dir.
func (v *View) current(dir string, gen uint64) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return !v.stopped && v.dirs[dir].gen == gen
}

// run analyses dir for generation gen.
func (v *View) run(dir string, gen uint64) {
	v.mu.Lock()
	ds := v.state(dir)
	v.mu.Unlock()
	ds.running.Lock()
	defer ds.running.Unlock()
	if !v.current(dir, gen) {
		return
	}
	start := time.Now()
	s := v.analyze(dir, gen, ds)
	if s == nil { // superseded
		return
	}
	s.Duration = time.Since(start)
	if s.Err != nil {
		v.cfg.Logf("jitls: %v", s.Err)
	}
	v.cfg.Logf("jitls: analysed %s in %.1f ms", dir, float64(s.Duration.Microseconds())/1000)
	v.mu.Lock()
	ds.result = s
	close(ds.done)
	ds.done = make(chan struct{})
	refresh := ds.refresh
	ds.refresh = false
	v.mu.Unlock()
	if v.cfg.Analyzed != nil {
		v.cfg.Analyzed(s, refresh)
	}
}

// analyze loads (or reuses) dir's dependency universe, type-checks the
// package with the open buffers and runs the analyzers. It returns nil if
// a newer generation superseded this one.
func (v *View) analyze(dir string, gen uint64, ds *dirState) *Snapshot {
	var overlay map[string]File
	if v.cfg.Overlay != nil {
		overlay = v.cfg.Overlay(dir)
	}
	s := &Snapshot{Gen: gen, Dir: dir, Overlay: overlay}
	v.mu.Lock()
	u, first := ds.uni, ds.result == nil
	v.mu.Unlock()
	current := func() bool { return v.current(dir, gen) }
	var extra []string
	for attempt := 0; ; attempt++ {
		if u == nil {
			var err error
			u, err = v.load(dir, extra, first)
			if err != nil {
				// Without types, the syntax-level findings are all there is.
				s.Err, s.Problems = err, OverlayProblems(overlay)
				return s
			}
			v.mu.Lock()
			ds.uni = u
			v.mu.Unlock()
			if !current() {
				return nil
			}
		}
		pp, err := parsePackage(u, overlay, attempt == 0)
		if err != nil {
			s.Err = err
			return s
		}
		if pp.newDeps && attempt == 0 {
			// An import was added in a buffer: reload the dependencies once,
			// asking for the buffers' imports explicitly.
			for _, ip := range pp.imports {
				if _, ok := u.imports[ip]; !ok && ip != "unsafe" || slices.Contains(u.extra, ip) {
					extra = append(extra, ip)
				}
			}
			u = nil
			continue
		}
		s.Universe = u
		if !current() {
			return nil
		}
		if pkg := pp.Pkg; pkg.IllTyped && len(pkg.TypeErrors) > 0 {
			v.cfg.Logf("jitls: %s has type errors, so analyzers that need well-typed code are skipped until they are fixed (first: %v)", dir, pkg.TypeErrors[0])
		}
		var analyzers []*analysis.Analyzer
		if v.cfg.Analyzers != nil {
			analyzers = v.cfg.Analyzers()
		}
		deps, err := v.facts.depFacts(u, analyzers)
		if err != nil {
			v.cfg.Logf("jitls: %v; cross-package findings are missing until it is fixed", err)
			deps = factpass.Facts{}
		}
		return analyze(s, pp, analyzers, deps, current)
	}
}

// load loads dir's universe, telling Config.Loading while it runs.
func (v *View) load(dir string, extra []string, first bool) (*Universe, error) {
	var env []string
	if v.cfg.GoEnv != nil {
		env = v.cfg.GoEnv()
	}
	if v.cfg.Loading == nil {
		return loadUniverse(v.ctx, dir, extra, env)
	}
	done := make(chan struct{})
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		v.cfg.Loading(v.ctx, dir, first, done)
	}()
	u, err := loadUniverse(v.ctx, dir, extra, env)
	close(done)
	<-reported
	return u, err
}

// Wait returns dir's snapshot once no newer analysis is pending,
// scheduling one if the directory was never analysed.
func (v *View) Wait(ctx context.Context, dir string) (*Snapshot, error) {
	v.mu.Lock()
	if _, ok := v.dirs[dir]; !ok {
		v.mu.Unlock()
		v.Schedule(dir)
		v.mu.Lock()
	}
	for {
		ds := v.dirs[dir]
		if ds.result != nil && ds.result.Gen == ds.gen {
			s := ds.result
			v.mu.Unlock()
			return s, nil
		}
		ch := ds.done
		v.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		v.mu.Lock()
	}
}
