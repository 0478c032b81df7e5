// Command featurestore serves feature transforms from a small in-memory
// feature store: named transforms from a registry, scalers built from
// column statistics, bucketizers, pairwise cross features and a fused
// scoring pipeline, each jitted when a request needs it.
package main

import (
	"fmt"
	"math"
	"sort"

	"corpus/featurestore/transforms"

	"github.com/jitlint/jitlint/jit"
)

const rows = 64

// Columns is a feature table, one f32[rows] column per name.
type Columns map[string]jit.Array

// Request asks for one transform of one column.
type Request struct {
	Column, Transform string
}

// ClipOutliers clips x to 90% of its largest magnitude.
func ClipOutliers(x jit.Array) jit.Array {
	limit := x.Abs().MaxReduce().Item() * 0.9 // want tracedbool
	return x.Max(-limit).Min(limit)
}

// auditLog records every request served, in order.
var auditLog []string

// crossShapes records the shape of every cross-feature table built.
var crossShapes [][]int

// Store holds the table and a lazily compiled scoring pipeline.
type Store struct {
	cols    Columns
	weights map[string]float64
	score   *jit.Func[func(Columns) jit.Array]
}

func newStore() *Store {
	names := []string{"age", "income", "tenure", "visits", "basket", "returns", "rating", "distance", "sessions", "clicks"}
	cols := Columns{}
	for k, name := range names {
		data := make([]float32, rows)
		for i := range data {
			data[i] = float32(math.Abs(math.Sin(float64(i*(k+3))*0.71)) * float64(10*(k+1)))
		}
		cols[name] = jit.FromSlice(data)
	}
	return &Store{cols: cols, weights: map[string]float64{"age": 0.2, "income": 0.5, "visits": -0.3}}
}

// apply serves a named transform from the registry.
func (s *Store) apply(r Request) (jit.Array, error) {
	t, ok := transforms.Registry[r.Transform]
	if r.Transform == "clip" {
		t, ok = ClipOutliers, true
	}
	if !ok {
		return jit.Array{}, fmt.Errorf("no transform %q", r.Transform)
	}
	auditLog = append(auditLog, r.Column+"/"+r.Transform)
	return jit.Jit(t).Call(s.cols[r.Column]), nil
}

// scaled serves a column standardised with its stored statistics.
func (s *Store) scaled(column string) jit.Array {
	col := s.cols[column]
	mu := col.Mean().Item()
	sd := math.Sqrt(col.Sub(mu).Pow(2).Mean().Item())
	scale := jit.Jit(func(x jit.Array) jit.Array { return x.Sub(mu).Div(sd) }) // want staticargs
	return scale.Call(col)
}

// Score is the fused scoring pipeline: a weighted sum of standardised
// columns, squashed to (0, 1).
func (s *Store) Score() jit.Array {
	if s.score == nil {
		s.score = jit.Jit(func(cols Columns) jit.Array {
			acc := jit.Zeros(jit.Float32, rows)
			for name, w := range s.weights {
				c := cols[name]
				acc = acc.Add(c.Sub(c.Mean()).Div(c.Sub(c.Mean()).Pow(2).Mean().Sqrt().Max(1e-6)).Mul(w))
			}
			return acc.Logistic()
		})
	}
	sub := Columns{}
	for name := range s.weights {
		sub[name] = s.cols[name]
	}
	return s.score.Call(sub)
}

// Crosses returns every pairwise product of the columns, in name order,
// as a [pairs, rows] array.
func Crosses(cols Columns) jit.Array {
	names := make([]string, 0, len(cols))
	for name := range cols {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []jit.Array
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			out = append(out, cols[names[i]].Mul(cols[names[j]]).Reshape(1, rows))
		}
	}
	x := jit.Concatenate(0, out...)
	crossShapes = append(crossShapes, x.Shape()) // want traceeffect
	return x
}

func main() {
	s := newStore()

	for _, column := range []string{"age", "income", "tenure", "visits"} {
		z := s.scaled(column)
		fmt.Printf("scaled %-7s mean %.4f\n", column, z.Mean().Item())
	}

	edges := map[string]jit.Array{
		"age":    jit.FromSlice([]float32{2, 5, 8}),
		"income": jit.FromSlice([]float32{5, 10, 15}),
		"rating": jit.FromSlice([]float32{10, 40, 60}),
	}
	for _, column := range []string{"age", "income", "rating", "age", "income"} {
		bucketize := jit.Jit(transforms.Bucketizer.Apply)
		b := transforms.Bucketizer{Edges: edges[column]}
		counts := bucketize.Call(b, s.cols[column]).Float32s()
		fmt.Printf("bucketized %-7s first five %v\n", column, counts[:5])
	}

	for batch := 0; batch < 5; batch++ {
		sc := s.Score().Float32s()
		fmt.Printf("score batch %d: %.3f\n", batch, sc[batch])
	}

	cross := jit.Jit(Crosses)
	for epoch := 0; epoch < 3; epoch++ {
		x := cross.Call(s.cols)
		fmt.Printf("epoch %d cross features: %v (%d tables recorded)\n", epoch, x.Shape(), len(crossShapes))
	}

	requests := []Request{
		{"age", "standardize"}, {"income", "log1p"}, {"visits", "minmax"}, {"age", "log1p"},
		{"tenure", "standardize"}, {"income", "standardize"}, {"basket", "minmax"}, {"rating", "log1p"},
		{"distance", "standardize"}, {"clicks", "minmax"}, {"sessions", "log1p"}, {"returns", "zscore"},
		{"returns", "clip"},
	}
	for _, r := range requests {
		out, err := s.apply(r)
		if err != nil {
			fmt.Printf("%-9s %-11s skipped: %v\n", r.Column, r.Transform, err)
			continue
		}
		v := out.Float32s()
		fmt.Printf("#%-2d %-9s %-11s first=%.3f last=%.3f\n", len(auditLog), r.Column, r.Transform, v[0], v[rows-1])
	}
}
