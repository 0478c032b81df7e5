// Command im2colconv runs a configurable filter bank over test images with
// an im2col convolution, comparing kernel sizes and reporting edge energy.
package main

import (
	"fmt"
	"sort"

	"corpus/im2colconv/conv"
	"github.com/jitlint/jitlint/jit"
)

// config is what the pipeline file names; each entry picks a filter.
var config = []string{"box3", "gauss5", "sharpen", "sobelx", "box3", "gauss5"}

var registry = map[string]func() conv.Filter{
	"box3":    func() conv.Filter { return conv.Box{K: 3} },
	"gauss5":  func() conv.Filter { return conv.Gaussian{K: 5, Sigma: 1.2} },
	"gauss7":  func() conv.Filter { return conv.Gaussian{K: 7, Sigma: 2} },
	"sharpen": func() conv.Filter { return conv.Sharpen{Amount: 0.5} },
	"sobelx":  func() conv.Filter { return conv.SobelX{} },
}

func testImage(n, seed int) jit.Array {
	px := make([]float32, n*n)
	state := uint32(seed*2654435761 + 1)
	for i := range px {
		state = state*1664525 + 1013904223
		noise := float32(state>>8) / float32(1<<24)
		y, x := i/n, i%n
		v := float32(0)
		if x > n/3 && x < 2*n/3 && y > n/4 {
			v = 1
		}
		px[i] = v + 0.05*noise
	}
	return jit.FromSlice(px, n, n)
}

// Convolve is the jitted entry point: the kernel size is static because
// it fixes the im2col layout.
func Convolve(x, w jit.Array, k int) jit.Array { return conv.Conv2D(x, w, k) }

// stat is a generic summary over the results of the filter bank.
func stat[K comparable, V any](m map[K]V, less func(a, b K) bool, f func(K, V)) {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	for _, k := range keys {
		f(k, m[k])
	}
}

func main() {
	convolve := jit.Jit(Convolve, jit.StaticArgnums(2))
	energy := map[string]float64{}

	// The configured bank over a batch of same-size images: sizes 3 and 5
	// only, so each size compiles once.
	for img := 0; img < 4; img++ {
		x := testImage(48, img)
		for _, name := range config {
			f := registry[name]()
			w := f.Kernel()
			var sum float32
			for _, v := range w {
				sum += v
			}
			if name != "sobelx" && (sum < 0.99 || sum > 1.01) {
				panic("kernel not normalised: " + name)
			}
			y := convolve.Call(x, jit.FromSlice(w), f.Size())
			energy[name] += y.Mul(y).Mean().Item()
		}
	}
	stat(energy, func(a, b string) bool { return a < b }, func(k string, v float64) {
		fmt.Printf("%-8s energy %.4f\n", k, v/4)
	})
	fmt.Printf("bank compiles %d\n", convolve.Stats().Compiles)

	// The wide-blur preset: a 7x7 kernel, 49 taps gathered by a Go loop.
	wide := registry["gauss7"]()
	wideBlur := jit.Jit(func(x, w jit.Array) jit.Array {
		return conv.Conv2D(x, w, 7) // want unrolledloop
	})
	y := wideBlur.Call(testImage(48, 9), jit.FromSlice(wide.Kernel()))
	fmt.Printf("gauss7 output %v mean %.4f\n", y.Shape(), y.Mean().Item())

	// Sigma sweep for the blur-strength slider: the kernel is rebuilt
	// inside the trace from a static sigma, one compile per slider value.
	blurAt := jit.Jit(func(x jit.Array, sigma float64) jit.Array {
		g := conv.Gaussian{K: 5, Sigma: sigma}
		return conv.Conv2D(x, jit.FromSlice(g.Kernel()), 5)
	}, jit.StaticArgnums(1))
	x := testImage(48, 1)
	for s := 1; s <= 4; s++ {
		out := blurAt.Call(x, 0.5*float64(s)) // want staticargs
		fmt.Printf("sigma %.1f: centre %.4f\n", 0.5*float64(s), out.Slice([]int{20, 20}, []int{21, 21}).Item())
	}

	// Same kernel as an array argument: the slider now only changes data.
	blurW := jit.Jit(func(x, w jit.Array) jit.Array { return conv.Conv2D(x, w, 5) })
	for s := 1; s <= 4; s++ {
		g := conv.Gaussian{K: 5, Sigma: 0.5 * float64(s)}
		out := blurW.Call(x, jit.FromSlice(g.Kernel()))
		fmt.Printf("sigma %.1f (data): centre %.4f\n", g.Sigma, out.Slice([]int{20, 20}, []int{21, 21}).Item())
	}
	fmt.Printf("data-kernel compiles %d\n", blurW.Stats().Compiles)

	// Patch matrices kept for the debug view, keyed by image size.
	patches := map[int][]int{}
	debugCols := jit.Jit(func(x jit.Array) jit.Array {
		cols := conv.Im2Col(x, 3)
		patches[x.Shape()[0]] = cols.Shape() // want traceeffect
		return cols.Sum(1)
	})
	for i := 0; i < 3; i++ {
		debugCols.Call(testImage(32, i))
	}
	fmt.Println("patch shapes seen:", patches)

	// Normalise whatever kernel the user uploaded, inside the jitted code.
	normalised := jit.Jit(func(x, w jit.Array) jit.Array {
		total := w.Sum()
		if total.Item() != 0 { // want tracedbool
			w = w.Div(total)
		}
		return conv.Conv2D(x, w, 3)
	})
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("normalise in trace failed:", r.(*jit.Error).Kind)
			}
		}()
		normalised.Call(x, jit.FromSlice(conv.SobelX{}.Kernel()))
	}()

	// The same check on the concrete kernel before the call is fine.
	up := jit.FromSlice([]float32{1, 2, 1, 2, 4, 2, 1, 2, 1})
	if t := up.Sum().Item(); t != 0 {
		up = up.Div(t)
	}
	z := convolve.Call(x, up, 3)
	fmt.Printf("uploaded kernel: mean %.4f (compiles %d)\n", z.Mean().Item(), convolve.Stats().Compiles)

	// Border crops: the edge detector runs on strips whose width changes.
	sobel := jit.Jit(func(x jit.Array) jit.Array {
		return conv.Conv2D(x, jit.FromSlice(conv.SobelX{}.Kernel()), 3).Abs().Mean()
	})
	for wdt := 8; wdt <= 20; wdt += 4 {
		strip := x.Slice([]int{0, 0}, []int{48, wdt})
		e := sobel.Call(strip) // want shapechurn
		fmt.Printf("strip %d: edge %.4f\n", wdt, e.Item())
	}
}
