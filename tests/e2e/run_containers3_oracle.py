#!/usr/bin/env python3
"""The containers' remaining gaps (tests/kernels/host/containers3.py)
against Numba: set(range(...)) and s.update(range(...)), set() of an
array, a list, a tuple, a set and a dict's values() or items(); min() and
max() of sets of tuples and strings (Numba's StopIteration, and its
AssertionError for strings, on an empty set); dicts with complex and
tuple keys (-0.0 and 0.0 two keys, a NaN key never found, every method, typed
Dict.empty); and KeyError's text carrying the missing key. Each case runs
through `ufjit call` and through Numba on the same inputs: values agree
exactly (NaN equal to NaN, strings as text); where Numba raises, ufjit
fails with the same exception. The extra check asserts the exact text of
ufjit's KeyError where Numba's str() of the exception carries the key.

    run_containers3_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import re
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
from oracle_util import (check_cases, materialise, options,  # noqa: E402
                         run_ufjit_outs)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "containers3.py")
NAN = repr(float("nan"))


def cases():
    """(kernel, inputs, what Numba does[, where ufjit refuses])."""
    f = V("f8", [1.0, 2.0, 2.0, -0.0, 0.0, 3.5, 1.0])
    ta = V("i8", [3, 1, 3, 0, -4, 1, 2])
    tb = V("i8", [1, 5, -1, 9, 2, 5, 0])
    re = V("f8", [1.0, 2.0, 1.0, 0.0, -0.0, 2.0, 5.0])
    im = V("f8", [0.0, 1.0, 0.0, -0.0, 0.0, 1.0, -2.0])
    return [
        ("range_stop", [S("5")], None), ("range_stop", [S("0")], None),
        ("range_stop", [S("-3")], None), ("range_stop", [S("20000")], None),
        ("range_step", [S("10"), S("1"), S("-3")], None),
        ("range_step", [S("1"), S("10"), S("3")], None),
        ("range_step", [S("1"), S("10"), S("-3")], None),
        ("range_step", [S("1"), S("10"), S("0")], "ValueError"),
        ("range_update", [S("4")], None), ("range_update", [S("0")], None),
        ("range_len", [S("6")], None), ("range_len", [S("0")], None),
        ("range_float_set", [S("3")], None),
        ("from_array", [f], None), ("from_array", [V("f8", [])], None),
        ("from_list", [S("5")], None), ("from_tuple", [S("2")], None),
        ("dict_values", [S("4")], None), ("dict_values", [S("0")], None),
        ("dict_values_int", [S("10")], None),
        ("dict_values_int", [S("0")], None),
        ("dict_items", [S("2")], None), ("dict_items", [S("0")], None),
        ("dict_items_update", [S("1")], "refused"),
        ("dict_update_set", [S("1")], "refused"),
        ("dict_values_empty", [S("1")], None),
        ("set_copy", [S("3")], None), ("set_copy", [S("1")], None),
        ("set_copy_tuples", [S("1")], None),
        ("set_copy_tuples", [S("2")], None),
        ("dict_items_str", [S("1")], "refused-here"),
        ("minmax_tuples", [ta, tb], None),
        ("minmax_tuples", [V("i8", [7]), V("i8", [7])], None),
        ("minmax_tuples_float", [V("f8", [1.0, 1.0, -0.5, 1.0]),
                                 V("f8", [2.0, -1.0, 3.0, 2.5])], None),
        ("minmax_nested", [S("5")], None), ("minmax_nested", [S("1")], None),
        ("minmax_uint", [S("uint64:9223372036854775811")], None),
        ("minmax_uint", [S("uint64:3")], None),
        ("minmax_mixed", [S("1")], None), ("minmax_mixed", [S("0")], None),
        ("minmax_str", [S("3")], None), ("minmax_str", [S("0")], None),
        ("minmax_tuple_empty", [S("1")], "StopIteration"),
        ("max_tuple_empty", [S("1")], "StopIteration"),
        ("minmax_str_empty", [S("1")], "AssertionError"),
        ("minmax_complex", [S("1")], "TypingError"),
        ("cx_literal", [S("1")], None),
        ("cx_store", [re, im], None),
        ("cx_store", [V("f8", [1.0, float("nan")]), V("f8", [0.0, 0.0])],
         "KeyError"),
        ("cx_lookup", [S("1")], None),
        ("cx_nan", [S(NAN)], None), ("cx_nan", [S("1.0")], None),
        ("cx_methods", [S("1")], None),
        ("cx_iter", [S("5")], None), ("cx_iter", [S("0")], None),
        ("cx_typed", [S("20")], None), ("cx_typed", [S("2")], "KeyError"),
        ("cx64_keys", [S("1")], None),
        ("cx_str_values", [S("1")], None),
        ("cx_many", [S("1000")], None), ("cx_many", [S("3")], None),
        ("cx_copy_update", [S("1")], None),
        ("cx_set_of_keys", [S("1")], None),
        ("cx_missing", [S("1")], "KeyError"),
        ("tup_keys", [ta, tb], None),
        ("tup_keys_mixed", [S("1")], None), ("tup_keys_mixed", [S("2")],
                                             None),
        ("kerr_int", [S("5")], "KeyError"), ("kerr_int", [S("1")], None),
        ("kerr_float", [S("2.5")], "KeyError"),
        ("kerr_float", [S(NAN)], "KeyError"),
        ("kerr_int_in_float", [S("5")], "KeyError"),
        ("kerr_str", [S("1")], "KeyError"),
        ("kerr_str_runtime", [S("7")], "KeyError"),
        ("kerr_tuple", [S("5")], "KeyError"), ("kerr_tuple", [S("2")], None),
        ("pop_missing", [S("5")], "KeyError"),
        ("remove_missing", [S("2.5")], "KeyError"),
    ]


# Numba 0.68's str() of the KeyError each raises (its message as
# `ufjit call` prints it: "KeyError: " then str(e)).
KEY_TEXTS = [
    ("kerr_int", [S("5")], "KeyError: 5"),
    ("kerr_int", [S("-12")], "KeyError: -12"),
    ("kerr_float", [S("2.5")], "KeyError: 2.5"),
    ("kerr_float", [S("1e22")], "KeyError: 1e+22"),
    ("kerr_float", [S(NAN)], "KeyError: nan"),
    ("kerr_int_in_float", [S("5")], "KeyError: 5"),
    ("kerr_str", [S("1")], "KeyError: 'abc'"),
    ("kerr_str_runtime", [S("7")], "KeyError: 'k7'"),
    ("kerr_tuple", [S("5")], "KeyError: (1, 5)"),
    ("cx_missing", [S("1")], "KeyError: 2j"),
    ("cx_store", [V("f8", [1.0, float("nan")]), V("f8", [0.0, 0.0])],
     "KeyError: (nan+0j)"),
    ("remove_missing", [S("2.5")], "KeyError: set.remove(): key not in set"),
]


def key_texts(opt, tmp):
    """The problems of KEY_TEXTS (None when -k filters them all out)."""
    probs, n = [], 0
    for i, (kernel, inputs, text) in enumerate(KEY_TEXTS):
        cid = f"keytext-{kernel}#{i}"
        if opt.filter not in cid:
            continue
        n += 1
        _, args = materialise(cid, inputs, tmp)
        p, _, cmd = run_ufjit_outs(opt.ufjit, FILE, kernel, args, 1, tmp, cid)
        nout = re.search(r"has (\d+) outputs? but 1 -o", p.stderr)
        if nout:  # a tuple's kernel: its count
            p, _, cmd = run_ufjit_outs(opt.ufjit, FILE, kernel, args,
                                       int(nout.group(1)), tmp, cid)
        want = f"ufjit: {text} (in '{kernel}')"
        if p.returncode != 1 or want not in p.stderr.splitlines():
            probs.append(f"{cid}: want the line {want!r}, got exit "
                         f"{p.returncode} {p.stderr.strip()!r}\n  {cmd}")
    return probs if n else None


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
    return check_cases(opt, FILE, cases(), "containers3", same,
                       lambda tmp: key_texts(opt, tmp))


if __name__ == "__main__":
    sys.exit(main())
