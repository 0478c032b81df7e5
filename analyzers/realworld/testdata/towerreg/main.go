// Command towerreg fits a small regression model built from a configurable
// residual tower: a dense stem assembled with a builder, a stack of residual
// blocks whose count and width come from functional options, and a linear
// head. Two configurations are trained side by side (a shallow baseline and
// a deep tower whose block gains decay with depth), then compared on held-out
// data, with a weight-tied variant of the deep tower as a third model.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"corpus/nnkit"

	"github.com/jitlint/jitlint/jit"
)

// Params are the trainable weights of a tower. Every part is a stack so the
// same update rule applies to all of them.
type Params struct {
	Stem  nnkit.Stack[nnkit.Dense]
	Block nnkit.Stack[nnkit.Dense]
	Head  nnkit.Stack[nnkit.Dense]
}

// Update is one SGD step over every part.
func (p Params) Update(g Params, lr float64) Params {
	return Params{
		Stem:  nnkit.SGD(p.Stem, g.Stem, lr),
		Block: nnkit.SGD(p.Block, g.Block, lr),
		Head:  nnkit.SGD(p.Head, g.Head, lr),
	}
}

// Tower is a model description; the sizes are fixed when it is built.
type Tower struct {
	name string
	cfg  nnkit.Config
}

// NewTower applies the options over the defaults.
func NewTower(name string, opts ...nnkit.Option) *Tower {
	return &Tower{name: name, cfg: nnkit.NewConfig(opts...)}
}

// Init draws the weights: Depth hidden layers in the stem, one residual
// block (shared by every position in the tower) and a linear head.
func (t *Tower) Init() (Params, error) {
	c := t.cfg
	b := nnkit.NewBuilder(c.In, c.Seed)
	for i := 0; i < c.Depth; i++ {
		b.Dense(c.Hidden, c.Act)
	}
	stem, err := b.Build()
	if err != nil {
		return Params{}, fmt.Errorf("%s stem: %w", t.name, err)
	}
	block, err := nnkit.NewBuilder(c.Hidden, c.Seed+1).Dense(c.Hidden, "tanh").Build()
	if err != nil {
		return Params{}, fmt.Errorf("%s block: %w", t.name, err)
	}
	head, err := nnkit.NewBuilder(c.Hidden, c.Seed+2).Dense(c.Out, "identity").Build()
	if err != nil {
		return Params{}, fmt.Errorf("%s head: %w", t.name, err)
	}
	return Params{Stem: stem, Block: block, Head: head}, nil
}

// Forward runs the stem, then Blocks residual blocks with gain
// 0.5/sqrt((i+1)*Blocks) at position i (later blocks refine less), then the
// head.
func (t *Tower) Forward(p Params, x jit.Array) jit.Array {
	h := p.Stem.Apply(x)
	h = nnkit.Repeat(t.cfg.Blocks, h, func(i int, h jit.Array) jit.Array { // want unrolledloop
		gain := 0.5 / math.Sqrt(float64((i+1)*t.cfg.Blocks))
		return h.Add(p.Block.Apply(h).Mul(gain))
	})
	return p.Head.Apply(h)
}

// TiedForward is the tower with one fixed gain for every block, so the
// blocks are identical steps and run as one scan.
func (t *Tower) TiedForward(p Params, x jit.Array) jit.Array {
	h := p.Stem.Apply(x)
	gain := 1 / float64(t.cfg.Blocks)
	h = nnkit.RepeatScan(t.cfg.Blocks, h, func(h jit.Array) jit.Array {
		return h.Add(p.Block.Apply(h).Mul(gain))
	})
	return p.Head.Apply(h)
}

// Loss is the mean squared error of Forward.
func (t *Tower) Loss(p Params, x, y jit.Array) jit.Array {
	return MSE(t.Forward(p, x), y)
}

// TiedLoss is the mean squared error of TiedForward.
func (t *Tower) TiedLoss(p Params, x, y jit.Array) jit.Array {
	return MSE(t.TiedForward(p, x), y)
}

// MSE is mean((pred - y)**2).
func MSE(pred, y jit.Array) jit.Array {
	return pred.Sub(y).Pow(2).Mean()
}

// target is the function the towers learn.
func target(x []float64) float64 {
	return math.Sin(x[0])*x[1] + 0.5*x[2]*x[2] - 0.3*x[3]
}

// makeData draws n rows of 4 features in [-1, 1] and their targets.
func makeData(rng *rand.Rand, n int) (jit.Array, jit.Array) {
	xs := make([]float32, 0, n*4)
	ys := make([]float32, 0, n)
	row := make([]float64, 4)
	for i := 0; i < n; i++ {
		for j := range row {
			row[j] = rng.Float64()*2 - 1
			xs = append(xs, float32(row[j]))
		}
		ys = append(ys, float32(target(row)))
	}
	return jit.FromSlice(xs, n, 4), jit.FromSlice(ys, n, 1)
}

