//go:build unix

package lsp

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel makes cmd start its own process group and, when its
// context ends, kills the whole group (go test's compiler children or the
// test binary's own children included).
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
