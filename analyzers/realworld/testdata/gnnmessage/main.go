// Command gnnmessage trains a small message-passing GNN to regress the mean
// degree of random graphs of varying node counts, padding graphs to size
// buckets and batching them with Vmap.
package main

import (
	"fmt"
	"math/rand"

	"corpus/gnnmessage/gnn"

	"github.com/jitlint/jitlint/jit"
)

const featDim = 3

var buckets = []int{16, 32}

// graph is a host-side graph, already padded to n nodes.
type graph struct {
	real   int
	adj    []float32 // normalized, [n*n]
	raw    jit.Array // raw 0/1 adjacency, unpadded
	feats  []float32 // [n*featDim]
	target float32
}

var traceLog []string

func meanPool(h, mask jit.Array) jit.Array {
	n := mask.Shape()[0]
	return h.Mul(mask.Reshape(n, 1)).Sum(0).Div(mask.Sum().Max(1))
}

func graphLoss(m gnn.Model, adj, feats, mask, target jit.Array) jit.Array {
	traceLog = append(traceLog, fmt.Sprintf("graphLoss %v", adj.Shape())) // want traceeffect
	h := gnn.Forward(m, adj, feats)
	h = gnn.Diffuse(adj, h, 0.2, 6)
	d := meanPool(h, mask).MatMul(m.Out).Sub(target)
	return d.Mul(d)
}

var perGraphLoss = jit.Vmap(graphLoss, jit.InAxes(jit.NotMapped, 0, 0, 0, 0))

func batchLoss(m gnn.Model, adjs, feats, masks, targets jit.Array) jit.Array {
	return perGraphLoss(m, adjs, feats, masks, targets).Mean()
}

var batchGrad = jit.ValueAndGrad[func(gnn.Model, jit.Array, jit.Array, jit.Array, jit.Array) (jit.Array, gnn.Model)](batchLoss)

func trainStep(m gnn.Model, adjs, feats, masks, targets jit.Array) (gnn.Model, jit.Array) {
	l, g := batchGrad(m, adjs, feats, masks, targets)
	return gnn.SGD(m, g, 0.1), l
}

func predictPadded(m gnn.Model, adj, feats, mask jit.Array) jit.Array {
	h := gnn.Diffuse(adj, gnn.Forward(m, adj, feats), 0.2, 6)
	return meanPool(h, mask).MatMul(m.Out)
}

// predictRaw predicts from an unpadded, already normalized graph.
func predictRaw(m gnn.Model, adj, feats jit.Array) jit.Array {
	return predictPadded(m, adj, feats, jit.Ones(jit.Float32, adj.Shape()[0]))
}

// predictFromRaw lets the model normalize the adjacency itself.
func predictFromRaw(m gnn.Model, raw, feats jit.Array) jit.Array {
	adj := gnn.NormalizeAdj(raw) // want tracedbool
	return predictRaw(m, adj, feats)
}

// largeReadout embeds one big graph with deep propagation and max pooling.
func largeReadout(m gnn.Model, adj, feats jit.Array) jit.Array {
	h := gnn.Forward(m, adj, feats)
	h = gnn.Diffuse(adj, h, 0.1, 40) // want unrolledloop
	n, d := h.Shape()[0], h.Shape()[1]
	pooled := h.Slice([]int{0, 0}, []int{1, d})
	for i := 1; i < n; i++ { // want unrolledloop
		pooled = pooled.Max(h.Slice([]int{i, 0}, []int{i + 1, d}))
	}
	return pooled.Reshape(d).MatMul(m.Out)
}

