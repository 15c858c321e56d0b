"""The Python peers of the benchmark suite: NumPy, numexpr (1 and 2
threads) and Numba (vectorize cpu and parallel, guvectorize cpu and
parallel, njit with prange). Each builder returns {label: fn} where fn()
makes one call writing into the case's preallocated outputs; a peer whose
package is missing is left out and named by `missing()`.

Numba reads the same kernel files as ufjit, one kernel at a time: as
written (target='cpu'), with target='parallel', and with @vectorize turned
into a plain @njit function that generated prange loops call.
"""
import ast
import importlib
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
THREADS = 2
_modules = {}


def missing():
    out = []
    for name in ("numexpr", "numba"):
        try:
            importlib.import_module(name)
        except ImportError:
            out.append(name)
    return out


def _ufunc_decorator(node):
    """The @vectorize(...)/@guvectorize(...) call decorating node, or None."""
    for d in node.decorator_list:
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and \
                d.func.id in ("vectorize", "guvectorize"):
            return d
    return None


def _load(file, variant, kernel):
    """`kernel` of a kernels file, for Numba: variant "cpu" (as written),
    "parallel" (target='parallel') or "njit" (a plain njit function). Only
    that kernel of the file is compiled (Numba compiles every signature
    when it decorates), with the file's imports, constants and helpers."""
    key = (file, variant, kernel)
    if key not in _modules:
        import numba
        path = os.path.join(HERE, file)
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        body = []
        for node in tree.body:
            dec = (_ufunc_decorator(node)
                   if isinstance(node, ast.FunctionDef) else None)
            if dec is not None and node.name != kernel:
                continue
            if dec is not None and variant == "parallel":
                dec.keywords = [k for k in dec.keywords if k.arg != "target"]
                dec.keywords.append(ast.keyword(
                    "target", ast.Constant("parallel")))
            elif dec is not None and variant == "njit":
                dec.func = ast.Name("_bench_scalar", ast.Load())
            body.append(node)
        tree.body = body
        ast.fix_missing_locations(tree)
        ns = {"__name__": f"bench_{variant}_{kernel}", "__file__": path,
              "_bench_scalar": lambda *a, **k: numba.njit}
        exec(compile(tree, path, "exec"), ns)
        _modules[key] = ns[kernel]
    return _modules[key]


def _prange_loop(scalar_fn, ins, out):
    """An njit(parallel=True) loop applying scalar_fn over the broadcast
    operands: prange over the first output axis, range over the others."""
    import numba
    nd = out.ndim
    args, idx = [], []
    for i, a in enumerate(ins):
        args.append(f"a{i}")
        if a.ndim == 0:
            idx.append(f"a{i}")
            continue
        pos = []
        for d in range(a.ndim):
            od = nd - a.ndim + d
            pos.append("0" if a.shape[d] == 1 and out.shape[od] != 1
                       else f"i{od}")
        idx.append(f"a{i}[{', '.join(pos)}]")
    lines = [f"def loop({', '.join(args)}, out):",
             "    for i0 in prange(out.shape[0]):"]
    for d in range(1, nd):
        lines.append("    " * (d + 1) + f"for i{d} in range(out.shape[{d}]):")
    target = ", ".join(f"i{d}" for d in range(nd))
    lines.append("    " * (nd + 1) +
                 f"out[{target}] = fn({', '.join(idx)})")
    ns = {"prange": numba.prange, "fn": scalar_fn}
    exec("\n".join(lines), ns)
    loop = numba.njit(parallel=True)(ns["loop"])
    scalars = [a[()] if a.ndim == 0 else a for a in ins]
    return lambda: loop(*scalars, out)


def builders(case, ins, outs):
    """{label: fn} for every peer available for `case`."""
    peers = {"numpy": lambda: case.numpy(*ins, *outs)}
    for label, fn in case.extra.items():
        peers[label] = (lambda f: lambda: f(*ins, *outs))(fn)
    gone = missing()
    if case.numexpr and "numexpr" not in gone:
        import numexpr as ne
        names = dict(zip("abcd", ins))
        threads = (1,) if case.group == "overhead" else (1, 2)
        for t in threads:
            def run(t=t):
                ne.set_num_threads(t)
                ne.evaluate(case.numexpr, local_dict=names, out=outs[0],
                            casting="unsafe")
            peers[f"numexpr {t}t"] = run
    if "numba" in gone:
        return peers
    import numba
    numba.set_num_threads(min(THREADS, numba.config.NUMBA_NUM_THREADS))
    if case.group in ("elementwise", "overhead"):
        for variant in ("cpu", "parallel"):
            f = _load(case.file, variant, case.kernel)
            peers[f"numba {variant}"] = (
                lambda f=f: f(*ins, out=outs[0]))
        if case.group == "elementwise":
            fn = _load(case.file, "njit", case.kernel)
            peers["numba prange"] = _prange_loop(fn, ins, outs[0])
    elif case.group == "gufunc":
        for variant in ("cpu", "parallel"):
            f = _load(case.file, variant, case.kernel)
            peers[f"numba guvec {variant}"] = lambda f=f: f(*ins, *outs)
        # plain njit functions on the whole operands (np.dot: Numba's BLAS
        # path, which its guvectorize kernels, on 'A' arrays, do not take)
        for label, fn in (case.numba or {}).items():
            jf = numba.njit(fn)
            peers[f"numba {label}"] = lambda jf=jf: jf(*ins, *outs)
    elif case.numba:
        globals()["prange"] = numba.prange  # for the functions below
        for label, fn in case.numba.items():
            jf = numba.njit(parallel=True)(fn)
            o = outs[0].reshape(-1)
            peers[f"numba {label}"] = lambda jf=jf, o=o: jf(ins[0], o)
    return peers


def numba_threading_layer():
    try:
        import numba
        return numba.threading_layer()
    except Exception:  # no parallel region has run, or no numba
        return "unknown"


# 2-D np.dot in Numba's dialect (compiled with njit by builders): C
# arrays, so Numba calls SciPy's BLAS dgemm for each product.
def numba_dot_into(a, b, out):
    out[:] = np.dot(a, b)


def numba_dot_batch(a, b, out):
    for i in range(a.shape[0]):
        out[i] = np.dot(a[i], b[i])


# Reductions in Numba's dialect (compiled with njit(parallel=True) by
# builders); `out` is the output raveled to 1-D.
def numba_sum_all(x, out):
    s = 0.0
    for i in prange(x.shape[0]):  # noqa: F821 (set by builders)
        s += x[i]
    out[0] = s


def numba_sum_axis0(x, out):
    nchunks = 64
    per = (x.shape[1] + nchunks - 1) // nchunks
    for c in prange(nchunks):  # noqa: F821
        lo = c * per
        hi = min(lo + per, x.shape[1])
        for j in range(lo, hi):
            out[j] = 0.0
        for i in range(x.shape[0]):
            for j in range(lo, hi):
                out[j] += x[i, j]


def numba_sum_axis1(x, out):
    for i in prange(x.shape[0]):  # noqa: F821
        s = 0.0
        for j in range(x.shape[1]):
            s += x[i, j]
        out[i] = s
