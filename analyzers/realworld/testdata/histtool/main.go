// Command histtool is the Go port of our latency-histogram script
// (np.histogram + np.quantile over a day of request latencies). The
// nightly job runs it once per service with the options below, parsed from
// a fixed argument list the scheduler hands over:
//
//	-bins N        number of histogram bins (np.histogram(bins=N))
//	-method M      "loop" (the original per-bin counting) or "onehot"
//	-rows N        how many samples to read for the service
//	-q LIST        comma-separated quantiles, e.g. 0.5,0.9,0.99
//	-log           histogram of log-latency instead of latency
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"strconv"
	"strings"

	"corpus/agg"
	"corpus/rolling"

	"github.com/jitlint/jitlint/jit"
)

// Sample counts are padded to these sizes so that services of similar size
// share a compiled kernel.
var rowBuckets = []int{1024, 2048, 4096}

type options struct {
	bins      int
	method    string
	rows      int
	quantiles []float64
	logScale  bool
}

func parseArgs(args []string) (options, error) {
	fs := flag.NewFlagSet("histtool", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := options{}
	fs.IntVar(&o.bins, "bins", 32, "number of histogram bins")
	fs.StringVar(&o.method, "method", "onehot", "counting method: loop or onehot")
	fs.IntVar(&o.rows, "rows", 2000, "samples to read")
	q := fs.String("q", "0.5,0.9,0.99", "quantiles")
	fs.BoolVar(&o.logScale, "log", false, "histogram of log-latency")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.method != "loop" && o.method != "onehot" {
		return o, fmt.Errorf("unknown -method %q", o.method)
	}
	for _, s := range strings.Split(*q, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 || v > 1 {
			return o, fmt.Errorf("bad quantile %q", s)
		}
		o.quantiles = append(o.quantiles, v)
	}
	return o, nil
}

// Hist is a histogram over [Lo, Hi] in equal-width bins.
type Hist struct {
	Counts jit.Array // f32[bins]
	Lo, Hi jit.Array // f32[]
}

// dataRange is np.histogram's default range: the min and max of the real samples.
func dataRange(x, mask jit.Array) (jit.Array, jit.Array) {
	real := mask.Gt(0)
	return jit.Where(real, x, math.Inf(1)).MinReduce(), jit.Where(real, x, math.Inf(-1)).MaxReduce()
}

// HistLoop counts each bin with its own comparison, as the original script did.
func HistLoop(bins int, x, mask jit.Array) Hist {
	lo, hi := dataRange(x, mask)
	width := hi.Sub(lo).Div(float64(bins))
	counts := make([]jit.Array, bins)
	for b := 0; b < bins; b++ { // want unrolledloop
		left := lo.Add(width.Mul(float64(b)))
		in := x.Ge(left).And(x.Lt(left.Add(width)))
		if b == bins-1 {
			in = x.Ge(left).And(x.Le(hi)) // the last bin is closed, as numpy's
		}
		counts[b] = in.Astype(jit.Float32).Mul(mask).Sum().Reshape(1)
	}
	return Hist{Counts: jit.Concatenate(0, counts...), Lo: lo, Hi: hi}
}

// HistOneHot computes every sample's bin index and adds them up with one
// one-hot matrix product.
func HistOneHot(bins int, x, mask jit.Array) Hist {
	lo, hi := dataRange(x, mask)
	width := hi.Sub(lo).Div(float64(bins)).Max(1e-12)
	idx := x.Sub(lo).Div(width).Floor().Max(0).Min(float64(bins - 1)).Astype(jit.Int32)
	n := x.Shape()[0]
	counts := mask.Reshape(1, n).MatMul(agg.OneHot(idx, bins)).Reshape(bins)
	return Hist{Counts: counts, Lo: lo, Hi: hi}
}

// LogLatency is the script's log transform: shift so the smallest sample is
// 1 if there are non-positive readings, then take the log.
func LogLatency(x, mask jit.Array) jit.Array {
	lo, _ := dataRange(x, mask)
	if m := lo.Item(); m <= 0 { // want tracedbool
		x = x.Sub(m).Add(1)
	}
	return x.Max(1e-9).Log()
}

// LogLatencyShifted is LogLatency with the shift computed as an array.
func LogLatencyShifted(x, mask jit.Array) jit.Array {
	lo, _ := dataRange(x, mask)
	shift := jit.Where(lo.Le(0), lo.Neg().Add(1), 0.0)
	return x.Add(shift).Max(1e-9).Log()
}

// Quantiles interpolates the quantiles qs (f32[Q]) inside the histogram's
// bins, like np.quantile on the binned data.
func Quantiles(h Hist, qs jit.Array) jit.Array {
	bins := h.Counts.Shape()[0]
	ar := jit.Arange(bins, jit.Int32)
	upper := ar.Reshape(bins, 1).Le(ar).Astype(jit.Float32) // upper[i][j] = i <= j
	cdf := h.Counts.Reshape(1, bins).MatMul(upper).Reshape(bins)
	total := cdf.Slice([]int{bins - 1}, []int{bins}).Reshape()
	q := qs.Shape()[0]
	target := qs.Mul(total).Reshape(q, 1)
	k := cdf.Reshape(1, bins).Lt(target).Astype(jit.Int32).Sum(1).Min(bins - 1)
	pick := k.Reshape(q, 1).Eq(ar).Astype(jit.Float32)
	cdfK := pick.Mul(cdf).Sum(1)
	countK := pick.Mul(h.Counts).Sum(1)
	frac := target.Reshape(q).Sub(cdfK.Sub(countK)).Div(countK.Max(1))
	width := h.Hi.Sub(h.Lo).Div(float64(bins))
	return h.Lo.Add(width.Mul(k.Astype(jit.Float32).Add(frac)))
}

// readLatencies simulates reading one service's request latencies (ms).
func readLatencies(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		v := math.Exp(3 + 0.6*rng.NormFloat64())
		if rng.Float64() < 0.01 {
			v *= 8 // timeouts and retries
		}
		out[i] = float32(v)
	}
	return out
}

