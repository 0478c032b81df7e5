package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedFilesAreCurrent fails when jit/cpu/f32math_amd64.s or
// jit/cpu/gemm_amd64.s differs from what the generator writes (run go
// generate in jit/cpu).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for file, gen := range map[string]func() []byte{"f32math_amd64.s": generate, "gemm_amd64.s": generateGemm} {
		have, err := os.ReadFile("../../" + file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, gen()) {
			t.Errorf("jit/cpu/%s is stale: run go generate ./jit/cpu", file)
		}
	}
}
