package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
)

// diffChildEnv marks the jitlint process that fixdiff runs to print the
// diff through x/tools' driver.
const diffChildEnv = "JITLINT_DIFF_CHILD"

// fixDiff runs jitlint -fix -diff again as a child whose unified diff it
// passes on with the hunk headers recomputed, and returns the child's exit
// status. The driver in golang.org/x/tools prints a wrong new-file start
// for every hunk after one that holds two edits (it is off by the unchanged
// lines between them), so patch applies it only at an offset and git apply
// not at all; the old-file ranges and the hunks' lines are right.
func fixDiff(args []string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: -fix -diff: %v\n", err)
		return exitFailed
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), diffChildEnv+"=1")
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: -fix -diff: %v\n", err)
		return exitFailed
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: -fix -diff: %v\n", err)
		return exitFailed
	}
	rerr := fixHunkHeaders(out, os.Stdout)
	err = cmd.Wait()
	if rerr != nil {
		fmt.Fprintf(os.Stderr, "jitlint: -fix -diff: %v\n", rerr)
		return exitFailed
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "jitlint: -fix -diff: %v\n", err)
		return exitFailed
	}
	return exitClean
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$`)

// fixHunkHeaders copies a unified diff from r to w, giving each hunk the
// new-file start that its old-file start and the hunks before it in the
// same file imply.
func fixHunkHeaders(r io.Reader, w io.Writer) error {
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	offset := 0 // lines the hunks so far in this file added, less those they removed
	for {
		line, err := in.ReadString('\n')
		if len(line) > 0 {
			if len(line) >= 4 && line[:4] == "--- " {
				offset = 0
			}
			if m := hunkHeader.FindStringSubmatch(trimNewline(line)); m != nil {
				a, b, d := atoi(m[1]), count(m[2]), count(m[4])
				before := a - 1 // the old-file lines before the hunk
				if b == 0 {
					before = a // an empty range names the line before it
				}
				c := before + offset + 1
				if d == 0 {
					c = before + offset
				}
				line = fmt.Sprintf("@@ -%s +%s @@%s\n", hunkRange(a, b, m[2] != ""), hunkRange(c, d, m[4] != ""), m[5])
				offset += d - b
			}
			if _, werr := out.WriteString(line); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return out.Flush()
		}
		if err != nil {
			return err
		}
	}
}

func trimNewline(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		return s[:n-1]
	}
	return s
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// count is a hunk range's line count: 1 when it is left out.
func count(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}

func hunkRange(start, n int, withCount bool) string {
	if !withCount && n == 1 {
		return strconv.Itoa(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
