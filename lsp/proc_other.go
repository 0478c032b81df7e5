//go:build !unix

package lsp

import "os/exec"

// killGroupOnCancel keeps exec.CommandContext's default (kill the process).
func killGroupOnCancel(cmd *exec.Cmd) {}
