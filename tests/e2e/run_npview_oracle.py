#!/usr/bin/env python3
"""np.flip, np.fliplr, np.flipud, np.rot90, np.expand_dims, np.swapaxes,
np.moveaxis, np.transpose(a, axes), np.permute_dims and np.atleast_Nd
inside kernels (tests/kernels/host/npview.py) against Numba: each case
runs through `ufjit call` and through Numba on the same inputs; results
(each element of a returned tuple) are compared for dtype, shape and
values, exactly (views copy nothing; a float sum of a flipped array within
a few ulps), NaN equal to NaN; where Numba raises, ufjit fails with the
same exception, and what Numba refuses while compiling ufjit refuses at
the kernel's FILE:LINE:COL.

    run_npview_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u2, u8  # noqa: E402,E501
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, load_outputs,  # noqa: E402
                         materialise, options, run_ufjit_outs)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npview.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises; "unsupported": Numba computes it, ufjit refuses it at
    FILE:LINE:COL)."""
    special = f8(3, 4, special=True)
    return [
        # flip: every dtype and layout, 0-d (its element), empty, a view
        # written through, a view of a local returned, views in a loop
        ("flip", [f8(5)], None), ("flip", [f8(3, 4)], None),
        ("flip", [f4(2, 3, 4).F], None), ("flip", [special], None),
        ("flip", [i1(4, 5, lo=-128, hi=128).view("::2, ::-1")], None),
        ("flip", [u8(3, 4, lo=0, hi=99).view("1:, ::-2")], None),
        ("flip", [b1(7)], None), ("flip", [c16(2, 3)], None),
        ("flip", [c8(3).view("::-1")], None),
        ("flip", [f8(0)], None), ("flip", [f8(0, 3)], None),
        ("flip", [f8(3, 0)], None), ("flip_0d", [S("float32:2.5")], None),
        ("flip", [i2(2, 1, 3, 1)], None),
        ("flip_kw", [i4(3, 2)], None),
        ("flip_strides", [f8(3, 4)], None),
        ("flip_strides", [i2(3, 4).F], None),
        ("flip_sum", [f8(7, 3)], None), ("flip_sum", [f8(0)], None),
        ("flip_write", [f8(4)], None), ("flip_write", [f8(6).view("::-2")],
                                        None),
        ("flip_local", [S("6")], None), ("flip_local", [S("0")], None),
        ("flip_in_loop", [S("50")], None),
        ("flip_axis", [f8(3)], "TypingError"),
        ("flip_scalar", [S("2.5")], "TypingError"),
        # fliplr / flipud
        ("fliplr", [f8(3, 4)], None), ("fliplr", [i8(2, 3, 4).F], None),
        ("fliplr", [f4(4, 5).view("::-1, 1:")], None),
        ("fliplr", [f8(3, 0)], None),
        ("flipud", [f8(5)], None), ("flipud", [u1(3, 4, lo=0, hi=256).F],
                                    None),
        ("flipud", [b1(0, 2)], None),
        ("fliplr", [f8(4)], "TypingError"),
        ("flipud_0d", [S("1.5")], "TypingError"),
        # rot90: k mod 4 as Python's, N-d (the first two axes), views
        ("rot90", [f8(3, 4)], None), ("rot90", [i4(2, 3, 4)], None),
        ("rot90k", [f8(3, 4), S("0")], None),
        ("rot90k", [f8(3, 4), S("1")], None),
        ("rot90k", [f8(3, 4), S("2")], None),
        ("rot90k", [f8(3, 4), S("3")], None),
        ("rot90k", [f8(3, 4), S("-1")], None),
        ("rot90k", [f8(3, 4), S("-6")], None),
        ("rot90k", [f8(3, 4), S("uint8:7")], None),
        ("rot90k", [c8(2, 5).F, S("1")], None),
        ("rot90k", [f4(4, 6).view("::2, ::-1"), S("3")], None),
        ("rot90k", [f8(0, 3), S("1")], None),
        ("rot90k", [i8(2, 3, 2), S("-2")], None),
        ("rot90_kw", [f8(2, 3), S("3")], None),
        ("rot90", [f8(4)], "TypingError"),
        ("rot90_axes", [f8(2, 3)], "TypingError"),
        ("rot90_float_k", [f8(2, 3)], "TypingError"),
        # expand_dims: 0-d and 1-D keep the layout, axis wraps
        ("expand_dims", [f8(4), S("0")], None),
        ("expand_dims", [f8(4), S("1")], None),
        ("expand_dims", [f8(4), S("-1")], None),
        ("expand_dims", [f8(4), S("-2")], None),
        ("expand_dims_0d", [S("1.5"), S("0")], None),
        ("expand_dims_0d", [S("int16:3"), S("-1")], None),
        ("expand_dims", [i4(2, 3), S("1")], None),
        ("expand_dims", [f4(2, 3, 4).F, S("3")], None),
        ("expand_dims", [f8(3, 5).view("::-1, ::2"), S("-3")], None),
        ("expand_dims", [f8(3, 0), S("2")], None),
        ("expand_dims", [f8(2, 3), S("int8:-1")], None),
        ("expand_dims", [f8(2, 3), S("3")], "IndexError"),
        ("expand_dims", [f8(2, 3), S("-4")], "IndexError"),
        ("expand_dims_kw", [b1(2, 3)], None),
        ("expand_dims_tuple", [f8(3)], "TypingError"),
        ("expand_dims_bool", [f8(3)], "TypingError"),
        ("expand_dims_scalar", [S("1.5")], "TypingError"),
        # swapaxes / moveaxis: Numba's checks in its order
        ("swapaxes", [f8(2, 3), S("0"), S("1")], None),
        ("swapaxes", [f8(2, 3, 4), S("0"), S("-1")], None),
        ("swapaxes", [i2(2, 3, 4).F, S("1"), S("1")], None),
        ("swapaxes", [f8(4), S("0"), S("-1")], None),
        ("swapaxes", [c16(3, 4).view("::-1, ::2"), S("-2"), S("1")], None),
        ("swapaxes", [f8(2, 3), S("2"), S("0")], "ValueError"),
        ("swapaxes", [f8(2, 3), S("0"), S("-3")], "ValueError"),
        ("swapaxes_strides", [f8(2, 3, 4)], None),
        ("swapaxes_kw", [f8(2, 3)], None),
        ("moveaxis", [f8(2, 3, 4), S("0"), S("-1")], None),
        ("moveaxis", [f8(2, 3, 4), S("-1"), S("0")], None),
        ("moveaxis", [f8(2, 3, 4), S("1"), S("2")], None),
        ("moveaxis", [f8(2, 3, 4, 5).F, S("3"), S("1")], None),
        ("moveaxis", [f8(2, 3), S("1"), S("1")], None),
        ("moveaxis", [f8(2, 3), S("2"), S("0")], "ValueError"),
        ("moveaxis", [f8(2, 3), S("0"), S("2")], "ValueError"),
        ("moveaxis_tuple", [f8(2, 3)], "unsupported"),
        # transpose with axes, the method's forms, permute_dims
        ("transpose_axes", [f8(2, 3), S("1"), S("0")], None),
        ("transpose_axes", [f8(2, 3), S("0"), S("1")], None),
        ("transpose_axes", [f8(2, 3), S("-1"), S("-2")], None),
        ("transpose_axes", [f8(2, 3), S("1"), S("-1")], None),
        ("transpose_axes", [i1(3, 4).F, S("1"), S("0")], None),
        ("transpose_axes", [f8(2, 3), S("0"), S("0")], "ValueError"),
        ("transpose_axes", [f8(2, 3), S("0"), S("2")], "ValueError"),
        ("transpose_axes", [f8(2, 3), S("-3"), S("0")], "ValueError"),
        ("transpose3", [f8(2, 3, 4)], None),
        ("transpose3", [u2(2, 3, 4).view("::-1, :, 1:")], None),
        ("transpose_kw", [f4(2, 3, 4).F], None),
        ("transpose_none", [f8(2, 3)], None),
        ("transpose_strides", [f8(3, 5)], None),
        ("method_transpose", [f8(3, 2), S("1"), S("0")], None),
        ("method_transpose", [f8(3, 2), S("2"), S("0")], "ValueError"),
        ("method_transpose_args", [c16(2, 3, 4)], None),
        ("method_transpose_1d", [f8(4), S("0")], None),
        ("method_transpose_1d", [f8(4), S("1")], "ValueError"),
        ("transpose_wrong_count", [f8(2, 3)], "TypingError"),
        ("permute_dims", [f8(2, 3)], None),
        # no axes or None: reversed, a view (the strides reversed)
        ("permute_dims_reversed", [f8(2, 3, 4)], None),
        ("permute_dims_reversed", [f8(2, 3).F], None),
        ("permute_dims_reversed", [i4(5)], None),
        ("permute_dims_reversed", [c16(3, 2)], None),
        ("permute_dims_none_strides", [f8(2, 3)], None),
        ("permute_dims_none_strides", [f8(2, 3, 4).F], None),
        # atleast_Nd: layouts kept, several arrays a tuple
        ("atleast_0d", [S("1.5")], None), ("atleast_0d", [S("true")], None),
        ("atleast_1d", [f8(3)], None), ("atleast_1d", [f8(2, 3)], None),
        ("atleast_2d", [f8(3)], None), ("atleast_2d", [f8(2, 3).F], None),
        ("atleast_2d", [f8(6).view("::-2")], None),
        ("atleast_3d", [f8(3)], None), ("atleast_3d", [f8(0)], None),
        ("atleast_3d", [f8(2, 3)], None), ("atleast_3d", [b1(2, 3, 4)], None),
        ("atleast_3d", [c8(3, 2).F], None),
        ("atleast_2d_two", [f8(3), i4(2, 2)], None),
        ("atleast_3d_three_0d", [f8(3), f8(2, 3), S("2.0")], None),
        ("atleast_1d_scalar", [S("1.5")], "TypingError"),
        # ascontiguousarray / asfortranarray / asarray: the argument where
        # it fits (writes reach it), else a copy; numbers a new array
        ("ascontiguousarray", [f8(3, 4)], None),
        ("ascontiguousarray", [f8(3, 4).F], None),
        ("ascontiguousarray", [i2(4, 5).view("::-1, ::2")], None),
        ("ascontiguousarray", [f8(5)], None),
        ("ascontiguousarray", [S("2.5")], None),
        ("ascontiguousarray", [S("true")], None),
        ("ascontiguousarray", [S("int32:7")], None),
        ("ascontiguousarray", [f8(0, 3).view("::-1")], None),
        ("asfortranarray", [f8(3, 4)], None),
        ("asfortranarray", [c8(2, 3, 4).F], None),
        ("asfortranarray", [u1(4, 6, lo=0, hi=256).view("1:, ::3")], None),
        ("asfortranarray", [f8(5)], None), ("asfortranarray", [S("3")], None),
        ("ascontiguous_0d", [S("1.5")], None),
        ("ascontiguous_is_view", [f8(6)], None),
        ("asfortran_2d_copy", [f8(2, 3)], None),
        ("asfortran_2d_copy", [f8(2, 3).F], None),
        ("asarray", [f8(3, 4).view("::2, ::-1")], None),
        ("asarray", [S("2.5")], None), ("asarray", [S("uint8:200")], None),
        ("asarray", [S("false")], None), ("asarray", [S("1+2j")], None),
        ("asarray_f4", [f8(3, 4)], None), ("asarray_f4", [i8(3, 4).F], None),
        ("asarray_f4", [f8(3, 4).view("::-1")], None),
        ("asarray_f4", [S("7")], None),
        ("asarray_f4", [V("f8", [np.nan, np.inf, 1e300])], None),
        ("asarray_dtype_kw", [f8(5, lo=-100, hi=100)], None),
        ("asarray_dtype_kw", [b1(4)], None),
        ("asarray_same", [f8(3)], None),
        ("asarray_tuple", [S("1.5"), S("2.0")], None),
        ("asarray_tuple", [S("3"), S("4")], None),
        ("asarray_mixed_tuple", [S("1.5")], None),
        ("ascontiguous_tuple", [S("1.5")], "TypingError"),
        # roll: the flattened elements rotated into a new C array
        ("roll", [f8(7), S("2")], None), ("roll", [f8(7), S("-3")], None),
        ("roll", [f8(7), S("0")], None), ("roll", [f8(7), S("7")], None),
        ("roll", [f8(7), S("100")], None), ("roll", [f8(7), S("-100")], None),
        ("roll", [f8(3, 4), S("5")], None),
        ("roll", [i4(3, 4).F, S("5")], None),
        ("roll", [f4(4, 6, special=True).view("::-1, 1::2"), S("-7")], None),
        ("roll", [c16(2, 3, 2), S("3")], None),
        ("roll", [b1(9), S("true")], None),
        ("roll", [u1(5, lo=0, hi=256), S("uint8:3")], None),
        ("roll", [i8(6).view("::-2"), S("1")], None),
        ("roll", [f8(0), S("3")], None), ("roll", [f8(0, 4).F, S("3")], None),
        ("roll", [S("2.5"), S("4")], None), ("roll", [S("7"), S("-1")], None),
        ("roll_kw", [f8(5)], None),
        ("roll_local", [S("6"), S("2")], None),
        ("roll_axis", [f8(3, 4)], "TypingError"),
        ("roll_float_shift", [f8(3)], "TypingError"),
        # take: flat indices in C order, Numba's IndexError
        ("take", [f8(3, 4), S("5")], None),
        ("take", [f8(3, 4), S("-1")], None),
        ("take", [f8(3, 4), S("-12")], None),
        ("take", [f8(3, 4).F, S("uint8:7")], None),
        ("take", [i2(4, 5).view("::-1, ::2"), S("7")], None),
        ("take", [f8(3, 4), S("12")], "IndexError"),
        ("take", [f8(3, 4), S("-13")], "IndexError"),
        ("take", [f8(0), S("0")], "IndexError"),
        ("take", [c16(3, 4), i8(2, 3, lo=-12, hi=12)], None),
        ("take", [f4(5, special=True), i4(4, lo=-5, hi=5).F], None),
        ("take", [f8(3, 4).F, i8(6, lo=-12, hi=12).view("::-1")], None),
        ("take", [b1(6), u1(3, lo=0, hi=6)], None),
        ("take", [f8(3, 4), i8(0)], None),
        ("take", [f8(3, 4), V("i8", [0, 12])], "IndexError"),
        ("take", [f8(3, 4), f8(2)], "TypingError"),
        ("take_method", [f8(2, 3), S("4")], None),
        ("take_method", [i4(2, 3).F, i8(2, 2, lo=0, hi=6)], None),
        ("take_tuple", [f8(3, 4), S("1"), S("-2")], None),
        ("take_tuple", [f8(3, 4), S("1"), S("20")], "IndexError"),
        ("take_axis", [f8(3, 4), S("1")], "unsupported"),
        ("take_float", [f8(3, 4)], "TypingError"),
        # compositions and writes through views
        ("views_chain", [f8(3, 4)], None),
        ("views_chain", [f8(2, 3, 4).F], None),
        ("view_then_write", [f8(2, 3)], None),
    ]


