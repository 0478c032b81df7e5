package gpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jitlint/jitlint/jit/gpu/internal/codelab"
	"github.com/jitlint/jitlint/jit/internal/randjaxpr"
	"github.com/jitlint/jitlint/jit/ir"
)

// ptxasTargets are the compute capabilities the PTX is assembled for.
var ptxasTargets = [][2]int{{8, 0}, {9, 0}}

// ptxasJob is one program to lower and assemble for every target.
type ptxasJob struct {
	group, name string
	cj          *ir.ClosedJaxpr
	noSpills    bool
}

// ptxasResult is the outcome of one batch of jobs on one target.
type ptxasResult struct {
	jobs []ptxasJob
	sm   int
	ptx  string
	asm  *assembly
	err  error
}

// name names the result's program, or its batch.
func (r *ptxasResult) name() string {
	if len(r.jobs) == 1 {
		return r.jobs[0].group + " " + r.jobs[0].name
	}
	return fmt.Sprintf("a batch of %d %s programs", len(r.jobs), r.jobs[0].group)
}

// TestPTXAS assembles, with NVIDIA's ptxas for sm_80 and sm_90, the PTX
// of the golden programs, the codelab's functions and 500 random jaxprs
// (the generator the CPU backend is tested with), and fails on any
// rejection, printing the program and ptxas's message. Budgets: no
// register spills in the codelab's programs; the golden programs' register
// counts are logged per kernel (go test -v), so a change that balloons
// them shows in review. Skipped without ptxas (see scripts/ptxas.sh).
func TestPTXAS(t *testing.T) {
	ptxas, err := findPtxas()
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	var jobs []ptxasJob
	for _, g := range goldenCases() {
		jobs = append(jobs, ptxasJob{"golden", g.name, g.fn, true})
	}
	for _, c := range codelab.Cases(1_000_000, 200) {
		jobs = append(jobs, ptxasJob{"codelab", c.Name, c.Fn, true})
	}
	random := 0
	for _, j := range ptxasRandomJaxprs(t, 500) {
		jobs = append(jobs, j)
		random++
	}

	// The random programs go to ptxas 25 to a module (ptxas's start-up
	// costs more than assembling one of them); a rejected batch is
	// assembled again program by program to name the culprit.
	var batches [][]ptxasJob
	for i, j := range jobs {
		if j.group == "random" && i > 0 && jobs[i-1].group == "random" && len(batches[len(batches)-1]) < 25 {
			batches[len(batches)-1] = append(batches[len(batches)-1], j)
		} else {
			batches = append(batches, []ptxasJob{j})
		}
	}
	start := time.Now()
	results := assembleAll(ptxas, batches)
	var single [][]ptxasJob
	for i, r := range results {
		// Results come per target; a batch is split once, whichever failed.
		first := i - i%len(ptxasTargets)
		if r.err != nil && len(r.jobs) > 1 && (i == first || results[first].err == nil) {
			for _, j := range r.jobs {
				single = append(single, []ptxasJob{j})
			}
		}
	}
	results = append(results, assembleAll(ptxas, single)...)
	wall := time.Since(start)

	failed, maxRegs, spills := map[string]bool{}, 0, 0 // failed: programs rejected for either target
	for _, r := range results {
		if r.err != nil {
			if len(r.jobs) == 1 {
				failed[r.name()] = true
				t.Errorf("%s for sm_%d: %v\njaxpr:\n%s\nPTX:\n%s", r.name(), r.sm, r.err, r.jobs[0].cj, r.ptx)
			}
			continue
		}
		for _, k := range r.asm.kernels {
			maxRegs = max(maxRegs, k.registers)
			s := k.spillStores + k.spillLoads
			spills += s
			if r.jobs[0].group == "golden" {
				t.Logf("golden %s sm_%d %s: %d registers, %d bytes spilled", r.jobs[0].name, r.sm, k.name, k.registers, s)
			}
			if r.jobs[0].noSpills && s > 0 {
				t.Errorf("%s for sm_%d: kernel %s spills (%d bytes stored, %d loaded); the budget is no spills", r.name(), r.sm, k.name, k.spillStores, k.spillLoads)
			}
		}
		if len(r.asm.kernels) == 0 && strings.Contains(r.ptx, ".entry") {
			t.Errorf("%s for sm_%d: ptxas -v reported no kernels", r.name(), r.sm)
		}
	}
	if random < 500 {
		t.Errorf("only %d random jaxprs lowered, want at least 500", random)
	}
	t.Logf("ptxas: %d programs assembled for sm_80 and sm_90, %d failed, max registers %d, spills %d", len(jobs), len(failed), maxRegs, spills)
	t.Logf("(%d ptxas runs, %d at a time, in %v)", len(results), runtime.GOMAXPROCS(0), wall.Round(time.Millisecond))
}

