//go:build unix

package previewer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testTimeout bounds every wait (a hang is a failure, not a timing
// assertion).
const testTimeout = time.Minute

// childScript starts a grandchild (sleep) that writes its pid to the file
// $1 and waits for it: what a go command or a harness that forks does.
const childScript = `sleep 300 & echo $! > "$1"; wait`

// startSleeper runs childScript in r in the background and returns the
// grandchild's pid and the run's error channel.
func startSleeper(t *testing.T, ctx context.Context, r *procRunner) (int, chan error) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	errc := make(chan error, 1)
	go func() {
		_, err := r.run(ctx, procSpec{dir: t.TempDir(), path: "/bin/sh", args: []string{"-c", childScript, "sh", pidFile}})
		errc <- err
	}()
	deadline := time.Now().Add(testTimeout)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return pid, errc
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the child never started its grandchild")
	return 0, nil
}

// gone waits (a little) until pid no longer runs.
func gone(pid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err == nil && strings.Contains(string(stat), ") Z ") {
			return true // a zombie waiting for init: it no longer runs
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func TestRunnerKillsTheGroup(t *testing.T) {
	root := t.TempDir()
	t.Run("cancelled", func(t *testing.T) {
		r := newProcRunner(root)
		defer r.stop()
		ctx, cancel := context.WithCancel(context.Background())
		pid, errc := startSleeper(t, ctx, r)
		cancel()
		<-errc
		if !gone(pid) {
			t.Errorf("the grandchild of a cancelled run still runs")
		}
	})
	t.Run("stopped", func(t *testing.T) {
		r := newProcRunner(root)
		pid, errc := startSleeper(t, context.Background(), r)
		r.stop()
		<-errc
		if !gone(pid) {
			t.Errorf("the grandchild of a run still runs after stop")
		}
		if _, err := r.run(context.Background(), procSpec{path: "/bin/true"}); !errors.Is(err, errStopped) {
			t.Errorf("run after stop: %v", err)
		}
	})
	t.Run("lifeline closed", func(t *testing.T) {
		// What the death of the runner's process does: the lifeline's
		// write end closes, and the supervisor kills the group by itself.
		r := newProcRunner(root)
		defer r.stop()
		pid, errc := startSleeper(t, context.Background(), r)
		r.mu.Lock()
		r.life.w.Close()
		r.mu.Unlock()
		select {
		case <-errc:
		case <-time.After(testTimeout):
			t.Fatal("the run did not end when the lifeline closed")
		}
		if !gone(pid) {
			t.Errorf("the grandchild still runs after the lifeline closed")
		}
	})
	t.Run("ended", func(t *testing.T) {
		// A run that ends by itself takes along what it left running.
		r := newProcRunner(root)
		defer r.stop()
		pidFile := filepath.Join(t.TempDir(), "pid")
		if _, err := r.run(context.Background(), procSpec{path: "/bin/sh", args: []string{"-c", `sleep 300 & echo $! > "$1"`, "sh", pidFile}}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid == 0 || !gone(pid) {
			t.Errorf("the background child of a finished run still runs (pid %d)", pid)
		}
	})
	if left, _ := os.ReadDir(root); len(left) > 0 {
		t.Errorf("the runners left %d entries in their root", len(left))
	}
}

func TestRunnerTempDirs(t *testing.T) {
	root := t.TempDir()
	r := newProcRunner(root)
	out, err := r.run(context.Background(), procSpec{path: "/bin/sh", args: []string{"-c", `echo "$TMPDIR $GOTMPDIR"; echo err >&2`}})
	if err != nil {
		t.Fatal(err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) != 3 || dirs[0] != dirs[1] || !strings.HasPrefix(dirs[0], filepath.Join(root, scratchPrefix)) || dirs[2] != "err" {
		t.Errorf("TMPDIR, GOTMPDIR and stderr of a run: %q", out)
	}
	if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
		t.Errorf("a run's TMPDIR outlived it: %v", err)
	}
	r.stop()
	if left, _ := os.ReadDir(root); len(left) > 0 {
		t.Errorf("stop left %v", left)
	}
}

func TestSweepStale(t *testing.T) {
	root := t.TempDir()
	live := newProcRunner(root)
	defer live.stop()
	liveDir, err := live.tempDir("x-")
	if err != nil {
		t.Fatal(err)
	}
	mk := func(name string, lock bool, age time.Duration) string {
		dir := filepath.Join(root, scratchPrefix+name)
		os.Mkdir(dir, 0o700)
		if lock {
			os.WriteFile(filepath.Join(dir, lockFile), nil, 0o600)
		}
		old := time.Now().Add(-age)
		os.Chtimes(dir, old, old)
		return dir
	}
	dead := mk("dead", true, 0)
	young := mk("young", false, 0)
	old := mk("old", false, time.Hour)
	other := filepath.Join(root, "jitls-other")
	os.Mkdir(other, 0o700)
	sweepStale(root)
	for dir, want := range map[string]bool{filepath.Dir(liveDir): true, dead: false, young: true, old: false, other: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("after the sweep, %s exists: %v, want %v", filepath.Base(dir), err == nil, want)
		}
	}
}
