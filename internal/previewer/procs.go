package previewer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// procRunner runs the child processes of an Engine (the go command, a
// preview's harness binary) and owns everything they leave behind:
//
//   - each process runs in a process group of its own, with all its
//     children; the group is killed when the process ends, when its
//     context ends (a cancelled request, a timeout) and when the runner
//     stops (Engine.Close: the server's shutdown, exit or end of input);
//     on Unix a supervisor kills it too when the process that owns the
//     runner dies without stopping it (procs_unix.go);
//   - every temporary file sits in one directory per runner,
//     jitls-previews-* under the system's temporary directory: each process
//     gets a TMPDIR and GOTMPDIR of its own there (so the go command's
//     go-build* and go-link-* directories are there too), removed when it
//     ends, and the whole directory is removed when the runner stops. The
//     directory of a process that was killed is removed by the next Engine
//     that starts (sweepStale).
type procRunner struct {
	root string // where the runner's directory is created

	mu      sync.Mutex
	dir     string // the runner's directory; "" until first needed
	lock    *os.File
	life    lifeline
	running map[*exec.Cmd]bool
	stopped bool
	wg      sync.WaitGroup // runs in progress
}

// scratchPrefix starts the name of every runner's directory.
const scratchPrefix = "jitls-previews-"

// stopWait bounds how long stop waits for killed processes to be gone.
const stopWait = 5 * time.Second

func newProcRunner(root string) *procRunner {
	return &procRunner{root: root, running: map[*exec.Cmd]bool{}}
}

// errStopped is the error of work asked of a stopped runner.
var errStopped = errors.New("previews are stopped: the server is shutting down")

// dirLocked returns the runner's directory, creating it (and the
// supervisors' lifeline) on first use; r.mu is held.
func (r *procRunner) dirLocked() (string, error) {
	if r.stopped {
		return "", errStopped
	}
	if r.dir != "" {
		return r.dir, nil
	}
	dir, err := os.MkdirTemp(r.root, scratchPrefix)
	if err != nil {
		return "", fmt.Errorf("creating jitls's temporary directory: %v", err)
	}
	lock, err := lockDir(dir)
	if err == nil {
		r.life, err = newLifeline()
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(dir)
		return "", fmt.Errorf("preparing jitls's temporary directory %s: %v", dir, err)
	}
	r.dir, r.lock = dir, lock
	return dir, nil
}

// tempDir returns a new directory in the runner's directory, named after
// pattern as os.MkdirTemp does.
func (r *procRunner) tempDir(pattern string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	dir, err := r.dirLocked()
	if err != nil {
		return "", err
	}
	return os.MkdirTemp(dir, pattern)
}

// goEnv is the environment for a go command the runner does not start
// itself (go/packages' go list): its temporary files go to the runner's
// directory too. nil (the process's environment) if that cannot be made.
func (r *procRunner) goEnv() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	dir, err := r.dirLocked()
	if err != nil {
		return nil
	}
	tmp := filepath.Join(dir, "go")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil
	}
	return append(os.Environ(), "TMPDIR="+tmp, "GOTMPDIR="+tmp)
}

// procSpec is one process to run.
type procSpec struct {
	dir  string   // working directory
	path string   // the program
	args []string // its arguments
	env  []string // added to this process's environment
}

// run runs spec to its end, or until ctx ends, and returns what it wrote
// to stdout and stderr. When it returns, the process and every process it
// started are gone, and so are its temporary files.
func (r *procRunner) run(ctx context.Context, spec procSpec) ([]byte, error) {
	r.mu.Lock()
	dir, err := r.dirLocked()
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	r.wg.Add(1)
	life := r.life
	r.mu.Unlock()
	defer r.wg.Done()

	work, err := os.MkdirTemp(dir, "proc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	tmp := filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, err
	}
	// A file, not a pipe, takes the output: a pipe would keep Wait waiting
	// for any child that still holds it.
	out, err := os.Create(filepath.Join(work, "output"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd := supervised(ctx, life, spec.path, spec.args)
	cmd.Dir = spec.dir
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp, "GOTMPDIR="+tmp), spec.env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = time.Second
	if err := r.start(cmd); err != nil {
		return nil, err
	}
	err = cmd.Wait()
	r.finish(cmd)
	output, rerr := os.ReadFile(out.Name())
	if err == nil {
		err = rerr
	}
	return output, err
}

// start starts cmd unless the runner stopped, and records it.
func (r *procRunner) start(cmd *exec.Cmd) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return errStopped
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r.running[cmd] = true
	return nil
}

// finish kills what is left of cmd's process group after cmd ended.
func (r *procRunner) finish(cmd *exec.Cmd) {
	killGroup(cmd)
	r.mu.Lock()
	delete(r.running, cmd)
	r.mu.Unlock()
}

// stop kills every process group, waits (a little) for the runs to end,
// and removes the runner's directory. Later runs fail with errStopped.
func (r *procRunner) stop() {
	r.mu.Lock()
	r.stopped = true
	for cmd := range r.running {
		killGroup(cmd)
	}
	r.life.close()
	r.mu.Unlock()
	waitAtMost(stopWait, r.wg.Wait)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dir != "" {
		os.RemoveAll(r.dir)
		r.lock.Close()
		r.dir = ""
	}
}

// waitAtMost calls wait and returns when it returns or after d.
func waitAtMost(d time.Duration, wait func()) {
	done := make(chan struct{})
	go func() {
		wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// sweepStale removes the directories that killed processes left in root:
// those whose lock no live runner holds.
func sweepStale(root string) {
	dirs, _ := filepath.Glob(filepath.Join(root, scratchPrefix+"*"))
	for _, dir := range dirs {
		if stale(dir) {
			os.RemoveAll(dir)
		}
	}
}
