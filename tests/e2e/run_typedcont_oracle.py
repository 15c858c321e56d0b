#!/usr/bin/env python3
"""numba.typed.List and numba.typed.Dict inside kernels
(tests/kernels/host/typedcont.py) against Numba: List() typed by its first
append, List(iterable) as list(iterable), Dict() as {}, List.empty_list(T)
and Dict.empty(K, V) (keywords or positional) with item, key and value
types written types.int64, np.float64, types.unicode_type, types.float64[:]
or types.int64[:, :]; empty containers and their lengths; stores converted
into the declared type (an int64 into a float64 dict stores 3.0, an int64
into an int32 list); the import forms (from numba.typed import List, Dict;
from numba import typed; numba.typed.List; an alias). What Numba refuses
ufjit refuses at the kernel's FILE:LINE:COL: a float appended to a typed
list of int64 (Numba's "cannot safely cast"), a string into it, a float
stored into an int64 dict, an int key into a unicode_type dict, types
built by calls (types.UniTuple(...), types.ListType(...)) in a kernel.
List(1, 2), List.foo, Dict.empty without a value type, a List never
appended to. Complex keys run as Numba's (common/dict.h's WIDE keys);
List.empty_list(n) of a value n is refused here (Numba takes the value's
type).

    run_typedcont_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S  # noqa: E402
from oracle_util import check_cases, options, same_str_or_array  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "typedcont.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    return [
        ("lst_append", [S("3")], None),
        ("lst_append", [S("1")], None),
        ("lst_empty_int", [S("3")], None),
        ("lst_iterable", [S("3")], None),
        ("dict_str_float", [S("3")], None),
        ("dict_plain", [S("3")], None),
        ("dict_positional", [S("3")], None),
        ("lst_empty_len", [S("3")], None),
        ("dict_empty_len", [S("3")], None),
        ("lst_declared_float", [S("3")], None),
        ("lst_declared_float", [S("1")], None),
        ("lst_declared_int32", [S("3")], None),
        ("lst_float32", [S("3")], None),
        ("lst_np_dtype", [S("3")], None),
        ("lst_array_items", [S("3")], None),
        ("lst_array2d", [S("3")], None),
        ("lst_str_items", [S("3")], None),
        ("lst_str_items", [S("0")], None),
        ("lst_bool", [S("3")], None),
        ("lst_bool", [S("0")], None),
        ("lst_complex", [S("3")], None),
        ("lst_range", [S("3")], None),
        ("lst_of_array", [S("3")], None),
        ("lst_module_forms", [S("3")], None),
        ("dict_module_forms", [S("3")], None),
        ("dict_str_values", [S("3")], None),
        ("dict_float_keys", [S("3")], None),
        ("dict_count", [S("7")], None),
        ("dict_plain_int_into_float", [S("3")], None),
        ("dict_float_into_int", [S("3")], "TypingError", "198:5"),
        ("dict_int_key_into_str", [S("3")], "TypingError", "205:7"),
        ("lst_str_into_int", [S("3")], "TypingError", "212:14"),
        ("lst_float_into_int", [S("3")], "TypingError", "219:14"),
        ("lst_plain_int_then_float", [S("3")], "TypingError",
         "227:14"),
        ("lst_listtype", [S("3")], "TypingError", "233:25"),
        ("lst_unituple", [S("3")], "TypingError", "239:25"),
        ("dict_tuple_value", [S("3")], "TypingError", "246:33"),
        ("lst_setitem_float_into_int", [S("3")], "TypingError",
         "255:5"),
        ("lst_plain_float_then_int", [S("3")], None),
        ("lst_copy_of_typed", [S("4")], None),
        ("lst_copy_of_typed", [S("1")], None),
        ("dict_complex_key", [S("3")], None),
        ("lst_too_many_args", [S("3")], "TypingError", "287:9"),
        ("lst_unknown_attr", [S("3")], "TypingError", "293:9"),
        ("dict_missing_value_type", [S("3")], "TypingError", "299:9"),
        ("lst_never_appended", [S("3")], "TypingError", "305:5"),
        ("lst_value_as_type", [S("3")], "refused-here", "311:25"),
    ]


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "typedcont", same_str_or_array)


if __name__ == "__main__":
    sys.exit(main())
