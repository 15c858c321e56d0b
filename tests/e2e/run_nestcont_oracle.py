#!/usr/bin/env python3
"""Nested typed containers (tests/kernels/host/nestcont.py) against
Numba: dicts whose values are typed lists or dicts, lists whose items are
typed lists or dicts, types.ListType / types.DictType bound at module
level and used in Dict.empty / List.empty_list, values mutated in place
through d[k] (reference semantics), len, iteration, in, del, pop, copy,
setdefault, and returning such containers through njit calls; Numba's
refusals (a reflected list or a set as a dict value, types.ListType(...)
inside a kernel) and its KeyError texts. Each case runs through `ufjit
call` and through Numba on the same inputs: values agree exactly; where
Numba raises, ufjit fails with the same exception. The extra check
asserts the exact text of ufjit's KeyError.

    run_nestcont_oracle.py UFJIT [-k TEXT] [-v]
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
from oracle_util import (check_cases, materialise, options,  # noqa: E402
                         run_ufjit_outs)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "nestcont.py")


def cases():
    """(kernel, inputs, what Numba does[, where ufjit refuses])."""
    k = V("i8", [1, 2, 1, 3, 2, 1])
    v = V("f8", [1.0, 2.0, 3.0, 4.0, 5.5, -1.0])
    e_i, e_f = V("i8", []), V("f8", [])
    return [
        ("group_sums", [k, v], None), ("group_sums", [e_i, e_f], None),
        ("group_keys_values", [k, v], None),
        ("group_keys_values", [e_i, e_f], None),
        ("group_pop", [k, v, S("2")], None),
        ("group_pop", [k, v, S("9")], "KeyError"),
        ("group_del", [k, v, S("1")], None),
        ("group_del", [k, v, S("4")], "KeyError"),
        ("group_in", [k, v, S("1"), S("3.0")], None),
        ("group_in", [k, v, S("1"), S("2.0")], None),
        ("group_in", [k, v, S("7"), S("2.0")], None),
        ("alias_value", [], None), ("copy_shallow", [], None),
        ("setdefault_list", [k, v], None),
        ("dict_of_dicts", [], None),
        ("dict_of_dicts_typed", [S("7")], None),
        ("dict_of_dicts_typed", [S("1")], None),
        ("dict_of_dict_literal", [S("6")], None),
        ("dict_of_dict_literal", [S("0")], None),
        ("dict_str_lists", [k], None),
        ("dict_str_lists", [V("i8", [5, 17, 4, 4, 0, 300])], None),
        ("list_of_lists", [S("5")], None),
        ("list_of_lists", [S("0")], "IndexError"),
        ("list_of_dicts", [S("4")], None),
        ("list_of_dicts", [S("0")], "IndexError"),
        ("list_of_dicts_typed", [S("3")], None),
        ("list_of_dicts_typed", [S("0")], "IndexError"),
        ("dict_lists_of_lists", [], None),
        ("module_dlt", [S("5")], None), ("module_dlt", [S("0")], None),
        ("returned_through_calls", [k, v], None),
        ("grow_in_loop", [S("100")], None), ("grow_in_loop", [S("3")], None),
        ("grow_in_loop", [S("20000")], None),
        ("callee_appends", [S("3")], None),
        ("nested_aug", [S("4")], None),
        ("nested_aug_missing", [], "KeyError"),
        ("get_default", [S("1")], None), ("get_default", [S("2")], None),
        ("popitem_clear_update", [], None),
        ("values_list", [S("3")], None),
        ("values_list", [S("0")], "IndexError"),
        ("typed_list_of_lists", [S("4")], None),
        ("list_of_sets", [], "refused-here"),
        ("eq_dict_lists", [], "refused-here"),
        ("items_as_list", [], "refused-here"),
        ("pop_missing", [], "KeyError"),
        ("pop_missing_list", [], "KeyError"),
        ("getitem_missing_list", [], "KeyError"),
        ("reflected_value", [], "TypingError", "376:13"),
        ("set_value", [], "TypingError", "382:13"),
        ("listtype_in_kernel", [], "TypingError", "388:33"),
        ("type_as_value", [], "refused-here"),
    ]


# `ufjit call`'s line for the KeyError each raises: Numba's str() of it
# (empty for d.pop(k) of a missing key, the key's repr for d[k]).
KEY_TEXTS = [
    ("pop_missing", [], "KeyError"),
    ("pop_missing_list", [], "KeyError"),
    ("getitem_missing_list", [], "KeyError: 3"),
    ("nested_aug_missing", [], "KeyError: 2"),
    ("group_pop", [V("i8", [1]), V("f8", [1.0]), S("9")], "KeyError"),
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
        want = f"ufjit: {text} (in '{kernel}')"
        if p.returncode != 1 or want not in p.stderr.splitlines():
            probs.append(f"{cid}: want the line {want!r}, got exit "
                         f"{p.returncode} {p.stderr.strip()!r}\n  {cmd}")
    return probs if n else None


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "nestcont", same,
                       lambda tmp: key_texts(opt, tmp))


if __name__ == "__main__":
    sys.exit(main())
