// Package interp resamples 1-D signals at fractional positions with a choice
// of interpolation kernels. Every kernel is written as a sparse interpolation
// matrix built tap by tap, so one matrix product does the resampling.
package interp

import (
	"math"

	"github.com/jitlint/jitlint/jit"
)

type Kind int

const (
	Linear   Kind = iota
	Cubic         // Catmull-Rom
	Lanczos       // Order = a
	Lagrange      // Order = polynomial degree
	Sinc          // Hann-windowed sinc, Order = half width
)

// Method picks a kernel; both fields are static (they fix the tap loop).
type Method struct {
	Kind  Kind `jit:"static"`
	Order int  `jit:"static"`
}

// taps is the range of offsets from floor(pos) that the kernel reads.
func (m Method) taps() (lo, hi int) {
	switch m.Kind {
	case Linear:
		return 0, 1
	case Cubic:
		return -1, 2
	case Lagrange:
		lo = -(m.Order / 2)
		return lo, lo + m.Order
	default: // Lanczos, Sinc
		return 1 - m.Order, m.Order
	}
}

func sinc(t jit.Array) jit.Array {
	pt := t.Mul(math.Pi)
	return jit.Where(t.Abs().Lt(1e-6), 1, pt.Sin().Div(pt))
}

// weight is the kernel at distance t = frac - k for tap k.
func (m Method) weight(frac jit.Array, k int) jit.Array {
	t := frac.Sub(float64(k))
	a := t.Abs()
	switch m.Kind {
	case Linear:
		return jit.Relu(a.Neg().Add(1))
	case Cubic:
		near := a.Pow(3).Mul(1.5).Sub(a.Pow(2).Mul(2.5)).Add(1)
		far := a.Pow(3).Mul(-0.5).Add(a.Pow(2).Mul(2.5)).Sub(a.Mul(4)).Add(2)
		return jit.Where(a.Le(1), near, jit.Where(a.Lt(2), far, 0))
	case Lagrange:
		lo, hi := m.taps()
		w := jit.Ones(jit.Float32, frac.Shape()...)
		for j := lo; j <= hi; j++ {
			if j != k {
				w = w.Mul(frac.Sub(float64(j)).Div(float64(k - j)))
			}
		}
		return w
	case Lanczos:
		return jit.Where(a.Lt(float64(m.Order)), sinc(t).Mul(sinc(t.Div(float64(m.Order)))), 0)
	default:
		win := t.Mul(math.Pi / float64(m.Order)).Cos().Mul(0.5).Add(0.5)
		return sinc(t).Mul(win)
	}
}

// Matrix builds the [len(pos), n] interpolation matrix (edges clamped).
func Matrix(m Method, n int, pos jit.Array) jit.Array {
	base := pos.Floor()
	frac := pos.Sub(base)
	grid := jit.Arange(n, jit.Float32).Reshape(1, n)
	lo, hi := m.taps()
	w := jit.Zeros(jit.Float32, pos.Shape()[0], n)
	for k := lo; k <= hi; k++ {
		idx := base.Add(float64(k)).Max(0).Min(float64(n-1)).Reshape(-1, 1)
		w = w.Add(jit.Where(grid.Eq(idx), m.weight(frac, k).Reshape(-1, 1), 0))
	}
	return w
}

// Resample evaluates x at the fractional sample positions pos.
func Resample(m Method, x, pos jit.Array) jit.Array {
	return Matrix(m, x.Shape()[0], pos).MatMul(x)
}

var resample = jit.Jit(Resample)

// Positions returns out evenly spaced positions over [0, n-1].
func Positions(n, out int) jit.Array {
	p := make([]float32, out)
	for i := range p {
		p[i] = float32(float64(i) * float64(n-1) / float64(out-1))
	}
	return jit.FromSlice(p)
}

// ToLengthPadded resamples the first n samples of a padded x to out samples.
func ToLengthPadded(m Method, x jit.Array, n, out int) jit.Array {
	return resample.Call(m, x, Positions(n, out))
}

// Bucket pads x with zeros to the next power of two (at least 64).
func Bucket(x jit.Array) jit.Array {
	size := 64
	for size < x.Shape()[0] {
		size *= 2
	}
	p, _, err := jit.PadTo(x, size)
	if err != nil {
		panic(err)
	}
	return p
}

// Resampler is a jitted resampler bound to one method.
type Resampler struct {
	M     Method
	Calls int
	fn    *jit.Func[func(jit.Array, jit.Array) jit.Array]
}

func New(m Method) *Resampler {
	r := &Resampler{M: m}
	r.fn = jit.Jit(r.apply)
	return r
}

func (r *Resampler) apply(x, pos jit.Array) jit.Array { return Resample(r.M, x, pos) }

// Run resamples x at pos.
func (r *Resampler) Run(x, pos jit.Array) jit.Array {
	r.Calls++
	return r.fn.Call(x, pos)
}

func (r *Resampler) Compiles() int { return r.fn.Stats().Compiles }
