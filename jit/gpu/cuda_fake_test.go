package gpu

import (
	"encoding/binary"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeDriver builds testdata/fakecuda/fakecuda.c into a temporary
// libcuda.so.1, skipping the test where there is no C compiler.
func fakeDriver(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler to build the fake CUDA driver")
	}
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, filepath.Join("testdata", "fakecuda", "fakecuda.c")).CombinedOutput()
	if err != nil {
		t.Fatalf("building the fake driver: %v\n%s", err, out)
	}
	return lib
}

// TestCUDABindingWithFakeDriver drives every bound entry point of the purego
// binding against a fake libcuda.so.1: device facts, memory round trips,
// module loading with the JIT options, launches with their 11 arguments and
// pinned parameters, events, and errors named by cuGetErrorName.
func TestCUDABindingWithFakeDriver(t *testing.T) {
	b, err := openWith(fakeDriver(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Describe(); got != "Fake H200 (sm_90, 141.0 GiB, 132 SMs)" {
		t.Errorf("Describe() = %q", got)
	}
	if d := b.Devices(); len(d) != 1 || d[0].Platform != "gpu" || d[0].Name != "Fake H200" {
		t.Errorf("Devices() = %+v", d)
	}
	dev := b.dev
	p, err := dev.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Free(p)
	q, err := dev.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Free(q)
	src := []byte("0123456789abcdef")
	if err := dev.Upload(p, src); err != nil {
		t.Fatal(err)
	}
	if err := dev.CopyD(q, p, len(src)); err != nil {
		t.Fatal(err)
	}
	back := make([]byte, len(src))
	if err := dev.Download(back, q); err != nil || string(back) != string(src) {
		t.Fatalf("round trip: %q, %v", back, err)
	}
	m, err := dev.LoadModule(moduleHeader(9, 0, "") + ".visible .entry record(\n)\n{\n\tret;\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if m.JIT != 12500*time.Microsecond || m.Log != "info: fake jit of record" {
		t.Errorf("JIT wall time %v, log %q", m.JIT, m.Log)
	}
	if err := dev.Launch(m.Funcs["record"], 7, 256, []uint64{p, 0xfeedface12345678}); err != nil {
		t.Fatal(err)
	}
	rec := make([]byte, 48)
	if err := dev.Download(rec, p); err != nil {
		t.Fatal(err)
	}
	want := []uint64{7, 1001, 256, 1001, 0, 0xfeedface12345678}
	for i, w := range want {
		if g := binary.LittleEndian.Uint64(rec[8*i:]); g != w {
			t.Errorf("launch record[%d] = %#x, want %#x", i, g, w)
		}
	}
	stop, err := dev.Timer()
	if err != nil {
		t.Fatal(err)
	}
	if d, err := stop(); err != nil || d != 1500*time.Microsecond {
		t.Errorf("timer: %v, %v", d, err)
	}
	dev.Unload(m)
	for _, c := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := dev.Alloc(1 << 41); return err }(), "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"},
		{func() error { _, err := dev.LoadModule(moduleHeader(9, 0, "") + "INVALID"); return err }(), "CUDA_ERROR_INVALID_PTX (fake error)\nptxas fatal: INVALID instruction"},
		{func() error {
			_, err := dev.LoadModule(moduleHeader(9, 0, "") + ".visible .entry other(\n)\n{\n\tret;\n}\n")
			return err
		}(), "kernel other: cuModuleGetFunction: CUDA_ERROR_NOT_FOUND"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", c.err, c.want)
		}
	}
}
