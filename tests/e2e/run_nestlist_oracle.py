#!/usr/bin/env python3
"""Lists of lists, nested comprehensions, np.array of a list of lists and
lists of tuples holding strings (tests/kernels/host/nestlist.py) against
Numba: each case runs through `ufjit call` and through Numba on the same
inputs; dtype, shape and values must agree exactly, strings as text.
Where Numba raises, ufjit fails with the same exception; what Numba
refuses compiling ufjit refuses at the kernel's FILE:LINE:COL.

    run_nestlist_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys

sys.dont_write_bytecode = True

try:
    import numpy  # noqa: F401
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S  # noqa: E402
from oracle_util import check_cases, options, same_str_or_array  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "nestlist.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" refused compiling, "refused" Numba fails in any
    way, "refused-here" ufjit's gap, "numpy" Numba fails where NumPy
    answers)."""
    return [
        ("table", [S("3")], None), ("table", [S("1")], None),
        ("table", [S("7")], None),
        ("literal_append", [], None),
        ("triangle", [S("5")], None), ("triangle", [S("1")], None),
        ("triangle", [S("0")], None),
        ("with_conditions", [S("6")], None),
        ("with_conditions", [S("0")], None),
        ("with_conditions", [S("1")], None),
        ("depth3", [S("2")], None), ("depth3", [S("1")], None),
        ("depth3_mutate", [S("3")], None), ("depth3_mutate", [S("1")], None),
        ("set_items", [S("3")], None),
        ("set_items", [S("0")], "IndexError"),
        ("empty_levels", [S("0")], None), ("empty_levels", [S("1")], None),
        ("empty_levels", [S("2")], "IndexError"),
        ("alias_shared", [], None),
        ("alias_taken", [S("4")], None), ("alias_taken", [S("-1")], None),
        ("empty_inner", [S("3")], None),
        ("empty_outer", [S("2")], None), ("empty_outer", [S("0")], None),
        ("ragged", [S("0")], None), ("ragged", [S("1")], None),
        ("ragged", [S("2")], "ValueError"),
        ("ragged", [S("5")], "ValueError"),
        ("ragged_short", [], "ValueError"),
        ("many", [S("10000")], None), ("many", [S("0")], None),
        ("rebound_in_loop", [S("4")], None),
        ("rebound_in_loop", [S("1000")], None),
        ("pop_inner", [], None), ("del_inner", [], None),
        ("overwrite", [], None), ("reversed_copy", [], None),
        ("outer_index", [S("1")], None), ("outer_index", [S("-2")], None),
        ("outer_index", [S("2")], "IndexError"),
        ("outer_index", [S("-3")], "IndexError"),
        ("inner_index", [S("0")], None), ("inner_index", [S("-1")], None),
        ("inner_index", [S("1")], "IndexError"),
        ("inner_index", [S("-2")], "IndexError"),
        ("inner_store", [S("1")], None),
        ("inner_store", [S("2")], "IndexError"),
        ("inner_store", [S("-3")], "IndexError"),
        ("pop_empty_inner", [], "IndexError"),
        ("as_float32", [S("2")], None), ("as_float32", [S("0")], None),
        ("comprehension_as_float32", [S("3")], "numpy"),
        ("ints_as_float", [S("3")], None),
        ("bools", [S("3")], None), ("bools", [S("0")], None),
        ("literal2d", [], None), ("literal2d_float", [], None),
        ("complex2d", [S("2")], None),
        ("through_calls", [S("3")], None), ("through_calls", [S("0")], None),
        ("calls_in_loop", [S("5")], None),
        ("calls_in_loop", [S("200")], None),
        ("sums_in_comprehension", [S("5")], None),
        ("sums_in_comprehension", [S("0")], None),
        ("lens_in_comprehension", [S("5")], None),
        ("strings_nested", [], None),
        ("arrays_nested", [S("3")], None), ("arrays_nested", [S("0")], None),
        ("dict_items_str", [], None),
        ("dict_items_str_values", [S("3")], None),
        ("dict_items_str_values", [S("1")], None),
        ("tuples_with_strings", [S("3")], None),
        ("tuples_with_strings", [S("0")], None),
        ("tuples_with_strings_set", [S("2")], None),
        ("rows_by_append", [S("4")], None),
        ("rows_by_append", [S("0")], None),
        ("refined_after_append", [], None),
        ("strings_in_loop", [S("50")], None),
        ("strings_in_loop", [S("0")], None),
        ("tuples_in_loop", [S("20")], None),
        ("bad_empty_append", [], "TypingError"),
        ("bad_unify", [], "refused"),
        ("returned", [S("2")], "refused-here"),
        ("sorted_tuples_str", [S("5")], None),
        ("sorted_dict_items", [S("2")], None),
        ("sorted_dict_items", [S("0")], None),
        ("sorted_by_string_key", [S("3")], None),
        ("sorted_by_string_key", [S("0")], None),
    ]


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "nestlist", same_str_or_array)


if __name__ == "__main__":
    sys.exit(main())
