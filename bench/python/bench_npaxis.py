#!/usr/bin/env python3
"""Sums and cumulative sums over axes, and np.round into out=, inside njit
functions (issue 18) side by side with Numba in one process: np.sum over
axis 0 of a C float64 matrix into float32 (dtype=), over a tuple of axes,
np.cumsum over axis 0 and over the last axis, np.round(a, 2, out). Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npaxis.py"""
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
def colsum32(a):
    return np.sum(a, axis=0, dtype=np.float32)


@njit
def sum02(a):
    return np.sum(a, axis=(0, 2))


@njit
def cumsum0(a):
    return np.cumsum(a, axis=0)


@njit
def cumsum1(a):
    return np.cumsum(a, axis=1)


@njit
def round_out(a, o):
    return np.round(a, 2, o)
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
    m = rng.standard_normal((1000, 1000))
    t3 = rng.standard_normal((100, 100, 100))
    out = np.empty_like(m)
    cases = [("np.sum(axis=0, dtype=f4) 1000x1000", "colsum32", (m,)),
             ("np.sum(axis=(0, 2)) 100^3", "sum02", (t3,)),
             ("np.cumsum(axis=0) 1000x1000", "cumsum0", (m,)),
             ("np.cumsum(axis=1) 1000x1000", "cumsum1", (m,)),
             ("np.round(a, 2, out) 1000x1000", "round_out", (m, out))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("ax_ufjit", True, d), load("ax_numba", False, d)
        rows = []
        for label, k, args in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = np.copy(fn(*args)), np.copy(fu(*args))
            if want.dtype != got.dtype or not np.allclose(
                    want, got, rtol=1e-5 if want.dtype == np.float32
                    else 1e-12, atol=1e-3 if want.dtype == np.float32
                    else 1e-9):
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn)):
                    t = min(timeit.repeat(lambda: fun(*args), number=10,
                                          repeat=3)) / 10
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
