// Command pointlayout spreads a small graph's nodes on the plane by gradient
// descent on a pairwise energy. The pairwise kernel matrix is built with two
// nested vectorized maps (rows over columns); the kernel (Matérn 3/2 or
// Gaussian) is chosen at run time, pinned nodes neither push nor are pushed,
// springs pull the graph's edges together, and an overlap penalty keeps
// nodes from sitting on top of each other. It prints the gradient of each
// energy term at the initial layout, runs the optimizer, and prints the
// jaxpr of the kernel matrix.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	nodes       = 6
	lengthscale = 0.7
	radius      = 0.3
)

var edges = [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {1, 4}}

func matern32(d jit.Array) jit.Array {
	s := d.Mul(math.Sqrt(3) / lengthscale)
	return s.Add(1).Mul(s.Neg().Exp())
}

func gaussian(d jit.Array) jit.Array {
	return d.Mul(d).Mul(-0.5 / (lengthscale * lengthscale)).Exp()
}

var kernels = []func(jit.Array) jit.Array{matern32, gaussian}

// kernelEntry is the repulsion between node a and node b ([2] each).
func kernelEntry(a, b, pinned, kind jit.Array) jit.Array {
	d2 := a.Sub(b).Pow(2).Sum()
	pos := d2.Gt(0)
	d := jit.Where(pos, jit.Where(pos, d2, 1).Sqrt(), 0)
	k := jit.Switch(kind, kernels, d)
	return jit.Cond(pinned, func(k jit.Array) jit.Array { return k.Mul(0) }, // a batchedcond finding (checked by the batchedcond fixtures, not by this oracle)
		func(k jit.Array) jit.Array { return k }, k)
}

// overlapEntry penalizes nodes closer than radius.
func overlapEntry(a, b jit.Array) jit.Array {
	d2 := a.Sub(b).Pow(2).Sum()
	d := jit.Where(d2.Gt(0), d2.Sqrt(), 2*radius) // a wherenan finding (checked by the wherenan fixtures, not by this oracle)
	return jit.Relu(d.Neg().Add(radius)).Pow(2)
}

var (
	kernelMatrix = jit.Vmap(jit.Vmap(kernelEntry, jit.InAxes(jit.NotMapped, 0, jit.NotMapped, jit.NotMapped)),
		jit.InAxes(0, jit.NotMapped, 0, jit.NotMapped))
	overlapMatrix = jit.Vmap(jit.Vmap(overlapEntry, jit.InAxes(jit.NotMapped, 0)), jit.InAxes(0, jit.NotMapped))
)

func repulsion(x, pinned, kind jit.Array) jit.Array {
	return kernelMatrix(x, x, pinned, kind).Sum().Mul(0.5)
}

func springs(x, pinned, kind jit.Array) jit.Array {
	total := jit.Scalar(float32(0))
	for _, e := range edges {
		a := x.Slice([]int{e[0], 0}, []int{e[0] + 1, 2})
		b := x.Slice([]int{e[1], 0}, []int{e[1] + 1, 2})
		total = total.Add(a.Sub(b).Pow(2).Sum())
	}
	return total.Mul(0.5)
}

func overlap(x, pinned, kind jit.Array) jit.Array {
	return overlapMatrix(x, x).Sum()
}

func energy(x, pinned, kind jit.Array) jit.Array {
	return repulsion(x, pinned, kind).Add(springs(x, pinned, kind))
}

type gradOf = func(x, pinned, kind jit.Array) jit.Array

func main() {
	init := make([]float32, 0, 2*nodes)
	for i := 0; i < nodes; i++ {
		init = append(init, float32(i%3)*0.5, float32(i/3)*0.5)
	}
	x := jit.FromSlice(init, nodes, 2)
	pinned := jit.FromSlice([]bool{true, false, false, false, false, false})
	kind := jit.Scalar(int32(0))

	for _, term := range []struct {
		name string
		fn   func(x, pinned, kind jit.Array) jit.Array
	}{{"repulsion", repulsion}, {"springs", springs}, {"overlap", overlap}} {
		g := jit.Grad[gradOf](term.fn)(x, pinned, kind)
		fmt.Printf("d%s/dx at start:\n%v\n", term.name, g)
	}

	step := jit.Jit(func(x, pinned, kind jit.Array) jit.Array {
		g := jit.Grad[gradOf](energy)(x, pinned, kind)
		free := pinned.Not().Astype(jit.Float32).Reshape(nodes, 1)
		return x.Sub(g.Mul(free).Mul(0.05))
	})
	for it := 0; it < 60; it++ {
		x = step.Call(x, pinned, kind)
		if it%20 == 19 {
			fmt.Printf("iter %d energy %.4f\n", it+1, energy(x, pinned, kind).Item())
		}
	}
	fmt.Println("layout:\n", x)

	cj, err := jit.MakeJaxpr(kernelMatrix)(x, x, pinned, kind)
	if err != nil {
		panic(err)
	}
	fmt.Println(cj)
}
