#!/usr/bin/env python3
"""np.ediff1d and np.trapezoid inside kernels (tests/kernels/host/npfunc.py)
against Numba: each case runs through `ufjit call` and through Numba on
the same inputs; dtype, shape and values must agree exactly (NaN equal to
NaN, the sign of zero included: ufjit adds in Numba's order). Where Numba
raises, ufjit fails with the same exception; what Numba refuses compiling
ufjit refuses at the kernel's FILE:LINE:COL.

    run_npfunc_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u2, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npfunc.py")


def ediff1d_cases():
    nan = V("f8", [1.0, np.nan, 2.5, -np.inf, 0.5, np.inf, -0.0, 0.0])
    wrap = V("i1", [127, -128, 5, -100, 100])
    uwrap = V("u1", [0, 255, 3, 1])
    big = V("i8", [2**62, -2**62 + 7, -2**63, 2**63 - 1])
    out = []
    for a in (f8(7), f4(6), i4(5), i8(4), u8(3, lo=0, hi=99), i2(9, 2),
              f8(3, 4).F, f8(12).view("::-3"), f8(4, 5).view("1:, ::-2"),
              c16(5), c8(4), nan, wrap, uwrap, big, f8(1), f8(0), f8(0, 3),
              f8(), S("3"), S("2.5"), S("int8:7")):
        out.append(("ediff1d", [a], None))
    out += [
        ("ediff1d", [b1(4)], "TypingError"),
        ("ediff1d", [S("true")], None),
        ("ediff1d_bools", [f8(1)], None),
        ("ediff1d_end", [f8(5), S("2")], None),
        ("ediff1d_end", [f8(5), f8(2, 2)], None),
        ("ediff1d_end", [f8(5), i4(3)], None),
        ("ediff1d_end", [f8(5), b1(3)], None),
        ("ediff1d_end", [i4(5), i2(2)], None),
        ("ediff1d_end", [i4(5), u2(2, lo=0, hi=9)], None),
        ("ediff1d_end", [i4(5), S("true")], None),
        ("ediff1d_end", [f8(0), S("2")], None),
        ("ediff1d_end", [f8(4), f8(0)], None),
        ("ediff1d_end", [c16(4), f4(2)], None),
        ("ediff1d_end", [c8(4), i2(2)], None),
        ("ediff1d_end", [f4(4), f4(2).view("::-1")], None),
        ("ediff1d_end", [f8(5), V("f8", [4.5], ())], None),
        ("ediff1d_end", [i4(5), S("2")], "TypingError"),
        ("ediff1d_end", [f4(5), f8(2)], "TypingError"),
        ("ediff1d_end", [i8(5), u8(2, lo=0, hi=9)], "TypingError"),
        ("ediff1d_end", [f8(5), c16(2)], "TypingError"),
        ("ediff1d_end", [u1(5, lo=0, hi=99), i1(2)], "TypingError"),
        ("ediff1d_begin", [f8(5), f8(3)], None),
        ("ediff1d_begin", [i8(5), S("-4")], None),
        ("ediff1d_begin", [i2(5), S("float64:1.5")], "TypingError"),
        ("ediff1d_both", [f8(5), f8(2), i4(3)], None),
        ("ediff1d_both", [f8(2, 3), S("1.5"), S("-2.5")], None),
        ("ediff1d_both", [f8(0), f8(2), f8(3)], None),
        ("ediff1d_both", [i8(6), S("1"), S("2")], None),
        ("ediff1d_both", [f4(6), S("float32:1"), S("2.5")], "TypingError"),
        ("ediff1d_lit", [f8(5)], None),
        ("ediff1d_lit", [i8(5)], None),
        ("ediff1d_lit", [i4(5)], "TypingError"),
        ("ediff1d_float_lit", [f8(5)], None),
        ("ediff1d_float_lit", [f4(5)], "TypingError"),
        ("ediff1d_tuple", [f8(1)], None),
        ("ediff1d_in_loop", [f8(9)], None),
    ]
    return out


def trapezoid_cases():
    nan = V("f8", [1.0, np.nan, 2.5, -np.inf, 0.5, np.inf, -1.0])
    cinf = V("c16", [1 + 1j, complex(np.inf, 1), 2 - 1j, complex(-0.0, -0.0),
                     complex(1, np.nan)])
    negz = V("f8", [-0.0, -0.0, -0.0])
    wrap = V("i1", [127, 100, -128, -100, 5])
    out = []
    for y in (f8(7), f4(6), i4(5), i8(4), u8(3, lo=0, hi=99), i2(3, 4),
              f8(2, 3, 4), f8(3, 4).F, f8(12).view("::-3"),
              f8(4, 5).view("1:, ::-2"), c16(5), c8(4), nan, cinf, negz,
              wrap, b1(6), f8(1), f8(0), f8(2, 0), f8(0, 3), f8(2, 1),
              V("u1", [250, 10, 200]), V("i2", [30000, 30000, 1]),
              V("b1", [True, True, False, True]),
              V("u8", [2**63 + 2**62] * 2), V("i8", [2**62 + 2**61] * 2)):
        out.append(("trapezoid", [y], None))
    out += [
        ("trapezoid", [f8()], "TypingError"),
        ("trapezoid", [S("2.5")], "TypingError"),
        ("trapezoid_x", [f8(6), f8(6)], None),
        ("trapezoid_x", [f4(6), f4(6)], None),
        ("trapezoid_x", [i4(6), i8(6)], None),
        ("trapezoid_x", [f8(5), b1(5)], None),
        ("trapezoid_x", [f8(5), wrap], None),
        ("trapezoid_x", [f8(5), c16(5)], None),
        ("trapezoid_x", [c8(5), f4(5)], None),
        ("trapezoid_x", [f8(2, 3), f8(3)], None),
        ("trapezoid_x", [f8(2, 3), f8(2, 3)], None),
        ("trapezoid_x", [f8(3), f8(2, 3)], None),
        ("trapezoid_x", [f8(4, 3), f8(1, 3)], None),
        ("trapezoid_x", [f8(4, 1), f8(4, 3)], "ValueError"),
        ("trapezoid_x", [f8(4, 2), f8(1, 3)], None),
        ("trapezoid_x", [f8(2, 3, 5), f8(3, 5)], None),
        ("trapezoid_x", [f8(3, 5), f8(3, 5).F], None),
        ("trapezoid_x", [f8(2, 3, 5), f8(3, 5).view("::-1, :")],
         "TypingError"),
        ("trapezoid_x", [f8(5), f8(10).view("::2")], "TypingError"),
        ("trapezoid_x", [f8(10).view("::-2"), f8(5)], None),
        ("trapezoid_x", [f8(1), f8(2)], None),
        ("trapezoid_x", [f8(1), f8(1)], None),
        ("trapezoid_x", [f8(0), f8(0)], None),
        ("trapezoid_x", [f8(2, 3), f8(4)], "ValueError"),
        ("trapezoid_x", [f8(5), f8(3)], "ValueError"),
        ("trapezoid_x", [f8(2, 3), f8(3, 3)], "ValueError"),
        ("trapezoid_x", [f8(5), S("1.0")], "TypingError"),
        ("trapezoid_x", [f8(5), f8()], "TypingError"),
        ("trapezoid_dx", [f8(5), S("2")], None),
        ("trapezoid_dx", [f8(5), S("float32:0.1")], None),
        ("trapezoid_dx", [i4(5), S("int8:-3")], None),
        ("trapezoid_dx", [f8(5), S("true")], None),
        ("trapezoid_dx", [f8(5), S("1.5+2j")], None),
        ("trapezoid_dx", [c16(5), S("0.5")], None),
        ("trapezoid_dx", [cinf, S("0.5")], None),
        ("trapezoid_dx", [f8(2, 4), S("-1.5")], None),
        ("trapezoid_dx", [f8(5), S("inf")], None),
        ("trapezoid_x_dx", [f8(5), f8(5), S("3.0")], None),
        ("trapezoid_x_dx", [f8(5), f8(5), S("3j")], None),
        ("trapezoid_x_none", [f8(5)], None),
        ("trapezoid_kw", [f8(5), f8(5)], None),
        ("trapezoid_in_loop", [f8(11)], None),
        ("trapezoid_tuple", [S("2.0")], "refused-here"),
        ("trapezoid_dx_array", [f8(5)], "refused-here"),
    ]
    return out


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if not np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"):
        return False
    if got.dtype.kind in "fc":  # the signs of zeros too
        part = np.float32 if got.dtype in (np.float32, np.complex64) \
            else np.float64
        g = np.atleast_1d(got).view(part)
        w = np.atleast_1d(want).view(part)
        z = (w == 0)
        return bool(np.all(np.signbit(g[z]) == np.signbit(w[z])))
    return True


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, ediff1d_cases() + trapezoid_cases(),
                       "npfunc", same)


if __name__ == "__main__":
    sys.exit(main())
