package gpu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// PtxasEnv names the environment variable that gives the path of NVIDIA's
// offline PTX assembler, ptxas. Without it, ptxas is looked up on PATH
// and then in the folder scripts/ptxas.sh fetches it into.
const PtxasEnv = "JITLINT_PTXAS"

// findPtxas returns the path of ptxas: $JITLINT_PTXAS, ptxas on PATH, or
// the cache folder of scripts/ptxas.sh ($JITLINT_CUDA_CACHE, default
// ~/.cache/jitlint/cuda-11.8/bin), in that order.
func findPtxas() (string, error) {
	if p := os.Getenv(PtxasEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %v", PtxasEnv, p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("ptxas"); err == nil {
		return p, nil
	}
	cache := os.Getenv("JITLINT_CUDA_CACHE")
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "jitlint", "cuda-11.8", "bin")
		}
	}
	if p := filepath.Join(cache, "ptxas"); cache != "" {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no ptxas found: set " + PtxasEnv + ", put the CUDA toolkit's ptxas on PATH, or run scripts/ptxas.sh to fetch one")
}

// assembly is ptxas's report on one module.
type assembly struct {
	sm      int
	kernels []kernelResources
	elapsed time.Duration // ptxas's wall time
}

// kernelResources is what ptxas -v reports for one kernel.
type kernelResources struct {
	name                    string
	registers               int
	spillStores, spillLoads int // bytes
}

// assemble runs ptxas -arch=sm_<sm> -v on ptx in a temporary folder
// (removed afterwards). A rejection is an error carrying ptxas's messages.
func assemble(ctx context.Context, ptxas, ptx string, sm int) (*assembly, error) {
	dir, err := os.MkdirTemp("", "jitlint-ptxas-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "module.ptx")
	if err := os.WriteFile(in, []byte(ptx), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, ptxas, "-arch=sm_"+strconv.Itoa(sm), "-v", "-o", filepath.Join(dir, "module.cubin"), in)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	text := strings.ReplaceAll(out.String(), in, "module.ptx")
	if err != nil {
		return nil, fmt.Errorf("ptxas -arch=sm_%d rejected the PTX (%v):\n%s", sm, err, strings.TrimSpace(text))
	}
	a := &assembly{sm: sm, elapsed: elapsed, kernels: parsePtxasInfo(text)}
	return a, nil
}

var (
	ptxasEntryRE = regexp.MustCompile(`Compiling entry function '(\w+)'`)
	ptxasSpillRE = regexp.MustCompile(`(\d+) bytes spill stores, (\d+) bytes spill loads`)
	ptxasRegsRE  = regexp.MustCompile(`Used (\d+) registers`)
)

// parsePtxasInfo reads the per-kernel lines of ptxas -v.
func parsePtxasInfo(text string) []kernelResources {
	var ks []kernelResources
	for _, line := range strings.Split(text, "\n") {
		if m := ptxasEntryRE.FindStringSubmatch(line); m != nil {
			ks = append(ks, kernelResources{name: m[1]})
			continue
		}
		if len(ks) == 0 {
			continue
		}
		k := &ks[len(ks)-1]
		if m := ptxasSpillRE.FindStringSubmatch(line); m != nil {
			k.spillStores, _ = strconv.Atoi(m[1])
			k.spillLoads, _ = strconv.Atoi(m[2])
		}
		if m := ptxasRegsRE.FindStringSubmatch(line); m != nil {
			k.registers, _ = strconv.Atoi(m[1])
		}
	}
	return ks
}
