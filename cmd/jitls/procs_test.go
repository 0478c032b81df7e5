package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// liveProc is a running process found in /proc.
type liveProc struct {
	pid     int
	cmdline string // arguments joined by spaces
}

// mentioning returns the live (not zombie) processes other than this one
// whose command line contains s: with s a directory only one test uses
// (its TMPDIR, a marker), the processes that test's server started, even
// after they were orphaned. It works only where there is a /proc (Linux).
func mentioning(s string) []liveProc {
	entries, _ := os.ReadDir("/proc")
	var out []liveProc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(s)) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
				continue
			}
		}
		out = append(out, liveProc{pid, strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))})
	}
	return out
}

// killMentioning kills the processes mentioning s.
func killMentioning(s string) {
	for _, p := range mentioning(s) {
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

// needProc skips a test that inspects processes where there is no /proc.
func needProc(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("finds processes through /proc")
	}
	if testing.Short() {
		t.Skip("compiles preview harnesses")
	}
}

// waitFor polls cond every 20 ms until it holds or timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noneWithin fails the test unless, within d, no process mentions any of
// marks.
func noneWithin(t *testing.T, d time.Duration, marks ...string) {
	t.Helper()
	var left []liveProc
	ok := waitFor(d, func() bool {
		left = nil
		for _, m := range marks {
			left = append(left, mentioning(m)...)
		}
		return len(left) == 0
	})
	if !ok {
		var b strings.Builder
		for _, p := range left {
			b.WriteString("\n\t" + strconv.Itoa(p.pid) + " " + p.cmdline)
		}
		t.Errorf("%s after the server went, processes it started still run:%s", d, b.String())
	}
}

// tempLeftovers returns the files and directories under dir, relative to it.
func tempLeftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && path != dir {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, rel)
		}
		return nil
	})
	return out
}
