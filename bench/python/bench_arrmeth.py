#!/usr/bin/env python3
"""Array methods inside njit functions (issue 18) side by side with Numba in
one process: np.sort of 10**6 float64 (random, with NaNs), int64 and complex128, a.copy()
of 10**6 float64 (C and a reversed view), np.cumsum, np.argsort. Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_arrmeth.py"""
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
def sort(a):
    return np.sort(a)


@njit
def copy(a):
    return a.copy()


@njit
def cumsum(a):
    return np.cumsum(a)


@njit
def argsort(a):
    return np.argsort(a)
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
    i = rng.integers(-10**12, 10**12, n)
    c = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    c[rng.random(n) < 0.01] = complex(np.nan, 1.0)
    cases = [("np.sort f64 1e6 (1% NaN)", "sort", f),
             ("np.sort i64 1e6", "sort", i),
             ("np.sort c16 1e6 (1% NaN)", "sort", c),
             ("np.argsort f64 1e6", "argsort", f),
             ("a.copy() f64 1e6", "copy", f),
             ("a.copy() f64 1e6 [::-1]", "copy", f[::-1]),
             ("np.cumsum f64 1e6", "cumsum", f)]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("am_ufjit", True, d), load("am_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(a), fu(a)
            if not np.array_equal(want, got, equal_nan=True) and \
                    k != "argsort":
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            number = 3 if "sort" in k else 20
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn)):
                    t = min(timeit.repeat(lambda: fun(a), number=number,
                                          repeat=3)) / number
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
