// Command vxplugins loads every registered model plugin and replays a fixed
// stream of feature batches through each, reporting scores and compile counts.
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const dim = 8

// predictSafe turns a failed trace into an error so one bad plugin does not
// take the whole service down.
func predictSafe(m Model, x jit.Array) (y jit.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", m.Name(), r)
		}
	}()
	return m.Predict(x), nil
}

func main() {
	serve := flag.String("models", "linear,mlp,gated,reranker,annealed,twohead,clipped,poly", "comma-separated models to serve")
	requests := flag.Int("n", 10, "number of requests")
	flag.Parse()
	log.Printf("available: %v", Names())
	names := strings.Split(*serve, ",")
	models := make([]Model, 0, len(names))
	for _, n := range names {
		f, err := Lookup(n)
		if err != nil {
			log.Printf("skipping: %v", err)
			continue
		}
		models = append(models, f(dim))
	}

	// Name is resolved through a method expression on the interface.
	nameOf := Model.Name
	r := rand.New(rand.NewPCG(42, 7))
	failed := 0
	for i := range *requests {
		x := randMat(r, 4, dim, 2)
		var line []string
		for _, m := range models {
			y, err := predictSafe(m, x)
			if err != nil {
				failed++
				continue
			}
			line = append(line, fmt.Sprintf("%s=%.3f", nameOf(m), y.Mean().Item()))
		}
		if i%3 == 0 {
			fmt.Printf("req %2d: %s\n", i, strings.Join(line, " "))
		}
	}
	fmt.Printf("%d failed predictions; softScores signatures: %d\n", failed, len(softJit.Signatures()))
}
