// Command envflag configures a jitted augmentation from the environment
// and the clock. A bool read from os.Getenv is one value for the whole run
// (read once, or on every call: the same value); a flip decided by the
// parity of the current second takes at most two values; a seed taken from
// the nanosecond clock is new on every call.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/jitlint/jitlint/jit"
)

// augment optionally mirrors the image and adds a seeded offset.
func augment(img jit.Array, flip bool, seed int64) jit.Array {
	if flip {
		img = img.Neg().Add(1)
	}
	return img.Add(float64(seed%7) * 0.01)
}

func main() {
	img := jit.FromSlice([]float32{0, 0.25, 0.5, 0.75, 1, 0.5}, 2, 3)
	f := jit.Jit(augment, jit.StaticArgnums(1, 2))

	flip := os.Getenv("AUGMENT_FLIP") == "1"
	for range 10 {
		f.Call(img, flip, 3)
	}
	for range 10 {
		f.Call(img, os.Getenv("AUGMENT_FLIP") != "", 3)
	}
	fmt.Println("env flag: compiles", f.Stats().Compiles)

	g := jit.Jit(augment, jit.StaticArgnums(1, 2))
	for range 10 {
		g.Call(img, time.Now().Second()%2 == 0, 3)
	}
	fmt.Println("clock parity: compiles", g.Stats().Compiles)

	h := jit.Jit(augment, jit.StaticArgnums(1, 2))
	for range 6 {
		h.Call(img, flip, time.Now().UnixNano()) // want staticargs
	}
	fmt.Println("clock seed: compiles", h.Stats().Compiles)
}
