// Command gemm times matrix products side by side in one run: the jit CPU
// backend (github.com/jitlint/jitlint/jit/cpu), NumPy with OpenBLAS (a
// Python child process, numpy_gemm.py, driven over a pipe) and gonum's
// pure-Go BLAS (Sgemm/Dgemm). Each round times every workload with each
// of the three right after one another, so load drifting on a shared
// machine hits them alike; the table gives medians over rounds of the
// median time per call within a round. bench/cpu/gemm.sh installs NumPy
// and OpenBLAS and runs it; it is a module of its own so that gonum stays
// out of jitlint's dependencies.
//
// Usage: go run . [-rounds 5] [-python python3] [-quick]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jitlint/jitlint/jit"
	_ "github.com/jitlint/jitlint/jit/cpu"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// workload is one benchmark: its name (also numpy_gemm.py's), its
// floating-point operations per call, and for jit and gonum a setup that
// returns the timed call.
type workload struct {
	name  string
	flops float64
	jit   func() func()
	gonum func() func()
}

func main() {
	rounds := flag.Int("rounds", 5, "rounds of every workload")
	python := flag.String("python", "/usr/bin/python3", "the Python with NumPy (Debian's python3-numpy)")
	quick := flag.Bool("quick", false, "only the small workloads (a smoke test)")
	flag.Parse()
	ws := workloads(*quick)
	np, err := startNumPy(*python)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("machine: %s, %d CPUs, GOMAXPROCS %d, %s\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Printf("numpy: %s\n", np.config)
	fmt.Printf("load average before: %s\n", loadAvg())
	type times struct{ jit, numpy, gonum []float64 }
	res := make([]times, len(ws))
	calls := make([][2]func(), len(ws))
	for i, w := range ws {
		calls[i] = [2]func(){w.jit(), w.gonum()}
	}
	for range *rounds {
		for i, w := range ws {
			reps := repsFor(calls[i][0])
			res[i].jit = append(res[i].jit, timeCall(calls[i][0], reps))
			t, err := np.time(w.name, reps)
			if err != nil {
				log.Fatal(err)
			}
			res[i].numpy = append(res[i].numpy, t)
			res[i].gonum = append(res[i].gonum, timeCall(calls[i][1], max(1, reps/4)))
		}
	}
	fmt.Printf("load average after: %s\n", loadAvg())
	fmt.Printf("rounds: %d (median over rounds of each round's median time per call)\n\n", *rounds)
	fmt.Println("| workload | jit ms | NumPy+OpenBLAS ms | gonum ms | jit GFLOP/s | NumPy GFLOP/s | gonum GFLOP/s | jit / NumPy | jit / gonum |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for i, w := range ws {
		j, n, g := median(res[i].jit), median(res[i].numpy), median(res[i].gonum)
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.1f | %.1f | %.1f | **%.2f×** | %.2f× |\n",
			w.name, 1e3*j, 1e3*n, 1e3*g, w.flops/j/1e9, w.flops/n/1e9, w.flops/g/1e9, j/n, j/g)
	}
}

// repsFor returns how many calls make about 0.2 s (3 to 50).
func repsFor(f func()) int {
	t := time.Now()
	f()
	d := time.Since(t).Seconds()
	return max(3, min(50, int(0.2/max(d, 1e-9))))
}

// timeCall returns the median seconds of reps calls.
func timeCall(f func(), reps int) float64 {
	ts := make([]float64, reps)
	for i := range ts {
		t := time.Now()
		f()
		ts[i] = time.Since(t).Seconds()
	}
	return median(ts)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// numPy is the Python child: "name reps" in, median seconds out.
type numPy struct {
	in     *bufio.Writer
	out    *bufio.Scanner
	config string
}

func startNumPy(python string) (*numPy, error) {
	cmd := exec.Command(python, "numpy_gemm.py")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s numpy_gemm.py: %v", python, err)
	}
	np := &numPy{in: bufio.NewWriter(w), out: bufio.NewScanner(r)}
	if !np.out.Scan() {
		return nil, fmt.Errorf("numpy_gemm.py printed no configuration line: %v", np.out.Err())
	}
	np.config = np.out.Text()
	return np, nil
}

func (np *numPy) time(name string, reps int) (float64, error) {
	fmt.Fprintf(np.in, "%s %d\n", name, reps)
	if err := np.in.Flush(); err != nil {
		return 0, err
	}
	if !np.out.Scan() {
		return 0, fmt.Errorf("numpy_gemm.py stopped answering (%s): %v", name, np.out.Err())
	}
	return strconv.ParseFloat(strings.TrimSpace(np.out.Text()), 64)
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			return strings.TrimSpace(l[strings.Index(l, ":")+1:])
		}
	}
	return runtime.GOARCH
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// randF32 and randF64 return n uniform values in [-1, 1).
func randF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(2*r.Float64() - 1)
	}
	return v
}

