#!/usr/bin/env python3
"""np.isclose, np.allclose, np.array_equal, np.nan_to_num and np.sinc
inside njit functions (issue 18) side by side with Numba in one process:
each of two 10**6 float64 arrays (1% NaN / inf in nan_to_num's), and a
scalar np.isclose in a loop over them. Every contender runs the same kernel
source (`from numba import` swapped for `from ufjit import`) on the same
arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nppred.py"""
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
def isclose(a, b):
    return np.isclose(a, b)


@njit
def allclose(a, b):
    return np.allclose(a, b)


@njit
def array_equal(a, b):
    return np.array_equal(a, b)


@njit
def nan_to_num(a):
    return np.nan_to_num(a)


@njit
def sinc(a):
    return np.sinc(a)


@njit
def count_close(a, b):
    n = 0
    for i in range(a.shape[0]):
        n += np.isclose(a[i], b[i], 1e-3)
    return n
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
    x = rng.standard_normal(n)
    y = x + rng.standard_normal(n) * 1e-6
    z = x.copy()
    s = x.copy()
    pick = rng.random(n)
    s[pick < 0.01] = np.nan
    s[(pick >= 0.01) & (pick < 0.015)] = np.inf
    cases = [("np.isclose f64 1e6", "isclose", (x, y)),
             ("np.allclose f64 1e6 (all close)", "allclose", (x, z)),
             ("np.array_equal f64 1e6 (equal)", "array_equal", (x, z)),
             ("np.nan_to_num f64 1e6 (1.5% NaN/inf)", "nan_to_num", (s,)),
             ("np.sinc f64 1e6", "sinc", (x,)),
             ("np.isclose of numbers, 1e6 in a loop", "count_close",
              (x, y))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("np_ufjit", True, d), load("np_numba", False, d)
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
