package previewer

import (
	"fmt"
	"strings"
)

// unifiedDiff returns a unified diff (3 lines of context) from a to b, with
// the given file labels, or "" when they are equal. It finds a shortest
// edit script with Myers' algorithm, O((N+M)·D) time.
func unifiedDiff(labelA, labelB, a, b string) string {
	x, y := splitLines(a), splitLines(b)
	ops := editScript(x, y)
	const ctx = 3
	var out strings.Builder
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before the first change to ctx lines after
		// the last change that is at most 2*ctx lines from the next one.
		start := max(i-ctx, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*ctx {
				break
			}
		}
		end = min(end+ctx+1, len(ops))
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", labelA, labelB)
		}
		aStart, bStart, aN, bN := ops[start].ai, ops[start].bi, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		for _, o := range ops[start:end] {
			line := o.text
			out.WriteByte(o.kind)
			out.WriteString(line)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

// hunkRange formats a hunk header's "start,count" (1-based; an empty range
// names the line before it).
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// diffOp is one line of an edit script: ' ' kept, '-' only in a, '+' only
// in b; ai and bi are the 0-based line indexes before the op.
type diffOp struct {
	kind   byte
	text   string
	ai, bi int
}

// maxEdits bounds the edit distance editScript searches (its memory grows
// with its square); beyond it the diff replaces all of x by all of y.
const maxEdits = 2000

// editScript returns a shortest edit script turning x into y (Myers 1986).
func editScript(x, y []string) []diffOp {
	n, m := len(x), len(y)
	maxD := n + m
	v := make([]int, 2*maxD+3)
	var trace [][]int // trace[d]: the frontier before step d, for k in [-d-1, d+1]
	off := maxD + 1
	for d := 0; d <= min(maxD, maxEdits); d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				i = v[off+k+1]
			} else {
				i = v[off+k-1] + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i, j = i+1, j+1
			}
			v[off+k] = i
			if i >= n && j >= m {
				return backtrack(trace, x, y, d)
			}
		}
	}
	var ops []diffOp
	for i, l := range x {
		ops = append(ops, diffOp{'-', l, i, 0})
	}
	for j, l := range y {
		ops = append(ops, diffOp{'+', l, n, j})
	}
	return ops
}

// backtrack walks the saved frontiers back from (len(x), len(y)).
func backtrack(trace [][]int, x, y []string, d int) []diffOp {
	i, j := len(x), len(y)
	var rev []diffOp
	for ; d > 0; d-- {
		v := trace[d]
		at := func(k int) int { return v[k+d+1] }
		k := i - j
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		pi := at(pk)
		pj := pi - pk
		for i > pi && j > pj {
			i, j = i-1, j-1
			rev = append(rev, diffOp{' ', x[i], i, j})
		}
		if pk == k+1 {
			j--
			rev = append(rev, diffOp{'+', y[j], i, j})
		} else {
			i--
			rev = append(rev, diffOp{'-', x[i], i, j})
		}
	}
	for i > 0 && j > 0 {
		i, j = i-1, j-1
		rev = append(rev, diffOp{' ', x[i], i, j})
	}
	ops := make([]diffOp, len(rev))
	for k, o := range rev {
		ops[len(rev)-1-k] = o
	}
	return ops
}
