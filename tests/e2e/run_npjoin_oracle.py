#!/usr/bin/env python3
"""np.concatenate, np.stack, np.hstack, np.vstack, np.row_stack,
np.dstack, np.column_stack, np.append, np.array and np.asarray inside
kernels
(tests/kernels/host/npjoin.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; results must agree
exactly (a join only copies and converts): dtype, shape, values (NaN equal
to NaN) and, for results of two or more axes, C or F order as Numba lays
them out. Where Numba raises, ufjit fails with the same exception; what
Numba refuses while compiling ufjit refuses at the kernel's FILE:LINE:COL.

    run_npjoin_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npjoin.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError": fails while compiling, "refused": raises
    whatever the values (ragged nested tuples: "ValueError: incompatible
    sequence shape"), where ufjit refuses while compiling)."""
    nan = V("f8", [1.0, np.nan, -np.inf, np.inf, -0.0])
    return [
        # concatenate: dtypes unified as Numba unifies them
        ("cat2", [f8(3), f8(4)], None),
        ("cat2", [f8(3), i4(2)], None),
        ("cat2", [i1(3, lo=-128, hi=128), u1(2, lo=0, hi=256)], None),
        ("cat2", [i8(2), u8(3, lo=0, hi=99)], None),
        ("cat2", [b1(3), i1(2)], None),
        ("cat2", [f4(2), i2(3)], None), ("cat2", [f4(2), i4(3)], None),
        ("cat2", [c8(2), f8(2)], None), ("cat2", [b1(4), b1(3)], None),
        ("cat2", [c16(2, 2), c16(1, 2)], None),
        ("cat2", [nan, f4(2, special=True)], None),
        # layouts: F, strided, reversed, empty
        ("cat2", [f8(2, 3).F, f8(4, 3).F], None),
        ("cat2", [f8(2, 3).F, f8(4, 3)], None),
        ("cat2", [f8(5, 3).view("::-2"), i4(4, 6).view("1:, ::2")], None),
        ("cat2", [f8(3, 4, 2).view("::-1, :, ::-1"), f8(1, 4, 2).F], None),
        ("cat2", [f8(0), f8(3)], None), ("cat2", [f8(0, 3), f8(0, 3)], None),
        ("cat2", [f8(2, 0), f8(3, 0)], None),
        ("cat2", [f8(40, 30), f8(20, 30)], None),
        ("cat3", [f8(2, 3), f8(2, 1), f8(2, 5), S("1")], None),
        ("cat3", [f8(2, 3).F, f8(2, 1).F, f8(2, 5).F, S("-1")], None),
        ("cat3", [i4(2, 3), f4(4, 3), u1(1, 3, lo=0, hi=9), S("-2")], None),
        ("cat3", [f8(2, 3, 4), f8(2, 1, 4), f8(2, 2, 4).view(":, ::-1"),
                  S("int32:1")], None),
        ("cat3", [f8(3, 2, 40), f8(3, 2, 30), f8(3, 2, 20).F, S("2")], None),
        ("cat3", [f8(2, 3), f8(2, 3), f8(2, 3), S("2")], "IndexError"),
        ("cat3", [f8(2, 3), f8(2, 3), f8(2, 3), S("-3")], "IndexError"),
        ("cat_axis", [f8(2, 3), f8(2, 4), S("0")], "ValueError"),
        ("cat_axis", [f8(2, 3, 4), f8(2, 3, 5), S("1")], "ValueError"),
        ("cat_axis", [f8(2, 3, 4), f8(2, 3, 5), S("2")], None),
        ("cat_axis", [f8(3), f8(4), S("-1")], None),
        ("cat_axis", [f8(3), f8(4), S("uint8:0")], None),
        ("cat_var", [f8(2, 2), f8(2, 1)], None),
        ("cat_var", [i8(3, 0), i8(3, 2)], None),
        ("cat_one", [f8(3, 2).view("::-1")], None),
        ("cat_kw", [i2(2, 2), i2(3, 2)], None),
        ("cat_views", [f8(9)], None), ("cat_views", [i8(4, 3)], None),
        ("cat_loop", [f8(3), S("4")], None),
        ("cat_sum", [f8(3, 2), f8(3, 4)], None),
        ("cat2", [S("2.5"), S("1.5")], "TypingError"),
        ("cat2", [f8(3, 2), f8(3)], "TypingError"),
        ("cat_0d", [f8(1), f8(1)], "TypingError"),
        ("cat_none", [f8(3), f8(2)], "TypingError"),
        ("cat_float_axis", [f8(3, 2), f8(3, 2)], "TypingError"),
        ("cat_list", [f8(3), f8(2)], "TypingError"),
        ("cat_array_arg", [f8(3, 2)], "TypingError"),
        # stack
        ("stack2", [f8(3), f8(3)], None), ("stack2", [f8(2, 3), i4(2, 3)], None),
        ("stack_0d", [f8(1), i4(1)], None),
        ("stack2", [f8(2, 3).F, f8(2, 3).F], None),
        ("stack2", [f8(0), f8(0)], None),
        ("stack2", [f8(3), f8(4)], "ValueError"),
        ("stack_axis", [f8(2, 3), f8(2, 3), S("1")], None),
        ("stack_axis", [f8(2, 3), f8(2, 3).view("::-1"), S("2")], None),
        ("stack_axis", [f8(2, 3), f8(2, 3), S("-3")], None),
        ("stack_axis", [f8(2, 3), f8(2, 3), S("3")], "IndexError"),
        ("stack_axis", [f8(2, 3), f8(2, 3), S("-4")], "IndexError"),
        ("stack_axis", [f8(2, 3), f8(3, 2), S("0")], "ValueError"),
        ("stack3", [f8(4, 2), f8(4, 2).F, f8(4, 2)], None),
        ("stack3", [b1(5), b1(5), b1(5)], None),
        # hstack / vstack / row_stack / dstack / column_stack by ndim
        ("hstack_0d", [f8(1), f8(1)], None),
        ("hstack2", [f8(3), i4(2)], None),
        ("hstack2", [f8(2, 1), f8(2, 3)], None),
        ("hstack2", [f8(2, 1), f8(3, 3)], "ValueError"),
        ("hstack2", [f8(2, 2, 2), f8(2, 1, 2)], None),
        ("hstack3", [f8(2), f8(0), f8(3)], None),
        ("vstack_0d", [f8(1), c8(1)], None),
        ("vstack2", [f8(3), f8(3)], None),
        ("vstack2", [f8(3), f8(2)], "ValueError"),
        ("vstack2", [f8(1, 3), f8(2, 3).F], None),
        ("vstack2", [f8(1, 3), f8(2, 4)], "ValueError"),
        ("vstack2", [i4(2, 2, 2), i4(1, 2, 2)], None),
        ("row_stack2", [f8(3), f8(3)], None),
        ("vstack_rows", [f8(5), S("6")], None),
        ("dstack_0d", [b1(1), b1(1)], None),
        ("dstack2", [f8(3), i4(3)], None),
        ("dstack2", [f8(3), f8(4)], "ValueError"),
        ("dstack2", [f8(2, 3), f8(2, 3)], None),
        ("dstack2", [f8(2, 3), f8(3, 2)], "ValueError"),
        ("dstack2", [f8(2, 3, 1), f8(2, 3, 2)], None),
        ("dstack2", [f8(2, 3, 1), f8(2, 2, 2)], "ValueError"),
        ("column_stack2", [f8(3), f8(3)], None),
        ("column_stack2", [f8(3), f8(3, 2)], None),
        ("column_stack2", [f8(3, 2).F, f8(3, 2).F], None),
        ("column_stack2", [f8(3), f8(2, 2)], "ValueError"),
        ("column_stack_0d", [f8(1), f8(1)], "TypingError"),
        ("column_stack2", [f8(3), f8(3, 1, 1)], "TypingError"),
        ("column_stack3", [i4(4), f4(4, 2).view("::-1"), b1(4)], None),
        # append
        ("append2", [f8(2, 2), S("3")], None),
        ("append2", [S("3"), S("4.5")], None),
        ("append2", [i4(2), f8(3, 2).F], None),
        ("append2", [f8(2), S("true")], None),
        ("append2", [f8(2), S("1+2j")], None),
        ("append2", [i8(3, 2).view("::-1, ::-1"), u1(0, lo=0, hi=9)], None),
        ("append_0d", [f8(1), i2(2)], None),
        ("append_none", [f8(3), f8(2, 2)], None),
        ("append_axis", [f8(2, 2), f8(2, 1), S("1")], None),
        ("append_axis", [f8(2, 2), f8(3, 2), S("0")], None),
        ("append_axis", [f8(2, 2), f8(3, 2), S("1")], "ValueError"),
        ("append_axis", [f8(2, 2), f8(2, 2), S("2")], "IndexError"),
        ("append_axis", [f8(2, 2), S("3"), S("0")], "TypingError"),
        ("append_axis", [f8(2, 2), f8(2), S("0")], "TypingError"),
        ("append_tuple", [i4(2)], None),
        ("append_tuple_first", [f4(2)], None),
        ("append_num", [u8(3, lo=0, hi=9)], None),
        ("append_num", [b1(2)], None),
        ("append_bad_axis", [f8(2), f8(2)], "TypingError"),
        # np.array / np.asarray
        ("array_pair", [S("1"), S("2.5")], None),
        ("array_pair", [S("true"), S("int8:3")], None),
        ("array_pair", [S("uint8:3"), S("int8:-3")], None),
        ("array_pair", [S("1+2j"), S("float32:2.5")], None),
        ("array_nested", [S("3")], None),
        ("array_nested_dt", [S("3")], None),
        ("array_scalar", [S("2.5")], None), ("array_scalar", [S("true")], None),
        ("array_scalar", [S("uint16:7")], None),
        ("array_dtype_kw", [S("5")], None),
        ("array_of_array", [f8(3)], "TypingError"),
        ("array_ragged", [S("3")], "refused"),
        ("asarray_same", [f8(4)], None),
        ("asarray_same", [i4(3, 2).view("::-1")], None),
        ("asarray_dt", [f8(3, 2).F], None),
        ("asarray_dt", [f8(5).view("::-2")], None),
        ("asarray_dt", [i4(4)], None),
        ("asarray_tuple", [S("2.5")], None),
        ("asarray_scalar_dt", [S("2")], None),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.ndim >= 2 and got.size > 1 and \
            got.flags.f_contiguous != want.flags.f_contiguous:
        return False
    if got.dtype.kind in "fc":
        return np.array_equal(got, want, equal_nan=True)
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npjoin", same)


if __name__ == "__main__":
    sys.exit(main())
