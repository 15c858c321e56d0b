#!/usr/bin/env python3
"""Reductions (reduce, accumulate, outer, @cuda.reduce) against Numba and
NumPy on the kernels of tests/kernels/reduce_kernels.py.

    run_reduce_oracle.py --write FILE [--run TEST_EXE]
    run_reduce_oracle.py --check FILE
    run_reduce_oracle.py --cli UFJIT [-v]
    run_reduce_oracle.py --bench LIBUFJIT.so

--bench times ufjit's reductions (through ctypes, in this Python process)
against NumPy's add.reduce on the same arrays: the sum of 1e8 float64 (in
GB/s) and axis 0 / axis 1 of a 1e4 x 1e4 float64 array; not a test.

--write makes the expectation file tests/test_reduce.c reads (the
committed copy is tests/data/reduce_cases.txt), then runs TEST_EXE on it;
--check exits 1 when the committed FILE differs from what Numba/NumPy give
now; --cli runs cases end to end through `ufjit call` (.npy files,
--method/--axis/--keepdims/--initial: an eighth of the cases, a third of
the reduce-kernel ones, every error case) and checks the accuracy of
float32 and float64 sums of 1e6+ elements against math.fsum (at least
NumPy's).

The oracle for each case:
  - vectorize kernels: Numba's own ufunc methods (DUFunc.reduce,
    .accumulate, .outer, NumPy's machinery over Numba's compiled loops);
    the lazy kernel, which Numba's methods cannot compile, and the float
    sums whose order ufjit makes pairwise, against np.add;
  - @cuda.reduce kernels: Numba's cuda.reduce under the CUDA simulator
    (NUMBA_ENABLE_CUDASIM=1) on 1-D arrays, with init= when given; without
    it ufjit starts from the first element where Numba folds in init=0
    (the same for these kernels on the data used), and other axes against
    the equivalent NumPy ufunc.
Data are small integers (also in float arrays), so every order of a sum
gives the same value; order-sensitive kernels (sub, first_digit) check
NumPy's left-to-right order.

File format, one item per line:
  case ID KERNEL METHOD AXES KEEPDIMS INITIAL
  in DTYPE SHAPE VIEW          (outer: two `in` lines)
  data V V V ...               the base array in C order
  out DTYPE SHAPE / data ...   or   err CODE MESSAGE
AXES: default | none | list:0,2 | list: ; INITIAL: - or DTYPE:VALUE;
SHAPE: 2x3x4, - for 0-d; VIEW: - | S:EXPR (basic indexing) | T
(transpose) | ST:EXPR (both). Exits 77 when NumPy or Numba is missing."""
import argparse
import functools
import math
import os
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
import oracle_util  # noqa: E402

sys.dont_write_bytecode = True
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

try:
    import numpy as np
    import numba  # noqa: F401
except ImportError as e:
    print("SKIP: NumPy or Numba is not installed (%s)" % e)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
KFILE = os.path.join(os.path.dirname(HERE), "kernels", "reduce_kernels.py")
SEED = 4041

ERRCODE = {"ValueError": "VALUE", "AxisError": "INDEX", "TypeError": "TYPE"}


def load_kernels():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return oracle_util.load(KFILE)


class Case:
    def __init__(self, kernel, method, inputs, axes="default",
                 keepdims=False, initial=None):
        self.kernel, self.method, self.inputs = kernel, method, inputs
        self.axes, self.keepdims, self.initial = axes, keepdims, initial


# inputs: (base array, view) with view "-", "T", "S:expr", "ST:expr"
def view_of(base, view):
    a = base
    if view.startswith("S"):
        a = eval("a[%s]" % view.split(":", 1)[1], {"a": a})
    if view.endswith("T") or view.startswith("ST"):
        a = a.T
    return a


def ints(shape, dtype, lo=-9, hi=10, rng=None):
    return rng.randint(lo, hi, size=shape).astype(dtype)


REDUCE_NP = {"sum_reduce": np.add, "max_reduce": np.maximum,
             "min_reduce": np.minimum, "prod_reduce": np.multiply}


def axis_arg(axes):
    if axes == "default":
        return "default"
    if axes == "none":
        return None
    body = axes.split(":", 1)[1]
    t = tuple(int(x) for x in body.split(",")) if body else ()
    return t[0] if len(t) == 1 else t  # NumPy's scalar axis=


