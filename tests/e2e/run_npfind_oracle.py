#!/usr/bin/env python3
"""np.nonzero, a.nonzero(), np.where(cond), np.flatnonzero, np.argwhere,
np.extract, np.unique and np.delete inside kernels (tests/kernels/host/npfind.py)
against Numba: every case runs through `ufjit call` and through Numba on
the same inputs; results are compared for dtype, shape and bits (NaNs of
either sign equal; the sign of a zero counts), and where Numba raises,
ufjit must fail with the same exception: a TypingError at the
FILE:LINE:COL the case names, a run-time exception by its name.

    run_npfind_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npfind.py")

nan, inf = np.nan, np.inf


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]): raises is Numba's
    exception, "refused" or "refused-here" (oracle_util.check_cases says
    which is which; ufjit refuses the kernel at LINE:COL)."""
    sp = f8(41, special=True)  # NaN, infinities, zeros of both signs
    odd = f8(3, 5, 7, lo=-1, hi=2).view("::-1, 1::2, ::3")
    cz = V("c16", [0, 1j, complex(nan, 0), -0.0, 2, complex(0, -0.0)])
    many = [i4(400, lo=-3, hi=3), u8(300, lo=0, hi=5), b1(5, 6, 7),
            f4(50, special=True), c8(9, 4, special=True), i2(17, lo=-2,
                                                           hi=2)]
    return [
        # every dtype, N-d, F, strided and reversed views, empty, one
        *[(k, [x]) for k in ("nz", "where1", "flat", "argw", "uniq")
          for x in [i8(30, lo=-1, hi=2), b1(4, 5), f8(6, 7, lo=-1, hi=2).F,
                    sp, odd, cz, u1(2, 3, 4, lo=0, hi=2), i1(0),
                    f8(3, 0, 2), c16(1), *many]],
        ("nz_meth", [i4(5, 6, lo=0, hi=2)]), ("nz_meth", [cz]),
        ("where_kw", [f4(9, special=True)]), ("where_tuple", [S("3")]),
        ("where_tuple", [S("0")]), ("flat_kw", [b1(3, 3)]),
        ("flat_tuple", [S("0.0")]), ("flat_tuple", [S("-1")]),
        ("argw_tuple", [S("true")]), ("argw_tuple", [S("false")]),
        # 0-d arrays and numbers where Numba takes them
        ("flat", [S("2.5")]), ("flat", [S("0")]), ("flat", [S("1j")]),
        ("argw", [S("3")]), ("argw", [S("0.0")]), ("argw", [S("true")]),
        ("uniq_0d", [S("2.5")]), ("flat_0d", [S("0")]),
        ("flat_0d", [S("nan")]), ("flat_0d", [S("-0.0")]),
        ("ext_0d", [S("1"), S("2.5")]), ("ext_0d", [S("0"), S("2")]),
        # np.extract: shapes that differ, numbers, tuples, errors
        ("ext", [i8(3, 4, lo=0, hi=2), f8(3, 4)]),
        ("ext", [b1(12), c16(3, 4).F]), ("ext", [sp, i4(41)]),
        ("ext", [V("i8", [1, 1]), f8(5)]),  # a shorter condition
        ("ext", [V("i8", [1, 0, 1, 0, 0]), f8(3)]),  # longer, false past
        ("ext", [V("i8", [1, 0, 1, 0, 1]), f8(3)], "ValueError"),
        ("ext", [V("i8", [1, 0, 1]), f8(0)], "ValueError"),
        ("ext", [V("i8", [0, 0]), f8(3)]), ("ext", [i8(0), f8(4)]),
        ("ext", [S("1"), f8(3)]), ("ext", [V("i8", [1, 0]), S("5.0")]),
        ("ext", [S("0"), S("true")]), ("ext", [f8(4, 3).view("::2"),
                                            u1(2, 2, 3).view("::-1")]),
        ("ext", [b1(3, 4), b1(12)]), ("ext_kw", [f4(8), i2(2, 4)]),
        ("ext_tuples", [S("2")]), ("ext_tuples", [S("0")]),
        # np.unique: runs of NaN, signed zeros, complex NaN parts
        ("uniq", [V("f8", [nan, 1.0, nan, -nan, 1.0, 0.5])]),
        ("uniq", [V("c16", [1 + 1j, complex(nan, 0), complex(0, nan),
                            1 + 1j, complex(nan, nan), 2])]),
        ("uniq", [V("i8", [2**63 - 1, -2**63, 0, -2**63])]),
        ("uniq", [f8(3000, lo=-50, hi=50).view("::3")]),
        ("uniq", [i8(5000, lo=-100, hi=100)]), ("uniq_kw", [i4(6, 6)]),
        # used inside kernels: unpacked, indexed, in a loop
        ("nz_index", [f8(6, 5)]), ("nz_index", [f8(0, 5)]),
        ("in_loop", [i4(7, 9, lo=-2, hi=3)]),
        # the set routines: small (Numba's scan) and large (its sorts)
        # operands, dtypes promoted, NaN, views, empty
        ("sets", [i8(20, lo=0, hi=10), i8(5, lo=0, hi=10)]),
        ("sets", [i4(300, lo=-50, hi=50), i8(200, lo=-50, hi=50)]),
        ("sets", [f8(7, 5, lo=-3, hi=3).view("::-1, ::2"),
                  i2(40, lo=-3, hi=3)]),
        ("sets", [V("f8", [1.0, nan, 2.0, nan, 3.0]),
                  V("f8", [nan, 2.0, 5.0] * 20)]),
        ("sets", [u1(3, 4, lo=0, hi=6), b1(9)]),
        ("sets", [c16(30, lo=-2, hi=2), f4(30, lo=-2, hi=2)]),
        ("sets", [i8(0), f8(6)]), ("sets", [i8(6), f8(0)]),
        ("sets", [u8(50, lo=0, hi=2**40), i4(60, lo=0, hi=1000)]),
        ("sets_au", [V("i8", [1, 2, 3, 7]), V("i8", [2, 7, 9] * 10),
                     S("true")]),
        ("sets_au", [V("i8", [3, 1, 3, 2]), V("f8", [3.0, 5.0]),
                     S("true")]),
        ("sets_au", [V("i8", [3, 1, 3, 2] * 30), V("f8", [3.0, 5.0] * 50),
                     S("true")]),
        ("sets_au", [i8(40, lo=0, hi=9), i8(30, lo=0, hi=9), S("false")]),
        ("sets_tuple", [S("2")]), ("sets_tuple", [S("7")]),
        # refused as Numba refuses them
        ("nz_0d", [S("1.0")], "TypingError", "105:23"),
        ("argw_0d", [S("1.0")], "TypingError", "110:24"),
        ("nz_kw", [f8(3)], "TypingError", "115:23"),
        ("uniq_counts", [f8(3)], "TypingError", "120:25"),
        ("uniq_number", [S("2.5")], "TypingError", "125:22"),
        ("nz_number", [S("2.5")], "TypingError", "130:23"),
        ("isin_int_flag", [f8(3), f8(3)], "TypingError", "170:33"),
        ("union_number", [f8(3)], "refused", "175:23"),
        # np.delete: an integer, arrays and tuples of indices (an index of
        # an array past arr is NumPy's IndexError in ufjit, Numba 0.68
        # writes out of bounds: python/tests/test_errors.py)
        ("delete", [f8(6), S("2")]), ("delete", [f8(6), S("-1")]),
        ("delete", [f8(6), S("6")], "IndexError"),
        ("delete", [f8(6), S("-7")], "IndexError"),
        ("delete", [f8(0), S("0")], "IndexError"),
        ("delete", [f8(6), V("i8", [-6, 5, 5])]),
        ("delete", [f8(6), V("i8", [1, 2]).view("::-1")]),
        ("delete", [f8(6), i8(2, 1, lo=0, hi=6)]),
        ("delete", [i8(2, 3).view(":, ::-1"), S("int32:-1")]),
        ("delete", [c8(6), V("i2", [1, 3])]),
        ("delete", [f4(3, 4).F, V("u1", [0, 11])]),
        ("delete", [b1(5), S("uint8:3")]), ("delete", [u8(4), S("uint64:0")]),
        ("delete_kw", [f8(5), S("1")]), ("delete_tuple", [f8(5), S("3")]),
        ("delete_tuple", [i4(2, 2), S("-1")]), ("delete_local", [S("4")]),
        ("delete_float_obj", [f8(3)], "TypingError", "203:25"),
        ("delete_number", [S("0")], "TypingError", "208:22"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind not in "fc":
        return got.tobytes() == want.tobytes()
    g, w = got.reshape(-1), want.reshape(-1)
    if got.dtype.kind == "c":
        g, w = g.view(g.real.dtype), w.view(w.real.dtype)
    both = np.isnan(g) & np.isnan(w)
    return bool(np.all(both | ((g.view(f"u{g.itemsize}") == w.view(f"u{w.itemsize}")))))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "nonzero/where/extract/unique", same)


if __name__ == "__main__":
    sys.exit(main())
