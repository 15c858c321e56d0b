#!/usr/bin/env python3
"""np.diff, np.nancumsum / np.nancumprod and np.average inside njit
functions (issue 18) side by side with Numba in one process: np.diff of
10**6 float64 (n=1, n=3) and of a 1000 x 1000 array, np.nancumsum of 10**6
float64 with 1% NaN, np.nancumprod of float32, np.average weighted by an
array of the same shape and by 1-D weights broadcast along the rows.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npcum.py"""
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
def diff(a):
    return np.diff(a)


@njit
def diff3(a):
    return np.diff(a, 3)


@njit
def nancumsum(a):
    return np.nancumsum(a)


@njit
def nancumprod(a):
    return np.nancumprod(a)


@njit
def average_w(a, w):
    return np.average(a, weights=w)
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
    f = rng.standard_normal(n)
    f[rng.random(n) < 0.01] = np.nan
    g = rng.standard_normal(n)
    m = rng.standard_normal((1000, 1000))
    p = (1.0 + rng.standard_normal(n).astype(np.float32) * 1e-4)
    w = rng.random(n)
    cases = [("np.diff f64 1e6", "diff", (g,)),
             ("np.diff(a, 3) f64 1e6", "diff3", (g,)),
             ("np.diff f64 1000x1000", "diff", (m,)),
             ("np.nancumsum f64 1e6 (1% NaN)", "nancumsum", (f,)),
             ("np.nancumprod f32 1e6", "nancumprod", (p,)),
             ("np.average(a, weights=w) f64 1e6", "average_w", (g, w)),
             ("np.average 1000x1000, 1-D weights", "average_w",
              (m, w[:1000]))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("nc_ufjit", True, d), load("nc_numba", False, d)
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