def expected(mod, c):
    """(array or None, (code, message) or None)."""
    arrays = [view_of(b, v) for b, v in c.inputs]
    k = getattr(mod, c.kernel)
    ax = axis_arg(c.axes)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(run_oracle(k, c, arrays, ax)), None
    except Exception as e:  # NumPy's exception is the expectation
        name = type(e).__name__
        return None, (ERRCODE.get(name, "VALUE"), str(e))


def run_oracle(k, c, arrays, ax):
    a = arrays[0]
    kw = {}
    if ax != "default":
        kw["axis"] = ax
    if c.method == "reduce" and c.kernel in REDUCE_NP:
        return reduce_kernel_oracle(k, c, a, ax)
    if c.kernel == "lazy_add":  # Numba's methods cannot compile lazily
        n = a.ndim if ax is None else 1 if ax == "default" or \
            isinstance(ax, int) else len(ax)
        if c.method == "reduce" and n > 1:  # no identity: NumPy's None
            raise ValueError("reduction operation 'lazy_add' is not "
                             "reorderable, so at most one axis may be "
                             "specified")
        t = np.result_type(a.dtype, np.int64) if a.dtype.kind in "iu" \
            else a.dtype
        k, a = np.add, a.astype(t)
    if c.method == "reduce":
        if c.keepdims:
            kw["keepdims"] = True
        if c.initial is not None:
            kw["initial"] = c.initial[1]
        if c.kernel == "vadd" and a.dtype.kind == "f" and a.ndim == 1:
            return np.add.reduce(a, **kw)  # the pairwise order
        return k.reduce(a, **kw)
    if c.method == "accumulate":
        if ax is None:
            kw["axis"] = None
        return k.accumulate(a, **kw)
    return k.outer(arrays[0], arrays[1])


def reduce_kernel_oracle(k, c, a, ax):
    """Numba's cuda.reduce (simulated) for 1-D; NumPy's ufunc otherwise."""
    init = None if c.initial is None else a.dtype.type(c.initial[1])
    if ax in ("default", None):
        ax = None
    axes = range(a.ndim) if ax is None else \
        (ax,) if isinstance(ax, int) else ax
    if a.ndim == 0 and isinstance(ax, int) and ax in (0, -1):
        axes = ()  # NumPy's scalar axis on a 0-d array
    if init is None and any(a.shape[i] == 0 for i in axes):
        raise ValueError("zero-size array to reduction operation %s "
                         "which has no identity" % c.kernel)
    if a.ndim == 1 and len(axes) == 1 and not c.keepdims:
        if a.size == 0:
            return init
        if init is not None:
            return a.dtype.type(k(a, init=init))
        return functools.reduce(PYFUNCS[c.kernel], list(a))
    u = REDUCE_NP[c.kernel]
    kw = {"axis": ax, "keepdims": c.keepdims, "dtype": a.dtype}
    if init is not None:
        kw["initial"] = init
    return u.reduce(a, **kw)


PYFUNCS = {"sum_reduce": lambda a, b: a + b, "max_reduce": max,
           "min_reduce": min, "prod_reduce": lambda a, b: a * b}


# ---- the cases ---------------------------------------------------------

def subsets(n):
    for m in range(1 << n):
        yield [i for i in range(n) if m >> i & 1]


