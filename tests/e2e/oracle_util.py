"""What the Numba-oracle drivers (run_*_oracle.py) share: their command
line, loading a kernel file as a Python module for Numba, materialising a
case's inputs (corpus.py specs) for both sides, and running `ufjit call`.
"""
import argparse
import contextlib
import functools
import importlib.util
import os
import re
import subprocess
import sys
import zlib

import numpy as np

from corpus import S


def options(doc, *extra):
    """UFJIT [EXTRA...] [-k TEXT] [-v]; None (after printing SKIP) when
    Numba is missing, so the driver exits 77. `extra` are add_argument
    keyword dicts for positional arguments after UFJIT."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("ufjit")
    for kw in extra:
        ap.add_argument(**kw)
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("-v", dest="verbose", action="store_true")
    opt = ap.parse_args()
    try:
        import numba  # noqa: F401
    except ImportError:
        print("SKIP: numba is not installed")
        return None
    return opt


@contextlib.contextmanager
def numba_caching():
    """Numba's decorators with cache=True while a kernel file loads, so
    that its compilations land in NUMBA_CACHE_DIR (set by CTest): the
    sanitizer run and later runs load them instead of compiling again,
    which was most of an oracle test's time. The kernel files stay plain
    Numba files without the flag (ufjit reads them too)."""
    import numba
    names = ("njit", "jit", "vectorize", "guvectorize")
    saved = {n: getattr(numba, n) for n in names}

    def cached(deco):
        @functools.wraps(deco)
        def wrapper(*args, **kw):
            if kw.get("target", "cpu") == "cpu":
                kw.setdefault("cache", True)
            return deco(*args, **kw)
        return wrapper

    for n in names:
        setattr(numba, n, cached(saved[n]))
    try:
        yield
    finally:
        for n, deco in saved.items():
            setattr(numba, n, deco)


def kernel_module_name(path):
    """The one module name of a kernel file in every driver (file names
    under tests/kernels/ are unique across its folders)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return "ufjit_kernels_" + re.sub(r"\W", "_", stem)


def load(path):
    """The kernel file as a module: its functions are Numba's."""
    # importable, under the name every driver gives it: Numba's cache
    # rebuilds a function's globals by importing the module it was first
    # compiled in, whichever driver loads the file later
    name = kernel_module_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    with numba_caching():
        spec.loader.exec_module(mod)
    return mod


def materialise(cid, inputs, tmp):
    """(Numba's values, ufjit's command-line arguments) of a case, from a
    generator seeded by the case id (reruns see the same data)."""
    rng = np.random.default_rng(zlib.crc32(cid.encode()))
    vals, args = [], []
    for j, spec in enumerate(inputs):
        v, arg = spec.materialise(rng, os.path.join(tmp, f"{cid}.in{j}.npy"))
        vals.append(v[()] if isinstance(spec, S) else v)
        args.append(arg)
    return vals, args


def as_array(o):
    """A Numba result as the array `ufjit call -o` writes."""
    if isinstance(o, bool):
        return np.array(o)
    if isinstance(o, float):
        return np.array(o, dtype=np.float64)
    if isinstance(o, int):
        return np.array(o, dtype=np.int64)
    if isinstance(o, complex):
        return np.array(o, dtype=np.complex128)
    return np.asarray(o)


def run_ufjit(ufjit, path, kernel, args, tmp, cid, target=None):
    """`ufjit call` with one output: (process, output file, command)."""
    p, outs, cmd = run_ufjit_outs(ufjit, path, kernel, args, 1, tmp, cid,
                                  target)
    return p, outs[0], cmd


def run_ufjit_outs(ufjit, path, kernel, args, nout, tmp, cid, target=None):
    """`ufjit call` with `nout` outputs (a tuple's elements, one file
    each): (process, output files, command)."""
    outs = [os.path.join(tmp, f"{cid}.out{k}.npy") for k in range(nout)]
    argv = [ufjit, "call", path, kernel, *args]
    for o in outs:
        argv += ["-o", o]
    if target:
        argv += ["--target", target]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return p, outs, " ".join(argv)


def load_outputs(outs):
    """ufjit writes a tuple output as one file per element."""
    return [np.load(o) for o in outs]
