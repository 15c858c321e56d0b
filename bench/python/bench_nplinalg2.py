#!/usr/bin/env python3
"""np.linalg.eigh, eigvalsh, eig and lstsq inside njit functions (issue
18; ufjit's own algorithms, common/nplinalg_eig.c and nplinalg_svd.c,
against Numba's LAPACK syevd / geev / gelsd through SciPy) side by side in
one process, on float64 matrices of 64 x 64 and 256 x 256 (eig: 64 and
128 with real eigenvalues; lstsq: 256 x 64 and 1024 x 64): eigenvalues
(eig's sorted) and lstsq's x compared to 1e-8 relative; eigh computes the
vectors too. Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nplinalg2.py"""
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
def eigh_w(a):
    return np.linalg.eigh(a)[0]


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def eig_w(a):
    return np.sort(np.linalg.eig(a)[0])


@njit
def lstsq_x(a, b):
    return np.linalg.lstsq(a, b)[0]
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
    cases = []
    for n in (64, 256):
        m = rng.standard_normal((n, n))
        cases += [(f"np.linalg.eigh {n}x{n}", "eigh_w", (m + m.T,)),
                  (f"np.linalg.eigvalsh {n}x{n}", "eigvalsh", (m + m.T,))]
    for n in (64, 128):
        p = rng.standard_normal((n, n)) + 4 * np.eye(n)
        a = p @ np.diag(np.arange(n) - n / 2.0) @ np.linalg.inv(p)
        cases.append((f"np.linalg.eig {n}x{n}", "eig_w", (a,)))
    for m in (256, 1024):
        cases.append((f"np.linalg.lstsq {m}x64", "lstsq_x",
                      (rng.standard_normal((m, 64)),
                       rng.standard_normal(m))))
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("la_ufjit", True, d), load("la_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(*a), fu(*a)
            if not np.allclose(want, got, rtol=1e-8, atol=1e-8 * np.abs(want).max()):
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            for _ in range(3):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn)):
                    t = min(timeit.repeat(lambda: fun(*a), number=3,
                                          repeat=2)) / 3
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