func randF64(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 2*r.Float64() - 1
	}
	return v
}

var impl gonum.Implementation

// sgemm is C = A·B for row-major A (m×k), B (k×n) with gonum.
func sgemm(m, n, k int, a, b, c []float32) {
	impl.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n)
}

// matmul is the jit function of the square and transformer products.
func matmul(a, b jit.Array) jit.Array { return a.MatMul(b) }

// product is an m×k · k×n workload in float32 or float64.
func product(name string, m, k, n int, f64 bool) workload {
	return workload{
		name: name, flops: 2 * float64(m) * float64(n) * float64(k),
		jit: func() func() {
			r := rand.New(rand.NewPCG(1, 2))
			var a, b jit.Array
			if f64 {
				a, b = jit.FromSlice(randF64(r, m*k), m, k), jit.FromSlice(randF64(r, k*n), k, n)
			} else {
				a, b = jit.FromSlice(randF32(r, m*k), m, k), jit.FromSlice(randF32(r, k*n), k, n)
			}
			f := jit.Jit(matmul)
			return func() { f.Call(a, b).BlockUntilReady() }
		},
		gonum: func() func() {
			r := rand.New(rand.NewPCG(1, 2))
			if f64 {
				a, b, c := randF64(r, m*k), randF64(r, k*n), make([]float64, m*n)
				return func() { impl.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n) }
			}
			a, b, c := randF32(r, m*k), randF32(r, k*n), make([]float32, m*n)
			return func() { sgemm(m, n, k, a, b, c) }
		},
	}
}

// Attention: batch 16 of 128×64 · 64×128.
const attnB, attnM, attnK, attnN = 16, 128, 64, 128

func attention() workload {
	return workload{
		name: "attention 16×(128×64·64×128) f32", flops: 2 * attnB * attnM * attnN * attnK,
		jit: func() func() {
			r := rand.New(rand.NewPCG(3, 4))
			a := jit.FromSlice(randF32(r, attnB*attnM*attnK), attnB, attnM, attnK)
			b := jit.FromSlice(randF32(r, attnB*attnK*attnN), attnB, attnK, attnN)
			f := jit.Jit(matmul)
			return func() { f.Call(a, b).BlockUntilReady() }
		},
		gonum: func() func() {
			r := rand.New(rand.NewPCG(3, 4))
			a, b, c := randF32(r, attnB*attnM*attnK), randF32(r, attnB*attnK*attnN), make([]float32, attnB*attnM*attnN)
			return func() {
				for i := range attnB {
					sgemm(attnM, attnN, attnK, a[i*attnM*attnK:], b[i*attnK*attnN:], c[i*attnM*attnN:])
				}
			}
		},
	}
}

// The MLP: x 256×784, W1 784×512, b 512, W2 512×10.
const mlpB, mlpIn, mlpH, mlpOut = 256, 784, 512, 10

// mlpForward is tanh(x·W1 + b)·W2.
func mlpForward(x, w1, b, w2 jit.Array) jit.Array { return x.MatMul(w1).Add(b).Tanh().MatMul(w2) }

// mlpParams are the MLP's parameters, a pytree.
type mlpParams struct{ W1, B, W2 jit.Array }

// mlpLoss is the mean squared error of the MLP's output against y.
func mlpLoss(p mlpParams, x, y jit.Array) jit.Array {
	d := mlpForward(x, p.W1, p.B, p.W2).Sub(y)
	return d.Mul(d).Mean()
}

var mlpGrad = jit.Grad[func(mlpParams, jit.Array, jit.Array) mlpParams](mlpLoss)

// mlpStep is one SGD step.
func mlpStep(p mlpParams, x, y jit.Array) mlpParams {
	g := mlpGrad(p, x, y)
	const lr = 0.01
	return mlpParams{W1: p.W1.Sub(g.W1.Mul(lr)), B: p.B.Sub(g.B.Mul(lr)), W2: p.W2.Sub(g.W2.Mul(lr))}
}

func mlpData() (x, w1, b, w2, y []float32) {
	r := rand.New(rand.NewPCG(5, 6))
	return randF32(r, mlpB*mlpIn), randF32(r, mlpIn*mlpH), randF32(r, mlpH), randF32(r, mlpH*mlpOut), randF32(r, mlpB*mlpOut)
}

const mlpFlops = 2 * mlpB * (mlpIn*mlpH + mlpH*mlpOut)

