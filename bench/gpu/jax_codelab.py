#!/usr/bin/env python3
"""The codelab's functions through JAX, for the side-by-side table of
scripts/gpu-check.sh. Same functions and inputs as jit/gpu/internal/codelab.

    python3 jax_codelab.py OUT.json

Writes first-call (after jax.clear_caches) and mean cached-call times in ms,
the first values of each function's first output, the unrolled/scan loop
first-call times at 200 and 2000 steps, and the shape-recompile loop.
"""
import json
import sys
import time
import traceback

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

CACHED = 20


def f32(a):
    return jnp.asarray(np.asarray(a, dtype=np.float64).astype(np.float32))


def arange(n, scale):
    return f32(np.arange(n, dtype=np.float64) * scale)


def mat(r, c, scale):
    i = np.arange(r * c)
    return f32((((i * 7) % 13) - 6).reshape(r, c) * scale)


def heavy(x):
    y = x
    for _ in range(20):
        y = jnp.sin(y) * jnp.cos(y) + jnp.tanh(y)
    return y


def body(y):
    return jnp.sin(y) + 0.01 * y


def unrolled(steps):
    def f(x):
        y = x
        for _ in range(steps):
            y = body(y)
        return y
    return f


def scan_loop(steps):
    def f(x):
        y, _ = lax.scan(lambda c, _: (body(c), None), x, None, length=steps)
        return y
    return f


def softplus(x):
    return jnp.log1p(jnp.exp(x))


def relu(x):
    return jnp.maximum(x, 0.0)


def cond_fn(sharp, x):
    return lax.cond(sharp, relu, softplus, x)


def masked_mean(x, m):
    return jnp.sum(x * m) / jnp.maximum(jnp.sum(m), 1.0)


def power3(x):
    for _ in range(3):
        x = x * x
    return x


def step9(x):
    return jnp.tanh(x) * jnp.sin(x) + jnp.log1p(x * x)


def while_loop(limit, x):
    return lax.while_loop(lambda c: c[0] < limit, lambda c: (c[0] + 1, c[1] * 1.5 + 1), (jnp.int32(0), x))


def cumsum(reverse):
    def f(x):
        def b(c, row):
            s = c + row
            return s, s * 2
        return lax.scan(b, jnp.zeros(x.shape[1], jnp.float32), x, reverse=reverse)
    return f


def matmul(x, w):
    return x @ w


def matmul_t(x, w):
    return lax.dot_general(x, w, (((0,), (0,)), ((), ())))


def shapes(x):
    t = x.T
    bc = lax.broadcast_in_dim(t, (4, 3, 2), (1, 2))
    s = bc + lax.broadcasted_iota(jnp.float32, (4, 3, 2), 0)
    cat = jnp.concatenate([s, bc], axis=0)
    p = lax.pad(cat, jnp.float32(-1), [(1, 0, 0), (0, 2, 1), (0, 0, 0)])
    sl = lax.slice(p, (1, 0, 0), (9, 7, 2), (2, 3, 1))
    return p, jnp.max(sl.reshape(4, 6), axis=1)


def cases(n=1_000_000, steps=200):
    padded = f32([1, 2, 3] + [0] * 13)
    mask = f32([1, 1, 1] + [0] * 13)
    rows = f32((np.arange(15) - 4).reshape(5, 3))
    small = f32((np.arange(6) * 1.5 - 2).reshape(2, 3))
    return [
        ("square_plus_one", lambda x: x ** 2 + 1, [f32([0, 1, 2, 3])]),
        ("heavy", heavy, [arange(n, 1)]),
        ("sum_squares", lambda x: jnp.sum(x ** 2), [arange(300, 0.01)]),
        ("relu_where", lambda x: jnp.where(x > 0, x, 0.0), [f32([-1, -0.5, 0, 0.5, 1])]),
        ("cond_softplus", cond_fn, [jnp.bool_(False), f32([-1, 0.5, 2])]),
        ("cond_relu", cond_fn, [jnp.bool_(True), f32([-1, 0.5, 2])]),
        ("python_for_loop", unrolled(steps), [arange(1024, 0.001)]),
        ("scan_loop", scan_loop(steps), [arange(1024, 0.001)]),
        ("masked_mean", masked_mean, [padded, mask]),
        ("power3", power3, [arange(8, 0.25)]),
        ("step9", step9, [f32([0, 1, 2, 3])]),
        ("while_loop", while_loop, [jnp.int32(10), f32([0, 1, 2, 3])]),
        ("scan_cumsum", cumsum(False), [rows]),
        ("scan_cumsum_reverse", cumsum(True), [rows]),
        ("matmul", matmul, [mat(33, 20, 0.5), mat(20, 17, 0.25)]),
        ("matmul_transposed", matmul_t, [mat(18, 5, 1), mat(18, 7, 1)]),
        ("shapes", shapes, [small]),
    ]


def block(out):
    return jax.block_until_ready(out)


def first_leaf(out):
    return np.asarray(jax.tree_util.tree_leaves(out)[0], dtype=np.float64).ravel()


def time_first(fn, args):
    jax.clear_caches()
    f = jax.jit(fn)
    t0 = time.perf_counter()
    out = block(f(*args))
    return f, out, (time.perf_counter() - t0) * 1e3


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "jax.json"
    res = {"device": str(jax.devices()[0]), "jax_version": jax.__version__,
           "cases": {}, "loops_first_ms": {}, "recompile_ms": [], "errors": {}}

    def save():  # after every stage, so a timeout keeps what was measured
        with open(path, "w") as fh:
            json.dump(res, fh, indent=1)

    for name, fn, args in cases():
        try:
            f, out, first = time_first(fn, args)
            t0 = time.perf_counter()
            for _ in range(CACHED):
                block(f(*args))
            cached = (time.perf_counter() - t0) * 1e3 / CACHED
            head = [float(v) for v in first_leaf(out)[:8]]
            res["cases"][name] = {"first_ms": first, "cached_ms": cached, "head": head}
        except Exception as e:  # keep going: the report shows the error
            res["errors"][name] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        save()
    jax.clear_caches()
    f = jax.jit(lambda x: jnp.sum(x ** 2))
    for n in (100, 200, 100, 200, 300):
        x = arange(n, 0.01)
        t0 = time.perf_counter()
        block(f(x))
        res["recompile_ms"].append((time.perf_counter() - t0) * 1e3)
    save()
    x = arange(1024, 0.001)
    for steps in (200, 2000):
        for name, fn in (("scan_loop", scan_loop(steps)), ("python_for_loop", unrolled(steps))):
            try:
                _, _, first = time_first(fn, [x])
                res["loops_first_ms"][f"{name}_{steps}"] = first
            except Exception as e:
                res["errors"][f"{name}_{steps}"] = f"{type(e).__name__}: {e}"
            save()
    print(f"wrote {path}: {len(res['cases'])} cases, {len(res['errors'])} errors")


if __name__ == "__main__":
    main()
