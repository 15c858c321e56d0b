#!/usr/bin/env python3
"""Run-time strings (Numba's unicode_type) inside kernels
(tests/kernels/host/ustr.py) against Numba: two literals joined by
control flow, +, * by an integer, comparisons, `in`, s[i] (negative
indices, IndexError), s[a:b:c], `for c in s`, str() of integers and
bools, ord/chr and their errors, truth, strings passed to and returned
from @njit helpers, and strings returned through `ufjit call` (written as
NumPy str .npy files); f-strings of plain fields (a format spec refused
as Numba refuses it); the methods (upper ... rjust; Unicode case mapping
and classes, more of them in run_ustrmeth_oracle.py). Non-ASCII
characters of 2, 3 and 4 UTF-8 bytes index by code point as Python. Lists
of strings, s.split() (Numba's own rule for a whitespace split with
maxsplit) and sep.join(l).
Each case runs through `ufjit call` and through Numba on the same
inputs: strings equal, numbers of the same dtype and value; where Numba
raises, ufjit fails with the same exception; what Numba refuses compiling
ufjit refuses at the kernel's FILE:LINE:COL.

    run_ustr_oracle.py UFJIT [-k TEXT] [-v]
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
from oracle_util import check_cases, options, same_str_or_array  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "ustr.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    return [
        ("choose", [S("1")], None),
        ("choose", [S("-1")], None),
        ("joined", [S("0")], None),
        ("concat", [S("5")], None),
        ("concat", [S("-123")], None),
        ("compare", [S("1")], None),
        ("compare", [S("0")], None),
        ("contains", [S("1")], None),
        ("contains", [S("0")], None),
        ("repeat", [S("3")], None),
        ("repeat", [S("0")], None),
        ("repeat", [S("-2")], None),
        ("index", [S("0")], None),
        ("index", [S("1")], None),
        ("index", [S("2")], None),
        ("index", [S("3")], None),
        ("index", [S("-1")], None),
        ("index", [S("-5")], None),
        ("index", [S("5")], "IndexError"),
        ("index", [S("-6")], "IndexError"),
        ("slices", [S("1"), S("5"), S("2")], None),
        ("slices", [S("-2"), S("-7"), S("-1")], None),
        ("slices", [S("10"), S("-10"), S("3")], None),
        ("slices", [S("-100"), S("100"), S("-3")], None),
        ("slices", [S("200"), S("1"), S("1")], None),
        ("slices", [S("0"), S("3"), S("0")], "ValueError"),
        ("loop_chars", [S("1")], None),
        ("loop_chars", [S("0")], None),
        ("str_of", [S("0")], None),
        ("str_of", [S("42")], None),
        ("str_of", [S("-9223372036854775807")], None),
        ("ord_chr", [S("65")], None),
        ("ord_chr", [S("233")], None),
        ("ord_chr", [S("20013")], None),
        ("ord_chr", [S("1114111")], None),
        ("ord_chr", [S("1114112")], "ValueError"),
        ("ord_chr", [S("-1")], "ValueError"),
        ("ord_bad", [S("1")], "TypeError"),
        ("ord_bad", [S("0")], "TypeError"),
        ("build", [S("0")], None),
        ("build", [S("1000")], None),
        ("through_helper", [S("1")], None),
        ("through_helper", [S("0")], None),
        ("truth", [S("1")], None),
        ("truth", [S("0")], None),
        ("empty", [S("1")], None),
        ("empty", [S("0")], None),
        ("give_literal", [], None),
        ("print_it", [S("1")], None),
        ("plus_int", [S("1")], "TypingError", "140:12"),
        ("percent", [S("1")], "TypingError", "145:12"),
        ("fmt", [S("1")], "TypingError", "150:17"),
        ("store", [V("f8", [1.0])], "TypingError", "156:5"),
        # in_prange: Numba's run can crash (its strings race in parallel
        # threads); test_ustr.c checks ufjit's refusal at file:line:col
        ("str_float", [S("1.5")], "refused-here", "170:12"),
        ("m_case", [S("0")], None),
        ("m_case", [S("2")], None),
        ("m_case", [S("3")], None),
        ("m_case", [S("4")], None),
        ("m_case", [S("5")], None),
        ("m_strip", [S("0")], None),
        ("m_strip", [S("2")], None),
        ("m_strip", [S("3")], None),
        ("m_strip", [S("5")], None),
        ("m_search", [S("0")], None),
        ("m_search", [S("1")], None),
        ("m_search", [S("2")], None),
        ("m_search", [S("3")], None),
        ("m_search", [S("5")], None),
        ("m_replace", [S("0")], None),
        ("m_replace", [S("1")], None),
        ("m_replace", [S("2")], None),
        ("m_replace", [S("3")], None),
        ("m_is", [S("0")], None),
        ("m_is", [S("1")], None),
        ("m_is", [S("2")], None),
        ("m_is", [S("3")], None),
        ("m_is", [S("4")], None),
        ("m_is", [S("5")], None),
        ("m_pad", [S("0")], None),
        ("m_pad", [S("1")], None),
        ("m_pad", [S("2")], None),
        ("m_pad", [S("5")], None),
        ("m_index", [S("0")], None),
        ("m_index", [S("1")], "ValueError"),
        ("m_fill", [S("0")], "ValueError"),
        ("m_space", [S("1")], None),
        ("m_space", [S("0")], None),
        ("m_format", [S("1")], "TypingError", "250:14"),
        ("fstr", [S("5")], None),
        ("fstr", [S("-12")], None),
        ("fstr_spec", [S("5")], "TypingError", "264:15"),
        ("fstr_float", [S("1.5")], "refused-here", "269:15"),
        ("lst_build", [S("0")], None),
        ("lst_build", [S("300")], None),
        ("lst_literal", [S("1")], None),
        ("lst_split", [S("0")], None),
        ("lst_split", [S("1")], None),
        ("lst_split", [S("2")], None),
        ("lst_wsplit", [S("0"), S("1")], None),
        ("lst_wsplit", [S("0"), S("0")], None),
        ("lst_wsplit", [S("0"), S("3")], None),
        ("lst_wsplit", [S("1"), S("-1")], None),
        ("lst_empty_sep", [S("0")], "ValueError"),
        ("lst_roundtrip", [S("0")], None),
        ("lst_roundtrip", [S("1000")], None),
        ("tuple_in", [S("0")], None),
        ("tuple_in", [S("1")], None),
        ("tuple_in", [S("2")], None),
        ("tuple_loop", [S("7")], None),
    ]


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "ustr", same_str_or_array)


if __name__ == "__main__":
    sys.exit(main())
