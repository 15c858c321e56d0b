#!/usr/bin/env python3
"""np.histogram of 10^6 elements inside njit functions (issue 18) side by
side with Numba and NumPy in one process.
ufjit and Numba run the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; NumPy is
the plain np.histogram call. The table gives the best time of each and ufjit / Numba, ufjit / NumPy (below 1:
ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npstats.py"""
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
def hist(a, bins):
    return np.histogram(a, bins)


@njit
def hist_range(a, bins):
    return np.histogram(a, bins, (-3.0, 3.0))


@njit
def hist_edges(a, edges):
    return np.histogram(a, edges)
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
    i = rng.integers(-10**4, 10**4, n)
    edges = np.linspace(-3.0, 3.0, 101)
    cases = [("np.histogram(a, 100) 1e6 float64", "hist", (f, 100),
              lambda a, b: np.histogram(a, b)),
             ("np.histogram(a, 100, (-3, 3)) 1e6 float64", "hist_range",
              (f, 100), lambda a, b: np.histogram(a, b, (-3.0, 3.0))),
             ("np.histogram(a, 100) 1e6 int64", "hist", (i, 100),
              lambda a, b: np.histogram(a, b)),
             ("np.histogram(a, 101 edges) 1e6 float64", "hist_edges",
              (f, edges), lambda a, b: np.histogram(a, b))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("hist_ufjit", True, d), load("hist_numba", False, d)
        rows = []
        for label, k, a, npf in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            for want, got in zip(fn(*a), fu(*a)):
                if want.dtype != got.dtype or not np.array_equal(want, got):
                    sys.exit(f"{label}: ufjit's {got} differs from Numba's "
                             f"{want}")
            best = {"ufjit": 1e9, "numba": 1e9, "numpy": 1e9}
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn),
                                 ("numpy", npf)):
                    t = min(timeit.repeat(lambda: fun(*a), number=5,
                                          repeat=3)) / 5
                    best[who] = min(best[who], t)
            rows.append((label, best["ufjit"], best["numba"],
                         best["numpy"]))
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} CPUs\n")
    print("| case | ufjit ms | Numba ms | NumPy ms | ufjit / Numba | "
          "ufjit / NumPy |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, u, b, p in rows:
        print(f"| {label} | {u * 1e3:.2f} | {b * 1e3:.2f} | {p * 1e3:.2f} "
              f"| {u / b:.2f} | {u / p:.2f} |")


if __name__ == "__main__":
    main()
