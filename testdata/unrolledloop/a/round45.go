package a

import "github.com/jitlint/jitlint/jit"

// Bounds read from shapes, resolved from the arrays the program passes.

// R45Chunks sums x's columns four at a time.
func R45Chunks(x jit.Array) jit.Array {
	out := jit.Zeros(jit.Float32, x.Shape()[0])
	for c := 0; c < x.Shape()[1]; c += 4 { // 16 columns: 4 chunks
		out = out.Add(x.Slice([]int{0, c}, []int{x.Shape()[0], c + 4}).Sum(1))
	}
	return out
}

var r45Chunks = jit.Jit(R45Chunks)

// R45Bands sums x's columns eight at a time.
func R45Bands(x jit.Array) jit.Array {
	out := jit.Zeros(jit.Float32, x.Shape()[0])
	for c := 0; c < x.Shape()[1]; c += 8 { // want `loop is unrolled into the trace up to 64 times`
		out = out.Add(x.Slice([]int{0, c}, []int{x.Shape()[0], c + 8}).Sum(1))
	}
	return out
}

var r45Bands = jit.Jit(R45Bands)

// R45Rows walks the rows of its argument one at a time.
func R45Rows(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32)
	for r := 0; r < x.Shape()[0]; r++ { // want `loop is unrolled into the trace up to 512 times`
		acc = acc.Add(x.Slice([]int{r, 0}, []int{r + 1, 1}).Sum())
	}
	return acc
}

var r45Rows = jit.Jit(R45Rows)

// R45Cols walks the columns of its argument one at a time: the arrays
// passed have 4 columns at most.
func R45Cols(x jit.Array) jit.Array {
	acc := jit.Zeros(jit.Float32)
	for c := 0; c < x.Shape()[1]; c++ {
		acc = acc.Add(x.Slice([]int{0, c}, []int{1, c + 1}).Sum())
	}
	return acc
}

var r45Cols = jit.Jit(R45Cols)

func r45Shapes() {
	r45Chunks.Call(jit.Zeros(jit.Float32, 4, 16))
	r45Chunks.Call(jit.Arange(32, jit.Float32).Reshape(2, 16))
	r45Bands.Call(jit.Zeros(jit.Float32, 2, 512))
	// MatMul, Sum and Transpose: (4, 40) × (40, 4) is (4, 4); a (6, 512,
	// 4) summed over its first axis is (512, 4); (4, 512) transposed too.
	w := jit.Ones(jit.Float32, 40, 4)
	r45Cols.Call(jit.Ones(jit.Float32, 4, 40).MatMul(w))
	r45Cols.Call(jit.Ones(jit.Float32, 6, 512, 4).Sum(0))
	r45Cols.Call(jit.Zeros(jit.Float32, 4, 512).Transpose(1, 0))
	r45Rows.Call(jit.Ones(jit.Float32, 512, 40).MatMul(w))
}

// A helper that cuts frames of the width its caller asks for: judged at
// each call site.

// r45Frames cuts x into frames of width.
func r45Frames(x jit.Array, width int) []jit.Array {
	var out []jit.Array
	for start := 0; start+width <= x.Shape()[0]; start += width { // want `loop is unrolled into the trace up to 64 times`
		out = append(out, x.Slice([]int{start}, []int{start + width}))
	}
	return out
}

// R45Fine sums 64 frames of 8.
func R45Fine(clip jit.Array) jit.Array {
	var energies []jit.Array
	for _, f := range r45Frames(clip, 8) { // want `loop is unrolled into the trace`
		energies = append(energies, f.Mul(f).Sum().Reshape(1))
	}
	return jit.Concatenate(0, energies...)
}

// R45Coarse sums 4 frames of a quarter of the clip.
func R45Coarse(clip jit.Array) jit.Array {
	width := clip.Shape()[0] / 4
	var energies []jit.Array
	for _, f := range r45Frames(clip, width) {
		energies = append(energies, f.Mul(f).Sum().Reshape(1))
	}
	return jit.Concatenate(0, energies...)
}

func r45Clips() {
	clip := jit.Zeros(jit.Float32, 512)
	jit.Jit(R45Fine).Call(clip)
	jit.Jit(R45Coarse).Call(clip)
}

// Windows of a series: their width is the lookback, whatever t.