def make_cases():
    rng = np.random.RandomState(SEED)
    cs = []
    A4 = ints((2, 3, 4, 5), np.int32, rng=rng)
    F4 = ints((2, 3, 4, 5), np.float64, rng=rng)
    # every axis combination of a 4-d array, keepdims both ways
    for kern, base in (("vadd", A4), ("vadd", F4), ("vmul", A4 % 3 - 1),
                       ("pymax", A4.astype(np.int16)), ("sum_reduce", A4),
                       ("max_reduce", F4)):
        for axes in subsets(4):
            for keep in (False, True):
                cs.append(Case(kern, "reduce", [(base, "-")],
                               "list:" + ",".join(map(str, axes)), keep))
        cs.append(Case(kern, "reduce", [(base, "-")], "none"))
        cs.append(Case(kern, "reduce", [(base, "-")], "default"))
    # negative strides, non-contiguous, transposed views
    for kern, base in (("vadd", F4), ("pymin", A4.astype(np.int64)),
                       ("sum_reduce", A4), ("nanmax", F4)):
        for view in ("S:::-1,:,1:,::2", "T", "ST:...,::-2", "S:1,::-1"):
            for axes in ("none", "list:0", "list:-1", "list:0,2"):
                cs.append(Case(kern, "reduce", [(base, view)], axes))
    # order-sensitive kernels: one axis at a time, forwards and backwards
    S3 = ints((3, 4, 5), np.int64, 0, 10, rng)
    for kern in ("sub", "first_digit", "add_noid"):
        for view in ("-", "S:::-1,::-1,::-1", "T", "S:::2,1:,::-3"):
            for axes in ("default", "list:0", "list:1", "list:-1"):
                cs.append(Case(kern, "reduce", [(S3, view)], axes))
                cs.append(Case(kern, "accumulate", [(S3, view)], axes))
    cs.append(Case("sub", "reduce", [(S3.astype(np.float64), "T")],
                   "list:1"))
    # lengths around the pairwise blocks, contiguous and strided (gathered)
    for n in (1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 1000,
              2049, 4097, 6000):
        x = ints((n,), np.float64, -99, 100, rng)
        cs.append(Case("vadd", "reduce", [(x, "-")]))
        cs.append(Case("sum_reduce", "reduce", [(x.astype(np.int64), "-")]))
        if n > 3:
            cs.append(Case("vadd", "reduce", [(x, "S:::3")]))
            cs.append(Case("pymax", "reduce", [(x.astype(np.int64),
                                                "S:::-2")]))
    # float sums in NumPy's exact pairwise order (random, not exact data)
    for n in (5, 8, 100, 128, 256, 1024):
        x = rng.standard_normal(n)
        cs.append(Case("vadd", "reduce", [(x, "-")]))
    # integer overflow wraps
    big8 = np.full(40, 100, np.int8)
    cs.append(Case("vadd", "reduce", [(big8, "-")]))
    cs.append(Case("vadd", "accumulate", [(big8, "-")]))
    cs.append(Case("vadd", "reduce", [(np.full(300, 250, np.uint8), "-")]))
    cs.append(Case("vadd", "reduce", [(np.full((3, 70), 2**30, np.int32),
                                      "-")], "list:1"))
    cs.append(Case("vmul", "reduce", [(np.full(70, 3, np.int64), "-")]))
    cs.append(Case("sum_reduce", "reduce", [(np.full(40, 100, np.int8),
                                             "-")]))
    # NaN through NumPy-style maximum/minimum, wherever it is
    for pos in (0, 3, 7, 8, 63, 64, 199):
        x = ints((200,), np.float64, -50, 50, rng)
        x[pos] = np.nan
        for kern in ("nanmax", "nanmin"):
            cs.append(Case(kern, "reduce", [(x, "-")]))
            cs.append(Case(kern, "reduce", [(x.reshape(10, 20), "-")],
                           "list:1"))
            cs.append(Case(kern, "reduce", [(x.reshape(10, 20), "-")],
                           "list:0"))
    x = np.array([1.0, np.inf, -np.inf, 2.0])
    cs.append(Case("nanmax", "reduce", [(x, "-")]))
    cs.append(Case("vadd", "reduce", [(x, "-")]))
    x32 = ints((50,), np.float32, rng=rng)
    x32[10] = np.nan
    cs.append(Case("nanmin", "reduce", [(x32, "-")]))
    # initial=, identities and empty inputs
    E = [np.zeros((0,), np.float64), np.zeros((3, 0), np.float64),
         np.zeros((0, 3), np.float64)]
    for e in E:
        for kern in ("vadd", "vmul", "add_noid", "pymax", "sum_reduce"):
            for axes in ("default", "none", "list:-1", "list:"):
                if kern == "add_noid" and axes == "none" and e.ndim > 1:
                    continue
                cs.append(Case(kern, "reduce", [(e, "-")], axes))
                cs.append(Case(kern, "reduce", [(e, "-")], axes,
                               initial=("float64", 5.0)))
        cs.append(Case("vadd", "accumulate", [(e, "-")]))
    for kern in ("vadd", "pymax", "pymin", "sum_reduce", "max_reduce"):
        cs.append(Case(kern, "reduce", [(F4, "-")], "list:1,3",
                       initial=("float64", 3.0)))
        cs.append(Case(kern, "reduce", [(F4, "-")], "none", True,
                       initial=("float64", -100.0)))
    cs.append(Case("max_reduce", "reduce",
                   [(ints((9,), np.int64, -9, -1, rng), "-")],
                   initial=("int64", -50)))
    # 0-d inputs
    z = np.array(7.0)
    for axes in ("default", "none", "list:", "list:0"):
        cs.append(Case("vadd", "reduce", [(z, "-")], axes))
        cs.append(Case("sum_reduce", "reduce", [(z, "-")], axes))
    cs.append(Case("vadd", "accumulate", [(z, "-")]))
    # axes errors (NumPy's messages)
    for axes in ("list:4", "list:-5", "list:0,0", "list:1,-3", "list:0,0,9"):
        cs.append(Case("vadd", "reduce", [(F4, "-")], axes))
    cs.append(Case("add_noid", "reduce", [(F4, "-")], "list:0,1"))
    cs.append(Case("add_noid", "reduce", [(F4, "-")], "none"))
    cs.append(Case("vadd", "accumulate", [(F4, "-")], "list:0,1"))
    cs.append(Case("vadd", "accumulate", [(F4, "-")], "none"))
    cs.append(Case("vadd", "accumulate", [(F4, "-")], "list:7"))
    # accumulate along each axis, views
    for view in ("-", "S:::-1,1:,:,::2", "T"):
        for axes in ("default", "list:1", "list:2", "list:-1"):
            cs.append(Case("vadd", "accumulate", [(A4, view)], axes))
    cs.append(Case("vadd", "accumulate", [(F4[0, 0, 0], "-")], "none"))
    cs.append(Case("lazy_add", "accumulate", [(A4, "-")], "list:3"))
    cs.append(Case("lazy_add", "reduce", [(A4, "-")], "list:2"))
    cs.append(Case("lazy_add", "reduce", [(F4[1, 2, :, 3], "-")], "none"))
    cs.append(Case("lazy_add", "reduce", [(F4, "-")], "list:1,2"))
    # outer
    a = ints((3,), np.float64, rng=rng)
    b = ints((2, 4), np.float64, rng=rng)
    for kern in ("hyp", "sub", "vadd"):
        cs.append(Case(kern, "outer", [(a, "-"), (b, "-")]))
        cs.append(Case(kern, "outer", [(b, "T"), (a, "S:::-1")]))
    cs.append(Case("sub", "outer", [(np.array(2.0), "-"), (a, "-")]))
    cs.append(Case("vadd", "outer", [(a, "-"), (np.zeros((0, 2)), "-")]))
    return cs


