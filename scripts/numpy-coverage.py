#!/usr/bin/env python3
"""Which NumPy functions Numba compiles in nopython mode that ufjit's
kernels do not know yet: the to-do list of issue 18, measured.

    scripts/numpy-coverage.py UFJIT [-o REPORT.md] [-k TEXT]

Every public callable of the numpy module (and of the SUBMODULES below,
numpy.polynomial's) is tried under numba.njit with a few argument forms
(a 1-D or 2-D float64 array, two of them, one or two floats, one or two
ints, an array with an int or a float), plus the PROBES below for functions that need other arguments;
then the ndarray methods and attributes of METHODS and np.random's public
callables in the RANDOM_FORMS (issue 18's second part).
Each one Numba compiles is then run through `UFJIT call` in the same
form; the report lists what ufjit refused, with its message. Only the
first form Numba accepts is tried, so "supported" means that form works
(other arguments may still be missing). Takes a few minutes: Numba
compiles every candidate.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import warnings

import numpy as np

FORMS = (("a", "a"), ("A", "A"), ("a, a", "a a"), ("A, A", "A A"),
         ("1.5", "1.5"), ("1.5, 2.5", "1.5 2.5"), ("3", "3"), ("3, 4", "3 4"),
         ("a, 2", "a 2"), ("a, 1.5", "a 1.5"), ("1.5, a", "1.5 a"))

# the modules scanned besides numpy, by their names under np.
SUBMODULES = ("polynomial.polynomial", "polynomial.polyutils")

# name: the call inside `def k(a):` (a is a 1-D float64 array of 12)
PROBES = {
    "concatenate": "np.concatenate((a, a))",
    "hsplit": "np.hsplit(a, 2)[0]",  # its list cannot leave the kernel
    "insert": "np.insert(a, 2, 1.5)",
    # its list cannot leave the kernel
    "polynomial.polyutils.as_series": "np.polynomial.polyutils.as_series(a)[0]",
    "stack": "np.stack((a, a))",
    "hstack": "np.hstack((a, a))",
    "vstack": "np.vstack((a, a))",
    "interp": "np.interp(a, a, a)",
    "bincount": "np.bincount(np.arange(5))",
    "roll": "np.roll(a, 2)",
    "repeat": "np.repeat(a, 2)",
    "take": "np.take(a, np.arange(3))",
    "eye": "np.eye(3)",
    "identity": "np.identity(3)",
    "expand_dims": "np.expand_dims(a, 0)",
    "swapaxes": "np.swapaxes(a.reshape(3, 4), 0, 1)",
    "cross": "np.cross(a[:3], a[3:6])",
    "select": "np.select([a > 1.0], [a])",
    "array": "np.array([1.0, 2.0])",
    "percentile": "np.percentile(a, 30.0)",
    "quantile": "np.quantile(a, 0.3)",
    "nanquantile": "np.nanquantile(a, 0.3)",
    "searchsorted": "np.searchsorted(a, 1.0, side='right')",
    "where": "np.where(a > 1.0)",
    "random.random": "np.random.random()",
    "linalg.norm": "np.linalg.norm(a)",
    "full": "np.full(3, 2.0)",
    "reshape": "np.reshape(a, (3, 4))",
    "partition": "np.partition(a, 3)",
    "unique": "np.unique(a)",
    "histogram": "np.histogram(a, 4)[0]",
    "clip": "np.clip(a, 0.7, 1.2)",
    "linalg.inv": "np.linalg.inv(np.eye(3) + a[:9].reshape(3, 3))",
    "fill_diagonal": "np.fill_diagonal(a.reshape(3, 4), 0.0)",
    "tril_indices_from": "np.tril_indices_from(a.reshape(3, 4))",
    "triu_indices_from": "np.triu_indices_from(a.reshape(3, 4))",
    "full_like": "np.full_like(a, 2.0)",
    "convolve": "np.convolve(a, a[:3])",
    "correlate": "np.correlate(a, a[:3])",
    "corrcoef": "np.corrcoef(a, a)",
    "argpartition": "np.argpartition(a, 3)",
    "resize": "np.resize(a, 5)",
    "split": "np.split(a, 3)[0]",
    "array_split": "np.array_split(a, 5)[0]",
    "broadcast_to": "np.broadcast_to(a, (2, 12))",
    "broadcast_arrays": "np.broadcast_arrays(a, a)[0]",
    "geomspace": "np.geomspace(1.0, 10.0, 5)",
    "logspace": "np.logspace(0.0, 1.0, 5)",
    "bartlett": "np.bartlett(5)",
    "blackman": "np.blackman(5)",
    "hamming": "np.hamming(5)",
    "hanning": "np.hanning(5)",
    "kaiser": "np.kaiser(5, 2.0)",
    "linalg.svd": "np.linalg.svd(a.reshape(3, 4))",
    "linalg.eigh": "np.linalg.eigh(np.eye(3) + a[:9].reshape(3, 3))",
    "linalg.qr": "np.linalg.qr(a.reshape(3, 4))",
    "linalg.cholesky": "np.linalg.cholesky(np.eye(3) * a[0])",
    "random.poisson": "np.random.poisson(2.0, 5)",
    "random.binomial": "np.random.binomial(10, 0.5, 5)",
}

# ndarray methods and attributes Numba documents ("Supported NumPy
# features"), each tried as `def k(a): return EXPR` with a the 1-D float64
# array (A: the same as 3 x 4); a result Numba cannot return is indexed or
# reduced. Names are "ndarray.NAME".
METHODS = {
    "T": "A.T", "ndim": "a.ndim", "shape": "A.shape", "size": "a.size",
    "strides": "A.strides", "itemsize": "a.itemsize", "nbytes": "a.nbytes",
    "real": "a.real", "imag": "a.imag", "flat": "a.flat[3]",
    "flags": "a.flags.c_contiguous", "ctypes": "a.ctypes.data != 0",
    "all": "a.all()", "any": "a.any()", "argmax": "a.argmax()",
    "argmin": "a.argmin()", "argsort": "a.argsort()",
    "argsort_kind": "a.argsort(kind='mergesort')",
    "astype": "a.astype(np.int32)", "conj": "a.conj()",
    "conjugate": "a.conjugate()", "copy": "a.copy()",
    "cumprod": "a.cumprod()", "cumsum": "a.cumsum()", "dot": "a.dot(a)",
    "fill": "a.fill(2.0)", "flatten": "A.flatten()", "item": "a.item(3)",
    "max": "a.max()", "mean": "a.mean()", "min": "a.min()",
    "nonzero": "a.nonzero()[0]", "prod": "a.prod()", "ravel": "A.ravel()",
    "repeat": "a.repeat(2)", "reshape": "a.reshape(3, 4)",
    "reshape_tuple": "a.reshape((3, 4))", "sort": "a.sort()",
    "std": "a.std()", "sum": "a.sum()", "sum_axis": "A.sum(axis=0)",
    "take": "a.take(np.arange(3))", "transpose": "A.transpose()",
    "transpose_axes": "A.transpose((1, 0))", "var": "a.var()",
    "view": "a.view(np.int64)", "squeeze": "A.reshape(1, 12).squeeze()",
    "searchsorted": "a.searchsorted(1.0)", "clip": "a.clip(0.7, 1.2)",
    "round": "a.round(1)", "trace": "A.trace()", "diagonal": "A.diagonal()",
    "swapaxes": "A.swapaxes(0, 1)", "tolist": "a.tolist()[0]",
    "tobytes": "a.tobytes()", "partition": "a.partition(3)",
    "argpartition": "a.argpartition(3)", "ptp": "a.ptp()",
    "cumsum_axis": "A.cumsum(axis=1)", "max_axis": "A.max(axis=1)",
    "argmax_axis": "A.argmax(axis=0)", "mean_axis": "A.mean(axis=0)",
    "nbytes_view": "a[::2].nbytes", "base": "a.base is None",
    "byteswap": "a.byteswap()", "compress": "a.compress(a > 1.0)",
    "choose": "np.arange(3).choose((a[:3], a[3:6]))",
    "getfield": "a.getfield(np.float64)", "setflags": "a.setflags()",
    "newbyteorder": "a.newbyteorder()", "resize": "a.resize(5)",
    "itemset": "a.itemset(0, 1.0)", "dump": "a.dumps()",
}

# np.random's public callables, each tried in these forms (the first that
# Numba compiles counts): no argument, a size, a parameter, two, a
# parameter and a size, two and a size, three.
RANDOM_FORMS = ("", "5", "2.5", "0.5, 2.5", "2.5, 5", "0.5, 2.5, 5",
                "0.5, 1.5, 2.5", "3, 0.5", "3, 0.5, 5", "a", "a, 3")


def methods_and_random(only=""):
    """(name, kernel source, argument keys) of each ndarray method and
    np.random function Numba compiles (see METHODS, RANDOM_FORMS)."""
    from numba import njit
    a = np.linspace(0.5, 2.0, 12)
    tries = [(f"ndarray.{n}", [f"def k(a, A):\n    return {x}\n"])
             for n, x in METHODS.items()]
    rnames = sorted(n for n in dir(np.random) if not n.startswith("_")
                    and callable(getattr(np.random, n))
                    and not isinstance(getattr(np.random, n), type))
    tries += [(f"random.{n}",
               [f"def k(a, A):\n    return np.random.{n}({f})\n"
                for f in RANDOM_FORMS]) for n in rnames
              if f"random.{n}" not in PROBES]
    for name, srcs in tries:
        if only not in name:
            continue
        for src in srcs:
            g = {"np": np}
            try:
                exec(src, g)
                njit(g["k"])(a.copy(), a.copy().reshape(3, 4))
            except Exception:
                continue
            yield name, src, ["a", "A"]
            break


def candidates(only=""):
    """(name, kernel source, ufjit arguments) of each function Numba
    compiles, in the first form it accepts; names containing `only`."""
    from numba import njit
    a = np.linspace(0.5, 2.0, 12)
    vals = {"a": a, "A": a.reshape(3, 4), "1.5": 1.5, "2.5": 2.5, "3": 3,
            "4": 4, "2": 2}
    names = sorted(n for n in dir(np) if not n.startswith("_")
                   and callable(getattr(np, n))
                   and not isinstance(getattr(np, n), type))
    for sub in SUBMODULES:
        m = np
        for part in sub.split("."):
            m = getattr(m, part)
        names += sorted(f"{sub}.{n}" for n in getattr(m, "__all__", dir(m))
                        if not n.startswith("_")
                        and callable(getattr(m, n, None))
                        and not isinstance(getattr(m, n), type))
    tries = []  # (name, [(parameters, call, argument keys)])
    for n in names:
        if n not in PROBES:
            forms = []
            for f, args in FORMS:
                keys = args.split()
                formal = ", ".join(f"p{k}" for k in range(len(keys)))
                forms.append((formal, f"np.{n}({formal})", keys))
            tries.append((n, forms))
    tries += [(n, [("a", call, ["a"])]) for n, call in PROBES.items()]
    for name, forms in tries:
        if only not in name:
            continue
        for formal, call, keys in forms:
            src = f"def k({formal}):\n    return {call}\n"
            g = {"np": np}
            try:
                exec(src, g)
                njit(g["k"])(*(vals[x] for x in keys))
            except Exception:
                continue
            yield name, src, keys
            break
    yield from methods_and_random(only)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ufjit")
    ap.add_argument("-o", dest="out")
    ap.add_argument("-k", dest="filter", default="")
    opt = ap.parse_args()
    warnings.simplefilter("ignore")
    ok, missing = [], []
    with tempfile.TemporaryDirectory(prefix="ufjit-coverage-") as tmp:
        a = np.linspace(0.5, 2.0, 12)
        np.save(os.path.join(tmp, "a.npy"), a)
        np.save(os.path.join(tmp, "A.npy"), a.reshape(3, 4))
        for name, src, args in candidates(opt.filter):
            if opt.filter not in name:
                continue
            path = os.path.join(tmp, "k.py")
            with open(path, "w") as f:
                f.write("import numpy as np\nfrom numba import njit\n\n"
                        "@njit\n" + src)
            argv = [opt.ufjit, "call", path, "k"]
            argv += [os.path.join(tmp, f"{x}.npy") if x in "aA" else x
                     for x in args]
            argv += ["-o", os.path.join(tmp, "out.npy")]
            p = subprocess.run(argv, capture_output=True, text=True,
                               timeout=120)
            line = (p.stderr.strip().splitlines() or [""])[0]
            # a tuple result (np.divmod) or none (np.fill_diagonal):
            # again with as many -o files as ufjit counts
            nout = re.search(r"has (\d+) outputs? but 1 -o", line)
            if nout:
                argv = argv[:-2] + [
                    x for i in range(int(nout.group(1)))
                    for x in ("-o", os.path.join(tmp, f"out{i}.npy"))]
                p = subprocess.run(argv, capture_output=True, text=True,
                                   timeout=120)
                line = (p.stderr.strip().splitlines() or [""])[0]
            line = line.replace(path, "k.py")
            (ok if p.returncode == 0 else missing).append((name, line))
    def kind(n):
        return n.split(".")[0] if n.split(".")[0] in ("ndarray", "random") \
            else "np"

    def count(rows, k):
        return sum(1 for n, _ in rows if kind(n) == k)

    def spell(n):
        return n if kind(n) == "ndarray" else f"np.{n}"

    rep = [f"# NumPy functions Numba compiles: {len(ok)} run in ufjit "
           f"kernels, {len(missing)} do not", "",
           "Of them: module functions "
           f"{count(ok, 'np')} run / {count(missing, 'np')} refused; "
           f"ndarray methods and attributes {count(ok, 'ndarray')} / "
           f"{count(missing, 'ndarray')}; np.random functions "
           f"{count(ok, 'random')} / {count(missing, 'random')}.", "",
           "Written by scripts/numpy-coverage.py.", "",
           "| function | ufjit says |", "|---|---|"]
    rep += [f"| {spell(n)} | {m.replace('|', '/')} |" for n, m in missing]
    rep += ["", "Supported (in the form tried): " +
            ", ".join(spell(n) for n, _ in ok), ""]
    text = "\n".join(rep)
    if opt.out:
        with open(opt.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
