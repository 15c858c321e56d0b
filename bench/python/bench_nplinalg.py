#!/usr/bin/env python3
"""np.linalg.det / np.linalg.inv / np.linalg.solve / np.linalg.norm inside
njit functions (issue 18) side by side with Numba in one process, on
float64 matrices of 64 x 64 and 256 x 256 (solve: 256 right-hand sides)
and vectors of 10**6 (norm). ufjit factorises in its own C (no LAPACK);
Numba calls SciPy's LAPACK, and where SciPy is missing (Numba cannot
compile np.linalg then) the contender is NumPy's np.linalg, the same
LAPACK routines (getrf / getri / gesv) called from Python, marked
"NumPy" in the table. BLAS threads are held to 1 (OPENBLAS_NUM_THREADS
and the like, set before NumPy loads) so that both sides use one core.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / other (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nplinalg.py"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import importlib.util  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import timeit  # noqa: E402

import numpy as np  # noqa: E402

SRC = '''import numpy as np
from numba import njit


@njit
def det(a):
    return np.linalg.det(a)


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


@njit
def norm(x):
    return np.linalg.norm(x)
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


def other(nb, k, a):
    """Numba's function, or NumPy's where Numba has no LAPACK."""
    fn = getattr(nb, k)
    try:
        fn(*a)
        return fn, "Numba"
    except ImportError:
        return getattr(np.linalg, k), "NumPy"


def main():
    rng = np.random.default_rng(18)
    m64 = rng.standard_normal((64, 64))
    m256 = rng.standard_normal((256, 256))
    b256 = rng.standard_normal((256, 256))
    v = rng.standard_normal(10**6)
    cases = [("det f64 64x64", "det", (m64,)),
             ("det f64 256x256", "det", (m256,)),
             ("inv f64 64x64", "inv", (m64,)),
             ("inv f64 256x256", "inv", (m256,)),
             ("solve f64 256x256, 256 rhs", "solve", (m256, b256)),
             ("norm f64 1e6", "norm", (v,))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("la_ufjit", True, d), load("la_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu = getattr(uj, k)
            fn, who_other = other(nb, k, a)
            want, got = fn(*a), fu(*a)
            if not np.allclose(want, got, rtol=1e-8, atol=1e-8):
                sys.exit(f"{label}: ufjit's result differs from {who_other}")
            best = {"ufjit": 1e9, "other": 1e9}
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("other", fn)):
                    t = min(timeit.repeat(lambda: fun(*a), number=5,
                                          repeat=3)) / 5
                    best[who] = min(best[who], t)
            rows.append((label, who_other, best["ufjit"], best["other"]))
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} CPUs\n")
    print("| case | ufjit ms | other | other ms | ufjit / other |")
    print("|---|---:|---|---:|---:|")
    for label, who, u, b in rows:
        print(f"| {label} | {u * 1e3:.3f} | {who} | {b * 1e3:.3f} | "
              f"{u / b:.2f} |")


if __name__ == "__main__":
    main()
