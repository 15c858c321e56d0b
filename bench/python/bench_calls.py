#!/usr/bin/env python3
"""The Python package's call costs, side by side with Numba and NumPy in
one run (issue 17's goals), printed as a Markdown table with ratios:
  - a ufunc on 10 float64 elements with out=, and allocating its output;
  - a gufunc on 10 rows of 10;
  - 10**7 elements (the C call's cost dominates), beside the same uf_call
    made on the same arrays from C (libufjit.so through ctypes, whose
    microsecond of overhead is noise at this size);
  - `import ufjit` plus the first compile and call, in fresh processes.
usage: PYTHONPATH=build/python python3 bench/python/bench_calls.py
       [LIBUFJIT] (default: build/libufjit.so beside the package)"""
import ctypes
import importlib.util
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import timeit

import numpy as np

HERE = pathlib.Path(__file__).parent


def load(name, swap, where):
    text = (HERE / "kernels.py").read_text()
    if swap:
        text = text.replace("from numba import", "from ufjit import")
    path = pathlib.Path(where) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def per_call(f, number):
    return min(timeit.repeat(f, number=number, repeat=7)) / number


def first_call_ms(kernel_dir, module, runs=5):
    code = ("import time; t0 = time.perf_counter(); import {lib}; "
            "import numpy as np, sys; sys.path.insert(0, {d!r}); "
            "import {m}; {m}.hyp(np.ones(3), np.ones(3)); "
            "print((time.perf_counter() - t0) * 1e3)")
    out = {}
    for lib, m in (("ufjit", module[0]), ("numba", module[1])):
        times = []
        for _ in range(runs):
            r = subprocess.run([sys.executable, "-c", code.format(
                lib=lib, d=str(kernel_dir), m=m)], capture_output=True,
                text=True, env=dict(os.environ, NUMBA_CACHE_DIR="/nonexistent"))
            if r.returncode != 0:
                raise SystemExit(r.stderr)
            times.append(float(r.stdout))
        out[lib] = statistics.median(times)
    return out


class UfError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("line", ctypes.c_int),
                ("column", ctypes.c_int), ("file", ctypes.c_char * 256),
                ("message", ctypes.c_char * 1024)]


def c_call_seconds(libpath, kernel_file, name, ins, out, number):
    """Best per-call time of uf_call(name, ins, out) made from C: the
    library loaded on its own (a second copy of ufjit, not the package's),
    the NumPy arrays wrapped without copies."""
    lib = ctypes.CDLL(str(libpath))
    P = ctypes.c_void_p
    lib.uf_context_new.restype = P
    lib.uf_module_load.restype = P
    lib.uf_module_load.argtypes = [P, ctypes.c_char_p, P]
    lib.uf_module_get.restype = P
    lib.uf_module_get.argtypes = [P, ctypes.c_char_p, P]
    lib.uf_array_wrap.restype = P
    lib.uf_array_wrap.argtypes = [ctypes.c_int, ctypes.c_int, P, P, P,
                                  ctypes.c_bool, P, P, P]
    lib.uf_call.argtypes = [P, P, ctypes.c_int, P, ctypes.c_int, P, P]
    lib.uf_array_release.argtypes = [P]
    err = UfError()
    ctx = lib.uf_context_new(ctypes.byref(err))
    mod = lib.uf_module_load(ctx, str(kernel_file).encode(),
                             ctypes.byref(err))
    f = mod and lib.uf_module_get(mod, name.encode(), ctypes.byref(err))
    if not f:
        raise SystemExit(f"ufjit: {err.message.decode()}")
    float64 = 10  # UF_FLOAT64 (include/ufjit/dtype.h)

    def wrap(a):
        shape = (ctypes.c_int64 * a.ndim)(*a.shape)
        strides = (ctypes.c_int64 * a.ndim)(*a.strides)
        return lib.uf_array_wrap(float64, a.ndim, shape, strides,
                                 a.ctypes.data, True, None, None,
                                 ctypes.byref(err))
    arrs = (P * len(ins))(*[wrap(a) for a in ins])
    outs = (P * 1)(wrap(out))

    def call():
        if lib.uf_call(f, arrs, len(ins), outs, 1, None, ctypes.byref(err)):
            raise SystemExit(f"ufjit: {err.message.decode()}")
    call()
    t = per_call(call, number)
    for a in list(arrs) + list(outs):
        lib.uf_array_release(a)
    return t


def main():
    import ufjit
    libpath = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else \
        pathlib.Path(ufjit.__file__).parents[2] / "libufjit.so"
    with tempfile.TemporaryDirectory() as d:
        uf = load("k_ufjit", True, d)
        nb = load("k_numba", False, d)
        rows = []
        a, b, out = np.ones(10), np.ones(10), np.empty(10)
        for f in (uf.hyp, nb.hyp):
            f(a, b, out=out)
        rows.append(("ufunc, 10 elements, out=",
                     per_call(lambda: uf.hyp(a, b, out=out), 100000),
                     per_call(lambda: nb.hyp(a, b, out=out), 100000),
                     per_call(lambda: np.hypot(a, b, out=out), 100000)))
        rows.append(("ufunc, 10 elements, allocating",
                     per_call(lambda: uf.hyp(a, b), 100000),
                     per_call(lambda: nb.hyp(a, b), 100000),
                     per_call(lambda: np.hypot(a, b), 100000)))
        m, o = np.ones((10, 10)), np.empty(10)
        uf.total(m, o)
        nb.total(m, o)
        rows.append(("gufunc (n)->(), 10 x 10, out given",
                     per_call(lambda: uf.total(m, o), 50000),
                     per_call(lambda: nb.total(m, o), 50000),
                     per_call(lambda: np.sum(m, axis=1, out=o), 50000)))
        big = np.random.default_rng(0).random(10**7)
        bo = np.empty_like(big)
        rows.append(("ufunc, 10**7 elements, out=",
                     per_call(lambda: uf.hyp(big, big, out=bo), 10),
                     per_call(lambda: nb.hyp(big, big, out=bo), 10),
                     per_call(lambda: np.hypot(big, big, out=bo), 10)))
        from_c = c_call_seconds(libpath, pathlib.Path(d) / "k_ufjit.py",
                                "hyp", [big, big], bo, 10)
        from_py = per_call(lambda: uf.hyp(big, big, out=bo), 10)
        first = first_call_ms(d, ("k_ufjit", "k_numba"))
    print("| case | ufjit | Numba | NumPy | ufjit / Numba |")
    print("|---|---|---|---|---|")
    for name, u, n, p in rows:
        scale, unit = (1e6, "us") if u < 1e-3 else (1e3, "ms")
        print(f"| {name} | {u * scale:.3f} {unit} | {n * scale:.3f} {unit} "
              f"| {p * scale:.3f} {unit} | {u / n:.2f} |")
    print(f"| import + first compile + call (fresh process, median of 5) "
          f"| {first['ufjit']:.0f} ms | {first['numba']:.0f} ms | - | "
          f"{first['ufjit'] / first['numba']:.2f} |")
    print()
    print("| large call, 10**7 elements, out= | from Python | from C "
          "| Python / C |")
    print("|---|---|---|---|")
    print(f"| ufunc hyp | {from_py * 1e3:.3f} ms | {from_c * 1e3:.3f} ms "
          f"| {from_py / from_c:.3f} |")


if __name__ == "__main__":
    main()