// TestPTXASGoldenFilesUnmodified assembles the golden files in testdata
// exactly as they are, for the target they name.
func TestPTXASGoldenFilesUnmodified(t *testing.T) {
	ptxas, err := findPtxas()
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	files, _ := filepath.Glob("testdata/*.ptx")
	if len(files) == 0 {
		t.Fatal("no golden PTX in testdata")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var sm int
		if _, err := fmt.Sscanf(string(data)[strings.Index(string(data), ".target "):], ".target sm_%d", &sm); err != nil {
			t.Fatalf("%s: no .target: %v", f, err)
		}
		if _, err := assemble(context.Background(), ptxas, string(data), sm); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestPTXASReportsRejection: a module ptxas rejects is an error that
// carries ptxas's own message (checked with a real ptxas).
func TestPTXASReportsRejection(t *testing.T) {
	ptxas, err := findPtxas()
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	body := ".visible .entry bad(\n)\n{\n\t.reg .b32 %r<2>;\n\tbogus.b32 %r1, 1;\n\tret;\n}\n"
	_, err = assemble(context.Background(), ptxas, moduleHeader(9, 0, "")+body, 90)
	if err == nil || !strings.Contains(err.Error(), "bogus") || !strings.Contains(err.Error(), "module.ptx, line ") {
		t.Errorf("error %v, want ptxas's message naming the bad instruction and its line", err)
	}
}

// assembleAll lowers and assembles every batch for every target, on as
// many ptxas processes at once as there are CPUs.
func assembleAll(ptxas string, batches [][]ptxasJob) []ptxasResult {
	results := make([]ptxasResult, len(batches)*len(ptxasTargets))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, b := range batches {
		for ti, target := range ptxasTargets {
			r := &results[i*len(ptxasTargets)+ti]
			r.jobs, r.sm = b, target[0]*10+target[1]
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				r.ptx, r.err = batchPTX(b, target[0], target[1])
				if r.err == nil {
					r.asm, r.err = assemble(context.Background(), ptxas, r.ptx, r.sm)
				}
			}()
		}
	}
	wg.Wait()
	return results
}

var (
	kernelNameRE  = regexp.MustCompile(`\bk(\d+)(\(|_p\d+\b|_smem\b)`)
	kernelLabelRE = regexp.MustCompile(`\$L_k(\d+)_`)
)

// batchPTX lowers the jobs for compute capability major.minor into one
// module; with more than one, each program's kernels k<N> are renamed
// b<i>_k<N> so that the names stay distinct.
func batchPTX(jobs []ptxasJob, major, minor int) (string, error) {
	if len(jobs) == 1 {
		ptx, _, err := lowerPTX(jobs[0].cj, major, minor)
		return ptx, err
	}
	var body strings.Builder
	for i, j := range jobs {
		ptx, _, err := lowerPTX(j.cj, major, minor)
		if err != nil {
			return "", err
		}
		kernels := ptx[strings.Index(ptx, ".visible .entry"):]
		kernels = kernelNameRE.ReplaceAllString(kernels, fmt.Sprintf("b%d_k${1}${2}", i))
		body.WriteString(kernelLabelRE.ReplaceAllString(kernels, fmt.Sprintf("$$L_b%d_k${1}_", i)))
	}
	return moduleHeader(major, minor, body.String()) + body.String(), nil
}

// ptxasRandomJaxprs returns n random jaxprs the gpu backend lowers, made
// with randjaxpr.New in configurations like the CPU backend's test's
// (without bf16, which the gpu backend rejects with an error).
func ptxasRandomJaxprs(t *testing.T, n int) []ptxasJob {
	configs := []randjaxpr.Options{
		{NumEqns: 10, DTypes: []ir.DType{ir.Float32, ir.Float64, ir.Int32, ir.Int64, ir.Bool}},
		{NumEqns: 8, DTypes: []ir.DType{ir.Float32, ir.Int32, ir.Bool}, ControlFlow: true, Layout: true},
		{NumEqns: 12, MaxRank: 3, MaxDim: 40, DTypes: []ir.DType{ir.Float32, ir.Float64, ir.Int64}},
		{NumEqns: 6, MaxRank: 2, MaxDim: 300, DTypes: []ir.DType{ir.Float32}, Layout: true},
	}
	var jobs []ptxasJob
	unsupported := 0
	for seed := 0; len(jobs) < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 14))
		j, _ := randjaxpr.New(r, configs[seed%len(configs)])
		cj := &ir.ClosedJaxpr{Jaxpr: j, Name: fmt.Sprintf("random_%d", seed)}
		if _, _, err := lowerPTX(cj, 9, 0); err != nil {
			if !strings.Contains(err.Error(), "not supported by the gpu backend") {
				t.Fatalf("seed %d: %v\n%s", seed, err, cj)
			}
			unsupported++
			continue
		}
		jobs = append(jobs, ptxasJob{"random", fmt.Sprintf("seed %d", seed), cj, false})
	}
	if unsupported > n/10 {
		t.Errorf("%d random jaxprs use something the gpu backend does not support (for %d that lower)", unsupported, n)
	}
	return jobs
}
