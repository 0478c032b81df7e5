// Package agg implements pandas-style group-by aggregates (sum, count,
// mean, max per key) as dense jit kernels: keys are small integer codes,
// and each aggregate is a one-hot matrix product or a masked reduction, so
// the whole groupby is one compiled program.
package agg

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// OneHot returns the [len(ids), groups] f32 indicator matrix of integer
// codes ids (codes outside [0, groups) give an all-zero row).
func OneHot(ids jit.Array, groups int) jit.Array {
	n := ids.Shape()[0]
	return ids.Reshape(n, 1).Eq(jit.Arange(groups, jit.Int32)).Astype(jit.Float32)
}

// SegmentSum adds vals per group code: out[g] = sum of vals[i] with ids[i] == g.
func SegmentSum(ids, vals jit.Array, groups int) jit.Array {
	n := vals.Shape()[0]
	return vals.Reshape(1, n).MatMul(OneHot(ids, groups)).Reshape(groups)
}

// SegmentCount counts the rows of each group (weighted by w, e.g. a padding mask).
func SegmentCount(ids, w jit.Array, groups int) jit.Array {
	return SegmentSum(ids, w, groups)
}

// SegmentMean averages vals per group; empty groups give 0.
func SegmentMean(ids, vals, w jit.Array, groups int) jit.Array {
	return SegmentSum(ids, vals.Mul(w), groups).Div(SegmentCount(ids, w, groups).Max(1))
}

// SegmentMax is the largest value per group (-inf for an empty group).
func SegmentMax(ids, vals, w jit.Array, groups int) jit.Array {
	n := vals.Shape()[0]
	oh := OneHot(ids, groups).Mul(w.Reshape(n, 1)).Gt(0)
	spread := jit.Where(oh, vals.Reshape(n, 1), math.Inf(-1))
	return spread.MaxReduce(0)
}

// A KernelSample is one entry of the kernel profile: which stage ran on how
// many rows, and when.
type KernelSample struct {
	Stage string
	Rows  int
	At    time.Time
}

var profile []KernelSample

// Profile records that stage processed rows rows, for Report.
func Profile(stage string, rows int) {
	profile = append(profile, KernelSample{Stage: stage, Rows: rows, At: time.Now()})
}

// Report summarises the recorded kernel profile, one line per stage.
func Report() string {
	rows := map[string]int{}
	runs := map[string]int{}
	for _, s := range profile {
		rows[s.Stage] += s.Rows
		runs[s.Stage]++
	}
	stages := make([]string, 0, len(rows))
	for s := range rows {
		stages = append(stages, s)
	}
	sort.Strings(stages)
	var b strings.Builder
	for _, s := range stages {
		fmt.Fprintf(&b, "  %-14s runs=%d rows=%d\n", s, runs[s], rows[s])
	}
	return b.String()
}