func sparkline(counts []float32) string {
	const ticks = " ▁▂▃▄▅▆▇█"
	top := float32(1)
	for _, c := range counts {
		top = max(top, c)
	}
	r := []rune(ticks)
	var b strings.Builder
	for _, c := range counts {
		b.WriteRune(r[int(c/top*float32(len(r)-1))])
	}
	return b.String()
}

// kernels are the jitted functions, built once for all invocations.
type kernels struct {
	loop, onehot *jit.Func[func(int, jit.Array, jit.Array) Hist]
	logNaive     *jit.Func[func(jit.Array, jit.Array) jit.Array]
	logShifted   *jit.Func[func(jit.Array, jit.Array) jit.Array]
	quantiles    *jit.Func[func(Hist, jit.Array) jit.Array]
}

// logTransform tries the script's transform first and falls back to the
// array version when it cannot be traced.
func (k *kernels) logTransform(x, mask jit.Array) (out jit.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			var je *jit.Error
			if e, ok := r.(error); ok && errors.As(e, &je) {
				err = je
				out = k.logShifted.Call(x, mask)
				return
			}
			panic(r)
		}
	}()
	return k.logNaive.Call(x, mask), nil
}

func run(name string, args []string, k *kernels, rng *rand.Rand) error {
	o, err := parseArgs(args)
	if err != nil {
		return err
	}
	x, mask, err := rolling.PadToBucket(readLatencies(rng, o.rows), rowBuckets)
	if err != nil {
		return err
	}
	if o.logScale {
		var terr error
		x, terr = k.logTransform(x, mask)
		if terr != nil {
			fmt.Printf("  %s: log transform fell back to the array version (%v)\n", name, terr.(*jit.Error).Kind)
		}
	}
	var h Hist
	if o.method == "loop" {
		h = k.loop.Call(o.bins, x, mask)
	} else {
		h = k.onehot.Call(o.bins, x, mask)
	}
	qs := make([]float32, len(o.quantiles))
	for i, q := range o.quantiles {
		qs[i] = float32(q)
	}
	vals := k.quantiles.Call(h, jit.FromSlice(qs)).Float32s()
	fmt.Printf("%-9s %-6s bins=%2d pad=%d range=[%.1f, %.1f] %s\n", name, o.method, o.bins, x.Shape()[0],
		h.Lo.Item(), h.Hi.Item(), sparkline(h.Counts.Float32s()))
	for i, q := range o.quantiles {
		fmt.Printf("          p%-5g = %8.2f\n", q*100, vals[i])
	}
	return nil
}

func main() {
	k := &kernels{
		loop:       jit.Jit(HistLoop, jit.StaticArgnums(0)),
		onehot:     jit.Jit(HistOneHot, jit.StaticArgnums(0)),
		logNaive:   jit.Jit(LogLatency),
		logShifted: jit.Jit(LogLatencyShifted),
		quantiles:  jit.Jit(Quantiles),
	}
	jobs := []struct {
		service string
		args    []string
	}{
		{"checkout", []string{"-bins", "48", "-method", "loop", "-rows", "1800"}},
		{"search", []string{"-bins=16", "-rows=1500", "-q", "0.5,0.95,0.999"}},
		{"payments", []string{"-bins", "48", "-rows", "1900", "-log"}},
		{"catalog", []string{"-method", "loop", "-bins", "16", "-rows", "1200"}},
		{"auth", []string{"-bins", "16", "-rows", "1700"}},
		{"avatars", []string{"-bins", "many"}},
		{"checkout", []string{"-bins", "48", "-method", "loop", "-rows", "1850"}},
	}
	rng := rand.New(rand.NewSource(3))
	for _, j := range jobs {
		if err := run(j.service, j.args, k, rng); err != nil {
			fmt.Printf("%-9s error: %v\n", j.service, err)
		}
	}
	fmt.Printf("compiles: loop=%d onehot=%d quantiles=%d\n",
		k.loop.Stats().Compiles, k.onehot.Stats().Compiles, k.quantiles.Stats().Compiles)
}
