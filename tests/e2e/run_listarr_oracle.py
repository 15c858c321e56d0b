#!/usr/bin/env python3
"""Lists whose items are arrays (tests/kernels/host/listarr.py, Numba's
list(array(...))) against Numba: each case runs through `ufjit call` and
through Numba on the same inputs; dtype, shape and values must agree
exactly (NaN equal to NaN). Where Numba raises, ufjit fails with the same
exception; what Numba refuses compiling ufjit refuses at the kernel's
FILE:LINE:COL; returning a list from the kernel called is refused by
ufjit only (its API passes arrays).

    run_listarr_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, f8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "listarr.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" refused compiling, "refused-here" ufjit's gap)."""
    nan = V("f8", [1.0, np.nan, -np.inf, 0.5])
    return [
        ("pieces", [f8(7)], None), ("pieces", [f8(0)], None),
        ("pieces", [f8(12).view("::-2")], None), ("pieces", [nan], None),
        ("survive", [S("0")], None), ("survive", [S("6")], None),
        ("literal", [f8(3), f8(5)], None),
        ("literal", [f8(2), f8(9).view("::-1")], None),
        ("methods", [f8(4)], None), ("methods", [f8(0)], None),
        ("comprehension", [f8(3), S("4")], None),
        ("comprehension", [f8(0), S("0")], None),
        ("through_calls", [f8(3)], None),
        ("rows2d", [f8(2, 2)], None),
        ("index_error", [f8(2), S("1")], None),
        ("index_error", [f8(2), S("-2")], None),
        ("index_error", [f8(2), S("2")], "IndexError"),
        ("index_error", [f8(2), S("-3")], "IndexError"),
        ("set_error", [f8(2), S("-3")], "IndexError"),
        ("pop_empty", [f8(2)], "IndexError"),
        ("bad_unify", [f8(2)], "TypingError"),
        ("bad_ndim", [f8(2)], "TypingError"),
        ("bad_sum", [f8(2)], "TypingError"),
        ("bad_array", [f8(2)], "TypingError"),
        ("returned", [f8(2)], "refused-here"),
        ("split_n", [f8(6), S("3")], None), ("split_n", [f8(6), S("-2")], None),
        ("split_n", [f8(0), S("2")], None),
        ("split_n", [f8(12).view("::-2"), S("int32:2")], None),
        ("split_n", [f8(7), S("3")], "ValueError"),
        ("split_n", [f8(6), S("0")], "ZeroDivisionError"),
        ("array_split_n", [f8(2, 7), S("3"), S("1")], None),
        ("array_split_n", [f8(7, 2), S("5"), S("-2")], None),
        ("array_split_n", [f8(3, 2), S("2"), S("2")], "IndexError"),
        ("hsplit_n", [f8(2, 6), S("3")], None),
        ("cat_list", [f8(2)], "TypingError"),
        ("stack_list", [f8(2)], "TypingError"),
        ("vstack_list", [f8(2)], "TypingError"),
        ("points", [f8(5)], None), ("points", [f8(8).view("::-3")], None),
        ("points", [nan], None), ("points", [f8(0)], "IndexError"),
        ("mixed_tuples", [f8(1)], None),
        ("tuples_as", [f8(3)], None),
        ("tuples_empty", [f8(1)], "IndexError"),
        ("tuples_bad", [f8(1)], "TypingError"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return bool(np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "listarr", same)


if __name__ == "__main__":
    sys.exit(main())