# ---- the file --------------------------------------------------------

def fmt_val(v, dt):
    if dt.kind == "f":
        return repr(float(v))
    if dt.kind == "b":
        return "1" if v else "0"
    return str(int(v))


def fmt_shape(shape):
    return "x".join(str(s) for s in shape) if len(shape) else "-"


def fmt_array(a):
    a = np.asarray(a)
    return ["%s %s" % (a.dtype.name, fmt_shape(a.shape)),
            "data " + " ".join(fmt_val(v, a.dtype) for v in a.ravel())]


def render(mod, cases):
    lines = ["# reductions against Numba/NumPy: tests/e2e/"
             "run_reduce_oracle.py --write (format there)"]
    for i, c in enumerate(cases):
        init = "-" if c.initial is None else "%s:%r" % c.initial
        lines.append("case %d %s %s %s %d %s" % (i, c.kernel, c.method,
                                               c.axes, c.keepdims, init))
        for base, view in c.inputs:
            hdr, data = fmt_array(base)
            lines.append("in %s %s" % (hdr, view))
            lines.append(data)
        res, err = expected(mod, c)
        if err is not None:
            lines.append("err %s %s" % err)
        else:
            hdr, data = fmt_array(res)
            lines.append("out " + hdr)
            lines.append(data)
    return "\n".join(lines) + "\n"


# ---- end to end through `ufjit call` ------------------------------------

