// Command featurepipe runs the churn model's feature pipeline, the Go port
// of a scikit-learn-style ColumnTransformer: the steps (fillna, log1p,
// standardize, clip) and the columns they apply to come from a JSON config,
// so the data team can change them without a rebuild. Each incoming batch of
// customer rows is transformed by the jitted pipeline and summarised.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"

	"github.com/jitlint/jitlint/jit"
)

// Step is one transform of the pipeline.
type Step struct {
	Op      string   `json:"op"`                // fillna | log1p | standardize | clip
	Columns []string `json:"columns,omitempty"` // empty: every column
	Lo      float64  `json:"lo,omitempty"`
	Hi      float64  `json:"hi,omitempty"`
}

// Config is the pipeline's JSON configuration.
type Config struct {
	Name      string   `json:"name"`
	Columns   []string `json:"columns"`
	BatchSize int      `json:"batch_size"`
	Steps     []Step   `json:"steps"`
}

var defaultConfig = Config{
	Name:      "churn-features-v3",
	Columns:   []string{"tenure_months", "monthly_spend", "support_calls", "data_gb", "late_payments"},
	BatchSize: 128,
	Steps: []Step{
		{Op: "fillna"},
		{Op: "log1p", Columns: []string{"monthly_spend", "data_gb", "support_calls"}},
		{Op: "standardize"},
		{Op: "clip", Lo: -3, Hi: 3},
	},
}

func writeConfig(dir string, cfg Config) (string, error) {
	path := filepath.Join(dir, "pipeline.json")
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, data, 0o644)
}

func loadConfig(path string) (Config, error) {
	var cfg Config
	data, err := os.ReadFile(path)
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.BatchSize <= 0 || len(cfg.Columns) == 0 {
		return cfg, fmt.Errorf("%s: empty batch size or columns", path)
	}
	return cfg, nil
}

// columnMask returns a [1, C] 0/1 row selecting the named columns (all when
// names is empty).
func columnMask(all, names []string) jit.Array {
	sel := make([]float32, len(all))
	for i, c := range all {
		if len(names) == 0 {
			sel[i] = 1
		}
		for _, n := range names {
			if n == c {
				sel[i] = 1
			}
		}
	}
	return jit.FromSlice(sel, 1, len(all))
}

// colMean and colStd are NaN-aware column statistics of a [B, C] batch
// (np.nanmean / np.nanstd over axis 0).
func colMean(x jit.Array) jit.Array {
	ok := x.Eq(x)
	n := ok.Astype(jit.Float32).Sum(0).Max(1)
	return jit.Where(ok, x, 0.0).Sum(0).Div(n)
}

func colStd(x jit.Array) jit.Array {
	ok := x.Eq(x)
	mu := colMean(x)
	d := jit.Where(ok, x.Sub(mu), 0.0)
	n := ok.Astype(jit.Float32).Sum(0).Max(1)
	return d.Mul(d).Sum(0).Div(n).Sqrt().Max(1e-6)
}

// stage is one configured step with its column selection.
type stage struct {
	step Step
	sel  jit.Array // bool[1, C]
}

// Pipeline is a compiled-from-config ColumnTransformer.
type Pipeline struct {
	name   string
	stages []stage
}

// NewPipeline validates the config and resolves the columns of each step.
func NewPipeline(cfg Config) (*Pipeline, error) {
	p := &Pipeline{name: cfg.Name}
	for _, s := range cfg.Steps {
		switch s.Op {
		case "fillna", "log1p", "standardize", "clip":
		default:
			return nil, fmt.Errorf("unknown op %q", s.Op)
		}
		p.stages = append(p.stages, stage{step: s, sel: columnMask(cfg.Columns, s.Columns).Gt(0)})
	}
	return p, nil
}

// Transform applies the steps in order to a [B, C] batch.
func (p *Pipeline) Transform(x jit.Array) jit.Array {
	for _, st := range p.stages {
		var y jit.Array
		switch st.step.Op {
		case "fillna":
			y = jit.Where(x.Eq(x), x, colMean(x).Reshape(1, -1))
		case "log1p":
			y = x.Max(0).Log1p()
		case "standardize":
			y = x.Sub(colMean(x)).Div(colStd(x))
		case "clip":
			y = x.Max(st.step.Lo).Min(st.step.Hi)
		}
		x = jit.Where(st.sel, y, x)
	}
	return x
}

