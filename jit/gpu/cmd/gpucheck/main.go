// Command gpucheck runs the codelab's functions on the GPU backend and
// writes a markdown report: correctness against the reference evaluator,
// first-call and cached-call times, scan against the unrolled loop at 200
// and 2000 steps, the shape-recompile loop, and (with -jax) the same
// functions through JAX on the same GPU side by side. scripts/gpu-check.sh
// builds it and runs it on the GPU machine.
//
//	gpucheck [-jax jax.json] [-o report.md] [-interp -n 1000 -steps 20]
//
// With -interp it runs on the PTX interpreter instead of a GPU (slow: use
// small -n and -steps), which checks the program itself on machines without
// a GPU.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jitlint/jitlint/jit/gpu"
	"github.com/jitlint/jitlint/jit/gpu/internal/devapi"
	"github.com/jitlint/jitlint/jit/gpu/internal/ptxsim"
)

func main() {
	jaxPath := flag.String("jax", "", "JSON written by bench/gpu/jax_codelab.py, for the side-by-side table")
	outPath := flag.String("o", "", "write the report here (default standard output)")
	interp := flag.Bool("interp", false, "run on the PTX interpreter instead of the GPU")
	flag.IntVar(&cfg.n, "n", 1_000_000, "length of heavy's input (the codelab's arange(1_000_000))")
	flag.IntVar(&cfg.steps, "steps", 200, "loop length of the codelab cases (the loop table also uses 10x this)")
	flag.Parse()
	out := io.Writer(os.Stdout)
	if *outPath != "" {
		f, err := os.Create(*outPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gpucheck:", err)
			os.Exit(2)
		}
		defer f.Close()
		out = f
	}
	var jax *jaxResults
	if *jaxPath != "" {
		var err error
		if jax, err = readJAX(*jaxPath); err != nil {
			fmt.Fprintf(out, "JAX results unavailable: %v\n\n", err)
		}
	}
	if err := run(out, jax, *interp); err != nil {
		fmt.Fprintln(out, "\n**gpucheck failed:**", err)
		fmt.Fprintln(os.Stderr, "gpucheck:", err)
		os.Exit(1)
	}
}

// jaxResults is what jax_codelab.py writes.
type jaxResults struct {
	Device    string             `json:"device"`
	Version   string             `json:"jax_version"`
	Cases     map[string]jaxCase `json:"cases"`
	Loops     map[string]float64 `json:"loops_first_ms"`
	Recompile []float64          `json:"recompile_ms"`
	Errors    map[string]string  `json:"errors"`
	Extra     map[string]any     `json:"extra"`
}

// jaxCase is one function's JAX timings and leading output values.
type jaxCase struct {
	FirstMS  float64   `json:"first_ms"`
	CachedMS float64   `json:"cached_ms"`
	Head     []float64 `json:"head"`
}

func readJAX(path string) (*jaxResults, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r jaxResults
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }

// cfg holds the problem sizes.
var cfg struct{ n, steps int }

func run(out io.Writer, jax *jaxResults, interp bool) error {
	var g *gpu.Backend
	if interp {
		g = devapi.NewBackend(ptxsim.NewDevice()).(*gpu.Backend)
	} else {
		b, err := gpu.Open()
		if err != nil {
			return err
		}
		g = b.(*gpu.Backend)
	}
	fmt.Fprintf(out, "# GPU check (%s)\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(out, "- device: %s\n", g.Describe())
	if jax != nil {
		fmt.Fprintf(out, "- JAX %s on %s\n", jax.Version, jax.Device)
	}
	fmt.Fprintln(out)
	if err := correctnessAndTimes(out, g, jax); err != nil {
		return err
	}
	if err := recompile(out, g, jax); err != nil {
		return err
	}
	// Last: the 2000-step unrolled kernel is the slowest thing to JIT.
	return loops(out, g, jax)
}
