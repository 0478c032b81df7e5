//go:build !unix

package previewer

import (
	"context"
	"os"
	"os/exec"
)

// lifeline is Unix-only: elsewhere a process that dies without stopping
// leaves its processes to end by themselves.
type lifeline struct{}

func newLifeline() (lifeline, error) { return lifeline{}, nil }

func (lifeline) close() {}

// supervised returns the command that runs path with args; ctx's end
// kills it (there are no process groups to kill).
func supervised(ctx context.Context, _ lifeline, path string, args []string) *exec.Cmd {
	return exec.CommandContext(ctx, path, args...)
}

// killGroup kills cmd (there is no group).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// lockDir does nothing: there is no flock.
func lockDir(string) (*os.File, error) { return nil, nil }

// stale reports false: without locks a live runner's directory cannot be
// told from a dead one's, so none is removed.
func stale(string) bool { return false }
