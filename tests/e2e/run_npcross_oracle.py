#!/usr/bin/env python3
"""np.cross, np.unwrap and np.select inside kernels
(tests/kernels/host/npcross.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; dtype, shape and values
must agree exactly (NaN equal to NaN; ufjit computes in the order Numba's
ufuncs do, with no contraction). Where Numba raises, ufjit fails with the
same exception; what Numba refuses compiling ufjit refuses at the
kernel's FILE:LINE:COL.

    run_npcross_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import (Arr, S, V, b1, c8, c16, f4, f8, i1, i2, i4,  # noqa: E402
                    i8, u1, u2, u4, u8)
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npcross.py")


def cross_cases():
    sp = dict(special=True)
    inf2 = V("f8", [np.inf, 1.0])
    nan2 = V("f8", [1.0, np.nan])
    neg0 = V("f8", [-0.0, -0.0, -0.0])
    out = []
    for k in ("cross", "cross_kw"):
        out += [
            (k, [f8(3), f8(3)], None), (k, [f8(2), f8(3)], None),
            (k, [f8(3), f8(2)], None), (k, [f4(3), f4(3)], None),
            (k, [f4(3), i8(3)], None), (k, [i1(3, lo=-128, hi=128),
                                            u1(3, lo=0, hi=256)], None),
            (k, [i1(5, 3, lo=-128, hi=128), i1(3, lo=-128, hi=128)], None),
            (k, [i8(4, 3, lo=-2**40, hi=2**40), i8(4, 2)], None),
            (k, [u8(3, lo=0, hi=2**63), i8(3)], None),
            (k, [b1(6, 3), b1(6, 3)], None), (k, [b1(2), b1(3)], None),
            (k, [b1(4, 3), i4(3)], None),
            (k, [c16(3), f8(3)], None), (k, [c8(4, 2), c8(3)], None),
            (k, [f8(7, 3, **sp), f8(7, 3, **sp)], None),
            (k, [f8(7, 2, **sp), f8(7, 3, **sp)], None),
            (k, [inf2, f8(3)], None), (k, [nan2, f8(3)], None),
            (k, [f8(3), inf2], None), (k, [neg0, neg0], None),
            (k, [f8(4, 1, 3), f8(5, 3)], None),
            (k, [f8(5, 2), f8(4, 1, 3)], None),
            (k, [f8(2, 3, 4, 3), f8(4, 3)], None),
            (k, [f8(3), f8(6, 5, 3)], None),
            (k, [f8(0, 3), f8(3)], None), (k, [f8(4, 0, 3), f8(1, 3)], None),
            (k, [f8(6, 3).F, f8(6, 3)], None),
            (k, [f8(8, 6).view("::-2, 1::2"), f8(4, 3).view("::-1")], None),
            (k, [f8(9).view("::-3"), f8(6).view("::2")], None),
            (k, [f8(3, 4).view(":, :2"), f8(3, 3).view(":, ::-1")], None),
            (k, [f8(4), f8(3)], "ValueError"),
            (k, [f8(3), f8(1)], "ValueError"),
            (k, [f8(0), f8(3)], "ValueError"),
            (k, [f8(2), f8(2)], "ValueError"),
            (k, [f8(5, 2), f8(5, 2)], "ValueError"),
            (k, [f8(4, 3), f8(5, 3)], "ValueError"),
            (k, [f8(4, 3), f8(5, 4)], "ValueError"),
            (k, [f8(2, 4, 3), f8(3, 3)], "ValueError"),
            (k, [f8(), f8(3)], "TypingError"),
            (k, [f8(3), f8()], "TypingError"),
        ]
    return out + [
        ("cross_expr", [f8(5, 3), i4(3)], None),
        ("cross_in_loop", [f8(6, 3), f8(3)], None),
        ("cross_in_loop", [f8(6, 2), f8(2)], "ValueError"),
        ("cross_tuple", [f8(3)], None),
        ("cross_tuple", [i1(4, 3).view("::-1")], None),
        ("cross_tuple", [f8(2)], None),
        ("cross_tuple", [f8(4)], "ValueError"),
        ("cross_list", [f8(5, 3, special=True)], None),
        ("cross_list", [c8(3)], None),
        ("cross_list", [f8(2)], None),
        ("cross_nested", [], None),
        ("cross_mixed", [f8(3)], None),
        ("cross_mixed", [b1(2, 3)], None),
        ("cross_pair", [i4(3)], None),
        ("cross_pair", [f8(2)], "ValueError"),
        ("cross_ragged", [f8(3)], "refused"),
        ("cross_bools", [], None),
        ("cross_complex", [f8(3)], None),
        ("cross_scalar", [f8(3), S("2.0")], "TypingError"),
        ("cross_three", [f8(3), f8(3)], "TypingError"),
    ]


def unwrap_cases():
    sp = dict(special=True)
    phase = V("f8", [0.0, 3.0, 6.5, 10.0, -4.0, 3.14159, -3.14159, 12.0,
                     6.283185307179586, 0.0, -6.283185307179586, 1e9,
                     np.pi, -np.pi, np.pi])
    ties = V("f8", [0.0, np.pi, 0.0, -np.pi, 2 * np.pi, np.pi, 0.0])
    deg = V("i8", [0, 5, 10, -3, 700, 181, -181, 180, 0, -180, 360, 359])
    nan = V("f8", [0.0, 4.0, np.nan, 1.0, 9.0, np.inf, 2.0, -np.inf, 1.0])
    out = [("unwrap", [x], None) for x in (
        phase, ties, nan, f8(40, lo=-20, hi=20), f8(6, 7, lo=-9, hi=9),
        f8(2, 3, 9, lo=-9, hi=9), f4(30, lo=-9, hi=9), i4(20, lo=-50, hi=50),
        i8(12, lo=-9, hi=9), u1(10, lo=0, hi=256), b1(9),
        f8(1), f8(0, 5), f8(3, 1), f8(20, **sp),
        f8(30, lo=-9, hi=9).view("::-3"),
        f8(6, 8, lo=-9, hi=9).view("::2, 1::3"))]
    out += [
        # Numba fails typing an F array (its reshape): NumPy's result
        ("unwrap", [f8(5, 12, lo=-9, hi=9).F], "numpy"),
        ("unwrap", [f8(0)], "ZeroDivisionError"),
        ("unwrap", [f8(3, 0)], "ZeroDivisionError"),
        ("unwrap", [f8()], "TypingError"),
        ("unwrap", [c16(5)], "TypingError"),
        ("unwrap_discont", [phase, S("1.0")], None),
        ("unwrap_discont", [phase, S("5")], None),
        ("unwrap_discont", [phase, S("0.0")], None),
        ("unwrap_discont", [phase, S("nan")], None),
        ("unwrap_discont", [phase, S("true")], "TypingError"),
        ("unwrap_period", [phase, S("1.5")], None),
        ("unwrap_period", [phase, S("-4.0")], None),
        ("unwrap_period", [phase, S("0.0")], None),
        ("unwrap_period", [f4(20, lo=-9, hi=9), S("float32:6.0")], None),
        ("unwrap_period", [f4(20, lo=-9, hi=9), S("3")], None),
        ("unwrap_period", [deg, S("360")], None),
        ("unwrap_period", [deg, S("7")], None),
        ("unwrap_period", [deg, S("-6")], None),
        ("unwrap_period", [deg, S("0")], None),
        ("unwrap_period", [deg, S("1")], None),
        ("unwrap_period", [deg, S("-1")], None),
        ("unwrap_period", [i4(9, 4, lo=-400, hi=400), S("360")], None),
        ("unwrap_period", [b1(7), S("4")], None),
        ("unwrap_period", [i8(5), S("true")], "TypingError"),
        ("unwrap_period", [f8(5), S("1+2j")], "TypingError"),
        # narrow integer results: period typed narrower than int64
        ("unwrap_period", [u1(15, lo=0, hi=256), S("uint8:9")], None),
        ("unwrap_period", [i1(30, lo=-128, hi=128), S("int8:6")], None),
        ("unwrap_period", [i1(30, lo=-128, hi=128), S("int8:-5")], None),
        ("unwrap_period", [i1(30, lo=-128, hi=128), S("int8:0")], None),
        ("unwrap_period", [i2(4, 20, lo=-32768, hi=32768), S("int16:360")],
         None),
        ("unwrap_period", [i4(20, lo=-2**31, hi=2**31), S("int32:1000")],
         None),
        ("unwrap_period", [u1(20, lo=0, hi=256), S("int8:7")], None),
        ("unwrap_period", [u2(20, lo=0, hi=65536), S("int16:100")], None),
        ("unwrap_period", [u4(20, lo=0, hi=2**32), S("uint8:200")], None),
        ("unwrap_period", [b1(9), S("int8:4")], None),
        ("unwrap_period", [V("i1", [-25, 103, 0, 127, -128, 1, -128])
                           .view("::-1"), S("int8:6")], None),
        ("unwrap_all", [i1(30, lo=-128, hi=128), S("int8:20"), S("int8:60")],
         None),
        ("unwrap_all", [i2(30, lo=-300, hi=300), S("2.5"), S("int16:60")],
         None),
        ("unwrap_all", [deg, S("100"), S("360")], None),
        ("unwrap_all", [deg, S("100.5"), S("360")], None),
        ("unwrap_all", [phase, S("2"), S("3.5")], None),
        ("unwrap_axis", [f8(5), S("-1")], None),
        ("unwrap_axis", [f8(5), S("0")], "ValueError"),
        ("unwrap_axis", [f8(2, 5), S("1")], "ValueError"),
        ("unwrap_axis", [f8(5), S("1.0")], "TypingError"),
        ("unwrap_none", [phase], None),
        ("unwrap_in_loop", [f8(15, lo=-9, hi=9)], None),
        ("unwrap_tuple", [S("1.0")], None),
        ("unwrap_tuple", [S("1")], "TypingError"),
        ("unwrap_list", [], None),
        ("unwrap_list_int", [], None),
        ("unwrap_list_mixed", [], None),
        ("unwrap_nested", [], "TypingError"),
        ("unwrap_int_tuple", [S("3")], None),
        ("unwrap_int_tuple", [S("int8:3")], "TypingError"),
    ]
    return out


def select_cases():
    c, c2 = b1(8), b1(8)
    out = []
    for d in ("f8", "f4", "i4", "i8", "u1", "u8", "b1", "c8", "i1"):
        x = f8(8, lo=-9, hi=9) if d == "f8" else \
            b1(8) if d == "b1" else Arr(d, (8,), lo=0 if d[0] == "u" else
                                       -9, hi=9)
        out += [("select", [c, c2, x, x], None)]
        out += [("select_tuple", [c, c2, x, x, S(v)],
                 "TypingError" if v[0] == "f" and d in ("i4", "i8", "u8")
                 else None)
                for v in ("2.5", "true", "7", "-1", "float32:1.5")]
    nan = V("f8", [np.nan, 1.0, -np.inf, np.inf, -0.0, 0.0, 2.0, np.nan])
    out += [
        ("select", [c, c2, nan, f8(8)], None),
        ("select", [b1(3, 5), b1(3, 5), f8(3, 5), f8(3, 5)], None),
        ("select", [b1(1, 5), b1(3, 1), f8(3, 5), f8(1, 1)], None),
        ("select", [b1(2, 3, 4), b1(2, 3, 4), f8(2, 3, 4).F,
                    f8(2, 3, 4)], None),
        ("select", [b1(1), b1(6), f8(1), f8(6)], None),
        ("select", [b1(6), b1(6), f8(1), f8(6)], None),
        ("select", [b1(0), b1(0), f8(0), f8(0)], None),
        ("select", [b1(3, 0), b1(1, 0), f8(3, 1), f8(1, 0)], None),
        ("select", [b1(12).view("::-2"), b1(6), f8(18).view("::3"),
                    f8(6)], None),
        ("select", [b1(4, 6).view(":, ::-2"), b1(4, 3),
                    f8(4, 3).view("::-1"), f8(4, 3)], None),
        ("select", [c, c2, f8(5), f8(5)], "ValueError"),
        ("select", [b1(3, 4), b1(3, 4), f8(2, 4), f8(2, 4)], "ValueError"),
        ("select", [b1(3, 4), b1(3, 4), f8(4), f8(4)], "TypingError"),
        ("select", [i8(8), i8(8), f8(8), f8(8)], "TypingError"),
        ("select", [b1(), b1(), f8(), f8()], "TypingError"),
        ("select", [c, c2, f8(8), i8(8)], "TypingError"),
        ("select_kw", [c, f8(8), S("4.0")], None),
        ("select_kw", [c, i4(8), S("true")], None),
        ("select_expr", [f8(20, lo=-9, hi=9)], None),
        ("select_expr", [i8(20)], None),
        ("select_vars", [f8(4, 5, lo=-9, hi=9)], None),
        ("select_len", [c, f8(8), f8(8)], "ValueError"),
        ("select_mixed", [c, c2, f8(8), f4(8)], "TypingError"),
        ("select_one", [c, i4(8)], None),
        ("select_one", [b1(3, 3), u8(3, 3, lo=0, hi=99)], None),
        ("select_array_default", [c, f8(8)], "TypingError"),
        ("select_in_loop", [f8(10, lo=-9, hi=9)], None),
    ]
    return out


def cross2d_cases():
    out = []
    for a, b in [
            (f8(2), f8(2)), (f8(5, 2, special=True), f8(2)),
            (f8(2), f8(4, 2)), (f8(3, 1, 2), f8(4, 2)),
            (f8(3, 2).F, f8(3, 2).view("::-1")),
            (f8(6, 4).view("::2, 1::2"), f8(3, 2)),
            (i1(2, lo=-128, hi=128), i1(2, lo=-128, hi=128)),
            (i1(4, 2, lo=-128, hi=128), i1(4, 2, lo=-128, hi=128)),
            (u1(3, 2, lo=0, hi=256), i1(2, lo=-128, hi=128)),
            (u1(2, lo=0, hi=256), u1(2, lo=0, hi=256)),
            (i2(2), u2(3, 2)), (i4(2), u4(2)), (u8(2), i8(2)),
            (b1(2), b1(2)), (b1(5, 2), b1(2)), (i1(2), f4(2)),
            (f4(3, 2), c8(2)), (c16(2), f8(2)), (f8(0, 2), f8(2)),
            (f8(1, 0, 2), f8(3, 1, 2)),
            (i2(2, lo=-32768, hi=32768), i1(2, lo=-128, hi=128)),
            (i4(2, lo=-2**31, hi=2**31), i4(2, lo=-2**31, hi=2**31)),
            (u2(2, lo=0, hi=65536), u2(2, lo=0, hi=65536)),
            (u4(3, 2, lo=0, hi=2**32), u4(2, lo=0, hi=2**32)),
            (u1(2, lo=0, hi=256), b1(2)), (i1(2), b1(2)),
            (V("f8", [np.inf, np.nan, 0.0, np.inf], shape=(2, 2)),
             V("f8", [0.0, 1.0])),
            (V("i8", [2**62, 3]), V("i8", [5, 2**62]))]:
        out.append(("cross2d_", [a, b], None))
    out += [
        ("cross2d_", [f8(3), f8(2)], "ValueError"),
        ("cross2d_", [f8(2), f8(1)], "ValueError"),
        ("cross2d_", [f8(0), f8(2)], "ValueError"),
        ("cross2d_", [f8(3, 2), f8(4, 2)], "ValueError"),
        ("cross2d_", [f8(2, 3, 2), f8(4, 3, 2)], "ValueError"),
        ("cross2d_", [f8(3, 3), f8(4, 2)], "ValueError"),
        ("cross2d_", [f8(), f8(2)], "TypingError"),
        ("cross2d_kw", [f8(4, 2), i4(2)], None),
        ("cross2d_tuple", [f8(3, 2)], None),
        ("cross2d_tuple", [i8(2)], None),
        ("cross2d_lists", [], None),
        ("cross2d_in_loop", [f8(7, 2), f8(2)], None),
        ("cross2d_number", [f8(2), S("2.0")], "TypingError"),
    ]
    return out


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" / "refused" / "refused-here" as
    oracle_util.check_cases reads them)."""
    return (cross_cases() + unwrap_cases() + select_cases() +
            cross2d_cases())


def same(got, want):
    """Exact: dtype, shape, values, the sign of zeros; NaN equals NaN."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "c":
        return same(got.real.copy(), want.real.copy()) and \
            same(got.imag.copy(), want.imag.copy())
    if got.dtype.kind == "f":
        nan = np.isnan(got) & np.isnan(want)
        eq = (got == want) & (np.signbit(got) == np.signbit(want))
        return bool(np.all(nan | eq))
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npcross", same)


if __name__ == "__main__":
    sys.exit(main())
