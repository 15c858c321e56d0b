#!/usr/bin/env python3
"""More of lists and dicts inside kernels (tests/kernels/host/contmore.py)
against Numba: slice assignment l[a:b] = m growing and shrinking the
list, l[a:b:c] = m with steps (Numba's ValueError when the lengths
differ), negative steps, clipped, negative and float bounds, a list
shared by two names, lists of tuples and of arrays, and the sources
Numba 0.68 does not take (an array, a tuple, range, a number, an empty
literal); sort() / sorted() of lists of tuples (Numba's tuple `<`: the
first field where two items differ decides, a NaN there orders neither
way) and with key= an @njit function, a lambda or a name bound to one
(the keys computed once per item, then Numba's quicksort on them, NaNs
left where it leaves them, bit for bit); d.update(e) of another dict
(keys and values converted as d[k] = v converts them, Numba's loop) and
d == e / d != e (Numba's: the same length, every key of d found in e
with an equal value; NaN values equal nothing); dicts whose values are
tuples of numbers. Each case runs through `ufjit call` and through Numba on the
same inputs; dtype, shape and values must agree exactly. Where a list is
assigned to a slice of itself and Numba's in-place copy reads items it
has already moved (l[1:2] = l, l[::-1] = l), the reference is the kernel
run as plain Python ("numpy" cases): ufjit copies the source first, as
Python's list does.

    run_contmore_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, c16, f8, i8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "contmore.py")


def setslice():
    """(kernel, inputs, expect) of slice assignment."""
    a, b = f8(6), V("f8", [10.0, 11.0, 12.0])
    out = []
    for lo, hi in (("1", "3"), ("4", "1"), ("0", "6"), ("-2", "100"),
                   ("-100", "2"), ("7", "9"), ("2", "2"), ("float64:1.7",
                                                         "float64:2.2"),
                   ("int32:0", "uint8:5")):
        out.append(("setslice", [a, b, S(lo), S(hi)], None))
    out += [
        ("setslice", [a, f8(0), S("1"), S("4")], None),
        ("setslice", [f8(0), b, S("0"), S("0")], None),
        ("setslice", [i8(5), i8(2), S("-1"), S("1")], None),
    ]
    for lo, hi, st in (("0", "6", "2"), ("5", "-100", "-2"),
                       ("1", "100", "2"), ("-1", "0", "-2"),
                       ("2", "5", "1")):
        out.append(("setslice_step", [a, b, S(lo), S(hi), S(st)], None))
    out += [
        ("setslice_step", [a, b, S("0"), S("6"), S("3")], "ValueError"),
        ("setslice_step", [a, f8(0), S("5"), S("-100"), S("-2")],
         "ValueError"),
        ("setslice_step", [a, b, S("0"), S("6"), S("0")], "ValueError"),
        ("setslice_step", [f8(0), f8(0), S("0"), S("6"), S("-2")], None),
        ("setslice_open", [a, b], None), ("setslice_open", [f8(0), b], None),
        ("setslice_shared", [a, b], None),
        ("setslice_self", [a, S("0"), S("6"), S("1")], None),
        ("setslice_self", [a, S("0"), S("2"), S("1")], None),
        ("setslice_self", [a, S("1"), S("2"), S("1")], "numpy"),
        ("setslice_self", [a, S("5"), S("-100"), S("-1")], "numpy"),
        ("setslice_tuples", [S("3")], None),
        # Numba 0.68 gives these items but leaves its heap corrupt (the
        # next allocation aborts: "malloc(): unaligned tcache chunk")
        ("setslice_arrays", [S("5")], "numpy"),
        ("setslice_array_src", [a], "refused"),
        ("setslice_tuple_src", [a], "refused"),
        ("setslice_range_src", [S("3")], "refused"),
        ("setslice_number", [a], "refused"),
        ("setslice_empty_literal", [a], "TypingError"),
        # Numba compiles it and corrupts the heap converting the items
        ("setslice_complex", [a, V("c16", [1j])], "TypingError-ufjit"),
    ]
    return out


def sorting():
    """(kernel, inputs, expect) of sorts of tuples and with key=."""
    # NaNs, -0.0 and ties past Numba's insertion-sort threshold (16)
    a = V("f8", [3.0, np.nan, 1, 2, np.nan, 1, 0, -0.0, 5, 4, 3, 2, 1, 0,
                 9, 8, 7, 6, 5, 4])
    b = V("f8", [float(v) for v in range(19, -1, -1)])
    ties = V("f8", [float(v % 3) for v in range(40)])
    return [
        ("sort_tuples", [a, b, S("false")], None),
        ("sort_tuples", [ties, ties, S("true")], None),
        ("sort_tuples", [f8(1), f8(1), S("false")], None),
        ("sort_tuples_mixed", [a, b], None),
        ("sort_tuples_complex", [a], "TypingError"),
        ("sort_key_lambda", [a], None), ("sort_key_lambda", [f8(50)], None),
        ("sort_key_fn", [a, S("true")], None),
        ("sort_key_fn", [ties, S("0")], None),
        ("sort_key_sources", [a], None),
        ("sort_key_tuples", [a, b], None),
        ("sort_key_complex_items", [c16(30)], None),
        ("sort_key_complex_keys", [a], "TypingError"),
        # Numba refuses a lambda capturing `a` (it "may escape"); ufjit
        # runs it: the reference is plain Python (distinct keys)
        ("sort_key_capture", [f8(25)], "numpy"),
    ]


def dicts():
    """(kernel, inputs, expect) of d.update(e) and d == e."""
    return [
        ("dict_update", [V("f8", [5.0, 1.0, 9.0, 3.0]),
                         V("f8", [0.5, 1.5, 2.5, 3.5])], None),
        ("dict_update", [f8(0), f8(0)], None),
        ("dict_update_float_keys", [V("f8", [np.nan, 0.5, -0.0])], None),
        ("dict_update_float_keys", [V("f8", [np.nan, np.nan])], None),
        ("dict_update_bad_value", [], "TypingError"),
        ("dict_update_list", [], "TypingError"),
        ("dict_eq", [S("4.0"), S("4.0")], None),
        ("dict_eq", [S("4.0"), S("5.0")], None),
        ("dict_eq", [S("nan"), S("nan")], None),
        ("dict_eq", [S("-0.0"), S("0.0")], None),
        ("dict_lt", [], "TypingError"),
        ("dict_tuples", [V("f8", [1.5, -2.0, 3.25]), S("5")], None),
        ("dict_tuples", [V("f8", [np.nan]), S("0")], "KeyError"),
        ("dict_tuple_bad", [], "refused"),
        ("dict_tuple_eq", [], "refused-here"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return (np.ascontiguousarray(got).tobytes() ==
            np.ascontiguousarray(want).tobytes())


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, setslice() + sorting() + dicts(),
                       "contmore", same)


if __name__ == "__main__":
    sys.exit(main())
