// Command vxreload runs a signal-conditioning service whose configuration
// is pushed over an admin channel and re-read from a file every few batches;
// the service rebuilds its jitted stages when the configuration changes.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

type Config struct {
	Version int     `json:"version"`
	Window  int     `json:"window"` // smoothing window
	Taps    int     `json:"taps"`   // FIR taps (odd)
	Gain    float64 `json:"gain"`   // output gain, tuned by the auto-gain job
	Mode    string  `json:"mode"`   // anomaly rule: "zscore" or "mad"
	Trend   int     `json:"trend"`  // samples of history for the trend fit
}

// msg is what the service's inbox carries: a config push or a batch.
type msg struct {
	cfg   *Config
	batch []float32
	reply chan float64
}

var traceModes []string

// detect scores how far the peak of the real (masked) samples is from
// their centre, under the given rule.
func detect(mode string, x, mask jit.Array) jit.Array {
	traceModes = append(traceModes, mode) // want traceeffect
	n := mask.Sum().Max(1)
	mu := x.Mul(mask).Sum().Div(n)
	dev := x.Sub(mu).Mul(mask)
	peak := dev.Abs().MaxReduce()
	if mode == "mad" {
		return peak.Div(dev.Abs().Sum().Div(n).Add(1e-6))
	}
	return peak.Div(dev.Pow(2).Sum().Div(n).Sqrt().Add(1e-6))
}

// trendSlope is the least-squares slope of the history.
func trendSlope(h jit.Array) jit.Array {
	n := h.Shape()[0]
	t := jit.Arange(n, jit.Float32).Sub(float64(n-1) / 2)
	return t.Mul(h.Sub(h.Mean())).Sum().Div(t.Pow(2).Sum().Max(1e-6))
}

type Service struct {
	cfg     Config
	path    string
	smooth  *jit.Func[func(jit.Array, jit.Array) jit.Array]
	detect  *jit.Func[func(string, jit.Array, jit.Array) jit.Array]
	trend   *jit.Func[func(jit.Array) jit.Array]
	history []float32
	batches int
	notices chan string
}

func nextPow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// apply installs cfg, rebuilding only what changed.
func (s *Service) apply(cfg Config) {
	old := s.cfg
	s.cfg = cfg
	if s.smooth == nil || cfg.Taps != old.Taps || cfg.Gain != old.Gain {
		taps, gain := cfg.Taps, cfg.Gain
		s.smooth = jit.Jit(func(x, mask jit.Array) jit.Array { // want staticargs
			acc := jit.Zeros(jit.Float32, x.Shape()...)
			for k := 0; k < taps; k++ {
				shifted := jit.Concatenate(0, jit.Zeros(jit.Float32, k), x.Slice([]int{0}, []int{x.Shape()[0] - k}))
				acc = acc.Add(shifted)
			}
			return acc.Div(float64(taps)).Mul(gain).Mul(mask)
		})
	}
	if s.detect == nil || cfg.Mode != old.Mode {
		s.detect = jit.Jit(detect, jit.StaticArgnums(0))
	}
	if s.trend == nil {
		s.trend = jit.Jit(trendSlope)
	}
	s.notices <- fmt.Sprintf("v%d applied (taps=%d gain=%.2f mode=%s)", cfg.Version, cfg.Taps, cfg.Gain, cfg.Mode)
}

// reread loads the config file and applies it when its version is new.
func (s *Service) reread() error {
	raw, err := os.ReadFile(s.path)
	if err != nil {
		return err
	}
	var cfg Config
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("bad config: %w", err)
	}
	if cfg.Version > s.cfg.Version {
		s.apply(cfg)
	}
	return nil
}

func (s *Service) process(batch []float32) float64 {
	tail := batch[max(0, len(batch)-s.cfg.Window):]
	x, mask, _ := jit.PadTo(jit.FromSlice(tail), nextPow2(s.cfg.Window)) // tail never exceeds the window
	y := s.smooth.Call(x, mask)
	score := s.detect.Call(s.cfg.Mode, y, mask)
	s.history = append(s.history, float32(y.Mean().Item()))
	if len(s.history) > s.cfg.Trend {
		s.history = s.history[1:]
	}
	slope := 0.0
	if len(s.history) >= 2 {
		slope = s.trend.Call(jit.FromSlice(s.history)).Item() // want shapechurn
	}
	return score.Item() + 10*slope
}

func (s *Service) run(inbox <-chan msg) {
	for m := range inbox {
		if m.cfg != nil {
			s.apply(*m.cfg)
			continue
		}
		s.batches++
		if s.batches > 1 {
			if err := s.reread(); err != nil {
				s.notices <- "reload failed: " + err.Error()
			}
		}
		m.reply <- s.process(m.batch)
	}
	close(s.notices)
}

func writeConfig(path string, c Config) {
	raw, _ := json.Marshal(c)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		panic(err)
	}
}

func main() {
	dir, err := os.MkdirTemp("", "vxreload")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "config.json")
	base := Config{Version: 1, Window: 12, Taps: 3, Gain: 1, Mode: "zscore", Trend: 24}
	writeConfig(path, base)

	svc := &Service{path: path, notices: make(chan string, 64)}
	inbox := make(chan msg)
	go svc.run(inbox)
	inbox <- msg{cfg: &base}

	reply := make(chan float64)
	for i := range 30 {
		if i > 0 && i != 20 {
			// The auto-gain job rewrites the file with a retuned gain before every batch.
			c := base
			c.Version = 2 + i
			c.Gain = 1 + 0.05*float64(i)
			if i >= 15 {
				c.Mode, c.Window = "mad", 14
			}
			writeConfig(path, c)
		} else if i == 20 {
			os.WriteFile(path, []byte("{not json"), 0o644)
		}
		if i == 24 {
			push := base
			push.Version, push.Mode, push.Taps = 100, "zscore", 5
			inbox <- msg{cfg: &push}
		}
		batch := make([]float32, 8+i%7)
		for k := range batch {
			batch[k] = float32(math.Sin(float64(i*len(batch)+k)*0.2) + 0.1*float64(k%3))
		}
		inbox <- msg{batch: batch, reply: reply}
		if v := <-reply; i%5 == 0 {
			fmt.Printf("batch %2d (n=%2d): score %.3f\n", i, len(batch), v)
		}
	}
	close(inbox)
	applied := 0
	for n := range svc.notices {
		if strings.Contains(n, "applied") {
			applied++
			continue
		}
		fmt.Println("notice:", n)
	}
	fmt.Println("configs applied:", applied)
	fmt.Println("detect traced for modes:", traceModes)
}
