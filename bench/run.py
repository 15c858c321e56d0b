#!/usr/bin/env python3
"""Runs ufjit's benchmarks side by side with NumPy and Numba in one run,
alternating rounds so that machine noise hits every side, and writes
bench/RESULTS.md with medians, spread and ratios.

usage: run.py BUILD_DIR [--quick]
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels.py")
sys.path.insert(0, HERE)


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def timeit(fn, reps):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def inputs(dtype, n, nin, scalars):
    arrs = []
    for i in range(nin):
        if i > 0 and scalars:
            arrs.append(np.array(1.5 + i, dtype=dtype))
        else:
            arrs.append(np.linspace(1.0 + i, 2.0 + 3 * i, n).astype(dtype))
    return arrs


def main():
    build = sys.argv[1]
    quick = "--quick" in sys.argv
    n = 1_000_000 if quick else 10_000_000
    rounds, reps = (2, 3) if quick else (5, 5)
    binary = os.path.join(build, "bench", "bench_vectorize")

    import kernels as K  # Numba compiles the signatures here
    SQ = K.SQRT_2PI
    numpy_impl = {
        "rel_diff": lambda x, y, out: np.divide(2 * (x - y), x + y, out=out),
        "hypot": lambda x, y, out: np.hypot(x, y, out=out),
        "gaussian_pdf": lambda x, m, s, out: np.divide(
            np.exp(-0.5 * ((x - m) / s) ** 2), s * SQ, out=out),
    }
    cases = [("rel_diff", 2, False), ("hypot", 2, False),
             ("gaussian_pdf", 3, True)]
    rows = []
    for name, nin, scalars in cases:
        for dt in ("float32", "float64"):
            args = inputs(dt, n, nin, scalars)
            out = np.empty(n, dtype=dt)
            nb = getattr(K, name)
            npf = numpy_impl[name]
            t_uf, t_mv, t_np, t_nb, first = [], [], [], [], []
            for _ in range(rounds):
                cmd = [binary, KERNELS, name, dt, str(n), str(reps), str(nin)]
                if scalars:
                    cmd.append("scalars")
                # libmvec vector math is opt-in (a few ulp from libm)
                for mvec, into in (("0", t_uf), ("1", t_mv)):
                    env = dict(os.environ, UFJIT_ENABLE_LIBMVEC=mvec)
                    r = subprocess.run(cmd, capture_output=True, text=True,
                                       env=env)
                    if r.returncode != 0:
                        sys.exit(f"bench: {' '.join(cmd)} failed: "
                                 f"{r.stderr}")
                    res = json.loads(r.stdout)
                    into.append(res["median_s"])
                    if mvec == "0":
                        first.append(res["first_call_s"])
                t_np.append(timeit(lambda: npf(*args, out=out), reps))
                t_nb.append(timeit(lambda: nb(*args, out=out), reps))
            rows.append((f"{name} {dt}", t_uf, t_np, t_nb, first, t_mv))

    # Compile cost: Numba compiling one new vectorize signature in-process
    # (after import), against ufjit's first call (2 signatures compiled).
    from numba import vectorize
    def fresh(x, y):
        return 2 * (x - y) / (x + y)
    t0 = time.perf_counter()
    vectorize(["float64(float64, float64)"])(fresh)
    numba_compile = time.perf_counter() - t0

    # A whole `ufjit call` process on small inputs.
    ufjit = os.path.join(build, "cli", "ufjit")
    with tempfile.TemporaryDirectory() as tmp:
        a = os.path.join(tmp, "a.npy")
        b = os.path.join(tmp, "b.npy")
        o = os.path.join(tmp, "o.npy")
        np.save(a, np.linspace(1, 2, 1000))
        np.save(b, np.linspace(2, 3, 1000))
        proc = []
        for _ in range(5):
            t0 = time.perf_counter()
            r = subprocess.run([ufjit, "call", KERNELS, "rel_diff", a, b,
                                "-o", o], capture_output=True, text=True)
            proc.append(time.perf_counter() - t0)
            if r.returncode != 0:
                proc = None
                break

    med = statistics.median
    lines = [
        "# ufjit benchmark results", "",
        f"Machine: {machine()}. NumPy {np.__version__}, "
        f"Numba {__import__('numba').__version__}. "
        f"{n:,} elements, {rounds} alternating rounds x {reps} reps; "
        "outputs preallocated; target cpu (1 thread).", "",
        "| case | ufjit ms | NumPy ms | Numba cpu ms | NumPy/ufjit | "
        "Numba/ufjit | ufjit spread ms | ufjit+libmvec ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, tu, tn, tb, first, tm in rows:
        u, p, b = med(tu), med(tn), med(tb)
        lines.append(f"| {label} | {u*1e3:.2f} | {p*1e3:.2f} | {b*1e3:.2f} | "
                     f"{p/u:.2f} | {b/u:.2f} | "
                     f"{min(tu)*1e3:.2f}-{max(tu)*1e3:.2f} | "
                     f"{med(tm)*1e3:.2f} |")
    lines += ["",
              "Ratios above 1 mean ufjit is faster. The last column runs "
              "ufjit with UFJIT_ENABLE_LIBMVEC=1 (glibc's vector math, "
              "within 4 ulp of libm; off by default).", "",
              "| compile / process | time ms |", "|---|---|"]
    for label, tu, tn, tb, first, tm in rows:
        lines.append(f"| ufjit first call of {label} (loads, compiles both "
                     f"signatures, runs once) | {med(first)*1e3:.1f} |")
    lines.append(f"| Numba: one new vectorize signature after import | "
                 f"{numba_compile*1e3:.1f} |")
    if proc:
        lines.append(f"| whole `ufjit call` process, rel_diff on 1000 "
                     f"float64 | {med(proc)*1e3:.1f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(HERE, "RESULTS.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
