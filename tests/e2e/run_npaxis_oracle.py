#!/usr/bin/env python3
"""Matrix products (tests/kernels/host/dot2d.py) and reductions over an
axis (tests/kernels/host/axis_reductions.py) against Numba: every case
runs through `ufjit call` and through Numba on the same inputs; results
are compared for dtype and shape, integers exactly, floats within a
tolerance (another order of additions; NaN where Numba has NaN), and
where Numba raises, ufjit must fail with the same exception (TypingError:
refused at compile time at the file's FILE:LINE:COL).

    run_npaxis_oracle.py UFJIT dot2d|axis [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import subprocess
import sys
import tempfile
import warnings

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import (S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8,  # noqa: E402
                    u1)
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

KERNELS = os.path.join(os.path.dirname(HERE), "kernels", "host")


def dot2d_cases():
    a34, b45 = f8(3, 4), f8(4, 5)
    return [
        ("dot", [a34, b45]), ("matmul", [a34, b45]), ("meth", [a34, b45]),
        ("dot", [f8(5, 3), f8(3)]), ("dot", [f8(3), f8(3, 4)]),
        ("matmul", [f8(5, 3), f8(3)]), ("meth", [f8(3), f8(3, 4)]),
        ("dot", [f8(1, 1), f8(1, 1)]), ("dot", [f8(8, 8), f8(8, 8)]),
        ("dot", [f8(70, 50), f8(50, 90)]),          # edge tiles
        ("dot", [f8(130, 300), f8(300, 21)]),       # k and m blocks
        ("dot", [f8(64, 64).F, f8(64, 64)]),        # F-order a
        ("dot", [f8(33, 17), f8(17, 40).F]),        # F-order b
        ("dot", [f8(40, 30).F, f8(30).view("::-1")]),
        ("dot", [f8(30).view("::2"), f8(15, 9).F]),
        ("dot", [f8(20, 30).view("::-1, ::3"), f8(10, 7)]),
        ("dot", [f8(0, 3), f8(3, 4)]), ("dot", [f8(3, 0), f8(0, 4)]),
        ("dot", [f8(3, 4), f8(4, 0)]), ("dot", [f8(0, 0), f8(0, 0)]),
        ("dot", [f8(3, 0), f8(0)]), ("dot", [f8(0), f8(0, 5)]),
        ("dot", [f8(4, 5, special=True), f8(5, 3)]),
        ("dot", [f8(6, 7), f8(7, special=True)]),
        ("dot", [f4(9, 11), f4(11, 13)]), ("dot", [f4(40, 70), f4(70, 3)]),
        ("dot", [f4(12), f4(12, 35)]),
        ("dot", [c16(4, 5), c16(5, 3)]), ("dot", [c8(3, 4), c8(4)]),
        ("matmul", [c16(3), c16(3, 2).F]),
        ("gram", [f8(6, 4)]), ("gram", [f8(50, 40)]),
        ("chain", [f8(5, 6), f8(6, 7)]),
        ("strided", [f8(9, 8), f8(8, 6)]),
        ("in_loop", [f8(5, 5), f8(5, 5), S("50")]),
        ("dot", [f8(3, 4), f8(3, 4)], "ValueError"),
        ("dot", [f8(3, 4), f8(3)], "ValueError"),
        ("dot", [f8(4), f8(3, 4)], "ValueError"),
        ("matmul", [f8(2, 2), f8(3, 2)], "ValueError"),
        ("int_dot", [i8(2, 2), i8(2, 2)], "TypingError"),
        ("int_dot", [i4(2, 3), i4(3)], "TypingError"),
        ("int_dot", [f8(2, 2), f4(2, 2)], "TypingError"),
        ("int_dot", [f8(2, 2, 2), f8(2, 2)], "TypingError"),
    ], [
        ("gu_matmul", [f8(3, 4), f8(4, 5)]),
        ("gu_matmul", [f8(2, 3, 4), f8(2, 4, 2)]),
    ]


def axis_cases():
    cases = []
    for k in ("0", "1", "2", "-1", "-2", "-3"):
        cases.append(("sum_axis", [i4(3, 4, 5), S(k)]))
    for a in (f8(6, 7), f8(6, 7).F, f8(9, 8).view("::-2, 1::3"),
              f4(5, 33), u1(4, 300), b1(3, 5), c16(4, 3), i8(0, 4),
              f8(4, 0), f8(5, 6, special=True)):
        for k in ("0", "1", "-1"):
            cases.append(("sum_axis", [a, S(k)]))
    cases += [
        ("sum_axis", [f8(7), S("0")]), ("sum_axis", [i4(5), S("-1")]),
        ("sum_axis", [f8(2, 3, 4, 5), S("2")]),
        # Numba 0.68 fails on an int32 axis (an LLVM type mismatch it
        # reports as ValueError): checked against NumPy instead
        ("sum_axis", [f8(2, 3, 4, 5), S("int32:1")], "numpy"),
        ("sum_pos", [f8(4, 5), S("1")]), ("sum_meth", [i8(4, 5), S("0")]),
        ("sum_meth_pos", [f8(300, 200)]), ("sum_meth_pos", [i4(3, 4, 2)]),
        ("sum_last", [f8(4, 130)]), ("sum_last", [f4(3, 2, 70)]),
        ("sum_of_sums", [f8(5, 4)]),
        ("sum_axis", [f8(3, 4), S("2")], "AxisError"),
        ("sum_axis", [f8(3, 4), S("-3")], "AxisError"),
        ("sum_axis", [f8(3), S("1")], "AxisError"),
        ("argmin_axis", [f8(3, 4), S("2")], "ValueError"),
        ("argmin_axis", [f8(3, 0), S("1")], "ZeroDivisionError"),
        ("argmin_axis", [f8(0), S("0")], "ValueError"),
        ("min_axis", [f8(3, 4)], "TypingError"),
        ("mean_axis", [f8(3, 4)], "TypingError"),
        ("float_axis", [f8(3, 4)], "TypingError"),
    ]
    for a in (f8(5, 6), i4(4, 5, 3), f8(6, 7, special=True), u1(3, 4).F,
              b1(4, 4), f8(9, 8).view("::-1, ::2"), f8(0, 3)):
        for k in ("0", "1", "-1"):
            # Numba divides by the axis's length (`size % m`)
            err = "ZeroDivisionError" if a.shape[int(k)] == 0 else None
            cases.append(("argmin_axis", [a, S(k)], err))
            cases.append(("argmax_meth", [a, S(k)], err))
    cases += [("argmin_axis", [f8(7), S("0")]),
              ("argmax_meth", [f8(7, special=True), S("-1")])]
    gu = [("gu_colsum", [f8(5, 4)]), ("gu_colsum", [f8(3, 6, 2)]),
          ("gu_cumsum", [f8(5, 4)]), ("gu_cumsum", [f8(3, 6, 2)]),
          ("gu_sum_tuple", [f8(3, 4, 5)]), ("gu_sum_tuple", [f8(2, 0, 3)])]
    return cases + sum_dtype_cases() + cumsum_cases() + round_cases(), gu


def sum_dtype_cases():
    """np.sum with dtype= and tuples of axes, as Numba 0.68's array_sum."""
    i1big = i1(4, 5, lo=-128, hi=128)
    views = (f8(6, 7).F, f8(9, 8).view("::-2, 1::3"), f8(0, 4), f8(4, 0),
             f8(5, 6, special=True), i4(3, 4), u1(4, 300), b1(3, 5))
    cases = []
    for a in views:
        for k in ("0", "-1"):
            cases.append(("sum_dtype", [a, S(k)]))
    for k in ("0", "1", "-1"):
        cases.append(("sum_meth_dtype_i1", [i1big, S(k)]))   # wraps in int8
        cases.append(("sum_dtype_bool", [f8(4, 3, special=True), S(k)]))
    cases += [
        ("sum_dtype", [f8(7), S("0")]), ("sum_dtype", [f8(7), S("-1")]),
        ("sum_dtype", [f8(7), S("1")], "AxisError"),
        ("sum_meth_dtype_u1", [i8(100, lo=0, hi=1000)]),
        ("sum_meth_dtype_u1", [i8(4, 5).F]),
        ("sum_pos_dtype", [f8(5, 3)]), ("sum_pos_dtype", [i4(2, 3, 4)]),
        ("sum_dtype_bool", [V("f8", [0.0, -0.0, 0.0, 0.0, 0.0, 1.0], (2, 3)),
                            S("1")]),
        ("sum_dtype_bool", [b1(3, 4).view("::-1"), S("0")]),
        ("sum_dtype_c16", [f4(3, 5)]), ("sum_dtype_c16", [c8(2, 3)]),
        ("sum_dtype_of", [i4(4, 3), f4(2)]),
        ("sum_dtype_of", [f8(4, 3), u1(2)]),
        ("sum_none", [f8(3, 4)]), ("sum_none", [i4(2, 3, 2)]),
        ("sum_none_dtype", [f8(3, 4)]),
        ("sum_tuple01", [f8(2, 3)]), ("sum_tuple01", [f8(2, 3, 4)]),
        ("sum_tuple01", [i4(3, 2, 5).view(":, ::-1, 1::2")]),
        ("sum_tuple01", [f8(0, 3, 2)]), ("sum_tuple01", [f8(3)], "AxisError"),
        ("sum_tuple01", [f8(2, 1, 2, special=True)]),
        ("sum_tuple01", [b1(3, 4, 2)]), ("sum_tuple01", [u1(20, 30, 2)]),
        ("sum_tuple_neg", [f8(2, 3, 4)]), ("sum_tuple_neg", [f8(3, 4, 5).F]),
        ("sum_tuple_neg", [f8(3, 4)], "AxisError"),
        ("sum_tuple1", [f8(4, 5)]), ("sum_tuple1", [f8(4)], "AxisError"),
        ("sum_tuple1", [i8(2, 3, 4)]),
        ("sum_no_axes", [f8(3, 4)]), ("sum_no_axes", [f8(3, 4).F]),
        ("sum_no_axes", [i4(5, 6).view("::2, ::-3")]),
        ("sum_no_axes_dtype", [i4(3, 4)]), ("sum_no_axes_dtype", [f8(0, 2)]),
        ("sum_0d", [S("2.5"), S("0")], "AxisError"),
        ("sum_0d_whole", [S("2.5")]),
        ("sum_number", [S("7")]), ("sum_number", [S("true")]),
        ("sum_number_plain", [S("int8:-3")]),
        ("sum_number_plain", [S("2.5")]),
        ("sum_dtype_str", [f8(3)], "AttributeError"),
        ("sum_dtype_float", [f8(3, 2)], "AttributeError"),
        ("sum_c_to_f", [c16(3, 2)], "TypingError"),
        ("sum_bool_axis", [f8(3, 2)], "TypingError"),
        ("sum_mixed_tuple", [f8(3, 2)], "TypingError"),
        ("sum_keepdims", [f8(3, 2)], "TypingError"),
        ("prod_axis", [f8(3, 2)], "TypingError"),
        ("all_axis", [f8(3, 2)], "TypingError"),
        ("nansum_axis", [f8(3, 2)], "TypingError"),
        ("max_meth_axis", [f8(3, 2)], "TypingError"),
        ("argmin_tuple", [f8(3, 2)], "TypingError"),
    ]
    for i, j in (("0", "1"), ("1", "0"), ("0", "2"), ("2", "-3"),
                 ("-1", "1")):
        for a in (f8(2, 3, 4), f8(3, 4, 5).F, i4(4, 3, 5).view("::-1"),
                  f8(3, 0, 2)):
            cases.append(("sum_tuple_rt", [a, S(i), S(j)]))
        cases.append(("sum_tuple_rt_dtype", [i8(3, 4, 5), S(i), S(j)]))
    cases += [
        ("sum_tuple_rt", [f8(2, 3), S("0"), S("1")]),
        ("sum_tuple_rt", [f8(2, 3), S("1"), S("-2")]),
        ("sum_tuple_rt", [f8(2, 3, 4), S("1"), S("1")], "ValueError"),
        ("sum_tuple_rt", [f8(2, 3, 4), S("1"), S("-2")], "ValueError"),
        ("sum_tuple_rt", [f8(2, 3), S("0"), S("0")], "ValueError"),
        ("sum_tuple_rt", [f8(2, 3, 4), S("3"), S("0")], "AxisError"),
        ("sum_tuple_rt", [f8(2, 3, 4), S("0"), S("-4")], "AxisError"),
        ("sum_tuple3", [f8(2, 3, 4), S("0"), S("1"), S("2")]),
        ("sum_tuple3", [f8(2, 3, 4, 2), S("3"), S("-3"), S("0")]),
        ("sum_tuple3", [f8(2, 3), S("0"), S("1"), S("1")], "ValueError"),
        ("sum_tuple3", [f8(2, 3), S("0"), S("0"), S("5")], "AxisError"),
        ("sum_tuple3", [f8(2, 3, 4), S("2"), S("1"), S("2")], "ValueError"),
    ]
    return cases


