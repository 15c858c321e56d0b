#!/usr/bin/env python3
"""np.ndindex, np.ndenumerate and np.nditer as the iterables of for loops
(tests/kernels/host/npiter.py), and enumerate / zip / a.flat over arrays,
against Numba: each case runs through `ufjit call` and through Numba on the
same inputs; dtype, shape and values must agree exactly (the kernels
record what each iteration yields, in order: order, count and values are
compared). Where Numba raises, ufjit fails with the same exception; what
Numba refuses compiling ufjit refuses at the kernel's FILE:LINE:COL;
"refused-here" marks what Numba runs and ufjit refuses (README).

    run_npiter_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npiter.py")


def layouts(d):
    """An array of dtype maker d in C and F order, as views, empty."""
    return [d(2, 3), d(3, 4).F, d(4, 5).view("::-1, 1::2"),
            d(2, 3, 4), d(3, 2, 2).F, d(5, 6, 3).view("1::2, ::-2, 1"),
            d(7), d(9).view("::-3"), d(0), d(2, 0), d(0, 3).F, d(1, 1, 1)]


def ndindex_cases():
    out = [("nd_shape", [a]) for a in layouts(f8)]
    out += [
        ("nd_shape", [i4(3, 4)]), ("nd_shape", [b1(2, 3).F]),
        ("nd_sum", [f8(30, 40)]), ("nd_sum", [f8(30, 40).F]),
        ("nd_sum", [f8(9, 8).view("::2, ::-3")]), ("nd_sum", [f8(0, 4)]),
        ("nd_sum_loops", [f8(30, 40)]),
    ]
    for m, n in ((3, 4), (1, 1), (0, 5), (5, 0), (2, -1), (-3, 2), (0, -1),
                 (-1, -1), (1, 7)):
        out.append(("nd_ints", [S(str(m)), S(str(n))]))
    out += [
        ("nd_ints", [S("uint8:3"), S("int16:4")]),
        ("nd_ints", [S("uint64:2"), S("int32:3")]),
        ("nd_ints3", [S("2"), S("3"), S("4")]),
        ("nd_ints3", [S("2"), S("0"), S("4")]),
        ("nd_ints3", [S("2"), S("-5"), S("3")]),
        ("nd_unpack", [S("2"), S("3")]), ("nd_unpack", [S("0"), S("3")]),
        ("nd_star", [f8(2, 3)]), ("nd_star", [f8(3, 2, 2).F]),
        ("nd_star", [f8(5)]), ("nd_star", [f8(0, 2)]),
        ("nd_tuple_literal", [S("2")]), ("nd_tuple_literal", [S("0")]),
        ("nd_one", [S("4")]), ("nd_one", [S("0")]), ("nd_one", [S("-2")]),
        ("nd_none", []),
        ("nd_zero_d", [S("4.5")]),
        ("nd_control", [S("4"), S("3")]), ("nd_control", [S("2"), S("3")]),
        ("nd_control", [S("0"), S("3")]),
        ("nd_last", [S("3"), S("4")]),
        ("nd_nested", [S("4")]), ("nd_nested", [S("0")]),
        ("nd_alloc", [S("3"), S("4")]),
        ("nd_float", [S("2.0")], "TypingError", "157:27"),
        ("nd_bool", [S("true")], "TypingError", "165:27"),
        ("nd_mixed", [S("2"), S("3")], "TypingError", "173:27"),
        ("nd_bound", [S("3")], None),
        ("nd_kw", [S("3")], "refused"),
        ("nd_unpack_bad", [S("2"), S("2")], "refused"),
    ]
    return out


def ndenumerate_cases():
    out = [("en_order", [a]) for a in layouts(f8)]
    out += [("en_order", [a]) for a in
            (i1(3, 4, lo=-128, hi=128), u8(2, 3).F, b1(4, 2), c16(3, 2),
             c8(2, 2).F, f4(3, 3, special=True), u1(0, 2),
             i8(6, 5).view("::-2, ::2"))]
    out += [
        ("en_two", [f8(3, 4)]), ("en_two", [f8(3, 4).F]),
        ("en_two", [f8(6, 5).view("1::2, ::-1")]), ("en_two", [f8(0, 3)]),
        ("en_tuple", [i4(3, 2)]), ("en_tuple", [b1(4)]),
        ("en_zero_d", [S("2.5")]), ("en_zero_d", [S("int8:-3")]),
        ("en_write", [f8(3, 4)]), ("en_write", [i8(2, 3).F]),
        ("en_write", [f8(6, 4).view("::-2, 1:")]),
        ("en_complex", [c16(2, 3).F]),
        ("en_order", [V("f8", [np.nan, np.inf, -np.inf, -0.0])]),
        ("en_scalar", [S("2.5")], "TypingError"),
    ]
    return out


def nditer_cases():
    out = [("it_order", [a]) for a in layouts(f8)]
    out += [("it_order", [a]) for a in
            (i1(3, 4, lo=-128, hi=128), b1(2, 3).F, c16(2, 3).F,
             f4(3, 4, special=True), u8(2, 3, 2).F)]
    out += [
        ("it_write", [f8(3, 4)]), ("it_write", [f8(3, 4).F]),
        ("it_write", [i4(5, 4).view("::-2, ::3")]), ("it_write", [f8(0)]),
        ("it_view_write", [f8(5, 3)]), ("it_view_write", [f8(5, 3).F]),
        ("it_pair", [f8(2, 3), f8(3)]), ("it_pair", [f8(3), f8(2, 3)]),
        ("it_pair", [f8(2, 3), f8(2, 3)]),
        ("it_pair", [f8(2, 3).F, f8(2, 3).F]),
        ("it_pair", [f8(2, 3).F, f8(2, 3)]),
        ("it_pair", [f8(3, 2).F, f8(2)]),
        ("it_pair", [f8(4, 3).view("::-1, ::2"), f8(2)]),
        ("it_pair", [f8(2, 2, 3), f8(2, 3).F]),
        ("it_pair", [f8(0, 3), f8(3)]),
        ("it_pair", [f8(2, 3), f8(2)], "ValueError"),
        ("it_pair", [f8(2, 3), f8(1, 3)], "ValueError"),
        ("it_pair", [f8(2, 1), f8(2, 3)], "ValueError"),
        ("it_pair", [f8(0, 3), f8(2)], "ValueError"),
        ("it_scalar", [f8(2, 3), S("1.5")]),
        ("it_scalar", [i4(4).F, S("int8:-2")]),
        ("it_number", [S("2.5")]), ("it_number", [S("int16:7")]),
        ("it_three", [f8(3, 4), f8(4), f8(3, 4).F]),
        ("it_three", [f8(2, 4), f8(3), f8(2, 4)], "ValueError"),
        ("it_zero_d", [S("1.25")]),
        ("it_ndim", [f8(3, 4)]),
        ("it_item", [f8(3, 4)]), ("it_item", [f8(3, 4).F]),
        ("it_list", [f8(3)], "refused"),
        ("it_empty_tuple", [f8(3)], "TypingError"),
    ]
    return out


def item_cases():
    return [
        ("item", [f8(1)]), ("item", [i4(1, 1, 1).F]), ("item", [b1(1)]),
        ("item", [c8(1, 1)]), ("item", [u8(3).view("1:2")]),
        ("item", [V("f8", [np.nan])]),
        ("item", [f8(3)], "ValueError"), ("item", [f8(0)], "ValueError"),
        ("item", [f8(2, 2)], "ValueError"),
        ("item_of_view", [f8(3, 4)]), ("item_of_view", [i8(2, 5).F]),
        ("item_zero_d", [S("2.5")]), ("item_zero_d", [S("int16:-7")]),
        ("item_arg", [f8(3)], "TypingError"),
    ]


def python_cases():
    return [
        ("enum_ndindex", [S("3"), S("4")]), ("enum_ndindex", [S("0"), S("4")]),
        ("enum_ndenumerate", [f8(3, 4).F]),
        ("enum_ndenumerate", [f8(5, 4).view("::-2, 1:")]),
        ("enum_nditer", [f8(3, 4).F]), ("enum_nditer", [f8(0, 4)]),
        ("py_enumerate_zip", [f8(5), f8(7)]),
        ("py_enumerate_zip", [f8(4, 3).view("::-1, 1"), i4(4)]),
        ("py_flat", [f8(3, 4).F]), ("py_flat", [f8(5, 4).view("::2, ::-1")]),
        ("py_flat", [i8(2, 3)]),
    ]


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and \
        np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    cases = (ndindex_cases() + ndenumerate_cases() + nditer_cases() +
             item_cases() + python_cases())
    return check_cases(opt, FILE, cases, "npiter", same)


if __name__ == "__main__":
    sys.exit(main())
