#!/usr/bin/env python3
"""np.insert inside kernels (tests/kernels/host/npinsert.py) against Numba:
every case runs through `ufjit call` and through Numba on the same
inputs; results are compared for dtype, shape and bits (NaNs of either
sign equal; the sign of a zero counts), and where Numba raises, ufjit
must fail with the same exception: a TypingError at the FILE:LINE:COL
the case names, a run-time exception by its name.

    run_npinsert_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npinsert.py")


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]): raises is Numba's
    exception, "refused" or "refused-here" (oracle_util.check_cases says
    which is which; ufjit refuses the kernel at LINE:COL)."""
    return [
        # obj an integer: at the start, inside, at the end, negative;
        # values a number (cast into arr's dtype) or an array of any shape
        ("ins", [f8(6), S("2"), S("9.5")]), ("ins", [f8(6), S("0"), S("1")]),
        ("ins", [f8(6), S("6"), S("-1.5")]),
        ("ins", [f8(6), S("-1"), S("4")]), ("ins", [f8(6), S("-6"), S("4")]),
        ("ins", [i8(5), S("1"), S("9.7")]), ("ins", [i8(5), S("1"),
                                                    S("-9.7")]),
        ("ins", [i4(5), S("3"), S("true")]), ("ins", [b1(4), S("1"), S("2")]),
        ("ins", [b1(4), S("1"), S("0.0")]), ("ins", [u1(4), S("2"), S("300")]),
        ("ins", [f4(5), S("1"), S("1.1")]), ("ins", [c16(4), S("1"), S("2")]),
        ("ins", [c8(4), S("4"), S("1j")]), ("ins", [f8(5), S("2"), f8(3)]),
        ("ins", [f8(5), S("2"), i8(2, 3)]), ("ins", [i8(5), S("5"), f8(2, 2)]),
        ("ins", [f8(3, 4), S("5"), S("0")]),
        ("ins", [f8(3, 4).F, S("-2"), i8(1)]),
        ("ins", [i2(3, 4).view("::-1, ::2"), S("1"), S("7")]),
        ("ins", [f8(4, 3).F, S("11"), i4(2)]),
        ("ins", [f8(6), S("int8:-2"), S("5")]),
        ("ins", [f8(6), S("uint8:3"), S("5")]),
        ("ins", [f8(6), S("uint64:6"), S("5")]),
        # empty arrays and values
        ("ins", [f8(0), S("0"), S("3")]), ("ins", [f8(0), S("0"), f8(0)]),
        ("ins", [f8(4), S("2"), f8(0)]), ("ins", [i8(0), S("-0"), i4(3)]),
        # out of bounds
        ("ins", [f8(6), S("7"), S("1")], "IndexError"),
        ("ins", [f8(6), S("-7"), S("1")], "IndexError"),
        ("ins", [f8(0), S("1"), S("1")], "IndexError"),
        ("ins", [f8(6), S("uint64:18446744073709551615"), S("1")],
         "IndexError"),
        # obj an array: one index (every value there), several (one value
        # each, or one value for all), unsorted, repeated, negative
        ("ins", [f8(5), V("i8", [1]), f8(3)]),
        ("ins", [f8(5), V("i8", [-1]), S("2")]),
        ("ins", [i8(5), V("i8", [3, 1]), V("i8", [10, 20])]),
        ("ins", [i8(5), V("i8", [1, 2, 2]), V("i8", [5, 6, 7])]),
        ("ins", [i8(5), V("i8", [2, 2, 1, 5, 0, -5]), S("7")]),
        ("ins", [i8(5), V("i8", [4, -1, 0, 5]), f8(4)]),
        ("ins", [i8(5), V("i8", [1, 3]), f8(2, 1)]),
        ("ins", [i8(5).view("::2"), V("i8", [-1, 0]), V("i8", [5, 6])]),
        ("ins", [f8(5), V("i8", [1, 2, 0, 5], (2, 2)), f8(2, 2)]),
        ("ins", [f8(5), V("i8", [1, 2, 3, 4]).view("::-1"), f4(4)]),
        ("ins", [f8(5), V("u1", [0, 5]), S("1")]),
        ("ins", [f8(5), V("i2", [0, 5, 1]), S("1.5")]),
        ("ins", [c8(5), V("u8", [2, 3]), S("1")]),
        ("ins", [f8(300), i8(400, lo=-300, hi=301), f8(400)]),
        ("ins", [f8(5), i8(0), S("1")]), ("ins", [f8(5), i8(0), f8(0)]),
        ("ins", [f8(0), V("i8", [0, 0, 0]), S("3.5")]),
        ("ins", [f8(0), V("i8", [0, 0]), V("f8", [3.0, 4.0])]),
        # errors with an array obj
        ("ins", [i8(5), V("i8", [3, 1, 1]), V("i8", [10, 20])],
         "ValueError"),
        ("ins", [i8(5), i8(0), V("i8", [10, 20])], "ValueError"),
        ("ins", [i8(5), V("i8", [1, 2]), f8(0)], "ValueError"),
        ("ins", [f8(5), V("i8", [1, 9]), S("3")], "IndexError"),
        ("ins", [f8(5), V("i8", [9]), S("3")], "IndexError"),
        ("ins", [f8(5), V("i8", [1, -6]), S("3")], "IndexError"),
        ("ins", [f8(5), V("u8", [2**63 + 5, 1]), S("3")], "IndexError"),
        # keywords, axis=None, tuples, inside kernels
        ("ins_kw", [f8(4), S("1"), S("2")]),
        ("ins_axis_none", [i4(4), S("-1"), S("2")]),
        ("ins_tuple_obj", [f8(4), S("3"), S("2")]),
        ("ins_tuple_obj", [f8(4), S("1"), f8(3)]),
        ("ins_tuple_obj", [f8(4), S("1"), f8(2)], "ValueError"),
        ("ins_tuple_vals", [i8(4), S("2")]),
        ("ins_tuple_vals", [f4(2, 2), V("i8", [0, 1, 4])]),
        ("ins_tuple_arr", [S("1"), S("2.5")]),
        ("ins_tuple_arr", [V("i8", [3, 0]), S("9")]),
        ("ins_local", [S("4")]), ("ins_loop", [f8(3), S("3")]),
        # refused as Numba refuses them
        ("ins_axis", [f8(3)], "TypingError", "55:38"),
        ("ins_float_obj", [f8(3)], "TypingError", "60:25"),
        ("ins_bool_obj", [f8(3)], "TypingError", "65:25"),
        ("ins_number_arr", [S("1")], "TypingError", "70:22"),
        ("ins_complex_vals", [f8(3)], "TypingError", "75:28"),
        ("ins_mixed_tuple", [f8(3)], "TypingError", "80:25"),
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
    return bool(np.all(both | (g.view(f"u{g.itemsize}") ==
                               w.view(f"u{w.itemsize}"))))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "np.insert", same)


if __name__ == "__main__":
    sys.exit(main())
