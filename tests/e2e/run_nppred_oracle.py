#!/usr/bin/env python3
"""np.shape, np.size, np.isscalar, np.iscomplexobj, np.isrealobj,
np.isclose, np.allclose, np.array_equal, np.isneginf, np.isposinf,
np.iscomplex, np.isreal, np.nan_to_num, np.sinc, np.angle,
np.asarray_chkfinite and np.divmod of arrays inside kernels
(tests/kernels/host/nppred.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; results are compared
for dtype and shape, ints and bools exactly, floats within 2 ulps
(np.sinc of complex numbers, whose sine is computed in another way: 1e-13
relative), NaN equal to NaN; where Numba raises, ufjit fails with the same
exception, and what Numba refuses while compiling ufjit refuses at the
kernel's FILE:LINE:COL. Cases marked "numpy" compare with the kernel run
as plain Python (NumPy): np.isclose of two N-d arrays, where Numba 0.68
writes past its result and raises ValueError.

    run_nppred_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i4, i8, u1, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "nppred.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "refused-here": ufjit refuses what Numba runs, "numpy":
    compare with NumPy instead)."""
    inf, nan = np.inf, np.nan
    xa = V("f8", [1.0, nan, inf, -inf, 0.0, 1e-9, 1e10, -inf, nan, 3.0])
    xb = V("f8", [1.0 + 1e-6, nan, inf, inf, 1e-9, 0.0, 1.00001e10, -inf,
                  1.0, 3.0 + 3e-5])
    sp = V("f8", [-inf, inf, nan, -0.0, 0.0, 1e-310, -1.5, 2.0, 3.0, 0.25])
    spf = V("f4", [-inf, inf, nan, -0.0, 0.0, 1e-40, -1.5, 2.0, 3.0, 0.25])
    cz = V("c16", [1 + 2j, complex(inf, nan), complex(nan, 1), 3 + 0j,
                   complex(-inf, -inf), 0j, complex(0, -0.0), -2 - 0.5j,
                   complex(1, inf), complex(-1, 0.0)])
    return [
        # shape / size / type predicates: compile-time values
        ("shape2", [f8(3, 4)], None), ("shape2", [f8(5, 0).F], None),
        ("shape2", [i4(6, 4).view("::-2, ::3")], None),
        ("shape_len", [S("1.5")], None), ("shape_len", [f8(2, 3, 4)], None),
        ("shape_len", [S("float32:nan")], None),
        ("shape_tuple", [S("3")], None),
        ("size", [f8(3, 4)], None), ("size", [f8(0, 4)], None),
        ("size", [S("7")], None), ("size", [u1(2, 3, 4).F], None),
        ("size_tuple", [S("2.5")], None),
        ("preds", [S("1.5")], None), ("preds", [S("1+2j")], None),
        ("preds", [S("true")], None), ("preds", [f8(3)], None),
        ("preds", [c8(2, 2)], None), ("preds", [S("complex64:1j")], None),
        ("preds_tuple", [S("2")], None), ("preds_tuple", [S("2j")], None),
        ("shape_bad", [S("1")], "TypingError"),
        # isclose: NaN, inf, signs, dtypes, broadcasting, tolerances
        ("isclose", [xa, xb], None), ("isclose", [xb, xa], None),
        ("isclose", [xa, S("1.0")], None), ("isclose", [S("inf"), xa], None),
        ("isclose", [S("1.0"), S("1.00001")], None),
        ("isclose", [S("1.0"), S("1.0001")], None),
        ("isclose", [S("nan"), S("nan")], None),
        ("isclose", [S("-inf"), S("-inf")], None),
        ("isclose", [S("3"), S("3")], None),
        ("isclose", [S("true"), S("false")], None),
        ("isclose", [i8(8, lo=-3, hi=3), i8(8, lo=-3, hi=3)], None),
        ("isclose", [u1(9, lo=0, hi=3), u1(9, lo=0, hi=3)], None),
        ("isclose", [i4(7, lo=-2, hi=2), f4(7, lo=-2, hi=2)], None),
        ("isclose", [f4(10, special=True), f4(10, special=True)], None),
        ("isclose", [b1(6), b1(6)], None),
        ("isclose", [f8(3, 4), f8(4)], "numpy"),
        ("isclose", [f8(3, 4, special=True), f8(3, 4).view("::-1, :")],
         "numpy"),
        ("isclose", [f8(3, 1), f8(1, 5)], "numpy"),
        ("isclose", [f8(0), f8(0)], None), ("isclose", [f8(0), S("1.0")],
                                               None),
        ("isclose", [f8(5).view("::-2"), f8(3)], None),
        ("isclose", [f8(3), f8(4)], "ValueError"),
        ("isclose", [c16(3), c16(3)], "TypingError"),
        ("isclose_tol", [xa, xb, S("1e-3"), S("0.0"), S("true")], None),
        ("isclose_tol", [xa, xb, S("0.0"), S("1e-5"), S("false")], None),
        ("isclose_tol", [f4(8, special=True), f4(8, special=True),
                         S("float32:0.5"), S("float32:0.25"), S("true")],
         None),
        ("isclose_tol", [S("1.0"), S("1.5"), S("float32:0.5"), S("0.0"),
                         S("false")], None),
        ("isclose_kw", [xa, xb], None),
        ("isclose_expr", [xa, xb], None),
        ("isclose_into", [xa, xb, b1(10)], None),
        ("isclose_int_rtol", [xa, xb], "TypingError"),
        # allclose
        ("allclose", [xa, xb], None), ("allclose", [xa, xa], None),
        ("allclose", [f8(3, 4), f8(3, 4)], None),
        ("allclose", [f8(3, 4, lo=0, hi=1), f8(4, lo=0, hi=1)], None),
        ("allclose", [V("f8", [1.0, 2.0]), V("f8", [1.0, 2.0000001])], None),
        ("allclose", [V("f8", [1.0, inf]), V("f8", [1.0, inf])], None),
        ("allclose", [V("f8", [1.0, inf]), V("f8", [1.0, -inf])], None),
        ("allclose", [V("f8", [nan]), V("f8", [nan])], None),
        ("allclose", [i8(5, lo=0, hi=2), i8(5, lo=0, hi=2)], None),
        ("allclose", [i4(5, lo=0, hi=2), i8(5, lo=0, hi=2)], "TypingError"),
        ("allclose", [S("1.0"), V("f8", [1.0, 1.0])], None),
        ("allclose", [V("f8", [1.0, 1.0000001]), S("1.0")], None),
        ("allclose", [S("1.0"), S("1.0000001")], None),
        ("allclose", [S("nan"), S("nan")], None),
        ("allclose", [f8(0), f8(0)], None),
        ("allclose", [f8(3), f8(4)], "ValueError"),
        ("allclose_tol", [V("f8", [nan, 1.0]), V("f8", [nan, 1.5]),
                          S("0.5"), S("0.0"), S("true")], None),
        ("allclose_tol", [V("f8", [nan, 1.0]), V("f8", [nan, 1.5]),
                          S("0.5"), S("0.0"), S("false")], None),
        # array_equal
        ("array_equal", [f8(3, 4), f8(3, 4)], None),
        ("array_equal", [V("i8", [1, 2, 3]), V("f8", [1.0, 2.0, 3.0])], None),
        ("array_equal", [V("i8", [1, 2, 3]), V("i8", [1, 2, 4])], None),
        ("array_equal", [f8(3, 4), f8(4)], None),
        ("array_equal", [f8(3, 4), f8(4, 3)], None),
        ("array_equal", [f8(0), f8(0)], None),
        ("array_equal", [S("1"), S("1.0")], None),
        ("array_equal", [V("f8", [2.0]), S("2.0")], None),
        ("array_equal", [c16(3), c16(3)], None),
        ("array_equal", [b1(4), b1(4)], None),
        ("array_equal_expr", [V("f8", [1.0, 2.0]), V("f8", [1.0, 2.0])],
         None),
        ("array_equal_expr", [i4(3, 2), i4(2, 3)], None),
        # isneginf / isposinf / iscomplex / isreal
        ("isneginf", [sp], None), ("isposinf", [sp], None),
        ("isneginf", [spf], None), ("isposinf", [spf.view("::-1")], None),
        ("isneginf", [S("-inf")], None), ("isposinf", [S("inf")], None),
        ("isneginf", [S("3")], None), ("isposinf", [i8(3, 2)], None),
        ("isneginf", [b1(3)], None), ("isposinf", [u8(4, lo=0, hi=9)], None),
        ("isneginf", [f8(2, 3, special=True).F], None),
        ("isneginf", [c16(2)], "TypingError"),
        ("isneginf_out", [sp, b1(10)], "refused-here"),
        ("iscomplex", [cz], None), ("isreal", [cz], None),
        ("iscomplex", [c8(2, 3)], None), ("isreal", [f8(4)], None),
        ("iscomplex", [S("1.0")], None), ("iscomplex", [S("1j")], None),
        ("isreal", [S("2+0j")], None), ("isreal", [i4(3)], None),
        # nan_to_num
        ("nan_to_num", [sp], None), ("nan_to_num", [spf], None),
        ("nan_to_num", [cz], None),
        ("nan_to_num", [V("c8", [complex(inf, nan), complex(-inf, 1)])],
         None),
        ("nan_to_num", [f8(3, 4, special=True).view("::-1, ::2")], None),
        ("nan_to_num", [i4(5)], None), ("nan_to_num", [f8(0)], None),
        ("nan_to_num", [S("nan")], None), ("nan_to_num", [S("-inf")], None),
        ("nan_to_num", [S("float32:inf")], None),
        ("nan_to_num", [S("7")], None),
        ("nan_to_num", [S("complex64:inf")], None),
        ("nan_to_num", [b1(3)], "TypingError"),
        ("nan_to_num_kw", [sp, S("1.5"), S("1e300"), S("-2")], None),
        ("nan_to_num_kw", [spf, S("1"), S("1e300"), S("-2.5")], None),
        ("nan_to_num_kw", [cz, S("-1.0"), S("9.0"), S("8")], None),
        ("nan_to_num_kw", [S("float32:nan"), S("float32:1.5"), S("2.0"),
                           S("3.0")], None),
        ("nan_to_num_copy", [sp], "refused-here"),
        ("nan_to_num_same", [i8(3)], None),
        # sinc and angle
        ("sinc", [sp], None), ("sinc", [spf], None),
        ("sinc", [f8(4, 5, lo=-4, hi=4)], None),
        ("sinc", [i4(6, lo=-3, hi=3)], None),
        ("sinc", [V("f8", [0.5, 1.0, 1.5, -2.5, 1e-9, 1e20])], None),
        ("sinc", [S("0.0")], None), ("sinc", [S("3")], None),
        ("sinc", [S("float32:0.3")], None),
        ("sinc", [c16(5, lo=-2, hi=2)], None),
        ("sinc", [S("1+0.5j")], None), ("sinc", [S("0j")], None),
        ("sinc", [b1(3)], "TypingError"),
        ("angle", [cz], None), ("angle", [c8(3, 2)], None),
        ("angle", [sp], None), ("angle", [spf], None),
        ("angle", [S("-2")], None), ("angle", [S("float32:-1.5")], None),
        ("angle", [S("1+1j")], None), ("angle", [S("-0.0")], None),
        ("angle", [i4(3)], "TypingError"),
        ("angle_deg", [cz, S("true")], None),
        ("angle_deg", [spf, S("false")], None),
        ("angle_deg", [S("complex64:1+1j"), S("true")], None),
        ("angle_kw", [c8(4)], None),
        # asarray_chkfinite: the array itself, or ValueError
        ("chkfinite", [f8(3, 4)], None), ("chkfinite", [i4(5)], None),
        ("chkfinite", [c8(2, 3).view("::-1, :")], None),
        ("chkfinite", [f8(0)], None), ("chkfinite", [b1(3)], None),
        ("chkfinite", [sp], "ValueError"),
        ("chkfinite", [V("f4", [1.0, 2.0, inf])], "ValueError"),
        ("chkfinite", [V("c16", [1j, complex(1, nan)])], "ValueError"),
        ("chkfinite", [f8(3, 4).F], None),
        ("chkfinite_same", [f8(4)], None),
        ("chkfinite_dtype", [f8(4)], "refused-here"),
        # np.divmod of arrays: a tuple of two new arrays
        ("divmod_q", [xa, xb], None), ("divmod_r", [xa, xb], None),
        ("divmod_q", [sp, V("f8", [2.0, -2.0, 0.0, 0.0, -0.0, 3.0, 0.5,
                                   -inf, inf, nan])], None),
        ("divmod_r", [sp, V("f8", [2.0, -2.0, 0.0, 0.0, -0.0, 3.0, 0.5,
                                   -inf, inf, nan])], None),
        ("divmod_q", [i8(3, 4, lo=-9, hi=9), i8(4, lo=-3, hi=3)], None),
        ("divmod_r", [i8(3, 4, lo=-9, hi=9), i8(4, lo=-3, hi=3)], None),
        ("divmod_r", [i1(8, lo=-128, hi=128), i1(8, lo=-2, hi=2)], None),
        ("divmod_q", [u8(6, lo=0, hi=50), u8(6, lo=0, hi=4)], None),
        ("divmod_r", [i4(5, lo=-9, hi=9), f4(5, lo=-3, hi=3)], None),
        ("divmod_q", [f4(2, 3).F, S("1.5")], None),
        ("divmod_r", [S("7"), i8(5, lo=-4, hi=4)], None),
        ("divmod_q", [f8(0), f8(0)], None),
        ("divmod_r", [f8(3), f8(4)], "ValueError"),
        ("divmod_expr", [f8(3, 4).view("::-1, ::2"), f8(2, lo=1, hi=5)],
         None),
    ]


def same(got, want, kernel):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        if kernel == "sinc" and got.dtype.kind == "c":
            return np.allclose(got, want, rtol=1e-13, atol=0, equal_nan=True)
        fi = np.finfo(got.dtype)
        g, w = got.reshape(-1), want.reshape(-1)
        parts = [(g.real, w.real), (g.imag, w.imag)] if g.dtype.kind == "c" \
            else [(g, w)]
        for x, y in parts:
            both_nan = np.isnan(x) & np.isnan(y)
            with np.errstate(invalid="ignore"):
                ok = both_nan | (x == y) | (np.abs(x - y) <= 2 * fi.eps *
                                            np.abs(y))
            if not ok.all():
                return False
        return True
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "nppred", same)


if __name__ == "__main__":
    sys.exit(main())
