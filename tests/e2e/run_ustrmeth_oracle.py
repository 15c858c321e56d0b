#!/usr/bin/env python3
"""String methods with Unicode case mapping and classes inside kernels
(tests/kernels/host/ustrmeth.py) against Numba: upper, lower (final
sigma), title, capitalize, swapcase, casefold and every is*() on empty,
ASCII, German (sharp s, ligatures), Greek, Turkish, Cyrillic, CJK and
full-width, combining marks, digits of other scripts, title-case
digraphs and Deseret text; partition / rpartition, rsplit (whitespace,
one- and many-character separators, maxsplit), splitlines (keepends),
expandtabs, and their errors; str.isdigit(s) refused as Numba refuses it.
Numba's answers come from its own copy of CPython 3.7's Unicode tables
(Unicode 11.0), as ufjit's (common/ustr_unicode_tables.c).

    run_ustrmeth_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "ustrmeth.py")
TEXTS = range(14)


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    out = []
    for k in TEXTS:
        for kernel in ("case", "classes", "word_classes", "char_classes",
                       "word_case", "partition", "splitlines"):
            out.append((kernel, [S(str(k))], None))
    for k in range(10):
        out.append(("sigma", [S(str(k))], None))
    for k in (0, 1, 3, 11):
        out.append(("partition_missing", [S(str(k))], None))
    for k in (0, 1, 2, 3, 10, 11):
        for m in (-1, 0, 1, 2):
            out.append(("rsplit", [S(str(k)), S(str(m))], None))
    for k in (0, 1, 11):
        for n in (8, 4, 1, 0, -3):
            out.append(("expandtabs", [S(str(k)), S(str(n))], None))
    out += [
        ("literal_case", [S("0")], None),
        ("rsplit_multi", [S("0")], None),
        ("rsplit_multi", [S("1")], None),
        ("rsplit_ascii_space", [S("0")], None),
        ("rsplit_ascii_space", [S("1")], None),
        ("partition_empty", [S("1")], "ValueError"),
        ("partition_empty", [S("0")], "ValueError"),
        ("rpartition_empty", [S("2")], "ValueError"),
        ("rsplit_empty", [S("1")], "ValueError"),
        ("rsplit_empty", [S("0")], "ValueError"),
        ("str_function", [S("1")], "TypingError", "191:16"),
        ("partition_bad", [S("1")], "TypingError", "196:12"),
    ]
    return out


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "ustrmeth", same_str_or_array)


if __name__ == "__main__":
    sys.exit(main())
