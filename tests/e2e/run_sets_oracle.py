#!/usr/bin/env python3
"""Sets of numbers inside kernels (tests/kernels/host/sets.py) against
Numba: each case runs through `ufjit call` and through Numba on the same
inputs; dtype, shape and values must agree exactly (NaN equal to NaN);
where Numba raises, ufjit fails with the same exception, and what Numba
refuses while compiling ufjit refuses at the kernel's FILE:LINE:COL. The
kernels sort what they return: the two iterate in different orders.

    run_sets_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, f4, f8, i1, i4, i8, u8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "sets.py")


def cases():
    """(kernel, inputs, what Numba does[, where ufjit refuses])."""
    keys = V("i8", [5, 3, 5, 9, 3, 5, -2, 0, 9, 5])
    other = V("i8", [9, 4, 0, 11, 4])
    fk = V("f8", [0.0, -0.0, np.nan, 1.5, np.nan, 0.0, -0.0, np.inf])
    return [
        ("literal", [S("5")], None), ("literal", [S("2")], None),
        ("from_array", [keys], None), ("from_array", [i8(0)], None),
        ("from_array", [i1(200, lo=-128, hi=128)], None),
        ("from_array", [u8(50, lo=2**64 - 20, hi=2**64 - 1)], None),
        ("from_array", [f4(40, lo=-3, hi=3).view("::-2")], None),
        ("from_array", [b1(9)], None),
        ("from_array", [fk], None),
        ("from_list", [keys], None), ("from_list", [f8(7)], None),
        ("from_tuple", [S("2")], None), ("from_tuple", [S("7")], None),
        ("add_discard", [i8(30, lo=0, hi=100)], None),
        ("remove", [keys, S("9")], None),
        ("remove", [keys, S("4")], "KeyError"),
        ("pop_one", [S("2.5")], None), ("pop_one", [S("int8:-3")], None),
        ("pop_empty", [S("1")], "KeyError"),
        ("pop_all", [keys], None), ("pop_all", [f8(0)], None),
        ("clear_copy", [keys], None),
        ("update", [i8(6, lo=-5, hi=20)], None),
        ("float_keys", [fk], None),
        ("widen", [S("2.5")], None),
        ("contains_cast", [S("1.5")], None),
        ("contains_cast", [S("3.0")], None),
        ("contains_cast", [S("int32:2")], None),
        ("discard_cast", [S("1.0")], "refused"),
        ("truth", [S("0")], None), ("truth", [S("3")], None),
        ("loop_break", [keys, S("9")], None),
        ("loop_break", [keys, S("4")], None),
        ("helpers", [keys], None),
        ("ops", [keys, other], None), ("ops", [keys, i8(0)], None),
        ("inplace", [keys, other], None),
        ("methods", [keys, other], None),
        ("compare", [keys, other], None),
        ("compare", [V("i8", [9, 0]), keys], None),
        ("compare", [keys, keys], None),
        ("compare", [V("i8", [1, 2]), V("i8", [3])], None),
        ("self_ops", [keys], None),
        ("growth", [S("10")], None), ("growth", [S("5000")], None),
        ("to_list", [keys], None), ("to_list", [f4(9)], None),
        ("minmax", [keys], None), ("minmax", [b1(6)], None),
        ("minmax", [f8(0)], "StopIteration"),
        ("sum_set", [keys], "TypingError", "350:16"),
        ("never_added", [], "TypingError", "259:5"),
        ("remove_float", [S("1.0")], "TypingError", "266:5"),
        ("op_list", [], "TypingError", "273:9"),
        ("union_list", [], "TypingError", "280:17"),
        ("mixed_sets", [i4(3)], "TypingError", "288:16"),
        ("set_2d", [f8(2, 2)], "TypingError", "293:13"),
        ("mixed_tuple", [S("2.5")], "TypingError", "299:13"),
        ("not_set", [S("1")], "TypingError", "306:12"),
        ("returns_set", [S("1")], "refused-here"),
        ("tuple_items", [S("1")], None),
        ("complex_items", [S("1+2j")], None),
        ("in_prange", [S("10")], "refused"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "sets", same)


if __name__ == "__main__":
    sys.exit(main())
