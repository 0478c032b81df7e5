// Command modtree is a port of a small PyTorch classifier that keeps the
// nn.Module style: modules embed a Base with their name, path and children,
// parameters live in one flat map keyed by module path, and forward hooks
// can be registered on any module of the tree. The classifier embeds its
// Sequential trunk, so Forward is the trunk's promoted method. It is
// trained on three Gaussian blobs and scored fold by fold.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"

	"corpus/nnkit"

	"github.com/jitlint/jitlint/jit"
)

// Params maps "path.name" to a parameter array.
type Params map[string]jit.Array

// Hook sees a module's output during the forward pass.
type Hook func(path string, out jit.Array)

// Module is one node of the model tree.
type Module interface {
	base() *Base
	Init(rng *rand.Rand, in int, p Params) int
	Forward(p Params, x jit.Array) jit.Array
}

// Base is embedded in every module.
type Base struct {
	Name  string
	path  string
	kids  []Module
	hooks []Hook
}

func (b *Base) base() *Base            { return b }
func (b *Base) Children() []Module     { return b.kids }
func (b *Base) key(name string) string { return b.path + "." + name }

func (b *Base) emit(out jit.Array) jit.Array {
	for _, h := range b.hooks {
		h(b.path, out)
	}
	return out
}

// Linear is y = x @ W + b.
type Linear struct {
	Base
	Out int
}

func (l *Linear) Init(rng *rand.Rand, in int, p Params) int {
	p[l.key("W")] = nnkit.Glorot(rng, in, l.Out)
	p[l.key("b")] = jit.Zeros(jit.Float32, l.Out)
	return l.Out
}

func (l *Linear) Forward(p Params, x jit.Array) jit.Array {
	return l.emit(x.MatMul(p[l.key("W")]).Add(p[l.key("b")]))
}

// Activation applies a function from nnkit's table.
type Activation struct{ Base }

func (a *Activation) Init(_ *rand.Rand, in int, _ Params) int { return in }

func (a *Activation) Forward(_ Params, x jit.Array) jit.Array {
	return a.emit(nnkit.Activations[a.Name](x))
}

// LayerNorm normalises each row and applies a learned scale and shift.
type LayerNorm struct{ Base }

func (n *LayerNorm) Init(_ *rand.Rand, in int, p Params) int {
	p[n.key("gamma")] = jit.Ones(jit.Float32, in)
	p[n.key("beta")] = jit.Zeros(jit.Float32, in)
	return in
}

func (n *LayerNorm) Forward(p Params, x jit.Array) jit.Array {
	mu := x.Mean(1).Reshape(-1, 1)
	d := x.Sub(mu)
	inv := d.Pow(2).Mean(1).Reshape(-1, 1).Add(1e-5).Rsqrt()
	return n.emit(d.Mul(inv).Mul(p[n.key("gamma")]).Add(p[n.key("beta")]))
}

// Sequential runs its children in order.
type Sequential struct{ Base }

func (s *Sequential) Init(rng *rand.Rand, in int, p Params) int {
	for _, m := range s.kids {
		in = m.Init(rng, in, p)
	}
	return in
}

func (s *Sequential) Forward(p Params, x jit.Array) jit.Array {
	for _, m := range s.kids {
		x = m.Forward(p, x)
	}
	return s.emit(x)
}

// Residual is x + children(x); the children must keep the width.
type Residual struct{ Sequential }

func (r *Residual) Forward(p Params, x jit.Array) jit.Array {
	return r.emit(x.Add(r.Sequential.Forward(p, x)))
}

func seq(name string, kids ...Module) *Sequential {
	return &Sequential{Base{Name: name, kids: kids}}
}

func residual(name string, kids ...Module) *Residual {
	return &Residual{Sequential{Base{Name: name, kids: kids}}}
}

func linear(name string, out int) *Linear { return &Linear{Base: Base{Name: name}, Out: out} }
func act(name string) *Activation         { return &Activation{Base{Name: name}} }

// Classifier is a trunk with a softmax on top.
type Classifier struct {
	*Sequential
	Classes int
}

// Predict returns class probabilities.
func (c *Classifier) Predict(p Params, x jit.Array) jit.Array {
	z := c.Forward(p, x)
	e := z.Sub(z.MaxReduce(1).Reshape(-1, 1)).Exp()
	return e.Div(e.Sum(1).Reshape(-1, 1))
}

// Loss is the mean cross-entropy against one-hot targets.
func (c *Classifier) Loss(p Params, x, onehot jit.Array) jit.Array {
	return c.Predict(p, x).Add(1e-7).Log().Mul(onehot).Sum(1).Mean().Neg()
}

// Accuracy is the fraction of rows whose most likely class is the target.
func Accuracy(probs, onehot jit.Array) jit.Array {
	best := probs.Eq(probs.MaxReduce(1).Reshape(-1, 1)).Astype(jit.Float32)
	return best.Mul(onehot).Sum(1).Min(1).Mean()
}

