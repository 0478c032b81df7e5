// Package evalkit holds metric helpers that the corpus's evaluation
// harness calls from traced code: pure metrics, and a recorder that keeps
// a history in package state.
package evalkit

import (
	"github.com/jitlint/jitlint/jit"
)

// Entry is one recorded metric.
type Entry struct {
	Name  string
	Shape []int
}

// History is every metric Record saw.
var History []Entry

// Accuracy is the fraction of predictions within tol of the labels.
func Accuracy(pred, labels jit.Array, tol float64) jit.Array {
	return pred.Sub(labels).Abs().Lt(tol).Astype(jit.Float32).Mean()
}

// MSE is the mean squared error.
func MSE(pred, labels jit.Array) jit.Array {
	d := pred.Sub(labels)
	return d.Mul(d).Mean()
}

// Record appends the metric's name and shape to History and returns it.
func Record(name string, x jit.Array) jit.Array {
	History = append(History, Entry{Name: name, Shape: x.Shape()})
	return x
}

// Summary averages the metrics it is given.
func Summary(ms ...jit.Array) jit.Array {
	total := ms[0]
	for _, m := range ms[1:] {
		total = total.Add(m)
	}
	return total.Div(float64(len(ms)))
}
