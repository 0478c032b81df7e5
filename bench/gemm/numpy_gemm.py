"""NumPy's side of bench/gemm: reads "name reps" lines, times reps calls of
the workload of that name (the same shapes as main.go's), prints the median
seconds per call. The first line printed names NumPy's BLAS library and its
kernel, checked to be OpenBLAS."""
import ctypes
import statistics
import sys
import time

import numpy as np

rng = np.random.default_rng(1)


def rand(*shape, dtype=np.float32):
    return (rng.random(shape) * 2 - 1).astype(dtype)


def blas_config():
    libs = [l.split()[-1] for l in open("/proc/self/maps") if "blas" in l.lower() and l.split()[-1].endswith((".so", ".so.0")) or "openblas" in l.lower()]
    libs = sorted(set(l for l in libs if "/" in l))
    openblas = [l for l in libs if "openblas" in l]
    if not openblas:
        sys.exit("numpy_gemm.py: NumPy does not use OpenBLAS (loaded: %s)" % libs)
    lib = ctypes.CDLL(openblas[0])
    lib.openblas_get_config.restype = ctypes.c_char_p
    lib.openblas_get_corename.restype = ctypes.c_char_p
    return "NumPy %s, %s (%s, core %s, %d threads)" % (
        np.__version__, openblas[0], lib.openblas_get_config().decode(), lib.openblas_get_corename().decode(),
        lib.openblas_get_num_threads())


def product(m, k, n, dtype=np.float32):
    a, b = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype)
    return lambda: a @ b


def attention():
    a, b = rand(16, 128, 64), rand(16, 64, 128)
    return lambda: a @ b


x, w1, b1, w2, y = rand(256, 784), rand(784, 512), rand(512), rand(512, 10), rand(256, 10)


def mlp():
    return lambda: np.tanh(x @ w1 + b1) @ w2


def training():
    def step():
        h = np.tanh(x @ w1 + b1)
        out = h @ w2
        d = (out - y) * np.float32(2 / out.size)
        dw2 = h.T @ d
        dh = (d @ w2.T) * (1 - h * h)
        db = dh.sum(axis=0)
        dw1 = x.T @ dh
        lr = np.float32(0.01)
        return w1 - lr * dw1, b1 - lr * db, w2 - lr * dw2
    return step


work = {
    "transformer 512×768·768×3072 f32": product(512, 768, 3072),
    "attention 16×(128×64·64×128) f32": attention(),
    "MLP forward tanh(x·W1+b)·W2, 256×784×512×10 f32": mlp(),
    "Grad training step of the MLP (MSE, SGD) f32": training(),
}
for n in (64, 128, 256, 512, 1024, 2048):
    work["square %d f32" % n] = product(n, n, n)
    work["square %d f64" % n] = product(n, n, n, np.float64)

print(blas_config(), flush=True)
for line in sys.stdin:
    name, reps = line.rsplit(" ", 1)
    f = work[name]
    f()
    ts = []
    for _ in range(int(reps)):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    print(statistics.median(ts), flush=True)