// ColumnStats summarises a transformed batch: mean, std, min and max per column.
func ColumnStats(x jit.Array) [4]jit.Array {
	return [4]jit.Array{colMean(x), colStd(x), x.MinReduce(0), x.MaxReduce(0)}
}

// simulateBatch draws one batch of customer rows, with ~3% missing values.
func simulateBatch(rng *rand.Rand, rows, cols int) jit.Array {
	data := make([]float32, rows*cols)
	for r := 0; r < rows; r++ {
		tenure := 1 + rng.ExpFloat64()*24
		vals := []float64{
			tenure,
			20 + rng.ExpFloat64()*45,
			math.Floor(rng.ExpFloat64() * 1.5),
			rng.ExpFloat64() * 12,
			math.Floor(rng.ExpFloat64() * 0.4),
		}
		for c := 0; c < cols; c++ {
			v := vals[c%len(vals)]
			if rng.Float64() < 0.03 {
				v = math.NaN()
			}
			data[r*cols+c] = float32(v)
		}
	}
	return jit.FromSlice(data, rows, cols)
}

func main() {
	dir, err := os.MkdirTemp("", "featurepipe-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path, err := writeConfig(dir, defaultConfig)
	if err != nil {
		panic(err)
	}

	rng := rand.New(rand.NewSource(99))
	const batches = 6

	// Streaming mode: the config is re-read for every batch, so an edit to
	// pipeline.json takes effect on the next batch.
	fmt.Println("streaming batches (config reloaded per batch):")
	for i := 0; i < batches; i++ {
		cfg, err := loadConfig(path)
		if err != nil {
			panic(err)
		}
		p, err := NewPipeline(cfg)
		if err != nil {
			panic(err)
		}
		batch := simulateBatch(rng, cfg.BatchSize, len(cfg.Columns))
		out := jit.Jit(func(x jit.Array) jit.Array { return p.Transform(x) }).Call(batch) // want staticargs
		stats := jit.Jit(ColumnStats).Call(out)
		mean, std := stats[0].Float32s(), stats[1].Float32s()
		fmt.Printf("  batch %d %s: mean[0]=%+.3f std[0]=%.3f range=[%.2f, %.2f]\n",
			i, cfg.Name, mean[0], std[0], stats[2].MinReduce().Item(), stats[3].MaxReduce().Item())
	}

	// Batch mode: one config, one jitted pipeline for the whole run.
	cfg, err := loadConfig(path)
	if err != nil {
		panic(err)
	}
	p, err := NewPipeline(cfg)
	if err != nil {
		panic(err)
	}
	pipeline := jit.Jit(p.Transform)
	summary := jit.Jit(ColumnStats)
	fmt.Println("\nbatch mode (one pipeline):")
	for i := 0; i < batches; i++ {
		out := pipeline.Call(simulateBatch(rng, cfg.BatchSize, len(cfg.Columns)))
		s := summary.Call(out)
		fmt.Printf("  batch %d:", i)
		for c, name := range cfg.Columns {
			fmt.Printf(" %s=%.2f±%.2f", name[:4], s[0].Float32s()[c], s[1].Float32s()[c])
		}
		fmt.Println()
	}
	ps, ss := pipeline.Stats(), summary.Stats()
	fmt.Printf("pipeline compiles=%d hits=%d; summary compiles=%d hits=%d (shared: %d signatures)\n",
		ps.Compiles, ps.Hits, ss.Compiles, ss.Hits, len(summary.Signatures()))

	// A bad edit to the config is caught before any batch runs.
	bad := defaultConfig
	bad.Steps = append([]Step{}, bad.Steps...)
	bad.Steps[1].Op = "log2p"
	if _, err := writeConfig(dir, bad); err != nil {
		panic(err)
	}
	c, err := loadConfig(path)
	if err != nil {
		panic(err)
	}
	_, err = NewPipeline(c)
	fmt.Println("config edit rejected:", err)
}
