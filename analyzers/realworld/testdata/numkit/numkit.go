// Package numkit holds the small numerical helpers our ports from NumPy/SciPy
// share: finite-difference stencils on jit arrays, reductions, and host-side
// utilities (seeded normals, checkpoints, run logs).
package numkit

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// Dot is the inner product of two arrays of the same shape (np.vdot).
func Dot(a, b jit.Array) jit.Array { return a.Mul(b).Sum() }

// Norm is the Euclidean norm of a (np.linalg.norm of the flattened array).
func Norm(a jit.Array) jit.Array { return Dot(a, a).Sqrt() }

// RMS is the root-mean-square of a.
func RMS(a jit.Array) jit.Array { return a.Mul(a).Mean().Sqrt() }

// EmbedInterior places an (n-2)x(m-2) block inside an n x m array whose
// border is zero, i.e. homogeneous Dirichlet boundary values.
func EmbedInterior(inner jit.Array) jit.Array {
	s := inner.Shape()
	n, m := s[0], s[1]
	dt := inner.Dtype()
	side := jit.Zeros(dt, n, 1)
	mid := jit.Concatenate(1, side, inner, side)
	row := jit.Zeros(dt, 1, m+2)
	return jit.Concatenate(0, row, mid, row)
}

// NeighbourSum returns u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] on the
// interior points of u, as an (n-2)x(m-2) array.
func NeighbourSum(u jit.Array) jit.Array {
	s := u.Shape()
	n, m := s[0], s[1]
	up := u.Slice([]int{0, 1}, []int{n - 2, m - 1})
	down := u.Slice([]int{2, 1}, []int{n, m - 1})
	left := u.Slice([]int{1, 0}, []int{n - 1, m - 2})
	right := u.Slice([]int{1, 2}, []int{n - 1, m})
	return up.Add(down).Add(left).Add(right)
}

// Interior returns u[1:-1, 1:-1].
func Interior(u jit.Array) jit.Array {
	s := u.Shape()
	return u.Slice([]int{1, 1}, []int{s[0] - 1, s[1] - 1})
}

// Laplacian2D is the 5-point Laplacian of u with grid spacing dx and zero
// Dirichlet boundary: the result has u's shape and a zero border.
func Laplacian2D(u jit.Array, dx float64) jit.Array {
	lap := NeighbourSum(u).Sub(Interior(u).Mul(4)).Div(dx * dx)
	return EmbedInterior(lap)
}

// JacobiSweeps runs a fixed number of Jacobi sweeps for -lap(u) = f with
// spacing dx, starting from u (boundary kept at zero). It is the smoother
// used by the implicit heat step and the multigrid-style preconditioners.
func JacobiSweeps(u, f jit.Array, dx float64, sweeps int) jit.Array {
	h2 := dx * dx
	fi := Interior(f).Mul(h2)
	for k := 0; k < sweeps; k++ {
		u = EmbedInterior(NeighbourSum(u).Add(fi).Div(4))
	}
	return u
}

// ShiftedJacobi runs sweeps of the Jacobi iteration for (I - c lap) u = b,
// the linear system of a backward-Euler heat step with c = alpha*dt.
func ShiftedJacobi(u, b jit.Array, c, dx float64, sweeps int) jit.Array {
	r := c / (dx * dx)
	bi := Interior(b)
	for k := 0; k < sweeps; k++ {
		u = EmbedInterior(bi.Add(NeighbourSum(u).Mul(r)).Div(1 + 4*r))
	}
	return u
}

// Grid returns the n x n cell-centre coordinates of the unit square as two
// row-major slices (np.meshgrid(x, x, indexing="ij")).
func Grid(n int) (xs, ys []float32, dx float64) {
	dx = 1.0 / float64(n-1)
	xs = make([]float32, n*n)
	ys = make([]float32, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			xs[i*n+j] = float32(float64(i) * dx)
			ys[i*n+j] = float32(float64(j) * dx)
		}
	}
	return xs, ys, dx
}

// Normals draws n standard normal float32 values from rng (np.random.standard_normal).
func Normals(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.NormFloat64())
	}
	return out
}

// Uniforms draws n float32 values uniform in [0, 1).
func Uniforms(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = rng.Float32()
	}
	return out
}

// RunLog is a tiny progress logger for long host loops.
type RunLog struct {
	W     io.Writer
	Every int
	start time.Time
}

// NewRunLog logs to w every `every` steps.
func NewRunLog(w io.Writer, every int) *RunLog {
	return &RunLog{W: w, Every: every, start: time.Now()}
}

// Step prints a line for step k when k is a multiple of Every.
func (l *RunLog) Step(k int, format string, args ...any) {
	if l.Every <= 0 || k%l.Every != 0 {
		return
	}
	fmt.Fprintf(l.W, "[%5d] ", k)
	fmt.Fprintf(l.W, format, args...)
	fmt.Fprintln(l.W)
}

// Elapsed is the wall time since the log was made.
func (l *RunLog) Elapsed() time.Duration { return time.Since(l.start) }

// Checkpointer writes float32 arrays to numbered files in a directory, like
// np.save in a time-stepping loop, and reads the latest one back.
type Checkpointer struct {
	Dir   string
	saved []string
}

// NewCheckpointer makes a fresh temporary directory for checkpoints.
func NewCheckpointer(prefix string) (*Checkpointer, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	return &Checkpointer{Dir: dir}, nil
}

// Save writes a's shape and float32 data as checkpoint number k.
func (c *Checkpointer) Save(k int, a jit.Array) error {
	path := filepath.Join(c.Dir, fmt.Sprintf("ckpt_%06d.bin", k))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	shape := a.Shape()
	hdr := []int32{int32(len(shape))}
	for _, d := range shape {
		hdr = append(hdr, int32(d))
	}
	if err := binary.Write(f, binary.LittleEndian, hdr); err != nil {
		return err
	}
	if err := binary.Write(f, binary.LittleEndian, a.Float32s()); err != nil {
		return err
	}
	c.saved = append(c.saved, path)
	return nil
}

// Latest reads back the most recent checkpoint.
func (c *Checkpointer) Latest() (jit.Array, error) {
	if len(c.saved) == 0 {
		return jit.Array{}, fmt.Errorf("no checkpoint in %s", c.Dir)
	}
	f, err := os.Open(c.saved[len(c.saved)-1])
	if err != nil {
		return jit.Array{}, err
	}
	defer f.Close()
	var nd int32
	if err := binary.Read(f, binary.LittleEndian, &nd); err != nil {
		return jit.Array{}, err
	}
	shape := make([]int32, nd)
	if err := binary.Read(f, binary.LittleEndian, shape); err != nil {
		return jit.Array{}, err
	}
	size := 1
	dims := make([]int, nd)
	for i, d := range shape {
		dims[i] = int(d)
		size *= int(d)
	}
	data := make([]float32, size)
	if err := binary.Read(f, binary.LittleEndian, data); err != nil {
		return jit.Array{}, err
	}
	return jit.FromSlice(data, dims...), nil
}

// Count is the number of checkpoints written.
func (c *Checkpointer) Count() int { return len(c.saved) }

// Close removes the checkpoint directory.
func (c *Checkpointer) Close() error { return os.RemoveAll(c.Dir) }

// MaxAbsDiff is max |a-b| over two host slices.
func MaxAbsDiff(a, b []float32) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}
