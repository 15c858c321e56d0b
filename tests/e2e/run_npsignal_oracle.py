#!/usr/bin/env python3
"""np.convolve, np.correlate and the windows np.bartlett, np.blackman,
np.hamming, np.hanning inside kernels (tests/kernels/host/npsignal.py)
against Numba (windows within 4 ulps of 1: cos is the C library's): each case runs through `ufjit call` and
through Numba on the same inputs; dtype and shape must agree; integers,
bools and the products of a float with an integer operand (Numba adds
them one by one, as ufjit does) exactly, NaN equal to NaN; where both
operands are floats Numba calls BLAS's dot, which adds in its own order:
each output within (n + 2) ulps of the sum of |products| (n the shorter
length), ufjit's stated bound. Where Numba raises, ufjit fails with the
same exception; what Numba refuses compiling ufjit refuses at the
kernel's FILE:LINE:COL.

    run_npsignal_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npsignal.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "refused": Numba's typing fails with an AttributeError or
    TypeError where ufjit refuses compiling)."""
    nan = V("f8", [1.0, np.nan, 2.5, -np.inf, 0.5, np.inf, -1.0])
    big = V("i8", [2**62, -2**62 + 7, 2**40 + 3, -5])
    ub = V("u8", [2**63 + 5, 2**64 - 1, 3])
    out = []
    for k in ("convolve", "convolve_valid", "convolve_same", "correlate",
              "correlate_full", "correlate_same"):
        out += [
            (k, [f8(7), f8(3)], None), (k, [f8(3), f8(7)], None),
            (k, [f8(8), f8(4)], None), (k, [f8(4), f8(8)], None),
            (k, [f8(1), f8(1)], None), (k, [f8(5), f8(5)], None),
            (k, [f8(40), f8(19)], None), (k, [f8(19), f8(40)], None),
            (k, [f4(33), f4(9)], None), (k, [f4(6), f8(11)], None),
            (k, [c16(9), c16(4)], None), (k, [c16(4), c16(9)], None),
            (k, [c8(6), f4(3)], None), (k, [f8(3), c16(6)], None),
            (k, [c8(5), c16(2)], None),
            (k, [f8(20).view("::-3"), f8(6).view("1::2")], None),
            (k, [i4(9), i4(4)], None), (k, [i4(4), i4(9)], None),
            (k, [i1(12, lo=-128, hi=128), i1(5, lo=-128, hi=128)], None),
            (k, [u1(8, lo=0, hi=256), u1(3, lo=0, hi=256)], None),
            (k, [u1(8, lo=0, hi=256), i1(3, lo=-128, hi=128)], None),
            (k, [b1(9), b1(4)], None), (k, [b1(4), b1(9)], None),
            (k, [b1(6), u1(3, lo=0, hi=256)], None),
            (k, [u1(6, lo=0, hi=256), b1(3)], None),
            (k, [big, i8(3)], None), (k, [ub, i8(2)], None),
            (k, [ub, u8(2, lo=0, hi=2**40)], None),
            (k, [f4(7), i1(3, lo=-128, hi=128)], None),
            (k, [i4(3), f4(8)], None), (k, [f8(6), i8(4)], None),
            (k, [i8(9), f4(4)], None), (k, [c8(5), i2(3)], None),
            (k, [u8(3, lo=0, hi=99), c16(7)], None),
            (k, [nan, f8(3)], None), (k, [f8(3), nan], None),
            (k, [nan, i4(2)], None),
            (k, [f8(0), f8(3)], "ValueError"),
            (k, [f8(3), f8(0)], "ValueError"),
            (k, [i4(0), f8(0)], "ValueError"),
            (k, [f8(3, 4), f8(3)], "TypingError"),
            (k, [f8(3), f8(2, 2)], "TypingError"),
        ]
    return out + [
        ("convolve_kw", [f8(6), f8(3)], None),
        ("convolve_bad_mode", [f8(6), f8(3)], "ValueError"),
        ("convolve_bad_mode", [f8(0), f8(3)], "ValueError"),
        ("correlate_bad_mode", [f8(6), c16(3)], "ValueError"),
        ("correlate_in_loop", [f8(12), f8(5)], None),
        ("convolve_scalar", [f8(4), S("2.0")], "refused"),
        ("convolve_scalar", [S("float64:2.0"), S("2.0")], "TypingError"),
        ("correlate_axis", [f8(4), f8(2)], "TypingError"),
    ] + [(w, [S(m)], "refused" if m.startswith("uint") and
          w in ("hamming", "hanning") else None)
         for w in ("bartlett", "blackman", "hamming", "hanning")
         for m in ("-3", "0", "1", "2", "3", "4", "5", "12", "51", "1000",
                   "int8:7", "uint8:9", "uint64:6", "int32:-1")] + [
        ("hanning_kw", [S("8")], None),
        ("windows_in_loop", [S("9")], None),
        ("hamming", [S("5.0")], "TypingError"),
        ("blackman", [S("true")], "TypingError"),
        ("bartlett", [f8(3)], "TypingError"),
    ]


def blas_bound(kernel, vals, dt):
    """The stated bound of an output where both operands are floats:
    (n + 2) ulps of the result's precision times the sum of |products|,
    computed the way NumPy lines the operands up."""
    a, v = (np.abs(np.asarray(x)).astype(np.float64) for x in vals)
    mode = ("valid" if kernel.endswith("valid") or kernel == "correlate"
            else "same" if kernel.endswith("same") else "full")
    f = np.convolve if kernel.startswith("convolve") else np.correlate
    mag = f(a, v, mode)
    eps = np.finfo(np.float32 if dt in (np.float32, np.complex64)
                   else np.float64).eps
    return (min(len(a), len(v)) + 2) * eps * mag * (2 if dt.kind == "c"
                                                    else 1)


WINDOWS = ("bartlett", "blackman", "hamming", "hanning", "hanning_kw",
           "windows_in_loop")


def same(got, want, kernel, vals):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    both_float = kernel not in WINDOWS and all(
        np.asarray(x).dtype.kind in "fc" for x in vals)
    if got.dtype.kind in "fc" and both_float and kernel != "correlate_in_loop":
        bound = blas_bound(kernel, vals, got.dtype)
        err = np.abs(got.astype(np.complex128) - want)
        ok = (err <= bound) | (np.isnan(got) & np.isnan(want))
        inf = np.isinf(want)
        ok |= inf & (got == want)
        return bool(np.all(ok))
    if kernel in WINDOWS:
        # cos from the C library against Numba's np.cos loop: 4 ulps of 1
        return np.allclose(got, want, rtol=0, atol=4 * 2.0**-52)
    if kernel == "correlate_in_loop":
        return bool(np.allclose(got, want, rtol=1e-12))
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npsignal", same)


if __name__ == "__main__":
    sys.exit(main())
