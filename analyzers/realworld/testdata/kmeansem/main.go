// Command kmeans_em clusters 2-D points with k-means (several ways of
// writing the assignment step and the convergence loop) and refines a
// 3-component Gaussian mixture with EM.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	nPoints = 240
	dim     = 2
	kBig    = 40
	kSmall  = 3
)

// AssignLoop computes per-cluster distances one centroid at a time.
func AssignLoop(points, centroids jit.Array) jit.Array {
	k := centroids.Shape()[0]
	cols := make([]jit.Array, 0, k)
	for j := 0; j < k; j++ { // want unrolledloop
		c := centroids.Slice([]int{j, 0}, []int{j + 1, dim})
		cols = append(cols, points.Sub(c).Pow(2).Sum(1).Reshape(-1, 1))
	}
	return jit.Concatenate(1, cols...)
}

// Distances broadcasts [N,1,D] - [1,K,D].
func Distances(points, centroids jit.Array) jit.Array {
	n, k := points.Shape()[0], centroids.Shape()[0]
	return points.Reshape(n, 1, dim).Sub(centroids.Reshape(1, k, dim)).Pow(2).Sum(2)
}

// lloyd is one Lloyd iteration: hard assignment, then centroid update.
func lloyd(points, centroids jit.Array) jit.Array {
	d := Distances(points, centroids)
	onehot := d.Eq(d.MinReduce(1).Reshape(-1, 1)).Astype(jit.Float32) // [N,K]
	counts := onehot.Sum(0).Reshape(-1, 1)
	sums := onehot.Transpose().MatMul(points)
	return jit.Where(counts.Gt(0), sums.Div(counts.Max(1)), centroids)
}

// FitEarlyStop iterates until the centroids stop moving, checking on the host.
func FitEarlyStop(points, centroids jit.Array) jit.Array {
	for it := 0; it < 20; it++ {
		next := lloyd(points, centroids)
		shift := next.Sub(centroids).Abs().MaxReduce()
		centroids = next
		if shift.Lt(1e-4).Bool() { // want tracedbool
			break
		}
	}
	return centroids
}

// FitWhile is FitEarlyStop with a WhileLoop.
func FitWhile(points, centroids jit.Array) jit.Array {
	type state struct{ C, Shift, It jit.Array }
	out := jit.WhileLoop(func(s state) jit.Array {
		return s.Shift.Gt(1e-4).And(s.It.Lt(100))
	}, func(s state) state {
		next := lloyd(points, s.C)
		return state{next, next.Sub(s.C).Abs().MaxReduce(), s.It.Add(1)}
	}, state{centroids, jit.Full(1, jit.Float32), jit.Zeros(jit.Int32)})
	return out.C
}

// EMStep is one EM step of an isotropic Gaussian mixture with kSmall
// components, written per component.
func EMStep(points, means, logVar, logPi jit.Array) (jit.Array, jit.Array, jit.Array) {
	var logps []jit.Array
	for j := 0; j < kSmall; j++ {
		mu := means.Slice([]int{j, 0}, []int{j + 1, dim})
		lv := logVar.Slice([]int{j}, []int{j + 1})
		lp := logPi.Slice([]int{j}, []int{j + 1})
		d2 := points.Sub(mu).Pow(2).Sum(1)
		logps = append(logps, d2.Mul(-0.5).Div(lv.Exp()).Sub(lv.Mul(dim/2.0)).Add(lp).Reshape(-1, 1))
	}
	lpm := jit.Concatenate(1, logps...)
	m := lpm.MaxReduce(1).Reshape(-1, 1)
	r := lpm.Sub(m).Exp()
	r = r.Div(r.Sum(1).Reshape(-1, 1)) // responsibilities [N,K]
	nk := r.Sum(0)
	newMeans := r.Transpose().MatMul(points).Div(nk.Reshape(-1, 1))
	d := Distances(points, newMeans)
	newVar := r.Mul(d).Sum(0).Div(nk.Mul(dim))
	return newMeans, newVar.Log(), nk.Div(nPoints).Log()
}

func makePoints() jit.Array {
	pts := make([]float32, 0, nPoints*dim)
	centers := [][2]float64{{0, 0}, {4, 4}, {-3, 5}}
	for i := 0; i < nPoints; i++ {
		c := centers[i%3]
		a := float64(i) * 2.399
		r := 0.7 * math.Sqrt(float64(i%17)/17)
		pts = append(pts, float32(c[0]+r*math.Cos(a)), float32(c[1]+r*math.Sin(a)))
	}
	return jit.FromSlice(pts, nPoints, dim)
}

func initCentroids(points jit.Array, k int) jit.Array {
	all := points.Float32s()
	c := make([]float32, 0, k*dim)
	for j := 0; j < k; j++ {
		i := (j * 37) % nPoints
		c = append(c, all[i*dim], all[i*dim+1])
	}
	return jit.FromSlice(c, k, dim)
}

func main() {
	pts := makePoints()

	// Assignment with many clusters, loop vs broadcast.
	cBig := initCentroids(pts, kBig)
	dl := jit.Jit(AssignLoop).Call(pts, cBig)
	db := jit.Jit(Distances).Call(pts, cBig)
	fmt.Printf("assign: loop vs broadcast max diff %.2g\n",
		dl.Sub(db).Abs().MaxReduce().Item())

	// Lloyd iterations driven from Go: one compiled step, many calls.
	step := jit.Jit(lloyd)
	c := initCentroids(pts, kSmall)
	for it := 0; it < 30; it++ {
		next := step.Call(pts, c)
		shift := next.Sub(c).Abs().MaxReduce().Item()
		c = next
		if shift < 1e-5 {
			fmt.Printf("host loop converged after %d iterations\n", it+1)
			break
		}
	}

	cw := jit.Jit(FitWhile).Call(pts, initCentroids(pts, kSmall))
	fmt.Printf("while-loop centroids: %v\n", cw.Float32s())

	// EM refinement from the k-means solution.
	em := jit.Jit(EMStep)
	means, logVar, logPi := cw, jit.Zeros(jit.Float32, kSmall), jit.Full(-math.Log(kSmall), jit.Float32, kSmall)
	for it := 0; it < 10; it++ {
		means, logVar, logPi = em.Call(pts, means, logVar, logPi)
	}
	fmt.Printf("EM weights: %v\n", logPi.Exp().Float32s())

	// The first port of the convergence loop, with the host-side break.
	fmt.Printf("early-stop centroids: %v\n", jit.Jit(FitEarlyStop).Call(pts, initCentroids(pts, kSmall)))
}
