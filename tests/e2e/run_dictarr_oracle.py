#!/usr/bin/env python3
"""Dicts whose values are arrays (tests/kernels/host/dictarr.py, Numba's
DictType[K, array(...)]) against Numba: grouping rows by key (stores,
setdefault, d[k] += row), overwriting, writes through d[k] seen by later
reads, views of a value outliving the dict, pop / popitem / del and their
KeyErrors, get with a default, `in`, len, iteration over keys, values and
items, shallow copy, update, list(d.values()), 10^4 keys with rehashes,
string and float keys, 0-d, 2-d and 3-d values, F and readonly values, int / bool / complex / float32
values, layout A, arrays of the caller stored, dicts filled by and
returned from @njit helpers, loops that store new arrays (bounded
memory), and the refusals: a C dict given an A view, another dtype or
ndim, == of such dicts, lists as values, list(d.items()).
Each case runs through `ufjit call` and through Numba on the same
inputs: dtype, shape and values must agree exactly; where Numba raises,
ufjit fails with the same exception; what Numba refuses compiling ufjit
refuses at the kernel's FILE:LINE:COL.

    run_dictarr_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "dictarr.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" refused compiling, "refused" Numba raises
    anything and ufjit refuses, "refused-here" ufjit's gap)."""
    rows = V("f8", [float(i) for i in range(12)], (6, 2))
    keys = V("i8", [3, 1, 3, 2, 1, 3])
    many = V("f8", [float(i % 7) - 2.5 for i in range(40)], (20, 2))
    mkeys = V("i8", [(i * 5) % 9 for i in range(20)])
    seq = V("f8", [float(i) for i in range(7)])
    return [
        ("basic", [S("4")], None),
        ("basic", [S("0")], None),
        ("basic_fill", [S("4")], None),
        ("group_rows", [rows, keys], None),
        ("group_rows", [many, mkeys], None),
        ("group_setdefault", [rows, keys], None),
        ("group_setdefault", [many, mkeys], None),
        ("group_augassign", [rows, keys], None),
        ("group_indices", [keys], None),
        ("group_indices", [mkeys], None),
        ("overwrite", [S("10")], None),
        ("overwrite", [S("1000")], None),
        ("write_through", [S("5")], None),
        ("same_buffer", [S("3")], None),
        ("view_outlives", [S("5")], None),
        ("return_value", [S("6")], None),
        ("pop_value", [S("3")], None),
        ("pop_missing", [S("3")], "KeyError"),
        ("popitem_value", [S("4")], None),
        ("popitem_empty", [S("3")], "KeyError"),
        ("del_item", [S("5")], None),
        ("del_missing", [S("3")], "KeyError"),
        ("get_missing", [S("3")], "KeyError"),
        ("get_default", [S("3")], None),
        ("contains_len", [S("7")], None),
        ("contains_len", [S("0")], None),
        ("iter_keys_values", [S("4")], None),
        ("iter_modify", [S("3")], None),
        ("copy_shallow", [S("3")], None),
        ("update_values", [S("2")], None),
        ("values_list", [S("3")], None),
        ("many_keys", [S("10000")], None),
        ("many_keys", [S("3")], None),
        ("str_keys", [S("2")], None),
        ("str_keys_missing", [S("2")], "KeyError"),
        ("float_keys", [S("5")], None),
        ("float_keys_missing", [S("2")], "KeyError"),
        ("two_d", [S("5")], None),
        ("three_d", [S("2")], None),
        ("dtypes", [S("4")], None),
        ("layout_a_first", [seq], None),
        ("layout_c_then_a", [seq], "TypingError", "408:5"),
        ("dtype_mismatch", [S("3")], "TypingError", "416:5"),
        ("ndim_mismatch", [S("3")], "TypingError", "424:5"),
        ("literal", [S("3")], None),
        ("args_stored", [seq, seq], None),
        ("across_fill", [S("4")], None),
        ("across_fill", [S("300")], None),
        ("across_return", [S("5")], None),
        ("loop_rebuild", [S("100")], None),
        ("loop_overwrite", [S("100")], None),
        ("clear_reinsert", [S("4")], None),
        ("dict_eq", [S("3")], "refused"),
        ("list_value", [S("3")], "TypingError"),
        ("list_setdefault", [S("3")], "TypingError"),
        ("items_list", [S("3")], "refused-here"),
        ("setdefault_first", [S("3")], "TypingError"),
        ("layout_f", [S("3")], None),
        ("global_value", [S("3")], None),
        ("global_write", [S("3")], "TypingError", "572:5"),
        ("get_mixed_layout", [seq], None),
        ("zero_d", [S("3")], None),
        ("overwrite_while_walking", [S("5")], None),
        ("overwrite_while_walking", [S("0")], None),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return bool(np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "dictarr", same)


if __name__ == "__main__":
    sys.exit(main())