def cli_case(ufjit, tmp, mod, c, i, verbose):
    files = []
    for j, (base, view) in enumerate(c.inputs):
        a = view_of(base, view)
        path = os.path.join(tmp, "in%d_%d.npy" % (i, j))
        np.save(path, np.ascontiguousarray(a) if a.ndim else a)
        files.append(path)
    out = os.path.join(tmp, "out%d.npy" % i)
    cmd = [ufjit, "call", KFILE, c.kernel] + files + ["-o", out]
    if c.kernel not in REDUCE_NP:
        cmd += ["--method", c.method]
    if c.axes == "none":
        cmd += ["--axis", "none"]
    elif c.axes.startswith("list:"):
        cmd += ["--axis", c.axes[5:]]
    if c.keepdims:
        cmd.append("--keepdims")
    if c.initial is not None:
        cmd += ["--initial", "%s:%r" % c.initial]
    r = subprocess.run(cmd, capture_output=True, text=True)
    res, err = expected(mod, c)
    where = "case %d (%s %s %s): %s" % (i, c.kernel, c.method, c.axes,
                                         " ".join(cmd[2:]))
    if err is not None:
        if r.returncode != 1 or err[1] not in r.stderr:
            return "%s\n  want error %r, got exit %d: %s" % (
                where, err[1], r.returncode, r.stderr.strip())
        return None
    if r.returncode != 0:
        return "%s\n  exit %d: %s" % (where, r.returncode, r.stderr.strip())
    got = np.load(out)
    if got.dtype != res.dtype or got.shape != res.shape or not \
            np.array_equal(got, res, equal_nan=res.dtype.kind in "fc"):
        return "%s\n  want %r\n  got  %r" % (where, res, got)
    if verbose:
        print("ok", where)
    return None


def accuracy(ufjit, tmp):
    """Float sums of 1e6+ elements: error against math.fsum at most about
    NumPy's (both pairwise)."""
    rng = np.random.RandomState(SEED + 1)
    fails = []
    data = {
        "normal_f8": rng.standard_normal(1_000_003),
        "mixed_f8": rng.standard_normal(2_000_000) *
        10.0 ** rng.randint(-8, 9, 2_000_000),
        "uniform_f4": rng.random_sample(1_500_001).astype(np.float32),
        "normal_f4": rng.standard_normal(1_000_000).astype(np.float32),
    }
    for name, x in data.items():
        for view in ("", "strided"):
            v = x[::2] if view else x
            path = os.path.join(tmp, "acc_%s%s.npy" % (name, view))
            np.save(path, np.ascontiguousarray(v) if not view else v.copy())
            src = v if not view else v.copy()
            out = os.path.join(tmp, "acc_out.npy")
            r = subprocess.run([ufjit, "call", KFILE, "vadd", path,
                                "--method", "reduce", "-o", out],
                               capture_output=True, text=True)
            if r.returncode != 0:
                fails.append("accuracy %s: %s" % (name, r.stderr))
                continue
            ours = np.load(out)[()]
            exact = math.fsum(src.astype(np.float64))
            exact_t = src.dtype.type(exact)
            ref = np.add.reduce(src)
            err_ours = abs(float(ours) - exact)
            err_np = abs(float(ref) - exact)
            ulp = float(np.spacing(np.abs(exact_t)))
            naive = abs(float(np.cumsum(src)[-1]) - exact)
            print("accuracy %-11s %-7s |ufjit-fsum| %.3g  |numpy-fsum| %.3g"
                  "  |sequential-fsum| %.3g  (ulp %.3g)"
                  % (name, view or "contig", err_ours, err_np, naive, ulp))
            if err_ours > 2 * err_np + 4 * ulp:
                fails.append("accuracy %s%s: ufjit error %g > NumPy's %g"
                             % (name, view, err_ours, err_np))
    return fails


# ---- timings (not a test) --------------------------------------------