def cumsum_cases():
    """np.cumsum / a.cumsum with axis= (Numba's _numpy_cumsum_axis)."""
    cases = []
    for a in (f8(4, 5), f8(4, 5).F, f8(9, 8).view("::-2, 1::3"),
              i4(2, 3, 4), u1(30, 40, lo=0, hi=256), b1(4, 3),
              c16(3, 4), f8(0, 3), f8(3, 0), f8(5, 6, special=True)):
        for k in ("0", "1", "-1"):
            cases.append(("cumsum_axis", [a, S(k)]))
    for k in ("0", "1", "2", "-2"):
        cases.append(("cumsum_meth", [f8(3, 4, 5), S(k)]))
        cases.append(("cumsum_dtype_i1", [i1(3, 4, 5, lo=-128, hi=128),
                                          S(k)]))
    cases += [
        ("cumsum_axis", [f8(7), S("0")]), ("cumsum_axis", [i4(6), S("-1")]),
        ("cumsum_axis", [f8(7), S("1")], "ValueError"),
        ("cumsum_axis", [f8(3, 4), S("2")], "ValueError"),
        ("cumsum_axis", [f8(3, 4), S("-3")], "ValueError"),
        ("cumsum_meth", [f8(300, 200), S("0")]),
        ("cumsum_dtype_bool", [V("f8", [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
                                 (2, 3)), S("0")]),
        ("cumsum_dtype_bool", [b1(4, 5).view("::-1"), S("1")]),
        ("cumsum_none", [f8(3, 4)]), ("cumsum_none", [i4(3, 4).F]),
        ("cumsum_0d", [S("2.5")], "UnboundLocalError"),
        ("cumsum_tuple", [f8(3, 4)], "TypingError"),
        ("cumsum_c_to_f", [c16(3, 4)], "TypingError"),
        ("cumsum_dtype_str", [f8(3, 4)], "AttributeError"),
        ("cumprod_axis", [f8(3, 4)], "TypingError"),
        ("cumprod_meth_axis", [f8(3, 4)], "TypingError"),
    ]
    return cases


def round_cases():
    """np.round / np.around into out= (Numba's impl_np_round)."""
    return [
        ("round_out", [f8(3, 4), f8(3, 4)]),
        ("round_out", [f8(3, 4, special=True), f8(3, 4)]),
        ("round_out", [f8(3, 4), f4(3, 4)]),
        ("round_out", [f4(3, 4), f8(3, 4)]),
        ("round_out", [f8(3, 4, lo=-1000, hi=1000), i4(3, 4)]),
        ("round_out", [i8(3, 4, lo=-1000, hi=1000), f8(3, 4)]),
        ("round_out", [i8(3, 4, lo=-1000, hi=1000), i2(3, 4)]),
        ("round_out", [f8(3, 4), c16(3, 4)]),
        ("round_out", [c16(3, 4), c8(3, 4)]),
        ("round_out", [f8(3, 4), b1(3, 4)]),
        ("round_out", [f8(4, 6).F, f8(4, 6)]),
        ("round_out", [f8(8, 6).view("::-2, ::2"), f8(4, 3).F]),
        ("round_out", [f8(0, 3), f8(0, 3)]),
        ("round_out", [f8(3, 4), f8(4, 3)], "ValueError"),
        ("round_out", [f8(3, 4), f8(3, 5)], "ValueError"),
        ("round_out", [f8(3, 4), f8(12)], "TypingError"),
        ("round_out", [c16(3), f8(3)], "TypingError"),
        ("round_out", [b1(3), f8(3)], "TypingError"),
        ("round_out_kw", [f8(5), f8(5), S("0")]),
        ("round_out_kw", [f8(5), f8(5), S("-1")]),
        ("round_out_kw", [f8(5, lo=-1e6, hi=1e6), f8(5), S("-3")]),
        ("round_out_kw", [f8(2, 3), f8(2, 3), S("3")]),
        ("round_out_then", [f8(4, 5), f8(4, 5)]),
        ("round_in_place", [f8(4, 5)]),
        ("round_number_out", [S("2.345"), f8(3)]),
        ("round_number_out", [S("2.745"), i8(3)]),
        ("round_number_out", [S("2.345"), f8(2, 2)]),
        ("round_number_out", [S("17"), f8(3)]),
        ("round_number_out_0d", [S("2.5")], "TypingError"),
        ("round_out_number", [f8(3), S("2.0")], "TypingError"),
        ("round_out_none", [f8(3, 4)]),
        ("round_meth_out", [f8(3), f8(3)], "TypingError"),
    ]


# CUDA kernels cannot allocate: a matrix product or a sum over an axis of
# an N-d array in one is refused at its FILE:LINE:COL (cudasim runs the
# CUDA target's front end and lowering without a GPU).
CUDA_REFUSED = '''import numpy as np
from numba import cuda


@cuda.jit
def mm(a, b, out):
    c = a @ b
    out[0] = c[0, 0]


@cuda.jit
def colsum(a, b, out):
    r = a.sum(axis=0)
    out[0] = r[0]
'''
REFUSED_AT = {"mm": ("7:9", "the @ operator allocates an array"),
              "colsum": ("13:9", "array.sum allocates an array")}


def check_cuda_refusals(ufjit, tmp, filt, verbose):
    """(cases, failures) of the CUDA refusals."""
    src = os.path.join(tmp, "cuda_refused.py")
    with open(src, "w") as f:
        f.write(CUDA_REFUSED)
    m = os.path.join(tmp, "m.npy")
    np.save(m, np.ones((2, 2)))
    o = os.path.join(tmp, "o.npy")
    np.save(o, np.zeros(1))
    n = fails = 0
    for kernel, (where, frag) in REFUSED_AT.items():
        if filt not in "refused " + kernel:
            continue
        n += 1
        env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
        argv = [ufjit, "launch", src, kernel, "--grid", "1", "--block", "1",
                m, m, o, "--target", "cudasim"]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                           env=env)
        if p.returncode != 1 or frag not in p.stderr or \
                f"{src}:{where}:" not in p.stderr:
            fails += 1
            print(f"FAIL refused {kernel} on cudasim: exit {p.returncode}, "
                  f"want {src}:{where}: {frag!r}; got {p.stderr.strip()}")
        elif verbose:
            print(f"ok   refused {kernel} on cudasim")
    return n, fails