type lossGrad = func(Params, jit.Array, jit.Array) (jit.Array, Params)

// trained is a tower with its fitted weights and its jitted forward pass.
type trained struct {
	name    string
	params  Params
	forward *jit.Func[func(Params, jit.Array) jit.Array]
}

// fit trains with full-batch SGD and reports the loss every few epochs.
func fit(name string, loss func(Params, jit.Array, jit.Array) jit.Array, p Params, lr float64, epochs int, x, y jit.Array) Params {
	step := jit.Jit(jit.ValueAndGrad[lossGrad](loss))
	for epoch := 0; epoch < epochs; epoch++ {
		l, g := step.Call(p, x, y)
		p = p.Update(g, lr)
		if epoch%20 == 0 || epoch == epochs-1 {
			fmt.Printf("  %-9s epoch %2d  loss %.5f\n", name, epoch, l.Item())
		}
	}
	s := step.Stats()
	fmt.Printf("  %-9s train step: %d trace(s), %d compile(s), %d hit(s)\n", name, s.Traces, s.Compiles, s.Hits)
	return p
}

func main() {
	rng := rand.New(rand.NewSource(7))
	xTrain, yTrain := makeData(rng, 96)
	xTest, yTest := makeData(rng, 32)

	common := []nnkit.Option{
		nnkit.WithInput(4), nnkit.WithHidden(16), nnkit.WithOutput(1),
		nnkit.WithDepth(3), nnkit.WithLearningRate(0.2),
	}
	// The sweep file lists the activations the JAX version tried; keep the
	// first one nnkit supports.
	act := ""
	for _, name := range []string{"swish", "gelu", "relu"} {
		if _, err := NewTower("probe", append(common, nnkit.WithActivation(name))...).Init(); err != nil {
			fmt.Println("sweep:", err)
			continue
		}
		act = name
		break
	}
	fmt.Println("activation:", act)
	common = append(common, nnkit.WithActivation(act))
	baseline := NewTower("baseline", append(common, nnkit.WithBlocks(4), nnkit.WithSeed(11))...)
	// Later options override earlier ones: the deep tower is narrower.
	deep := NewTower("deep", append(common, nnkit.WithBlocks(40), nnkit.WithHidden(12), nnkit.WithSeed(11))...)

	var models []trained
	for _, t := range []*Tower{baseline, deep} {
		p := must(t.Init())
		fmt.Printf("%s: %d stem layers, %d blocks, width %d\n", t.name, p.Stem.Len(), t.cfg.Blocks, t.cfg.Hidden)
		p = fit(t.name, t.Loss, p, t.cfg.LearningRate, 60, xTrain, yTrain)
		models = append(models, trained{name: t.name, params: p, forward: jit.Jit(t.Forward)})
	}

	// The weight-tied deep tower, starting from the same initial weights.
	tiedInit := must(deep.Init())
	tiedParams := fit("deep-tied", deep.TiedLoss, tiedInit, deep.cfg.LearningRate, 60, xTrain, yTrain)
	models = append(models, trained{name: "deep-tied", params: tiedParams, forward: jit.Jit(deep.TiedForward)})

	// Held-out error, evaluated in four shards so each shard's error can be
	// reported; the shards have equal sizes.
	fmt.Println("held-out mean squared error:")
	for _, m := range models {
		var total float64
		shards := 4
		rows := xTest.Shape()[0] / shards
		for s := 0; s < shards; s++ {
			lo, hi := s*rows, (s+1)*rows
			xs := xTest.Slice([]int{lo, 0}, []int{hi, 4})
			ys := yTest.Slice([]int{lo, 0}, []int{hi, 1})
			pred := m.forward.Call(m.params, xs)
			total += jit.Jit(MSE).Call(pred, ys).Item()
		}
		st := m.forward.Stats()
		fmt.Printf("  %-9s %.5f   (forward compiled %d time(s) for %d shards)\n", m.name, total/float64(shards), st.Compiles, shards)
	}

	// Predictions along a line through the input space, one batch per model.
	line := make([]float32, 0, 8*4)
	truth := make([]float64, 0, 8)
	for i := 0; i < 8; i++ {
		u := -1 + 2*float64(i)/7
		row := []float64{u, 0.5 * u, -u, 0.25}
		for _, v := range row {
			line = append(line, float32(v))
		}
		truth = append(truth, target(row))
	}
	probe := jit.FromSlice(line, 8, 4)
	fmt.Printf("  %-9s %v\n", "true", fmtRow(truth))
	for _, m := range models {
		got := m.forward.Call(m.params, probe).Float64s()
		fmt.Printf("  %-9s %v\n", m.name, fmtRow(got))
	}
}

// must unwraps a result whose error means the program is misconfigured.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func fmtRow(v []float64) string {
	s := ""
	for _, x := range v {
		s += fmt.Sprintf("%+.3f ", x)
	}
	return s
}
