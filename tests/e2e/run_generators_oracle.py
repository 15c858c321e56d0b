#!/usr/bin/env python3
"""Generator functions (yield) inside kernels (tests/kernels/host/
generators.py) against Numba: for loops over generators (break, continue,
else of the consuming loop; nested consumers), list(), sorted(), min(),
max(), enumerate() and zip() of one, generators over arrays yielding
elements, views, new arrays and tuples, generators consuming generators,
return ending one, several yields, yields in while loops and if branches,
keyword and default arguments; next() and zip() of two generators (state
machines: run_generators2_oracle.py tests those), next() past the end
raising StopIteration. A generator object kept and rebound otherwise,
yield inside try/except and returning a generator are refused by ufjit
only ("refused-here"); what Numba refuses (sum() of a generator, `in`,
yield from, send(), recursion) is refused at FILE:LINE:COL. A generator
expression and a yield
outside a def are refused as the whole file (checked on files of their
own).

    run_generators_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, f8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "generators.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    a = V("f8", [1.0, 2.0, -3.0, 4.0, 5.0])
    m = V("f8", [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], (3, 2))
    out = []
    for n in ("0", "1", "4", "7"):
        out += [(k, [S(n)], None) for k in (
            "sum_squares", "list_squares", "list_alternating",
            "list_plus_one", "nested_loops", "enumerated", "sorted_gen",
            "defaults", "twice", "count_bare", "sum_made", "sum_pairs",
            "shadowing", "kept", "closure_consumer")]
    out += [("until_limit", [S("6"), S(v)], None) for v in ("0", "9", "100")]
    out += [("find_in_grid", [S("5"), S(t)], None) for t in ("6", "7", "0")]
    out += [("signs", [V("f8", [0.5, -2.0, 0.0, 3.0])], None)]
    out += [("consumer_jumps", [S(n)], None) for n in ("0", "3", "5", "10")]
    out += [("list_three", [S(x)], None) for x in ("2", "2.5", "-1")]
    out += [("collected", [S(n)], None) for n in ("1", "5")]
    out += [("collected", [S("0")], "StopIteration")]
    out += [("first_over", [S("6"), S(v)], None) for v in ("31", "0", "1000")]
    out += [("sum_rows", [m], None), ("sum_rows", [f8(4, 3)], None),
            ("scale_rows", [m, S("2.0")], None),
            ("positives", [a], None), ("positives", [f8(9)], None),
            ("zipped", [S("4"), a], None), ("zipped", [S("9"), a], None),
            ("zipped", [S("2"), f8(3)], None),
            ("zip_else", [S("3"), a], None), ("zip_else", [S("8"), a], None),
            ("until_negative", [a], None), ("until_negative", [f8(6)], None),
            ("cumsum_array", [a], None), ("cumsum_array", [f8(9)], None),
            ("chunk_sums", [a, S("2")], None),
            ("chunk_sums", [f8(10), S("3")], None)]
    # Numba runs these; ufjit refuses them (generators are inlined)
    out += [("next_twice", [S("5")], None),
            ("zip_two", [S("3")], None),
            ("kept_rebound", [S("4")], "refused-here"),
            ("use_tried", [S("3")], "refused-here"),
            ("returns_gen", [S("3")], "refused-here")]
    # Numba refuses these (next() past the end raises StopIteration, in
    # both)
    out += [("next_exhausted", [S("3")], "StopIteration"),
            ("summed", [S("3")], "TypingError", "453:16"),
            ("use_delegating", [S("3")], "TypingError", "458:5"),
            ("use_sent", [S("3")], "TypingError", "468:9"),
            ("use_recursive", [S("3")], "TypingError", "480:18"),
            ("in_gen", [S("3")], "TypingError", "492:17")]
    return out


# files of their own: the parser refuses these before any def is compiled
WHOLE_FILE = [
    ("from numba import njit\n\n@njit\ndef f(a):\n"
     "    return sum(x for x in a)\n",
     "5:16: a generator expression is not supported in kernels"),
    ("from numba import njit\n\nyield 1\n\n@njit\ndef f(a):\n"
     "    return a\n",
     "3:1: 'yield' outside function"),
]

# the messages the refusals above give (ufjit's own texts)
MESSAGES = [
    ("kept_rebound", "squares() is a generator: ufjit compiles a generator "
     "call as the iterable of a for loop"),
    ("use_tried", "'yield' inside try/except is not supported"),
    ("returns_gen", "squares() is a generator"),
    ("use_delegating", "'yield from' (Numba: \"Use of unsupported opcode "
     "(GET_YIELD_FROM_ITER)\") is not supported in kernels"),
    ("use_sent", "the value of a 'yield' expression (send()) is not "
     "supported in kernels"),
    ("use_recursive", "generator recursive() uses itself"),
    ("squares", "squares() is a generator function: ufjit runs generators "
     "inside njit code only"),
]


def extra(ufjit, tmp):
    probs = []
    for i, (src, want) in enumerate(WHOLE_FILE):
        path = os.path.join(tmp, f"genfile{i}.py")
        with open(path, "w") as f:
            f.write(src)
        p = subprocess.run([ufjit, "call", path, "f", "1"],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 1 or f"{path}:{want}" not in p.stderr:
            probs.append(f"{path}: want {want!r}, got rc {p.returncode} "
                         f"{p.stderr.strip()!r}")
    for kernel, want in MESSAGES:
        p = subprocess.run([ufjit, "call", FILE, kernel, "3"],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 1 or want not in p.stderr:
            probs.append(f"{kernel}: want {want!r}, got rc {p.returncode} "
                         f"{p.stderr.strip()!r}")
    return probs


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return bool(np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "generators", same,
                       lambda tmp: extra(opt.ufjit, tmp)
                       if opt.filter in "messages" else None)


if __name__ == "__main__":
    sys.exit(main())
