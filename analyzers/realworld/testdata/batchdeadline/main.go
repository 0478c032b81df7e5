// batchdeadline scores a nightly batch of customer records with a logistic
// risk model. Each shard runs under a context deadline; a worker pool pulls
// shards and reports per-shard results and failures.
package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit"
)

const features = 6

type Shard struct {
	ID   int
	Rows [][]float32
}

type Result struct {
	Shard int
	Mean  float64
	Flags int
	Err   error
}

// Risk is the model: a linear score squashed by a logistic.
func Risk(x, w jit.Array) jit.Array {
	return x.MatMul(w).Logistic()
}

// Calibrate rescales scores; precision is static ("fast" or "exact").
func Calibrate(precision string, s jit.Array) jit.Array {
	if precision == "exact" {
		return s.Log1p().Expm1()
	}
	return s
}

// Tag stamps the shard id into the output; the id is static.
func Tag(shard int, s jit.Array) jit.Array {
	return s.Add(float64(shard) * 1e-6)
}

var traceLog []string

// Review flags scores above a threshold; the threshold check is on a tracer.
func Review(s jit.Array) jit.Array {
	traceLog = append(traceLog, fmt.Sprintf("review traced for %v", s.Shape())) // want traceeffect
	flagged := jit.Where(s.Gt(0.8), 1.0, 0.0).Sum()
	return jit.Cond(flagged.Gt(0), func(v jit.Array) jit.Array { return v.Add(1) },
		func(v jit.Array) jit.Array { return v }, flagged)
}

// Strict refuses a shard whose mean is out of range, with a host check.
func Strict(s jit.Array) jit.Array {
	if s.Mean().Gt(0.3).Bool() { // want tracedbool
		return s.Mul(0)
	}
	return s
}

func pad(rows [][]float32, to int) jit.Array {
	flat := make([]float32, 0, to*features)
	for _, r := range rows {
		flat = append(flat, r...)
	}
	for len(flat) < to*features {
		flat = append(flat, 0)
	}
	return jit.FromSlice(flat, to, features)
}

func makeShards(n int) []Shard {
	shards := make([]Shard, n)
	for s := range shards {
		rows := make([][]float32, 16)
		for i := range rows {
			r := make([]float32, features)
			for j := range r {
				r[j] = float32((s*13+i*7+j*3)%10)/10 - 0.3
			}
			rows[i] = r
		}
		shards[s] = Shard{ID: s, Rows: rows}
	}
	return shards
}

func main() {
	w := jit.FromSlice([]float32{0.8, -0.4, 0.3, 0.9, -0.2, 0.5}, features, 1)
	risk := jit.Jit(Risk)
	calib := jit.Jit(Calibrate, jit.StaticArgnums(0))
	tag := jit.Jit(Tag, jit.StaticArgnums(0))
	review := jit.Jit(Review)
	strict := jit.Jit(Strict)

	process := func(ctx context.Context, sh Shard) (res Result) {
		res.Shard = sh.ID
		defer func() {
			if r := recover(); r != nil {
				res.Err = fmt.Errorf("shard %d: %w", sh.ID, r.(error))
			}
		}()
		if err := ctx.Err(); err != nil {
			res.Err = err
			return res
		}
		x := pad(sh.Rows, 16)
		s := risk.Call(x, w)
		precision := "fast"
		if sh.ID%2 == 1 {
			precision = "exact"
		}
		s = calib.Call(precision, s)
		s = tag.Call(sh.ID, s) // want staticargs
		res.Flags = int(review.Call(s).Item())
		if sh.ID == 5 {
			s = strict.Call(s)
		}
		res.Mean = s.Mean().Item()
		select {
		case <-ctx.Done():
			res.Err = ctx.Err()
		default:
		}
		return res
	}

	shards := makeShards(10)
	jobs := make(chan Shard)
	results := make(chan Result, len(shards))
	parent, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var wg sync.WaitGroup
	for worker := 0; worker < 3; worker++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sh := range jobs {
				ctx, done := context.WithTimeout(parent, 10*time.Second)
				results <- process(ctx, sh)
				done()
			}
		}()
	}
	for _, sh := range shards {
		jobs <- sh
	}
	close(jobs)
	wg.Wait()
	close(results)

	var all []Result
	for r := range results {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Shard < all[j].Shard })
	for _, r := range all {
		if r.Err != nil {
			var je *jit.Error
			if errors.As(r.Err, &je) {
				fmt.Println("jit error:", je.Kind)
			}
			fmt.Printf("shard %d failed\n", r.Shard)
			continue
		}
		fmt.Printf("shard %d mean=%.4f flags=%d\n", r.Shard, r.Mean, r.Flags)
	}
	fmt.Println("trace log entries:", len(traceLog))
}