func randomGraph(rng *rand.Rand, n, pad int) graph {
	raw := make([]float32, n*n)
	edges := 0
	link := func(a, b int) {
		if a != b && raw[a*n+b] == 0 {
			raw[a*n+b], raw[b*n+a] = 1, 1
			edges++
		}
	}
	for i := 0; i < n; i++ {
		link(i, (i+1)%n)
	}
	for k := rng.Intn(2 * n); k > 0; k-- {
		link(rng.Intn(n), rng.Intn(n))
	}
	rawArr := jit.FromSlice(raw, n, n)
	norm := gnn.NormalizeAdj(rawArr).Float32s() // concrete: fine on the host
	g := graph{real: n, raw: rawArr, adj: make([]float32, pad*pad), feats: make([]float32, pad*featDim)}
	for i := 0; i < n; i++ {
		copy(g.adj[i*pad:i*pad+n], norm[i*n:(i+1)*n])
		deg := float32(0)
		for j := 0; j < n; j++ {
			deg += raw[i*n+j]
		}
		g.feats[i*featDim], g.feats[i*featDim+1], g.feats[i*featDim+2] = 1, deg/4, float32(rng.Float64())
	}
	g.target = float32(2*edges) / float32(n) / 4
	return g
}

func bucketFor(n int) int {
	for _, b := range buckets {
		if n <= b {
			return b
		}
	}
	panic("graph too large")
}

func stack(gs []graph) (adjs, feats, masks, targets jit.Array) {
	n := bucketFor(gs[0].real)
	var a, f, mk, t []float32
	for _, g := range gs {
		a = append(a, g.adj...)
		f = append(f, g.feats...)
		for i := 0; i < n; i++ {
			if i < g.real {
				mk = append(mk, 1)
			} else {
				mk = append(mk, 0)
			}
		}
		t = append(t, g.target)
	}
	b := len(gs)
	return jit.FromSlice(a, b, n, n), jit.FromSlice(f, b, n, featDim), jit.FromSlice(mk, b, n), jit.FromSlice(t)
}

func main() {
	rng := rand.New(rand.NewSource(3))
	model := gnn.Init(rng, []int{featDim, 8, 8, 8})

	byBucket := map[int][]graph{}
	for k := 0; k < 32; k++ {
		n := 5 + rng.Intn(26)
		byBucket[bucketFor(n)] = append(byBucket[bucketFor(n)], randomGraph(rng, n, bucketFor(n)))
	}

	step := jit.Jit(trainStep)
	for epoch := 0; epoch < 4; epoch++ {
		var total float64
		for _, b := range buckets {
			gs := byBucket[b]
			for s := 0; s+4 <= len(gs); s += 4 {
				adjs, feats, masks, targets := stack(gs[s : s+4])
				var l jit.Array
				model, l = step.Call(model, adjs, feats, masks, targets)
				total += l.Item()
			}
		}
		fmt.Printf("epoch %d loss %.4f\n", epoch, total)
	}

	// Evaluate every full batch of each bucket.
	for _, b := range buckets {
		gs := byBucket[b]
		for s := 0; s+4 <= len(gs); s += 4 {
			adjs, feats, masks, _ := stack(gs[s : s+4])
			evalFn := jit.Jit(func(adjs, feats, masks jit.Array) jit.Array { // want staticargs
				return jit.Vmap(predictPadded, jit.InAxes(jit.NotMapped, 0, 0, 0))(model, adjs, feats, masks)
			})
			preds := evalFn.Call(adjs, feats, masks).Float32s()
			fmt.Printf("bucket %d batch %d: pred %.3f target %.3f\n", b, s/4, preds[0], gs[s].target)
		}
	}

	// Size generalization: graphs of 6..13 nodes, unpadded.
	for n := 6; n < 14; n++ {
		g := randomGraph(rng, n, n)
		p := jit.Jit(predictRaw)
		out := p.Call(model, jit.FromSlice(g.adj, n, n), jit.FromSlice(g.feats, n, featDim)) // want shapechurn
		fmt.Printf("n=%d pred %.3f target %.3f\n", n, out.Item(), g.target)
	}

	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("in-graph normalization failed:", r.(*jit.Error).Kind)
			}
		}()
		g := randomGraph(rng, 12, 12)
		jit.Jit(predictFromRaw).Call(model, g.raw, jit.FromSlice(g.feats, 12, featDim))
	}()

	big := randomGraph(rng, 40, 40)
	emb := jit.Jit(largeReadout).Call(model, jit.FromSlice(big.adj, 40, 40), jit.FromSlice(big.feats, 40, featDim))
	fmt.Printf("large graph score %.4f\n", emb.Item())
	fmt.Println("trace log:", traceLog)
}
