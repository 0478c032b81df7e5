// Command zqgraph post-processes a batch of irregular surface meshes (grids
// with holes punched in them): vertex importance by PageRank, and smoothing
// of a noisy height field by Jacobi-style Laplacian and Taubin smoothing.
package main

import (
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

const (
	prIters     = 50
	taubinPairs = 20
	jacobiSweep = 8
)

// Mesh is a vertex graph with a dense adjacency matrix.
type Mesh struct {
	Name   string
	N      int
	Adj    []float32 // N*N
	Height []float32
}

// sizesSeen records which vertex counts the PageRank normalisation handled.
var sizesSeen = map[int]bool{}

func buildMesh(name string, rows, cols int, rng *rand.Rand) Mesh {
	id := make([]int, rows*cols)
	n := 0
	for i := range id {
		id[i] = -1
		if rng.Float64() > 0.15 {
			id[i], n = n, n+1
		}
	}
	m := Mesh{Name: name, N: n, Adj: make([]float32, n*n), Height: make([]float32, n)}
	link := func(a, b int) {
		if id[a] >= 0 && id[b] >= 0 {
			m.Adj[id[a]*n+id[b]], m.Adj[id[b]*n+id[a]] = 1, 1
		}
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			k := r*cols + c
			if c+1 < cols {
				link(k, k+1)
			}
			if r+1 < rows {
				link(k, k+cols)
			}
			if r+1 < rows && c+1 < cols {
				link(k, k+cols+1)
			}
			if id[k] >= 0 {
				m.Height[id[k]] = float32(r+c)/float32(rows+cols) + float32(rng.NormFloat64()*0.1)
			}
		}
	}
	return m
}

func bucket(n int) int {
	if n <= 64 {
		return 64
	}
	return 128
}

// padded returns the mesh zero-padded to size vertices with a vertex mask.
func padded(m Mesh, size int) (adj, x, mask jit.Array) {
	a := make([]float32, size*size)
	for i := 0; i < m.N; i++ {
		copy(a[i*size:i*size+m.N], m.Adj[i*m.N:(i+1)*m.N])
	}
	h, msk, err := jit.PadTo(jit.FromSlice(m.Height), size)
	if err != nil {
		panic(err)
	}
	return jit.FromSlice(a, size, size), h, msk
}

// normalize turns the adjacency into a row-stochastic transition matrix.
func normalize(adj jit.Array) jit.Array {
	n := adj.Shape()[0]
	sizesSeen[n] = true // want traceeffect
	return adj.Div(adj.Sum(1).Max(1).Reshape(n, 1))
}

func pagerank(adj jit.Array) jit.Array {
	n := adj.Shape()[0]
	p := normalize(adj)
	return jit.ForiLoop(0, prIters, func(_ jit.Array, r jit.Array) jit.Array {
		return r.MatMul(p).Mul(0.85).Add(0.15 / float64(n))
	}, jit.Full(1/float64(n), jit.Float32, n))
}

func pagerankPadded(adj, mask jit.Array, damping float64) jit.Array {
	p := normalize(adj)
	count := mask.Sum()
	teleport := mask.Mul(1 - damping).Div(count)
	return jit.ForiLoop(0, prIters, func(_ jit.Array, r jit.Array) jit.Array {
		return r.MatMul(p).Mul(damping).Add(teleport)
	}, mask.Div(count))
}

// pagerankUntil iterates until the L1 change drops under 1e-5.
func pagerankUntil(adj, mask jit.Array) jit.Array {
	p := normalize(adj)
	r, prev := mask.Div(mask.Sum()), mask.Mul(0)
	for prev.Sub(r).Abs().Sum().Item() > 1e-5 { // want tracedbool
		prev, r = r, r.MatMul(p).Mul(0.85).Add(mask.Mul(0.15).Div(mask.Sum()))
	}
	return r
}

type prState struct{ R, Prev, It jit.Array }

func pagerankWhile(adj, mask jit.Array) (jit.Array, jit.Array) {
	p := normalize(adj)
	tele := mask.Mul(0.15).Div(mask.Sum())
	out := jit.WhileLoop(func(s prState) jit.Array {
		return s.Prev.Sub(s.R).Abs().Sum().Gt(1e-5).And(s.It.Lt(500))
	}, func(s prState) prState {
		return prState{R: s.R.MatMul(p).Mul(0.85).Add(tele), Prev: s.R, It: s.It.Add(1)}
	}, prState{R: mask.Div(mask.Sum()), Prev: mask.Mul(0), It: jit.Scalar(int32(0))})
	return out.R, out.It
}

