// Package trainkit holds the training-loop utilities shared by the
// experiments: early stopping, checkpoints, a JSONL metrics log (all host
// side) and calibration metrics that run inside jitted evaluation code.
package trainkit

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

// EarlyStopping stops training when the monitored value has not improved
// by MinDelta for Patience evaluations (keras.callbacks.EarlyStopping).
type EarlyStopping struct {
	Patience int
	MinDelta float64

	Best     float64
	BestStep int
	wait     int
	started  bool
}

// Update records the value at step and reports whether it improved on the
// best so far and whether training should stop.
func (e *EarlyStopping) Update(step int, value float64) (improved, stop bool) {
	if !e.started || value < e.Best-e.MinDelta {
		e.started, e.Best, e.BestStep, e.wait = true, value, step, 0
		return true, false
	}
	e.wait++
	return false, e.wait >= e.Patience
}

// Checkpointer saves parameter dicts as JSON files in Dir and keeps the
// newest Keep of them (orbax's max_to_keep).
type Checkpointer struct {
	Dir   string
	Keep  int
	saved []string
}

type ckptFile struct {
	Step   int                  `json:"step"`
	Shapes map[string][]int     `json:"shapes"`
	Values map[string][]float32 `json:"values"`
}

// Save writes params at step and returns the file's path.
func (c *Checkpointer) Save(step int, params map[string]jit.Array) (string, error) {
	f := ckptFile{Step: step, Shapes: map[string][]int{}, Values: map[string][]float32{}}
	for k, v := range params {
		f.Shapes[k] = v.Shape()
		f.Values[k] = v.Float32s()
	}
	data, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	path := filepath.Join(c.Dir, fmt.Sprintf("ckpt_%06d.json", step))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	c.saved = append(c.saved, path)
	for len(c.saved) > c.Keep {
		if err := os.Remove(c.saved[0]); err != nil {
			return "", err
		}
		c.saved = c.saved[1:]
	}
	return path, nil
}

// Restore reads a checkpoint written by Save.
func (c *Checkpointer) Restore(path string) (int, map[string]jit.Array, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, nil, err
	}
	var f ckptFile
	if err := json.Unmarshal(data, &f); err != nil {
		return 0, nil, err
	}
	out := map[string]jit.Array{}
	for k, v := range f.Values {
		out[k] = jit.FromSlice(v, f.Shapes[k]...)
	}
	return f.Step, out, nil
}

// Saved lists the checkpoints still on disk, oldest first.
func (c *Checkpointer) Saved() []string { return append([]string(nil), c.saved...) }

// MetricsLog appends one JSON object per line.
type MetricsLog struct {
	f *os.File
	n int
}

// OpenMetrics creates (or truncates) a metrics file.
func OpenMetrics(path string) (*MetricsLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &MetricsLog{f: f}, nil
}

// Write logs the metrics of one step, keys sorted.
func (m *MetricsLog) Write(step int, metrics map[string]float64) error {
	keys := make([]string, 0, len(metrics))
	for k := range metrics {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rec := map[string]any{"step": step}
	for _, k := range keys {
		v := metrics[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			rec[k] = nil
			continue
		}
		rec[k] = v
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	m.n++
	_, err = m.f.Write(append(line, '\n'))
	return err
}

// Close closes the file and returns how many records were written.
func (m *MetricsLog) Close() (int, error) { return m.n, m.f.Close() }

// ECE is the expected calibration error of binary predictions with nbins
// equal-width confidence bins: sum over bins of |accuracy - confidence|
// weighted by the bin's share of examples. probs and labels are [N].
func ECE(probs, labels jit.Array, nbins int) jit.Array {
	n := float64(probs.Size())
	pred := probs.Gt(0.5).Astype(jit.Float32)
	conf := jit.Where(probs.Gt(0.5), probs, probs.Neg().Add(1))
	correct := pred.Eq(labels).Astype(jit.Float32)
	ece := jit.Scalar(float32(0))
	for b := 0; b < nbins; b++ {
		lo := 0.5 + 0.5*float64(b)/float64(nbins)
		hi := 0.5 + 0.5*float64(b+1)/float64(nbins)
		in := conf.Gt(lo).And(conf.Le(hi)).Astype(jit.Float32)
		if b == 0 {
			in = conf.Le(hi).Astype(jit.Float32) // the first bin is closed at 0.5
		}
		gap := correct.Mul(in).Sum().Sub(conf.Mul(in).Sum()).Abs()
		ece = ece.Add(gap.Div(n))
	}
	return ece
}
