#!/usr/bin/env python3
"""Operations on lists of numbers inside kernels
(tests/kernels/host/listops.py) against Numba: l.sort() and sorted(x)
(x a list, a 1-D array, a tuple, range) with reverse= a bool or an
integer, run-time or literal. Each case runs through `ufjit call` and
through Numba on the same inputs; dtype, shape and values must agree
exactly, NaNs where Numba's quicksort leaves them (it compares with `<`,
so a NaN is not moved to the end) and -0.0 before or after 0.0 as Numba
orders them (compared by their bits). Where Numba raises, ufjit fails
with the same exception; what Numba refuses compiling ufjit refuses at
the kernel's FILE:LINE:COL.

    run_listops_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i1, i4, i8, u1, u8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "listops.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" refused compiling, "refused" Numba fails
    compiling with another error, "refused-here" ufjit's gap)."""
    nan = V("f8", [3.0, np.nan, 1.0, -0.0, 0.0, np.nan, 2.0, -1.0])
    # past Numba's insertion-sort threshold (16): partitions with NaNs
    nan40 = V("f8", [float(v) if v % 7 else np.nan
                     for v in ((i * 37) % 41 - 20 for i in range(40))])
    zeros = V("f4", [0.0, -0.0, 1.0, -0.0, 0.0] * 5)
    out = []
    for a in (f8(300), f4(17), i8(40), i1(33, lo=-128, hi=128),
              u1(20, lo=0, hi=256), u8(18, lo=0, hi=2**40), b1(21), nan,
              nan40, zeros, f8(30).view("::-3"), f8(0)):
        out += [("sort_list", [a, S("true")], None),
                ("sorted_array", [a, S("false")], None)]
    return out + [
        ("sort_list", [nan, S("false")], None),
        ("sort_list", [nan40, S("int32:2")], None),
        ("sort_list", [i8(5), S("0")], None),
        ("sort_kw", [nan40], None), ("sort_kw", [i8(25)], None),
        ("sorted_array", [nan40, S("uint8:1")], None),
        ("sorted_new", [f8(9)], None),
        ("sorted_tuple", [S("2")], None), ("sorted_tuple", [S("-5")], None),
        ("sorted_tuple", [S("2.5")], "TypingError"),
        ("sorted_range", [S("6")], None), ("sorted_range", [S("0")], None),
        ("sort_empty", [S("0")], None),
        ("sort_complex", [c16(4)], "TypingError"),
        ("sorted_mixed_tuple", [S("1")], "refused"),
        ("sort_key_fn", [f8(5)], None),
        ("sort_key_bad", [f8(5)], "TypingError"),
        ("sort_reverse_float", [f8(5)], "TypingError"),
        ("sorted_2d", [f8(3, 2)], "refused"),
        ("sorted_number", [S("3")], "TypingError"),
    ] + slicing() + arith() + comparisons()


def slicing():
    a = i8(9)
    out = []
    for lo, hi, st in (("1", "7", "2"), ("-2", "-20", "-1"), ("-100", "100",
                                                               "3"),
                       ("8", "2", "1"), ("5", "0", "-2"), ("0", "0", "-1"),
                       ("int32:3", "uint8:9", "int8:-4")):
        out.append(("slices", [a, S(lo), S(hi), S(st)], None))
    return out + [
        ("slices", [f8(12).view("::-2"), S("1"), S("-1"), S("2")], None),
        ("slices", [f8(0), S("0"), S("3"), S("-1")], None),
        ("slices", [a, S("0"), S("3"), S("0")], "ValueError"),
    ]


def arith():
    return [
        ("concat", [i8(4), f8(3)], None), ("concat", [i4(3), i8(2)], None),
        ("concat", [f8(0), f8(0)], None), ("concat", [c16(2), f4(2)], None),
        ("repeat", [f8(3), S("3")], None), ("repeat", [i8(2), S("0")], None),
        ("repeat", [i8(2), S("-4")], None),
        ("repeat", [f8(0), S("5")], None),
        ("repeat", [u1(3, lo=0, hi=256), S("uint8:2")], None),
        ("repeat_bool", [f8(2)], "TypingError"),
        ("inplace", [f8(3), i8(2), S("2")], None),
        ("inplace", [i8(3), f8(2), S("0")], None),
        ("inplace", [f8(0), f8(0), S("-1")], None),
        ("inplace_complex", [c16(2), f8(2)], None),
        ("inplace_complex", [f8(2), c16(2)], "TypingError"),
    ]


def comparisons():
    nan = V("f8", [1.0, np.nan, 3.0])
    out = []
    for a, b in ((V("i8", [1, 2, 3]), V("f8", [1.0, 2.0, 3.0])),
                 (V("i8", [1, 2]), V("i8", [1, 2, 0])),
                 (V("i8", [1, 5]), V("i8", [1, 2, 9])),
                 (V("f8", [2.0]), V("f8", [-1.0, 4.0])),
                 (nan, nan), (nan, V("f8", [1.0, 2.0, 4.0])),
                 (f8(0), f8(0)), (f8(0), f8(2)),
                 (V("u8", [2**63]), V("i8", [-1])),
                 (b1(3), i1(3, lo=-2, hi=2))):
        out.append(("compare", [a, b], None))
    return out + [
        ("compare_complex", [V("c16", [1 + 2j]), V("f8", [1.0])], None),
        ("compare_complex", [c16(2), c16(2)], None),
        ("compare_complex_lt", [c16(2), c16(2)], "TypingError"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    # bit for bit: NaN places and the sign of zeros too
    return (np.ascontiguousarray(got).tobytes() ==
            np.ascontiguousarray(want).tobytes())


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "listops", same)


if __name__ == "__main__":
    sys.exit(main())