def bench(lib_path):
    import ctypes as C
    import time
    lib = C.CDLL(lib_path)
    err = C.create_string_buffer(4096)

    class Opts(C.Structure):
        _fields_ = [("size", C.c_size_t), ("target", C.c_char_p),
                    ("casting", C.c_int), ("casting_set", C.c_bool),
                    ("where", C.c_void_p), ("num_threads", C.c_int),
                    ("axes_mode", C.c_int), ("naxes", C.c_int),
                    ("axes", C.POINTER(C.c_int)), ("keepdims", C.c_bool),
                    ("initial", C.c_void_p), ("gufunc_nops", C.c_int),
                    ("gufunc_naxes", C.c_void_p),
                    ("gufunc_axes", C.c_void_p)]

    for name, res in (("uf_context_new", C.c_void_p),
                      ("uf_module_load", C.c_void_p),
                      ("uf_module_get", C.c_void_p),
                      ("uf_array_wrap", C.c_void_p),
                      ("uf_array_data", C.c_void_p),
                      ("uf_reduce", C.c_int)):
        getattr(lib, name).restype = res
    ctx = lib.uf_context_new(err)
    mod = lib.uf_module_load(C.c_void_p(ctx), KFILE.encode(), err)
    f = lib.uf_module_get(C.c_void_p(mod), b"vadd", err)
    f8 = C.c_int()
    lib.uf_dtype_from_name(b"float64", C.byref(f8), err)

    def wrap(a):
        shape = (C.c_int64 * a.ndim)(*a.shape)
        strides = (C.c_int64 * a.ndim)(*a.strides)
        return C.c_void_p(lib.uf_array_wrap(f8, a.ndim, shape, strides,
                                            C.c_void_p(a.ctypes.data), True,
                                            None, None, err))

    def ufjit_reduce(arr, axis):
        o = Opts(size=C.sizeof(Opts))
        ax = (C.c_int * 1)(axis if axis is not None else 0)
        o.axes_mode = 1 if axis is None else 2
        o.naxes, o.axes = 1, ax
        out = C.c_void_p()
        if lib.uf_reduce(C.c_void_p(f), arr, C.byref(out), C.byref(o), err):
            raise RuntimeError(err.raw[268:600].split(b"\0")[0].decode())
        return out

    def best(fn, reps=7):
        t = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            t.append(time.perf_counter() - t0)
        return min(t)

    rng = np.random.RandomState(1)
    x = rng.random_sample(10**8)
    X = wrap(x)
    lib.uf_array_release(ufjit_reduce(X, None))  # compile first
    t_np = best(lambda: np.add.reduce(x))
    t_uf = best(lambda: lib.uf_array_release(ufjit_reduce(X, None)))
    print("sum of 1e8 float64: ufjit %.1f ms (%.1f GB/s), NumPy %.1f ms "
          "(%.1f GB/s), ratio %.2fx" % (t_uf * 1e3, 0.8 / t_uf, t_np * 1e3,
                                        0.8 / t_np, t_np / t_uf))
    m = x.reshape(10**4, 10**4)
    M = wrap(m)
    for axis in (0, 1):
        t_np = best(lambda: np.add.reduce(m, axis=axis))
        t_uf = best(lambda: lib.uf_array_release(ufjit_reduce(M, axis)))
        print("1e4 x 1e4 float64, axis %d: ufjit %.1f ms, NumPy %.1f ms, "
              "ratio %.2fx" % (axis, t_uf * 1e3, t_np * 1e3, t_np / t_uf))
    lib.uf_array_release(M)
    lib.uf_array_release(X)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--write")
    p.add_argument("--run")
    p.add_argument("--check")
    p.add_argument("--cli")
    p.add_argument("--bench")
    p.add_argument("-v", action="store_true")
    args = p.parse_args()
    if args.bench:
        return bench(args.bench)
    mod = load_kernels()
    cases = make_cases()
    if args.write:
        with open(args.write, "w") as f:
            f.write(render(mod, cases))
        if args.run:
            sys.exit(subprocess.run([args.run, args.write]).returncode)
        return
    if args.check:
        with open(args.check) as f:
            old = f.read()
        new = render(mod, cases)
        if old != new:
            a, b = old.splitlines(), new.splitlines()
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    print("%s:%d differs from what Numba/NumPy give now:\n"
                          "  committed: %s\n  now:       %s"
                          % (args.check, i + 1, x[:200], y[:200]))
                    break
            else:
                print("%s: %d lines, now %d" % (args.check, len(a), len(b)))
            sys.exit(1)
        print("%s matches Numba %s / NumPy %s (%d cases)"
              % (args.check, numba.__version__, np.__version__, len(cases)))
        return
    if args.cli:
        fails = []
        # every eighth case (each is a process compiling its kernel), a
        # third of the reduce kernels' and every error case
        pick = [i for i, c in enumerate(cases)
                if i % 8 == 0 or (c.kernel in REDUCE_NP and i % 3 == 0) or
                expected(mod, c)[1] is not None]
        with tempfile.TemporaryDirectory() as tmp:
            with ThreadPoolExecutor(2) as pool:
                for f in pool.map(lambda i: cli_case(args.cli, tmp, mod,
                                                     cases[i], i, args.v),
                                  pick):
                    if f:
                        fails.append(f)
            fails += accuracy(args.cli, tmp)
        for f in fails[:20]:
            print("FAIL", f)
        print("%d cases through ufjit call, %d failed"
              % (len(pick), len(fails)))
        sys.exit(1 if fails else 0)
    p.error("give --write, --check or --cli")


if __name__ == "__main__":
    main()
