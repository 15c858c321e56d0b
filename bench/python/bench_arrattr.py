#!/usr/bin/env python3
"""Array parts and the builtins min/max/sum inside njit functions (issue 18)
side by side with Numba in one process: sum(a), min(a) of 10**6 float64 and
int64 (C and a reversed view), a.conj() and a.imag.sum() of 10**6
complex128, np.zeros(n, a.dtype) through a dtype variable. Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_arrattr.py"""
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
def bsum(a):
    return sum(a)


@njit
def bmin(a):
    return min(a)


@njit
def conj(a):
    return a.conj()


@njit
def imag_sum(a):
    return a.imag.sum()


@njit
def zeros_of(a):
    d = a.dtype
    return np.zeros(a.shape[0], d)
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
    i = rng.integers(-10**12, 10**12, n)
    z = f + 1j * rng.standard_normal(n)
    cases = [("sum(a) f64 1e6", "bsum", f), ("sum(a) i64 1e6", "bsum", i),
             ("sum(a) f64 1e6 [::-1]", "bsum", f[::-1]),
             ("min(a) f64 1e6", "bmin", f), ("min(a) i64 1e6", "bmin", i),
             ("a.conj() c128 1e6", "conj", z),
             ("a.imag.sum() c128 1e6", "imag_sum", z),
             ("np.zeros(n, a.dtype) f64 1e6", "zeros_of", f)]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("aa_ufjit", True, d), load("aa_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(a), fu(a)
            if not np.array_equal(want, got, equal_nan=True) and \
                    k != "imag_sum":  # np.sum: 4 accumulators, not 1
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            number = 20
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
