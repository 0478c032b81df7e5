// zephanomaly: streaming anomaly detection for a few plant sensors.
//
// A producer goroutine emits readings over a channel; the consumer groups
// them per sensor into windows, keeps an exponentially decayed mean and
// variance (an online z-score), and raises alerts from per-sensor thresholds.
package main

import (
	"fmt"
	"log"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const window = 16

type Config struct {
	Alpha     float64 // decay of the running moments
	ZAlert    float64
	ZCritical float64
	Warmup    int // windows with bias-corrected decay
}

var configs = map[string]Config{
	"temp":      {Alpha: 0.10, ZAlert: 3.0, ZCritical: 5.0},
	"vibration": {Alpha: 0.05, ZAlert: 3.5, ZCritical: 6.0},
	"pressure":  {Alpha: 0.05, ZAlert: 3.0, ZCritical: 5.0, Warmup: 8},
}

type Reading struct {
	Sensor string
	V      float32
}

type Alert struct {
	Sensor string
	Index  int
	Z      float32
}

// Moments is the detector's state; Alpha is part of the cache key.
type Moments struct {
	Mean  jit.Array
	Var   jit.Array
	Alpha float64 `jit:"static"`
}

// Update folds one window into the moments and returns each reading's z.
// Readings beyond the critical level do not move the baseline.
func Update(m Moments, w jit.Array, zCrit jit.Array) (Moments, jit.Array) {
	mean, v := m.Mean, m.Var
	zs := make([]jit.Array, window)
	for i := 0; i < window; i++ {
		x := w.Slice([]int{i}, []int{i + 1}).Reshape()
		z := x.Sub(mean).Mul(v.Add(1e-6).Rsqrt())
		keep := z.Abs().Lt(zCrit)
		d := x.Sub(mean)
		nm := mean.Add(d.Mul(m.Alpha))
		nv := v.Mul(1 - m.Alpha).Add(d.Mul(d).Mul(m.Alpha))
		mean, v = jit.Where(keep, nm, mean), jit.Where(keep, nv, v)
		zs[i] = z.Reshape(1)
	}
	return Moments{mean, v, m.Alpha}, jit.Concatenate(0, zs...)
}

// NaiveUpdate is an earlier version that skipped the whole window.
func NaiveUpdate(m Moments, w jit.Array) Moments {
	z := w.Sub(m.Mean).Mul(m.Var.Add(1e-6).Rsqrt())
	if z.Abs().MaxReduce().Item() > 5 { // want tracedbool
		return m
	}
	d := w.Mean().Sub(m.Mean)
	return Moments{m.Mean.Add(d.Mul(m.Alpha)), m.Var.Mul(1 - m.Alpha).Add(d.Mul(d).Mul(m.Alpha)), m.Alpha}
}

// Score z-scores a padded tail against frozen moments.
func Score(m Moments, x, mask jit.Array) jit.Array {
	return x.Sub(m.Mean).Mul(m.Var.Add(1e-6).Rsqrt()).Mul(mask)
}

// Periodicity returns the autocorrelation of the last 64 vibration samples.
func Periodicity(x jit.Array) jit.Array {
	log.Printf("periodicity over %v", x.Shape()) // want traceeffect
	c := x.Sub(x.Mean())
	den := c.Pow(2).Sum().Add(1e-6)
	lags := make([]jit.Array, 0, 40)
	for lag := 1; lag <= 40; lag++ { // want unrolledloop
		a := c.Slice([]int{0}, []int{64 - lag})
		b := c.Slice([]int{lag}, []int{64})
		lags = append(lags, a.Mul(b).Sum().Div(den).Reshape(1))
	}
	return jit.Concatenate(0, lags...)
}

func produce(out chan<- Reading) {
	defer close(out)
	seed := uint32(11)
	noise := func() float32 {
		seed = seed*1103515245 + 12345
		return float32(seed>>16&0x7fff)/32768 - 0.5
	}
	for t := 0; t < 230; t++ {
		temp := 20 + 0.5*noise()
		if t == 150 {
			temp += 9 // a stuck heater
		}
		out <- Reading{"temp", temp}
		out <- Reading{"vibration", float32(math.Sin(float64(t)*0.7)) + 0.2*noise()}
		out <- Reading{"pressure", 101 + 0.3*noise()}
	}
}

type sensor struct {
	m      Moments
	buf    []float32
	hist   []float32
	wins   int
	offset int
}

func main() {
	readings := make(chan Reading, 32)
	alerts := make(chan Alert, 256)
	go produce(readings)

	update := jit.Jit(Update)
	score := jit.Jit(Score)
	period := jit.Jit(Periodicity)
	sensors := map[string]*sensor{}

	for r := range readings {
		cfg := configs[r.Sensor]
		s := sensors[r.Sensor]
		if s == nil {
			s = &sensor{m: Moments{jit.Scalar(r.V), jit.Scalar[float32](1), cfg.Alpha}}
			sensors[r.Sensor] = s
		}
		s.buf = append(s.buf, r.V)
		if len(s.buf) < window {
			continue
		}
		w := jit.FromSlice(s.buf)
		var z jit.Array
		if s.wins < cfg.Warmup {
			warm := s.m
			warm.Alpha = math.Max(cfg.Alpha, 1/float64(s.wins+2))
			s.m, z = update.Call(warm, w, jit.Scalar(float32(cfg.ZCritical))) // want staticargs
			s.m.Alpha = cfg.Alpha
		} else {
			s.m, z = update.Call(s.m, w, jit.Scalar(float32(cfg.ZCritical)))
		}
		for i, v := range z.Float32s() {
			if math.Abs(float64(v)) > cfg.ZAlert {
				alerts <- Alert{r.Sensor, s.offset + i, v}
			}
		}
		if r.Sensor == "vibration" {
			s.hist = append(s.hist, s.buf...)
			if len(s.hist) >= 64 && s.wins%4 == 3 {
				ac := period.Call(jit.FromSlice(s.hist[len(s.hist)-64:])).Float32s()
				fmt.Printf("vibration autocorr lag 9: %.2f\n", ac[8])
			}
		}
		s.offset += window
		s.wins++
		s.buf = s.buf[:0]
	}

	// Tail: the readings left over when the stream closed, padded to a window.
	for _, name := range []string{"pressure", "temp", "vibration"} {
		s := sensors[name]
		x, mask, err := jit.PadTo(jit.FromSlice(s.buf), window)
		if err != nil {
			panic(err)
		}
		z := score.Call(s.m, x, mask)
		fmt.Printf("%s: %d windows, tail of %d, max|z| %.2f\n", name, s.wins, len(s.buf), z.Abs().MaxReduce().Item())
	}
	close(alerts)
	for a := range alerts {
		fmt.Printf("ALERT %-9s #%d z=%.1f\n", a.Sensor, a.Index, a.Z)
	}

	func() {
		defer func() { recover() }()
		s := sensors["temp"]
		jit.Jit(NaiveUpdate).Call(s.m, jit.Full(30, jit.Float32, window))
	}()
	fmt.Println("update signatures:", len(update.Signatures()))
}