def numba_result(fn, vals, r):
    """Numba's result as a list of arrays (one per element of a returned
    tuple), each of the dtype Numba typed it with (a float32 number comes
    back from Numba as a Python float)."""
    try:
        sig = fn.overloads[tuple(fn.typeof_pyval(v) for v in vals)].signature
        rt = sig.return_type
    except (KeyError, TypeError):
        rt = None
    if isinstance(r, tuple):
        elts = getattr(rt, "types", [None] * len(r))
        return [np.array(x, dtype=np.dtype(str(t))) if t is not None and
                not hasattr(t, "ndim") else as_array(x)
                for x, t in zip(r, elts)]
    if rt is not None and not hasattr(rt, "ndim"):
        return [np.array(r, dtype=np.dtype(str(rt)))]
    return [as_array(r)]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        tol = 1e-5 if got.dtype in (np.float32, np.complex64) else 1e-12
        return np.allclose(got, want, rtol=tol, atol=0, equal_nan=True)
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod = lazy_load(FILE)
    rec = Record(FILE)
    fails = n = 0
    warnings.simplefilter("ignore")
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-npview-") as tmp:
        for kernel, inputs, raises in cases():
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)
            probs, want = [], None

            def reference(raises=raises):
                probs, want = [], None
                try:
                    fn = getattr(mod(), kernel)
                    want = numba_result(fn, vals, fn(*vals))
                    if raises == "unsupported":
                        raises, want = "TypingError", None
                    elif raises:
                        probs.append("Numba does not raise")
                except Exception as e:  # noqa: BLE001
                    name = type(e).__name__
                    if (name in ("AssertionError", "UnboundLocalError") and
                            raises == "TypingError"):
                        pass  # Numba's typing fails so: refused compiling
                    elif name != raises:
                        probs.append(f"Numba raises {name}: {e}, the case "
                                     f"expects {raises}")
                return want, raises, probs
            want, raises, probs = rec.answer(
                rec.key(kernel, raises, vals), vals, reference)
            probs = list(probs)
            nout = len(want) if want else 1
            p, outs, cmd = run_ufjit_outs(opt.ufjit, FILE, kernel, args, nout,
                                          tmp, cid)
            mark = f"{FILE}:" if raises == "TypingError" else f"{raises}:"
            if raises:
                if p.returncode != 1 or mark not in p.stderr:
                    probs.append(f"ufjit did not raise {raises}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}\n  {cmd}")
            elif want is not None:
                for got, w in zip(load_outputs(outs), want):
                    if not same(got, w):
                        probs.append(f"ufjit {got.dtype} {got!r}, Numba "
                                     f"{w.dtype} {w!r}\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
    rec.close()
    print(f"{n - fails}/{n} npview cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
