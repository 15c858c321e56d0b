#!/usr/bin/env python3
"""Advanced indexing inside njit functions (issue 18) side by side with
Numba in one process: a[a > 0] of 10**6 float64 (half selected), a[idx]
gathering 10**6 float64 at random int64 indices, a[mask] = 0 and
a[idx] = v over the same sizes, a 1000 x 1000 array's a[:, idx].
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_fancy.py"""
import importlib.util
import os
import pathlib
import sys
import tempfile
import timeit

import numpy as np

SRC = '''import numpy as np
from numba import njit


@njit
def positive(a):
    return a[a > 0]


@njit
def masked(a, m):
    return a[m]


@njit
def take(a, idx):
    return a[idx]


@njit
def cols(a, idx):
    return a[:, idx]


@njit
def zero_masked(a, m):
    a[m] = 0.0
    return a


@njit
def put(a, idx, v):
    a[idx] = v
    return a
'''


def load(name, swap, where):
    text = SRC.replace("from numba import", "from ufjit import") if swap \
        else SRC
    path = pathlib.Path(where) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    m = g > 0
    idx = rng.integers(-n, n, n)
    v = rng.standard_normal(n)
    sq = rng.standard_normal((1000, 1000))
    cidx = rng.integers(0, 1000, 500)
    cases = [("a[a > 0] f64 1e6", "positive", (g,)),
             ("a[mask] f64 1e6 (mask given)", "masked", (g, m)),
             ("a[idx] f64 1e6 gather", "take", (g, idx)),
             ("a[:, idx] 1000x1000, 500 columns", "cols", (sq, cidx)),
             ("a[mask] = 0 f64 1e6", "zero_masked", (g.copy(), m)),
             ("a[idx] = v f64 1e6", "put", (g.copy(), idx, v))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("fy_ufjit", True, d), load("fy_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(*a), fu(*a)
            if not np.allclose(want, got, rtol=1e-6, equal_nan=True):
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn)):
                    t = min(timeit.repeat(lambda: fun(*a), number=20,
                                          repeat=3)) / 20
                    best[who] = min(best[who], t)
            rows.append((label, best["ufjit"], best["numba"]))
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} CPUs\n")
    print("| case | ufjit ms | Numba ms | ufjit / Numba |")
    print("|---|---:|---:|---:|")
    for label, u, b in rows:
        print(f"| {label} | {u * 1e3:.3f} | {b * 1e3:.3f} | {u / b:.2f} |")


if __name__ == "__main__":
    main()
