#!/usr/bin/env python3
"""Sets of tuples of numbers, complex numbers and strings inside kernels,
and set(d) of dicts (tests/kernels/host/sets2.py) against Numba: each case
runs through `ufjit call` and through Numba on the same inputs; values
must agree exactly (NaN equal to NaN, strings as text); where Numba
raises, ufjit fails with the same exception. The kernels sort what they
return: the two iterate in different orders.

    run_sets2_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "sets2.py")


def cases():
    """(kernel, inputs, what Numba does[, where ufjit refuses])."""
    a = V("i8", [5, 3, 5, 9, 3, 5, -2, 0, 9, 5])
    b = V("i8", [1, 2, 1, 4, 2, 7, 7, 0, 4, 1])
    c = V("i8", [9, 4, 5, 11, 3])
    d = V("i8", [4, 0, 1, 2, 2])
    e = V("i8", [])
    f = V("f8", [0.5, 1.5, 0.5, -0.0, 0.0, 2.5, 1.5, 3.0, 0.5, 2.5])
    za = V("c16", [1 + 2j, 3j, 1 + 2j, -1, 0, -0.0, 2 - 1j, 3j, 5])
    zb = V("c16", [3j, 4 + 4j, -1, 7j])
    z8 = V("c8", [1 + 1j, 2, 1 + 1j, -3j])
    nan = float("nan")
    return [
        ("tup_literal", [S("5")], None), ("tup_literal", [S("1")], None),
        ("tup_add", [a, b], None), ("tup_add", [e, e], None),
        ("tup_discard", [a, b, S("4")], None),
        ("tup_discard", [c, d, S("3")], None),
        ("tup_remove", [a, b, S("3")], "KeyError"),
        ("tup_remove", [c, d, S("3")], "KeyError"),
        ("tup_remove", [V("i8", [3, 1]), V("i8", [3, 1]), S("3")], None),
        ("tup_pop_all", [a, b], None), ("tup_pop_all", [e, e], None),
        ("tup_pop_empty", [S("1")], "KeyError"),
        ("tup_ops", [a, b, c, d], None), ("tup_ops", [a, b, e, e], None),
        ("tup_ops", [e, e, c, d], None),
        ("tup_inplace", [a, b, c, d], None),
        ("tup_inplace", [e, e, c, d], None),
        ("tup_compare", [a, b, c, d], None),
        ("tup_compare", [c, d, c, d], None),
        ("tup_compare", [V("i8", [9]), V("i8", [4]), c, d], None),
        ("tup_compare", [e, e, c, d], None),
        ("tup_hetero", [a, f], None),
        ("tup_nested", [a, b], None),
        ("tup_nan", [S(repr(nan))], None), ("tup_nan", [S("2.0")], None),
        ("tup_negzero", [S("-0.0")], None), ("tup_negzero", [S("1.0")], None),
        ("tup_many", [S("10000")], None), ("tup_many", [S("3")], None),
        ("tup_from_list", [a, b], None),
        ("tup_from_tuple", [S("3")], None), ("tup_from_tuple", [S("7")], None),
        ("tup_clear_readd", [a, b], None),
        ("tup_loop_break", [a, b, S("9")], None),
        ("tup_loop_break", [a, b, S("8")], None),
        ("tup_to_list", [a, b], None),
        ("tup_sorted", [a, b], None),
        ("cx_basic", [S("1.0"), S("2.0")], None),
        ("cx_basic", [S("0.0"), S("3.0")], None),
        ("cx_basic", [S("4.0"), S("-1.0")], None),
        ("cx_from_array", [za], None),
        ("cx_from_array", [V("c16", [])], None),
        ("cx_ops", [za, zb], None), ("cx_ops", [zb, za], None),
        ("cx_ops", [zb, zb], None),
        ("cx_pop_all", [za], None),
        ("cx_remove", [za, S("5.0")], None),
        ("cx_remove", [za, S("6.0")], "KeyError"),
        ("cx_pop_empty", [S("1.0")], "KeyError"),
        ("cx_nan", [S(repr(nan))], None), ("cx_nan", [S("2.0")], None),
        ("cx_negzero", [S("-0.0")], None),
        ("cx64", [z8], None),
        ("cx_many", [S("10000")], None),
        ("str_literal", [S("0")], None),
        ("str_words", [S("0")], None),
        ("str_runtime", [S("100")], None), ("str_runtime", [S("2")], None),
        ("str_ops", [S("0")], None),
        ("str_remove", [S("0")], None),
        ("str_remove", [S("1")], "KeyError"),
        ("str_pop", [S("0")], None),
        ("str_pop", [S("1")], "KeyError"),
        ("str_many", [S("10000")], None), ("str_many", [S("5")], None),
        ("str_loop", [S("0")], None),
        ("str_clear_copy", [S("0")], None),
        ("dict_int_keys", [a], None),
        ("dict_float_keys", [f], None),
        ("dict_str_keys", [S("0")], None),
        ("dict_values", [S("1")], None),
        ("min_tuples", [S("1")], None),
        ("tup_list_item", [S("1")], "TypingError", "542:10"),
        ("tup_unify", [S("1")], "refused"),
    ]


def same(got, want):
    if want.dtype.kind == "U" or got.dtype.kind == "U":
        return (got.dtype.kind == want.dtype.kind == "U" and
                got.shape == want.shape == () and got.item() == want.item())
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "sets2", same)


if __name__ == "__main__":
    sys.exit(main())
