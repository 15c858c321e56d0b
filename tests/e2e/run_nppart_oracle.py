#!/usr/bin/env python3
"""np.partition, np.argpartition and a.item() inside kernels
(tests/kernels/host/nppart.py) against Numba:
every case runs through `ufjit call` and through Numba on the same inputs;
results must be Numba's element for element (not merely a valid
partition: the same quickselect leaves the same order), dtype and shape
exact, floats to the bit (NaNs of either sign equal); where Numba raises,
ufjit must fail with the same exception: a TypingError at the
FILE:LINE:COL the case names, a run-time exception by its name.

    run_nppart_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i1, i2, i4, i8, u1, u2, u4, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "nppart.py")

nan, inf = np.nan, np.inf


def random_cases():
    """Many random rows: sizes around the three-element pivot, duplicates
    (few distinct values), NaN and infinities, every real dtype, kth at
    both ends, in the middle and negative."""
    out = []
    for n in (1, 2, 3, 5, 7, 16, 17, 100, 257, 1000):
        ks = sorted({0, n // 2, n - 1, -1, -(n // 3) - 1})
        for k in ks:
            bad = ("ValueError",) if abs(k) >= n else ()  # Numba's -n too
            out.append(("part", [f8(n, special=True), S(str(k))]) + bad)
            out.append(("argpart", [f8(n, special=True), S(str(k))]) + bad)
            out.append(("part", [i8(n, lo=0, hi=3), S(str(k))]) + bad)
            out.append(("argpart", [i8(n, lo=0, hi=3), S(str(k))]) + bad)
        if n >= 4:
            out.append(("part_two", [f8(n, special=True), S("1"),
                                     S(str(-2))]))
            out.append(("part_two", [i4(n, lo=-2, hi=2), S(str(n // 2)),
                                     S(str(n // 2))]))
    for mk in (b1, i1, u1, i2, u2, i4, u4, i8, u8, f4):
        out.append(("part", [mk(60), S("13")]))
        out.append(("argpart", [mk(60), S("-13")]))
    out.append(("part", [u8(40, lo=0, hi=2**40), S("5")]))
    out.append(("part", [f4(80, special=True), S("40")]))
    out.append(("argpart", [f4(80, special=True), S("40")]))
    return out


def shape_cases():
    sorted8 = V("f8", [float(i) for i in range(64)])
    return [
        # N-d: along the last axis; F order, strided and reversed views
        ("part", [f8(5, 9, special=True), S("4")]),
        ("argpart", [f8(5, 9, special=True), S("-1")]),
        ("part", [i8(3, 4, 11, lo=0, hi=4), S("5")]),
        ("argpart", [i8(3, 4, 11, lo=0, hi=4), S("0")]),
        ("part", [f8(6, 7).F, S("3")]), ("argpart", [f8(6, 7).F, S("3")]),
        ("part", [f8(8, 30).view("::-2, 1::3"), S("2")]),
        ("argpart", [f8(40).view("::-1"), S("20")]),
        ("part", [f8(40).view("3::4"), S("-3")]),
        ("part", [f8(1, 1), S("0")]), ("part", [f8(7, 2), S("-1")]),
        # sorted, reversed and constant rows
        ("part", [sorted8, S("17")]), ("argpart", [sorted8, S("17")]),
        ("part", [sorted8.view("::-1"), S("50")]),
        ("argpart", [sorted8.view("::-1"), S("50")]),
        ("argpart", [V("f8", [2.0] * 33), S("16")]),
        ("argpart", [V("f8", [nan] * 9), S("4")]),
        ("argpart", [V("f8", [nan, 1.0, nan, -0.0, 0.0, -inf, inf, nan]),
                     S("3")]),
        ("part", [V("f8", [0.0, -0.0, 0.0, -0.0, 1.0]), S("2")]),
        ("part", [V("i8", [2**63 - 1, -2**63, 0, 5]), S("1")]),
        # kth arrays: order and duplicates do not matter, empty does nothing
        ("part", [f8(50, special=True), V("i8", [40, 3, -1, 3, 20])]),
        ("argpart", [f8(50, special=True), V("i4", [0, 49])]),
        ("argpart", [i8(50, lo=0, hi=5), V("u1", [7, 30])]),
        ("part", [f8(4, 20), V("i8", [5, 10, 15])]),
        ("part", [f8(30), V("i8", [1, 9, 4, 8]).view("::2")]),
        ("part", [f8(9), V("i8", [], shape=(0,))]),
        ("argpart", [f8(9), V("i8", [], shape=(0,))]),
        # empty arrays: a copy, kth not looked at
        ("part", [f8(0), S("5")]), ("argpart", [f8(0), S("-7")]),
        ("part", [f8(0, 3), S("9")]), ("argpart", [f8(3, 0), S("0")]),
        ("part", [f8(0), V("i8", [1, 2], shape=(1, 2))]),
        # keywords, tuples, rows of a loop
        ("part_kw", [f8(21, special=True)]),
        ("part_kw", [i2(5, 6, lo=-3, hi=3)]),
        ("part_of_tuple", [S("7.5")]), ("part_of_tuple", [S("-1")]),
        ("part_of_tuple", [S("nan")]),
        ("part_rows", [f8(9, 13)]),
        ("part_two", [u2(30, lo=0, hi=6), S("3"), S("-3")]),
    ]


def error_cases():
    return [
        # Numba's ValueErrors
        ("part", [f8(5), S("5")], "ValueError"),
        ("part", [f8(5), S("-5")], "ValueError"),  # NumPy takes -n
        ("part", [f8(7, 1), S("-1")], "ValueError"),
        ("argpart", [f8(3, 4), S("4")], "ValueError"),
        ("argpart", [f8(3, 4), S("-6")], "ValueError"),
        ("part", [f8(5), V("i8", [0, 7])], "ValueError"),
        ("part_two", [f8(5), S("0"), S("9")], "ValueError"),
        ("part", [f8(5), V("i8", [1, 2], shape=(1, 2))], "ValueError"),
        ("part_0d_kth", [f8(5)], "ValueError"),
        # TypingErrors
        ("part_complex", [c16(5)], "TypingError", "48:25"),
        ("part", [f8(5), S("1.0")], "TypingError", "10:28"),
        ("part", [f8(5), V("f8", [1.0])], "TypingError", "10:28"),
        ("part_float_kth", [f8(5)], "TypingError", "53:28"),
        ("part_bool_kth", [f8(5)], "TypingError", "58:31"),
        ("part_axis", [f8(5)], "TypingError", "63:31"),
        ("part_mixed_kth", [f8(5)], "TypingError", "68:28"),
        ("part_method", [f8(5)], "TypingError", "73:14"),
        ("part_0d", [S("2.0")], "TypingError", "78:25"),
    ]


def item_cases():
    return [
        # a.item(): the one element, of a's dtype; any size but 1 raises
        ("item", [f8(1)]), ("item", [V("f8", [nan])]), ("item", [i1(1, 1)]),
        ("item", [u8(1, 1, 1, lo=0, hi=2**40)]), ("item", [b1(1)]),
        ("item", [c16(1)]), ("item", [f4(1).view("::-1")]),
        ("item", [f8(5, 7).view("2:3, 4:5")]), ("item_sum", [i4(6)]),
        ("item_sum", [f8(4, special=True)]), ("item_2d", [f8(3, 3)]),
        ("item_2d", [i8(2, 3).F]),
        ("item", [f8(2)], "ValueError"), ("item", [f8(0)], "ValueError"),
        ("item", [f8(3, 0)], "ValueError"), ("item_2d", [f8(2, 5)],
                                             "ValueError"),
        ("item_arg", [f8(3)], "TypingError", "96:12"),
    ]


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]) as oracle_util.check_cases
    reads them."""
    return random_cases() + shape_cases() + error_cases() + item_cases()


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind != "f":
        return got.tobytes() == want.tobytes()
    g = np.ascontiguousarray(got).reshape(-1)
    w = np.ascontiguousarray(want).reshape(-1)
    both = np.isnan(g) & np.isnan(w)
    bits = np.uint32 if g.dtype.itemsize == 4 else np.uint64
    return bool(np.all(both | (g.view(bits) == w.view(bits))))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "np.partition/argpartition/a.item()",
                       same)


if __name__ == "__main__":
    sys.exit(main())
