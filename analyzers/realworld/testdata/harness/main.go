// Command harness evaluates a regression model on held-out splits: the
// metrics come from a helper package (one of which records into package
// state), the harness keeps its own log of metric values in a package
// slice from inside the traced function, timestamps the evaluation while
// tracing, and finally does the bookkeeping on the host where it belongs.
package main

import (
	"fmt"
	"time"

	"corpus/evalkit"

	"github.com/jitlint/jitlint/jit"
)

type split struct {
	name   string
	x, y   jit.Array
	weight float64
}

// seen are the shapes evaluated, collected inside the traced function.
var seen [][]int

var lastEval time.Time

func predict(w, x jit.Array) jit.Array { return x.MatMul(w) }

// evaluate computes the metrics of a split.
func evaluate(w, x, y jit.Array) (jit.Array, jit.Array) {
	pred := predict(w, x)
	seen = append(seen, x.Shape())                     // want traceeffect
	lastEval = time.Now()                              // want traceeffect
	mse := evalkit.Record("mse", evalkit.MSE(pred, y)) // want traceeffect
	acc := evalkit.Accuracy(pred, y, 0.1)
	jit.DebugPrint("mse %v acc %v\n", mse, acc)
	return mse, acc
}

// summarize averages metrics with the package's Summary helper.
func summarize(a, b, c jit.Array) jit.Array { return evalkit.Summary(a, b, c) }

func makeSplit(name string, rows int, weight float64) split {
	xs := make([]float32, rows*3)
	ys := make([]float32, rows)
	for i := range xs {
		xs[i] = float32(i%4) / 4
	}
	for i := range ys {
		ys[i] = float32(i%3) / 3
	}
	return split{name: name, x: jit.FromSlice(xs, rows, 3), y: jit.FromSlice(ys, rows, 1), weight: weight}
}

func main() {
	w := jit.Full(0.2, jit.Float32, 3, 1)
	splits := []split{makeSplit("val", 32, 1), makeSplit("test", 32, 1), makeSplit("ood", 32, 0.5)}
	eval := jit.Jit(evaluate)
	summ := jit.Jit(summarize)
	var log []string
	for epoch := range 3 {
		var mses []jit.Array
		for _, s := range splits {
			mse, acc := eval.Call(w, s.x, s.y)
			mses = append(mses, mse.Mul(s.weight))
			log = append(log, fmt.Sprintf("%d %s %.3f %.3f", epoch, s.name, mse.Item(), acc.Item()))
		}
		fmt.Println("epoch", epoch, "summary", summ.Call(mses[0], mses[1], mses[2]).Item())
		w = w.Mul(0.9)
	}
	fmt.Println(len(log), "log lines;", len(seen), "shapes seen in traces;", len(evalkit.History), "recorded;", lastEval.IsZero())
}
