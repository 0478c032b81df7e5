package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedFileIsCurrent fails when jit/cpu/f32math_amd64.s differs
// from what the generator writes (run go generate in jit/cpu).
func TestGeneratedFileIsCurrent(t *testing.T) {
	have, err := os.ReadFile("../../f32math_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, generate()) {
		t.Fatal("jit/cpu/f32math_amd64.s is stale: run go generate ./jit/cpu")
	}
}