// R45Predict weighs the lags of its window.
func R45Predict(window jit.Array) jit.Array {
	n := window.Shape()[0]
	acc := jit.Zeros(jit.Float32)
	for k := 0; k < n; k++ {
		acc = acc.Add(window.Slice([]int{n - 1 - k}, []int{n - k}).Reshape().Mul(0.5))
	}
	return acc
}

// R45Smooth averages the lags of its window.
func R45Smooth(window jit.Array) jit.Array {
	n := window.Shape()[0]
	acc := jit.Zeros(jit.Float32)
	for k := 0; k < n; k++ { // want `loop is unrolled into the trace up to 64 times`
		acc = acc.Add(window.Slice([]int{k}, []int{k + 1}).Reshape())
	}
	return acc
}

// r45Rollout predicts steps values, each from the last window: the carry
// keeps the window's shape.
func r45Rollout(window jit.Array, steps int) jit.Array {
	n := window.Shape()[0]
	for range steps {
		next := R45Predict(window).Reshape(1)
		window = jit.Concatenate(0, window.Slice([]int{1}, []int{n}), next)
	}
	return window
}

func r45Series() {
	const lookback, wide = 8, 64
	y := jit.Zeros(jit.Float32, 200)
	f, g := jit.Jit(R45Predict), jit.Jit(R45Smooth)
	for t := lookback; t < 100; t++ {
		f.Call(y.Slice([]int{t - lookback}, []int{t}))
		f.Call(y.Slice([]int{max(0, t-lookback)}, []int{t}))
	}
	for t := wide; t < 100; t++ {
		g.Call(y.Slice([]int{t - wide}, []int{t}))
	}
	r := jit.Jit(func(w jit.Array) jit.Array { return r45Rollout(w, 3) })
	r.Call(y.Slice([]int{0}, []int{lookback}))
}

// Counts from a configuration's method, through the receiver that a
// constructor (not traced) stores.

// r45Config gives a number of steps.
type r45Config interface{ Steps() int }

type r45Scratch struct{ epochs int }

func (s r45Scratch) Steps() int { return s.epochs * 10 }

type r45Short struct{ epochs int }

func (s r45Short) Steps() int { return s.epochs * 2 }

type r45Trainer[C r45Config] struct {
	cfg  C
	step *jit.Func[func(w, x jit.Array) jit.Array]
}

// r45NewTrainer jits the trainer's inner loop.
func r45NewTrainer[C r45Config](cfg C) *r45Trainer[C] {
	t := &r45Trainer[C]{cfg: cfg}
	t.step = jit.Jit(t.inner)
	return t
}

func (t *r45Trainer[C]) inner(w, x jit.Array) jit.Array {
	for range t.cfg.Steps() { // want `loop is unrolled into the trace up to 40 times`
		w = w.Sub(x.MatMul(w).Mul(0.1))
	}
	return w
}

// r45Tuner holds its configuration as an interface value.
type r45Tuner struct{ cfg r45Config }

// inner runs the configuration's steps: 8 at most, as only r45Short
// values reach cfg.
func (t r45Tuner) inner(w, x jit.Array) jit.Array {
	for range t.cfg.Steps() {
		w = w.Sub(x.MatMul(w).Mul(0.1))
	}
	return w
}

// r45Tune jits the inner loop of a tuner of cfg.
func r45Tune(cfg r45Config) *jit.Func[func(w, x jit.Array) jit.Array] {
	return jit.Jit(r45Tuner{cfg: cfg}.inner)
}

// r45Labelled is a scratch configuration with a label: its Steps is
// r45Scratch's, promoted.
type r45Labelled struct {
	r45Scratch
	label string
}

// r45Sweep runs the steps of a configuration given as an interface value.
type r45Sweep struct{ cfg r45Config }

func (s r45Sweep) inner(w, x jit.Array) jit.Array {
	for range s.cfg.Steps() { // want `loop is unrolled into the trace up to 40 times`
		w = w.Sub(x.MatMul(w).Mul(0.1))
	}
	return w
}

func r45Train(w, x jit.Array) {
	jit.Jit(r45Sweep{cfg: r45Labelled{r45Scratch{epochs: 4}, "long"}}.inner).Call(w, x)
	r45NewTrainer(r45Scratch{epochs: 4}).step.Call(w, x)
	r45NewTrainer(r45Scratch{epochs: 1}).step.Call(w, x)
	r45Tune(r45Short{epochs: 4}).Call(w, x)
	r45Tune(r45Short{epochs: 1}).Call(w, x)
}
