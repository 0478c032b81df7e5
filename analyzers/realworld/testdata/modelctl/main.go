// modelctl is a small command-line front end for a polynomial regression
// model: subcommands are dispatched from a table of handlers, and the
// argument vectors are scripted below so the tool runs without flags.
package main

import (
	"fmt"
	"log"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

// coeffs are the fitted polynomial coefficients, lowest degree first.
var coeffs = func() []float64 {
	c := make([]float64, 40)
	for i := range c {
		c[i] = 1.0 / float64((i+1)*(i+1))
	}
	return c
}()

var logger = log.New(os.Stdout, "modelctl: ", 0)

// Horner evaluates the degree-39 polynomial with Go arithmetic on arrays.
func Horner(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32, x.Shape()...)
	for i := len(coeffs) - 1; i >= 0; i-- { // want unrolledloop
		acc = acc.Mul(x).Add(coeffs[i])
	}
	return acc
}

// Smooth applies a short moving-average kernel, 32 shifted copies.
func Smooth(x jit.Array) jit.Array {
	n := x.Shape()[0]
	out := jit.Zeros(jit.Float32, n-32)
	for k := 0; k < 32; k++ {
		out = out.Add(x.Slice([]int{k}, []int{k + n - 32}))
	}
	return out.Div(32)
}

// Scale multiplies by a temperature; temp is static so it folds into the kernel.
func Scale(temp float64, x jit.Array) jit.Array {
	return x.Mul(1 / temp).Tanh()
}

// Mode picks train/eval normalisation, a static string.
func Mode(mode string, x jit.Array) jit.Array {
	if mode == "train" {
		return x.Sub(x.Mean()).Div(x.Abs().MaxReduce().Add(1e-6))
	}
	return x.Sub(x.Mean())
}

type handler func(args []string) error

type flags map[string]string

func parse(args []string) flags {
	f := flags{}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		f[k] = v
	}
	return f
}

func (f flags) int(k string, def int) int {
	if v, err := strconv.Atoi(f[k]); err == nil {
		return v
	}
	return def
}

var horner = jit.Jit(Horner)

func predict(args []string) error {
	n := parse(args).int("n", 8)
	y := horner.Call(jit.Arange(n, jit.Float32).Div(float64(n)))
	total := y.Sum().Item()
	logger.Printf("predict n=%d sum=%.4f", n, total)
	return nil
}

func smooth(args []string) error {
	n := parse(args).int("n", 64)
	sm := jit.Jit(Smooth)
	y := sm.Call(jit.Arange(n, jit.Float32))
	logger.Printf("smooth n=%d first=%.3f", n, y.Float32s()[0])
	return nil
}

func sweep(args []string) error {
	steps := parse(args).int("steps", 6)
	scale := jit.Jit(Scale, jit.StaticArgnums(0))
	x := jit.Arange(16, jit.Float32).Sub(8)
	for i := 1; i <= steps; i++ {
		temp := 0.25 * float64(i)
		y := scale.Call(temp, x) // want staticargs
		logger.Printf("sweep temp=%.2f max=%.4f", temp, y.MaxReduce().Item())
	}
	return nil
}

func normalize(args []string) error {
	rounds := parse(args).int("rounds", 40)
	norm := jit.Jit(Mode, jit.StaticArgnums(0))
	x := jit.Arange(32, jit.Float32)
	var acc float64
	for r := 0; r < rounds; r++ {
		mode := "eval"
		if r%2 == 0 {
			mode = "train"
		}
		acc += norm.Call(mode, x).Sum().Item()
	}
	logger.Printf("normalize rounds=%d acc=%.3f", rounds, acc)
	return nil
}

func calibrate(args []string) error {
	bias := float64(parse(args).int("bias", 1))
	calib := jit.Jit(func(x jit.Array) jit.Array { // want staticargs
		logger.Printf("tracing calibration bias=%v", bias) // want traceeffect
		return x.Add(bias).Logistic()
	})
	y := calib.Call(jit.Ones(jit.Float32, 8))
	logger.Printf("calibrate bias=%v mean=%.4f", bias, y.Mean().Item())
	return nil
}

var commands = map[string]handler{
	"predict":   predict,
	"smooth":    smooth,
	"sweep":     sweep,
	"normalize": normalize,
	"calibrate": calibrate,
}

func run(argv []string) error {
	if len(argv) == 0 {
		return fmt.Errorf("no command")
	}
	h, ok := commands[argv[0]]
	if !ok {
		names := make([]string, 0, len(commands))
		for k := range commands {
			names = append(names, k)
		}
		sort.Strings(names)
		return fmt.Errorf("unknown command %q (have %s)", argv[0], strings.Join(names, ", "))
	}
	return h(argv[1:])
}

func main() {
	script := [][]string{
		{"predict", "--n=8"},
		{"predict", "--n=8"},
		{"smooth", "--n=64"},
		{"smooth", "--n=64"},
		{"smooth", "--n=64"},
		{"sweep", "--steps=6"},
		{"normalize", "--rounds=40"},
		{"calibrate", "--bias=1"},
		{"calibrate", "--bias=2"},
		{"calibrate", "--bias=1"},
		{"calibrate", "--bias=1"},
		{"export"},
	}
	for _, argv := range script {
		if err := run(argv); err != nil {
			logger.Printf("error: %v", err)
		}
	}
	logger.Printf("horner compiles=%d", horner.Stats().Compiles)
}
