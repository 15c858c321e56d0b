#!/usr/bin/env python3
"""Typed dicts of numbers inside kernels (tests/kernels/host/dicts.py)
against Numba: each case runs through `ufjit call` and through Numba on
the same inputs; dtype, shape and values must agree exactly (NaN equal to
NaN); where Numba raises, ufjit fails with the same exception, and what
Numba refuses while compiling ufjit refuses at the kernel's FILE:LINE:COL.

    run_dicts_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "dicts.py")


def cases():
    """(kernel, inputs, what Numba does[, where ufjit refuses])."""
    keys = V("i8", [5, 3, 5, 9, 3, 5, -2, 0, 9, 5])
    fk = V("f8", [0.0, -0.0, np.nan, 1.5, np.nan, 0.0, -0.0, np.inf])
    return [
        ("literal", [S("7.5")], None),
        ("count", [keys], None), ("count", [i8(0)], None),
        ("count", [i1(200, lo=-128, hi=128)], None),
        ("count", [u8(50, lo=2**64 - 20, hi=2**64 - 1)], None),
        ("count", [f4(40, lo=-3, hi=3).view("::-2")], None),
        ("count", [b1(9)], None),
        ("count", [fk], None),
        ("getitem", [keys, S("9")], None),
        ("getitem", [keys, S("int8:-2")], None),
        ("getitem", [keys, S("4")], "KeyError"),
        ("getitem", [f8(5), S("1")], "KeyError"),
        ("contains", [keys, S("3")], None),
        ("contains", [keys, S("4")], None),
        ("float_keys", [fk], None),
        ("pop", [keys, S("9")], None), ("pop", [keys, S("77")], None),
        ("pop_missing", [S("1")], None),
        ("pop_missing", [S("3")], "KeyError"),
        ("setdefault", [keys], None),
        ("popitem", [S("5")], None), ("popitem", [S("0")], "KeyError"),
        ("clear_copy", [keys], None),
        ("views", [keys], None), ("views", [f8(6)], None),
        ("delete_reinsert", [S("10")], None),
        ("delete_reinsert", [S("5000")], None),
        ("complex_values", [V("c16", [1 + 2j, -3.5j, np.nan])], None),
        ("narrow_keys", [i4(5, lo=-3, hi=4)], None),
        ("bool_keys", [b1(7)], None),
        ("truth", [i8(0)], None), ("truth", [i8(2)], None),
        ("mutate_in_loop", [S("1")], None),
        ("helper_dict", [f8(6)], None),
        ("comprehension", [keys], None),
        ("augmented", [i8(9, lo=0, hi=50), S("1")], None),
        ("augmented", [V("i8", [2, 6]), S("3")], "KeyError"),
        ("never_stored", [], "TypingError", "203:5"),
        ("float_key_lookup", [S("1.0")], "TypingError", "210:14"),
        ("mixed_literal", [], "TypingError", "215:19"),
        ("value_narrowing", [S("2.5")], "TypingError", "222:5"),
        ("get_no_default", [S("1")], "refused-here"),
        ("returns_dict", [S("1")], "refused-here"),
        ("not_dict", [S("1")], "TypingError", "241:12"),
        ("array_key", [f8(3)], "TypingError", "247:7"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "dicts", same)


if __name__ == "__main__":
    sys.exit(main())
