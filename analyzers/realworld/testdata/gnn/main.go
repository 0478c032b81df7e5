// Command gnn runs message passing on small molecular graphs: node
// features of ragged sizes (one compile per graph size), the same graphs
// padded to a fixed node count, and an aggregation that walks the
// adjacency lists in Go inside the trace.
package main

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

const feat, maxNodes = 4, 48

type graph struct {
	nodes int
	adj   [][]int
}

// ring builds a ring graph with n nodes.
func ring(n int) graph {
	g := graph{nodes: n}
	for i := range n {
		g.adj = append(g.adj, []int{(i + n - 1) % n, (i + 1) % n})
	}
	return g
}

func features(g graph) []float32 {
	f := make([]float32, g.nodes*feat)
	for i := range f {
		f[i] = float32(i%5) / 5
	}
	return f
}

// layer is one round of mean aggregation written with dense ops.
func layer(h, w jit.Array) jit.Array {
	agg := h.Add(h.Mean(0).Reshape(1, feat))
	return agg.MatMul(w).Tanh()
}

// maskedLayer is layer on padded features; padded rows stay zero.
func maskedLayer(h, mask, w jit.Array) jit.Array {
	agg := h.Add(h.Sum(0).Div(mask.Sum()).Reshape(1, feat))
	return agg.MatMul(w).Tanh().Mul(mask.Reshape(maxNodes, 1))
}

// gather sums each node's neighbours by slicing rows, one node at a time.
func gather(g graph) func(h jit.Array) jit.Array {
	return func(h jit.Array) jit.Array {
		var rows []jit.Array
		for _, nbrs := range g.adj { // want unrolledloop
			acc := jit.Zeros(jit.Float32, 1, feat)
			for _, j := range nbrs {
				acc = acc.Add(h.Slice([]int{j, 0}, []int{j + 1, feat}))
			}
			rows = append(rows, acc)
		}
		return jit.Concatenate(0, rows...)
	}
}

func main() {
	w := jit.Full(0.3, jit.Float32, feat, feat)
	dense := jit.Jit(layer)
	padded := jit.Jit(maskedLayer)
	for _, n := range []int{5, 9, 12, 17, 23, 30} {
		g := ring(n)
		h := jit.FromSlice(features(g), g.nodes, feat)
		out := dense.Call(h, w) // want shapechurn
		mask := make([]float32, maxNodes)
		for i := range g.nodes {
			mask[i] = 1
		}
		hp := make([]float32, maxNodes*feat)
		copy(hp, features(g))
		outp := padded.Call(jit.FromSlice(hp, maxNodes, feat), jit.FromSlice(mask), w)
		fmt.Println(n, out.Sum().Item(), outp.Sum().Item())
	}

	big := ring(40)
	agg := jit.Jit(gather(big))
	h := jit.FromSlice(features(big), big.nodes, feat)
	for range 2 {
		h = agg.Call(h).Mul(0.5)
	}
	fmt.Println("gathered", h.Sum().Item())
}
