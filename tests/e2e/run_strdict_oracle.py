#!/usr/bin/env python3
"""Strings as dict keys and values, and lists of strings, inside kernels
(tests/kernels/host/strdict.py) against Numba: word counting (split a
literal text, count in a dict, sorted keys joined), string keys with
d[k], d[k] = v, d[k] += v, `in`, get, pop, setdefault, popitem, copy,
clear, update, ==, loops over keys/values/items in insertion order,
delete then re-insert, non-ASCII and empty keys, 10^4 distinct keys;
string values (int and string keys); dicts of strings filled by and
returned from @njit helpers; hash(s) (refused: Numba gives Python's
per-process salted hash); lists of strings: in, index, count, ==, <, +,
+=, sort, sorted, min, max, append, pop, l[i] = s, insert, remove,
reverse, slicing, and their ValueErrors.
Each case runs through `ufjit call` and through Numba on the same
inputs: strings equal, numbers of the same dtype and value; where Numba
raises, ufjit fails with the same exception; what Numba refuses compiling
ufjit refuses at the kernel's FILE:LINE:COL.

    run_strdict_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S  # noqa: E402
from oracle_util import check_cases, options, same_str_or_array  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "strdict.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    return [
        ("wc_counts", [S("1")], None),
        ("wc_sorted", [S("1")], None),
        ("wc_order", [S("2")], None),
        ("wc_most", [S("1")], None),
        ("wc_get_first", [S("1")], "TypingError"),
        ("keys_basic", [S("1")], None),
        ("keys_basic", [S("2")], None),
        ("keys_missing", [S("1")], "KeyError"),
        ("keys_missing", [S("0")], "KeyError"),
        ("keys_literal", [S("1")], None),
        ("keys_get_pop", [S("1")], None),
        ("keys_get_pop", [S("0")], None),
        ("keys_pop_missing", [S("1")], "KeyError"),
        ("keys_runtime", [S("20")], None),
        ("keys_runtime", [S("3")], None),
        ("keys_many", [S("10000")], None),
        ("keys_many", [S("1")], None),
        ("keys_reinsert", [S("1")], None),
        ("keys_nonascii", [S("1")], None),
        ("keys_empty", [S("1")], None),
        ("keys_popitem", [S("1")], None),
        ("keys_popitem", [S("0")], None),
        ("keys_copy_clear", [S("4")], None),
        ("keys_update", [S("1")], None),
        ("keys_update", [S("0")], None),
        ("keys_eq", [S("1")], None),
        ("keys_eq", [S("2")], None),
        ("keys_tuple_value", [S("3")], None),
        ("keys_bad_type", [S("1")], "TypingError"),
        ("keys_int_into_str", [S("1")], "TypingError"),
        ("vals_int_keys", [S("3")], None),
        ("vals_int_keys", [S("0")], None),
        ("vals_str_keys", [S("2")], None),
        # Numba 0.68's == of dicts of strings is False even for d == d
        ("vals_eq", [S("1")], "numpy"),
        ("vals_eq", [S("2")], "numpy"),
        ("vals_runtime", [S("12")], None),
        ("vals_runtime", [S("2")], None),
        ("vals_missing", [S("5")], "KeyError"),
        ("vals_missing", [S("1")], None),
        ("vals_popitem", [S("2")], None),
        ("vals_aug", [S("12")], None),
        ("vals_aug", [S("0")], None),
        ("across_fill", [S("4")], None),
        ("across_fill", [S("300")], None),
        ("across_return", [S("3")], None),
        ("across_return", [S("500")], None),
        ("hash_str", [S("1")], "refused-here"),
        ("lst_in", [S("1")], None),
        ("lst_in", [S("2")], None),
        ("lst_index_count", [S("1")], None),
        ("lst_index_missing", [S("1")], "ValueError"),
        ("lst_eq", [S("1")], None),
        ("lst_eq", [S("2")], None),
        ("lst_concat", [S("1")], None),
        ("lst_sort", [S("1")], None),
        ("lst_sorted", [S("1")], None),
        ("lst_minmax", [S("1")], None),
        ("lst_mutate", [S("1")], None),
        ("lst_remove_missing", [S("1")], "ValueError"),
        ("lst_slice", [S("1")], None),
        ("lst_slice", [S("3")], None),
        ("lst_grow", [S("100")], None),
        ("lst_grow", [S("3")], None),
        ("lst_min_empty", [S("1")], "StopIteration"),
        ("lst_split_sort", [S("1")], None),
        ("lst_split_sort", [S("0")], None),
        ("lst_sorted_dict", [S("1")], None),
        ("keys_loop_sweep", [S("1000")], None),
        ("keys_loop_sweep", [S("5")], None),
    ]


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "strdict", same_str_or_array)


if __name__ == "__main__":
    sys.exit(main())