// laplacianSmooth does Jacobi-style umbrella smoothing of the height field.
func laplacianSmooth(adj, x, mask jit.Array, sweeps int) jit.Array {
	deg := adj.Sum(1).Max(1)
	for s := 0; s < sweeps; s++ {
		avg := adj.MatMul(x).Div(deg)
		x = x.Add(avg.Sub(x).Mul(0.5).Mul(mask))
	}
	return x
}

// taubin alternates a shrinking (lambda) and an inflating (mu) pass so the
// surface does not shrink as plain Laplacian smoothing makes it.
func taubin(adj, x, mask jit.Array) jit.Array {
	const lambda, mu = 0.5, -0.53
	deg := adj.Sum(1).Max(1)
	for k := 0; k < 2*taubinPairs; k++ { // want unrolledloop
		f := lambda
		if k%2 == 1 {
			f = mu
		}
		x = x.Add(adj.MatMul(x).Div(deg).Sub(x).Mul(f).Mul(mask))
	}
	return x
}

func roughness(m Mesh, h []float32) float64 {
	s := 0.0
	for i := 0; i < m.N; i++ {
		for j := 0; j < m.N; j++ {
			if m.Adj[i*m.N+j] != 0 {
				d := float64(h[i] - h[j])
				s += d * d
			}
		}
	}
	return s
}

func main() {
	rng := rand.New(rand.NewSource(3))
	var meshes []Mesh
	for i, rc := range [][2]int{{6, 6}, {7, 8}, {8, 9}, {9, 10}, {10, 11}, {11, 12}, {12, 12}} {
		meshes = append(meshes, buildMesh(fmt.Sprintf("part%02d", i), rc[0], rc[1], rng))
	}
	sort.Slice(meshes, func(i, j int) bool { return meshes[i].N < meshes[j].N })

	pr := jit.Jit(pagerank)
	for _, m := range meshes {
		r := pr.Call(jit.FromSlice(m.Adj, m.N, m.N)) // want shapechurn
		best, bi := float32(0), 0
		for i, v := range r.Float32s() {
			if v > best {
				best, bi = v, i
			}
		}
		fmt.Printf("%s: %3d vertices, most central vertex %d (%.4f)\n", m.Name, m.N, bi, best)
	}

	prp := jit.Jit(pagerankPadded, jit.StaticArgnums(2))
	for _, damping := range []float64{0.85, 0.5} {
		for _, m := range meshes {
			adj, _, mask := padded(m, bucket(m.N))
			r := prp.Call(adj, mask, damping)
			_ = r.Sum().Item()
		}
	}
	fmt.Printf("padded pagerank: %d calls, %d compiles\n", 2*len(meshes), prp.Stats().Compiles)

	adj, _, mask := padded(meshes[0], bucket(meshes[0].N))
	func() {
		defer func() {
			var je *jit.Error
			if r := recover(); r != nil {
				if err, ok := r.(error); !ok || !errors.As(err, &je) {
					panic(r)
				}
				fmt.Println("early-exit pagerank:", je.Kind)
			}
		}()
		jit.Jit(pagerankUntil).Call(adj, mask)
	}()
	_, iters := jit.Jit(pagerankWhile).Call(adj, mask)
	fmt.Println("while-loop pagerank converged in", iters.Int(), "iterations")

	smoother := jit.Jit(laplacianSmooth, jit.StaticArgnums(3))
	tb := jit.Jit(taubin)
	var mu sync.Mutex
	results := map[string][2]float64{}
	var wg sync.WaitGroup
	for _, m := range meshes {
		wg.Add(1)
		go func(m Mesh) {
			defer wg.Done()
			adj, x, mask := padded(m, bucket(m.N))
			lap := smoother.Call(adj, x, mask, jacobiSweep).Float32s()[:m.N]
			tau := tb.Call(adj, x, mask).Float32s()[:m.N]
			mu.Lock()
			results[m.Name] = [2]float64{roughness(m, lap), roughness(m, tau)}
			mu.Unlock()
		}(m)
	}
	wg.Wait()
	for _, m := range meshes {
		r := results[m.Name]
		fmt.Printf("%s roughness: raw %.2f  laplacian %.2f  taubin %.2f\n", m.Name, roughness(m, m.Height), r[0], r[1])
	}
	fmt.Printf("smoother compiles=%d taubin compiles=%d sizes normalised=%d\n",
		smoother.Stats().Compiles, tb.Stats().Compiles, len(sizesSeen))
}
