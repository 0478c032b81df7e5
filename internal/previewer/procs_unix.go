//go:build unix

package previewer

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// lifeline is a pipe whose write end only the runner's process holds: when
// that process dies, however it dies, the kernel closes it, and every
// supervisor, reading the other end, sees the end of input and kills its
// process group. Closing it on purpose (stop) does the same.
type lifeline struct{ r, w *os.File }

func newLifeline() (lifeline, error) {
	r, w, err := os.Pipe()
	return lifeline{r, w}, err
}

func (l lifeline) close() {
	if l.w != nil {
		l.w.Close()
		l.r.Close()
	}
}

// supervisor is the shell program that leads every process group: in the
// background it waits for the end of the lifeline (descriptor 3) and then
// kills the whole group; in the foreground it runs the command (without
// descriptor 3). The background part writes nowhere, so that it never
// keeps an output pipe open.
const supervisor = `{ read _ <&3; kill -s KILL 0; } >/dev/null 2>&1 &
"$@" 3<&-`

// supervised returns the command that runs path with args in a new
// process group led by the supervisor; ctx's end kills the group.
func supervised(ctx context.Context, life lifeline, path string, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", supervisor, "sh", path}, args...)...)
	cmd.ExtraFiles = []*os.File{life.r}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killGroup(cmd)
		return nil
	}
	return cmd
}

// killGroup kills cmd's process group: cmd, its children and the
// supervisor.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// lockFile is the file of a runner's directory that its process holds
// locked (flock) while it lives; the kernel releases the lock when it dies.
const lockFile = "lock"

// lockDir creates dir's lock file and locks it.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// stale reports whether no live process holds dir: its lock can be taken,
// or it has no lock file and is over a minute old (a process that died
// between creating the directory and locking it).
func stale(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		st, err := os.Stat(dir)
		return err == nil && time.Since(st.ModTime()) > time.Minute
	}
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
