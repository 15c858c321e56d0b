#!/usr/bin/env python3
"""np.outer, np.eye, np.kron, np.vander, np.tril and np.trace inside njit
functions (issue 18) side by side with Numba in one process: np.outer of
two 1000-vectors, np.eye(1000), np.tril of a 1000 x 1000 array, np.kron of
a 30 x 30 and a 30 x 30 array, np.vander of 1000 points to 100 columns,
np.trace of a 1000 x 1000 array.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npmatrix.py"""
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
def outer(a, b):
    return np.outer(a, b)


@njit
def eye(n):
    return np.eye(n)


@njit
def tril(a):
    return np.tril(a)


@njit
def kron(a, b):
    return np.kron(a, b)


@njit
def vander(x, n):
    return np.vander(x, n)


@njit
def trace(a):
    return np.trace(a)
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
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    m = rng.standard_normal((1000, 1000))
    k = rng.standard_normal((30, 30))
    v = rng.uniform(0.5, 1.5, 1000)
    cases = [("np.outer 1000 x 1000 f64", "outer", (x, y)),
             ("np.eye(1000)", "eye", (1000,)),
             ("np.tril 1000x1000 f64", "tril", (m,)),
             ("np.kron 30x30, 30x30 f64", "kron", (k, k)),
             ("np.vander 1000 points, 100 columns", "vander", (v, 100)),
             ("np.trace 1000x1000 f64", "trace", (m,))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("nm_ufjit", True, d), load("nm_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(*a), fu(*a)
            if not np.array_equal(want, got, equal_nan=True):
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