func mlp() workload {
	return workload{
		name: "MLP forward tanh(x·W1+b)·W2, 256×784×512×10 f32", flops: mlpFlops,
		jit: func() func() {
			x, w1, b, w2, _ := mlpData()
			xa, w1a, ba, w2a := jit.FromSlice(x, mlpB, mlpIn), jit.FromSlice(w1, mlpIn, mlpH), jit.FromSlice(b, mlpH), jit.FromSlice(w2, mlpH, mlpOut)
			f := jit.Jit(mlpForward)
			return func() { f.Call(xa, w1a, ba, w2a).BlockUntilReady() }
		},
		gonum: func() func() {
			x, w1, b, w2, _ := mlpData()
			h, out := make([]float32, mlpB*mlpH), make([]float32, mlpB*mlpOut)
			return func() {
				sgemm(mlpB, mlpH, mlpIn, x, w1, h)
				biasTanh(h, b)
				sgemm(mlpB, mlpOut, mlpH, h, w2, out)
			}
		},
	}
}

// biasTanh sets h = tanh(h + b) row by row.
func biasTanh(h, b []float32) {
	for i := range h {
		h[i] = float32(math.Tanh(float64(h[i] + b[i%len(b)])))
	}
}

func training() workload {
	// forward 2 products, backward 3 (dW2, dH, dW1).
	flops := float64(mlpFlops) + 2*mlpB*(mlpH*mlpOut*2+mlpIn*mlpH)
	return workload{
		name: "Grad training step of the MLP (MSE, SGD) f32", flops: flops,
		jit: func() func() {
			x, w1, b, w2, y := mlpData()
			p := mlpParams{W1: jit.FromSlice(w1, mlpIn, mlpH), B: jit.FromSlice(b, mlpH), W2: jit.FromSlice(w2, mlpH, mlpOut)}
			xa, ya := jit.FromSlice(x, mlpB, mlpIn), jit.FromSlice(y, mlpB, mlpOut)
			f := jit.Jit(mlpStep)
			return func() { f.Call(p, xa, ya).W1.BlockUntilReady() }
		},
		gonum: func() func() {
			x, w1, b, w2, y := mlpData()
			h, out := make([]float32, mlpB*mlpH), make([]float32, mlpB*mlpOut)
			dh, dw1, dw2 := make([]float32, mlpB*mlpH), make([]float32, mlpIn*mlpH), make([]float32, mlpH*mlpOut)
			db := make([]float32, mlpH)
			nw1, nb, nw2 := make([]float32, len(w1)), make([]float32, len(b)), make([]float32, len(w2))
			return func() {
				sgemm(mlpB, mlpH, mlpIn, x, w1, h)
				biasTanh(h, b)
				sgemm(mlpB, mlpOut, mlpH, h, w2, out)
				scale := float32(2) / float32(len(out))
				for i := range out {
					out[i] = (out[i] - y[i]) * scale // dL/dout
				}
				impl.Sgemm(blas.Trans, blas.NoTrans, mlpH, mlpOut, mlpB, 1, h, mlpH, out, mlpOut, 0, dw2, mlpOut)
				impl.Sgemm(blas.NoTrans, blas.Trans, mlpB, mlpH, mlpOut, 1, out, mlpOut, w2, mlpOut, 0, dh, mlpH)
				clear(db)
				for i := range dh {
					dh[i] *= 1 - h[i]*h[i]
					db[i%mlpH] += dh[i]
				}
				impl.Sgemm(blas.Trans, blas.NoTrans, mlpIn, mlpH, mlpB, 1, x, mlpIn, dh, mlpH, 0, dw1, mlpH)
				const lr = 0.01
				for i := range w1 {
					nw1[i] = w1[i] - lr*dw1[i]
				}
				for i := range b {
					nb[i] = b[i] - lr*db[i]
				}
				for i := range w2 {
					nw2[i] = w2[i] - lr*dw2[i]
				}
			}
		},
	}
}

// workloads lists the benchmarks in the order of the table.
func workloads(quick bool) []workload {
	sizes := []int{64, 128, 256, 512, 1024, 2048}
	f64 := []int{256, 512, 1024, 2048}
	if quick {
		sizes, f64 = []int{64, 256}, []int{256}
	}
	var ws []workload
	for _, n := range sizes {
		ws = append(ws, product(fmt.Sprintf("square %d f32", n), n, n, n, false))
	}
	for _, n := range f64 {
		ws = append(ws, product(fmt.Sprintf("square %d f64", n), n, n, n, true))
	}
	ws = append(ws, product("transformer 512×768·768×3072 f32", 512, 768, 3072, false), attention(), mlp(), training())
	return ws
}