# What Numba raises while compiling: ufjit refuses the same calls at the
# file's FILE:LINE:COL (Numba's AttributeError for dtype='f4' or
# dtype=float, where it reads dtype.dtype, and UnboundLocalError for
# np.cumsum of a 0-d array with an axis are failures of its compiler).
COMPILE_TIME = ("TypingError", "AttributeError", "UnboundLocalError")


def numba_scalar_dtype(fn, vals):
    """The dtype of the number Numba's fn returned for vals (a Python
    number has lost it: the sum of int8s into dtype=np.int8 comes back
    as an int), or None."""
    try:
        import numba
        from numba.np.numpy_support import as_dtype
        key = tuple(numba.typeof(v) for v in vals)
        rt = fn.overloads[key].signature.return_type
        if isinstance(rt, (numba.types.Number, numba.types.Boolean)):
            return as_dtype(rt)
    except Exception:  # noqa: BLE001
        pass
    return None


FILES = {"dot2d": ("dot2d.py", dot2d_cases),
         "axis": ("axis_reductions.py", axis_cases)}


def agree(got, want, inputs):
    """Same dtype and shape; ints exactly, floats within a tolerance
    scaled by the magnitudes summed (another order of additions)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind not in "fc":
        return got.tobytes() == want.tobytes()
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return False
    eps = np.finfo(got.dtype).eps
    scale = max([1.0] + [float(np.nanmax(np.abs(x)))
                         for x in inputs if isinstance(x, np.ndarray) and
                         x.size and np.isfinite(np.abs(x)).any()
                         for x in [np.where(np.isfinite(x), x, 0)]])
    n = max([1] + [x.size for x in inputs if isinstance(x, np.ndarray)])
    ok = np.isnan(want) | np.isclose(got, want, rtol=64 * eps,
                                     atol=8 * eps * n * scale * scale)
    with np.errstate(invalid="ignore"):
        inf = np.isinf(want)
    ok |= inf & (got == want)
    return bool(ok.all())


def main():
    opt = options(__doc__, {"dest": "which", "choices": sorted(FILES)})
    if opt is None:
        return 77
    name, make = FILES[opt.which]
    path = os.path.join(KERNELS, name)
    mod, rec = lazy_load(path), Record(path)
    njit, gu = make()
    fails = n = 0
    warnings.simplefilter("ignore")
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-npaxis-") as tmp:
        for kind, lst in (("njit", njit), ("gu", gu)):
            for c in lst:
                kernel, inputs = c[0], c[1]
                raises = c[2] if len(c) > 2 else None
                numpy_ref = raises == "numpy"
                if numpy_ref:
                    raises = None
                seen[kernel] = seen.get(kernel, 0) + 1
                cid = f"{kernel}#{seen[kernel]}"
                if opt.filter not in cid:
                    continue
                n += 1
                vals, args = materialise(cid, inputs, tmp)

                def reference():
                    try:
                        fn = getattr(mod(), kernel)
                        if numpy_ref:
                            fn = getattr(np, kernel.split("_")[0])
                        want = as_array(fn(*vals))
                        if want.ndim == 0 and not numpy_ref:
                            dt = numba_scalar_dtype(fn, vals)
                            if dt is not None:
                                want = want.astype(dt)
                        return want, ["Numba does not raise"] if raises \
                            else []
                    except Exception as e:  # noqa: BLE001
                        if type(e).__name__ != raises:
                            return None, [f"Numba raises {type(e).__name__}"
                                          f", the case expects {raises}"]
                        return None, []
                want, probs = rec.answer(
                    rec.key(kernel, (raises, numpy_ref), vals), vals,
                    reference)
                probs = list(probs)
                targets = ("cpu", "parallel") if kind == "gu" else ("cpu",)
                for target in targets:
                    p, out, cmd = run_ufjit(opt.ufjit, path, kernel, args,
                                            tmp, cid, target)
                    mark = f"{path}:" if raises in COMPILE_TIME else \
                        f"{raises}:"
                    if raises:
                        if p.returncode != 1 or mark not in p.stderr:
                            probs.append(f"ufjit did not raise {raises}: "
                                         f"exit {p.returncode} "
                                         f"{p.stderr.strip()}\n  {cmd}")
                    elif p.returncode != 0:
                        probs.append(f"ufjit exited {p.returncode}: "
                                     f"{p.stderr.strip()}\n  {cmd}")
                    elif want is not None:
                        got = np.load(out)
                        if not agree(got, want, vals):
                            probs.append(f"{target}: ufjit {got.dtype} "
                                         f"{got.shape} {got!r}, Numba "
                                         f"{want.dtype} {want.shape} "
                                         f"{want!r}\n  {cmd}")
                if probs:
                    fails += 1
                    print(f"FAIL {cid}: " + "; ".join(probs))
                elif opt.verbose:
                    print(f"ok   {cid}")
        if opt.which == "dot2d":
            rn, rf = check_cuda_refusals(opt.ufjit, tmp, opt.filter,
                                         opt.verbose)
            n, fails = n + rn, fails + rf
    rec.close()
    print(f"{n - fails}/{n} {opt.which} cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
