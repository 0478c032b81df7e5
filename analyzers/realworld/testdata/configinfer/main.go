// configinfer loads a model description from an embedded JSON config, picks
// the activation and normaliser implementations it names, and runs inference
// behind a retry loop with exponential backoff against a flaky "device".
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const configJSON = `{
  "activation": "gelu",
  "norm": "rms",
  "depth": 36,
  "refine_steps": 32,
  "scale": 0.5,
  "batch": 64,
  "max_retries": 5,
  "backoff_ms": 1
}`

type Config struct {
	Activation  string  `json:"activation"`
	Norm        string  `json:"norm"`
	Depth       int     `json:"depth"`
	RefineSteps int     `json:"refine_steps"`
	Scale       float64 `json:"scale"`
	Batch       int     `json:"batch"`
	MaxRetries  int     `json:"max_retries"`
	BackoffMS   int     `json:"backoff_ms"`
}

var metrics = map[string]int{}

func Gelu(x jit.Array) jit.Array {
	return x.Mul(x.Mul(1.702).Logistic())
}

func Swish(x jit.Array) jit.Array {
	return x.Mul(x.Logistic())
}

func RMSNorm(x jit.Array) jit.Array {
	metrics["rms_traces"]++ // want traceeffect
	return x.Mul(x.Mul(x).Mean().Add(1e-5).Rsqrt())
}

func LayerNorm(x jit.Array) jit.Array {
	c := x.Sub(x.Mean())
	return c.Mul(c.Mul(c).Mean().Add(1e-5).Rsqrt())
}

var activations = map[string]func(jit.Array) jit.Array{"gelu": Gelu, "swish": Swish}
var norms = map[string]func(jit.Array) jit.Array{"rms": RMSNorm, "layer": LayerNorm}

// shift is a concrete calibration constant made before any tracing.
var shift = jit.Scalar(float32(0.25))

var errBusy = errors.New("device busy")

// flaky fails the first `fails` attempts, like a contended accelerator.
type flaky struct{ fails int }

func (f *flaky) acquire() error {
	if f.fails > 0 {
		f.fails--
		return errBusy
	}
	return nil
}

func buildModel(cfg Config) func(jit.Array) jit.Array {
	act, norm := activations[cfg.Activation], norms[cfg.Norm]
	scale := math.Sqrt(cfg.Scale)
	return func(x jit.Array) jit.Array {
		h := x.Mul(scale).Add(shift.Item())
		for layer := 0; layer < cfg.Depth; layer++ { // want unrolledloop
			h = norm(act(h).Add(h.Mul(0.5)))
		}
		for s := 0; s < cfg.RefineSteps; s++ {
			h = h.Sub(h.Mul(0.01))
		}
		return h.Sum(1)
	}
}

func batchOf(n int) jit.Array {
	return jit.Arange(n*4, jit.Float32).Div(float64(n*4)).Reshape(n, 4)
}

// inferWithRetry halves the batch after each busy error, as the on-call
// runbook says, and waits a little longer each time.
func inferWithRetry(model *jit.Func[func(jit.Array) jit.Array], dev *flaky, cfg Config) (jit.Array, error) {
	batch := cfg.Batch
	wait := time.Duration(cfg.BackoffMS) * time.Millisecond
	for attempt := 0; attempt <= cfg.MaxRetries; attempt++ {
		y := model.Call(batchOf(batch)) // want shapechurn
		if err := dev.acquire(); err == nil {
			return y, nil
		}
		metrics["busy"]++
		fmt.Printf("attempt %d (batch %d): busy, retrying in %v\n", attempt, batch, wait)
		time.Sleep(wait)
		wait *= 2
		batch /= 2
	}
	return jit.Array{}, errBusy
}

// warmRetry rebuilds the jitted wrapper on every attempt.
func warmRetry(cfg Config, dev *flaky) float64 {
	for attempt := 0; ; attempt++ {
		warm := jit.Jit(func(x jit.Array) jit.Array { return x.Tanh().Sum() }) // want staticargs
		v := warm.Call(batchOf(8)).Item()
		if dev.acquire() == nil || attempt >= cfg.MaxRetries {
			return v
		}
		time.Sleep(time.Duration(cfg.BackoffMS) * time.Millisecond)
	}
}

func main() {
	var cfg Config
	if err := json.Unmarshal([]byte(configJSON), &cfg); err != nil {
		panic(err)
	}
	fmt.Printf("config: act=%s norm=%s depth=%d\n", cfg.Activation, cfg.Norm, cfg.Depth)

	model := jit.Jit(buildModel(cfg))
	y, err := inferWithRetry(model, &flaky{fails: 3}, cfg)
	fmt.Printf("inference err=%v scores shape=%v first=%.4g\n", err, y.Shape(), y.Float32s()[0])

	// a steady retry loop on one wrapper: same shape every attempt
	steady := jit.Jit(buildModel(Config{Activation: "swish", Norm: "layer", Depth: 8, RefineSteps: 4, Scale: 1}))
	dev := &flaky{fails: 4}
	for attempt := 0; attempt < 6; attempt++ {
		out := steady.Call(batchOf(8))
		if dev.acquire() == nil {
			fmt.Printf("steady ok after %d attempts, sum=%.4f\n", attempt+1, out.Sum().Item())
			break
		}
	}

	fmt.Printf("warm value %.4f\n", warmRetry(cfg, &flaky{fails: 3}))

	// norms picked by name again per tenant: same top-level functions
	for _, tenant := range []string{"a", "b", "c", "d"} {
		nf := jit.Jit(norms[cfg.Norm])
		v := nf.Call(batchOf(4)).Sum().Item()
		fmt.Printf("tenant %s norm sum=%.4f\n", tenant, v)
	}
	fmt.Println("metrics:", metrics["rms_traces"], metrics["busy"])
}