// assignPaths gives every module its dotted path, depth first.
func assignPaths(m Module, prefix string) {
	b := m.base()
	b.path = prefix + b.Name
	for _, k := range b.kids {
		assignPaths(k, b.path+".")
	}
}

// addHook registers h on every module whose path matches.
func addHook(m Module, match func(path string) bool, h Hook) {
	b := m.base()
	if match(b.path) {
		b.hooks = append(b.hooks, h)
	}
	for _, k := range b.kids {
		addHook(k, match, h)
	}
}

// summary prints the tree with each module's parameter count.
func summary(m Module, p Params, depth int) int {
	b := m.base()
	own := 0
	for k, v := range p {
		if strings.HasPrefix(k, b.path+".") && !strings.Contains(k[len(b.path)+1:], ".") {
			own += v.Size()
		}
	}
	fmt.Printf("%s%-8s %T params=%d\n", strings.Repeat("  ", depth), b.Name, m, own)
	total := own
	for _, k := range b.kids {
		total += summary(k, p, depth+1)
	}
	return total
}

// callCounter counts forward passes per module path.
func callCounter(counts map[string]int) Hook {
	return func(path string, _ jit.Array) {
		counts[path]++ // want traceeffect
	}
}

// meanPrinter prints the spread of a module's output when the model runs.
func meanPrinter() Hook {
	return func(path string, out jit.Array) {
		jit.DebugPrint(path+" |activation| mean %v max %v", out.Abs().Mean(), out.Abs().MaxReduce())
	}
}

// blobs draws n points around three centres, with one-hot labels.
func blobs(rng *rand.Rand, n int) (jit.Array, jit.Array, []int) {
	centres := [][2]float64{{-1.5, 0}, {1.5, 0.5}, {0, 2}}
	xs := make([]float32, 0, 2*n)
	oh := make([]float32, 3*n)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 3
		labels[i] = c
		xs = append(xs, float32(centres[c][0]+0.7*rng.NormFloat64()), float32(centres[c][1]+0.7*rng.NormFloat64()))
		oh[3*i+c] = 1
	}
	return jit.FromSlice(xs, n, 2), jit.FromSlice(oh, n, 3), labels
}

// foldAccuracy scores one fold.
func foldAccuracy(clf *Classifier, p Params, x, onehot jit.Array) float64 {
	probs := jit.Jit(clf.Predict).Call(p, x) // want staticargs
	return jit.Jit(Accuracy).Call(probs, onehot).Item()
}

func main() {
	rng := rand.New(rand.NewSource(3))
	clf := &Classifier{
		Sequential: seq("net",
			linear("inp", 16), act("gelu"),
			residual("block1", linear("fc1", 16), act("tanh"), linear("fc2", 16)),
			residual("block2", linear("fc1", 16), act("tanh"), linear("fc2", 16)),
			&LayerNorm{Base{Name: "norm"}},
			linear("head", 3),
		),
		Classes: 3,
	}
	assignPaths(clf, "")
	params := Params{}
	if out := clf.Init(rng, 2, params); out != clf.Classes {
		panic(fmt.Sprintf("head width %d, want %d", out, clf.Classes))
	}
	total := summary(clf, params, 0)
	fmt.Printf("total parameters: %d in %d arrays\n", total, len(params))

	calls := map[string]int{}
	addHook(clf, func(path string) bool { return strings.HasSuffix(path, ".fc2") }, callCounter(calls))

	x, onehot, _ := blobs(rng, 120)
	step := jit.Jit(jit.ValueAndGrad[func(Params, jit.Array, jit.Array) (jit.Array, Params)](clf.Loss))
	const lr = 0.3
	for epoch := 0; epoch < 40; epoch++ {
		loss, g := step.Call(params, x, onehot)
		for k, v := range params {
			params[k] = v.Sub(g[k].Mul(lr))
		}
		if epoch%10 == 9 {
			fmt.Printf("epoch %2d  loss %.4f\n", epoch+1, loss.Item())
		}
	}

	// From here on, watch the normalised features of the trained model.
	addHook(clf, func(path string) bool { return path == "net.norm" }, meanPrinter())
	forward := jit.Jit(clf.Forward)
	logits := forward.Call(params, x.Slice([]int{0, 0}, []int{4, 2}))
	fmt.Println("logits of the first 4 points:", logits)

	const folds, size = 4, 30
	var mean float64
	for f := 0; f < folds; f++ {
		xf := x.Slice([]int{f * size, 0}, []int{(f + 1) * size, 2})
		yf := onehot.Slice([]int{f * size, 0}, []int{(f + 1) * size, 3})
		acc := foldAccuracy(clf, params, xf, yf)
		mean += acc / folds
		fmt.Printf("fold %d accuracy %.3f\n", f, acc)
	}
	fmt.Printf("mean accuracy %.3f (chance %.3f)\n", mean, 1/math.Max(float64(clf.Classes), 1))

	paths := make([]string, 0, len(calls))
	for p := range calls {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Printf("forward calls seen by hook at %s: %d\n", p, calls[p])
	}
}
