#!/usr/bin/env python3
"""Container operations inside kernels (tests/kernels/host/containers.py)
against Numba: `del d[k]` (int, float and string keys, tuple and string
values, KeyError), delete then re-insert, 10^4 keys deleted and the dict
refilled; `del l[i]` (negative indices, IndexError, empty lists, lists of
floats, strings and tuples); `del l[a:b:c]` (every step sign, clipped
bounds, step 0's ValueError); several targets; the refusals (del of an
array's, a string's or a tuple's item, of a variable, a float index);
list(d), list(d.keys()), list(d.values()), list(d.items()), sorted(d),
sorted(d.values()), sorted(d.items()) (tuples compared field by field),
key= and reverse=, string keys and values, set(d).
Each case runs through `ufjit call` and through Numba on the same
inputs: strings equal, numbers of the same dtype and value; where Numba
raises, ufjit fails with the same exception; what Numba refuses compiling
ufjit refuses at the kernel's FILE:LINE:COL.

    run_containers_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys

sys.dont_write_bytecode = True

try:
    import numpy as np  # noqa: F401
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, f8  # noqa: E402
from oracle_util import check_cases, options, same_str_or_array  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "containers.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    return [
        # del d[k]
        ("del_dict_int", [S("1")], None),
        ("del_dict_int", [S("0")], None),
        ("del_dict_int", [S("5")], None),
        ("del_dict_int", [S("7")], "KeyError"),
        ("del_dict_int", [S("-1")], "KeyError"),
        ("del_dict_str", [S("0")], None),
        ("del_dict_str", [S("1")], "KeyError"),
        ("del_dict_str", [S("2")], None),
        ("del_dict_reinsert", [S("20")], None),
        ("del_dict_reinsert", [S("1")], None),
        ("del_dict_all", [S("10000")], None),
        ("del_dict_all", [S("1")], None),
        ("del_dict_float_key", [S("2.5")], None),
        ("del_dict_float_key", [S("3.5")], "KeyError"),
        ("del_dict_tuple_value", [S("1")], None),
        ("del_dict_tuple_value", [S("2")], None),
        ("del_dict_str_value", [S("2")], None),
        ("del_dict_in_loop", [S("10")], None),
        ("del_dict_in_loop", [S("0")], None),
        # del l[i]: Numba's reflected list pops (its IndexErrors are pop's)
        ("del_list_index", [S("0")], None),
        ("del_list_index", [S("-1")], None),
        ("del_list_index", [S("2")], None),
        ("del_list_index", [S("-5")], None),
        ("del_list_index", [S("5")], "IndexError"),
        ("del_list_index", [S("-6")], "IndexError"),
        ("del_list_empty", [S("0")], "IndexError"),
        ("del_list_empty", [S("-1")], "IndexError"),
        ("del_list_float", [S("1")], None),
        ("del_list_float", [S("-4")], None),
        ("del_list_str", [S("-2")], None),
        ("del_list_str", [S("0")], None),
        ("del_list_str", [S("4")], "IndexError"),
        ("del_list_tuple", [S("0")], None),
        ("del_list_tuple", [S("3")], None),
        ("del_list_drain", [S("100")], None),
        ("del_list_drain", [S("0")], None),
        # del l[a:b:c]: Numba 0.68 raises NotImplementedError for a step
        # other than 1; ufjit deletes as Python does
        ("del_slice", [S("2"), S("5"), S("1")], None),
        ("del_slice", [S("1"), S("1"), S("1")], None),
        ("del_slice", [S("-3"), S("100"), S("1")], None),
        ("del_slice", [S("-100"), S("3"), S("1")], None),
        ("del_slice", [S("7"), S("2"), S("1")], None),
        ("del_slice", [S("8"), S("1"), S("-3")], "numpy"),
        ("del_slice", [S("0"), S("10"), S("-2")], "numpy"),
        ("del_slice", [S("9"), S("-100"), S("-2")], "numpy"),
        ("del_slice", [S("-100"), S("100"), S("3")], "numpy"),
        ("del_slice", [S("1"), S("9"), S("4")], "numpy"),
        ("del_slice", [S("0"), S("10"), S("1")], None),
        ("del_slice", [S("1"), S("9"), S("0")], "ValueError"),
        ("del_slice_forms", [S("20")], "numpy"),
        ("del_slice_forms", [S("5")], "numpy"),
        ("del_slice_head", [S("5")], None),
        ("del_slice_head", [S("1")], None),
        ("del_slice_big", [S("10000")], "numpy"),
        ("del_slice_str", [S("1"), S("-1"), S("2")], "numpy"),
        ("del_slice_str", [S("2"), S("4"), S("1")], None),
        # several targets, refusals
        ("del_several", [S("0")], None),
        ("del_array", [f8(3)], "TypingError", "233:9"),
        ("del_string", [S("1")], "TypingError", "240:9"),
        ("del_tuple", [S("1")], "TypingError", "247:9"),
        ("del_variable", [S("1")], "TypingError", "254:9"),
        ("del_list_float_index", [S("1")], "refused", "261:11"),
        # lists from dicts
        ("list_keys", [S("11")], None),
        ("list_keys", [S("0")], None),
        ("list_values", [S("11")], None),
        ("list_values", [S("3")], None),
        ("list_items", [S("11")], None),
        ("sorted_keys", [S("11")], None),
        ("sorted_keys", [S("4")], None),
        ("sorted_values", [S("11")], None),
        ("sorted_items", [S("11")], None),
        ("sorted_items", [S("30")], None),
        ("sorted_items_by_value", [S("11")], None),
        ("sorted_items_reverse", [S("12")], None),
        ("str_keys_lists", [S("0")], None),
        ("str_keys_items", [S("0")], None),
        ("str_values_lists", [S("0")], None),
        ("str_values_items", [S("0")], None),
        ("empty_dict_lists", [S("0")], None),
        ("set_from_dict", [S("11")], None),
        ("tuple_from_dict", [S("3")], "TypingError"),
    ]


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "containers", same_str_or_array)


if __name__ == "__main__":
    sys.exit(main())
