// Command hooks uses a layer from another package that logs and counts
// its calls: eagerly, it does so on every call; traced, once per trace.
package main

import (
	"fmt"

	"corpus/nn"

	"github.com/jitlint/jitlint/jit"
)

func model(x, w jit.Array) jit.Array {
	h := nn.Dense(x, w)
	return nn.Logged(h) // want traceeffect
}

func main() {
	x, w := jit.Full(0.2, jit.Float32, 2, 4), jit.Full(0.1, jit.Float32, 4, 4)
	fmt.Println(nn.Logged(x).Sum().Item())
	f := jit.Jit(model)
	for range 4 {
		x = f.Call(x, w)
	}
	fmt.Println(x.Sum().Item(), "logged", nn.Applied, "times")
}
