#!/usr/bin/env python3
"""Generator objects inside kernels (tests/kernels/host/generators2.py)
against Numba: next() of a generator kept in a variable (StopIteration
past its end), next() before and after a for loop over the same object
(break, else), zip() of two and three generators and of objects already
advanced, two objects of one generator, objects made in a loop,
generators with several yields, if/else, nested range loops with break,
continue and return, arrays made, held and replaced across yields, rows
yielded as new arrays; generators made in a call passing them to an
njit function (next(), for and zip() there). ufjit builds Numba's state machine in the
function using the object (front/generators_step.c); what it does not do
(an object kept in a variable and passed, one returned, kept for print(),
zip() of generators with other iterables, a generator's loop over an
array or a yield in try/except when used as an object) is refused by
ufjit only ("refused-here", messages checked); next() with a default is
refused as Numba refuses it, at FILE:LINE:COL.

    run_generators2_oracle.py UFJIT [-k TEXT] [-v]
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
                    "generators2.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    a = V("f8", [1.0, 2.0, -3.0, 4.0, 5.0])
    m = V("f8", [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], (3, 2))
    out = []
    out += [("next_twice", [S(n)], None) for n in ("2", "5", "9")]
    out += [("next_twice", [S(n)], "StopIteration") for n in ("0", "1")]
    out += [("next_in_loop", [S("5"), S(k)], None) for k in ("0", "3", "5")]
    out += [("next_in_loop", [S("3"), S("4")], "StopIteration")]
    out += [("next_then_for", [S(n)], None) for n in ("1", "5", "8")]
    out += [("next_then_for", [S("0")], "StopIteration")]
    out += [("for_then_next", [S(n)], None) for n in ("4", "6")]
    out += [("for_then_next", [S("3")], "StopIteration")]
    out += [("for_else_object", [S("5"), S(v)], None)
            for v in ("9", "7", "1")]
    out += [("zip_two", [S(n)], None) for n in ("0", "1", "4", "7")]
    out += [("zip_three", [S(n), S(x)], None)
            for n, x in (("3", "2.0"), ("5", "1.5"), ("0", "1.0"))]
    out += [("zip_objects", [S(n)], None) for n in ("1", "4", "6")]
    out += [("zip_objects", [S("0")], "StopIteration")]
    out += [("three_next", [S(x)], None) for x in ("2.0", "-1.5")]
    out += [("alternate_next", [S("3"), S("4")], None),
            ("alternate_next", [S("6"), S("5")], None),
            ("alternate_next", [S("2"), S("4")], "StopIteration")]
    out += [("grid_next", [S("3"), S("6"), S(k)], None)
            for k in ("1", "4", "5")]
    out += [("grid_next", [S("3"), S("6"), S("9")], "StopIteration")]
    out += [("limited_next", [S("10"), S("20"), S("3")], None),
            ("limited_next", [S("10"), S("100"), S("6")], None),
            ("limited_next", [S("10"), S("5"), S("4")], "StopIteration")]
    out += [("chunk_next", [a, S(k)], None) for k in ("1", "2", "4")]
    out += [("chunk_next", [f8(12), S("5")], None),
            ("chunk_next", [a, S("5")], "StopIteration")]
    out += [("chunk_zip", [a, S(k)], None) for k in ("1", "2")]
    out += [("chunk_zip", [f8(11), S("3")], None)]
    out += [("row_next", [m], None), ("row_next", [f8(4, 3)], None)]
    out += [("gen_in_loop", [S(n)], None) for n in ("0", "4")]
    out += [("two_objects", [S("5")], None)]
    # Numba runs these; ufjit refuses them
    # generator objects passed to njit functions
    out += [("passed", [S(n)], None) for n in ("0", "4")]
    out += [("passed_next", [S(n)], None) for n in ("2", "5")]
    out += [("passed_next", [S("1")], "StopIteration")]
    out += [("passed_zip", [S(n)], None) for n in ("0", "3", "6")]
    out += [("passed_kept", [S("4")], "refused-here"),
            ("returned", [S("4")], "refused-here"),
            ("items_next", [a], "refused-here"),
            ("kept_printed", [S("3")], "refused-here"),
            ("zip_mixed", [S("4")], "refused-here"),
            ("tried_next", [S("3")], "refused-here")]
    # Numba refuses these
    out += [("next_default", [S("3")], "TypingError", "316:12")]
    return out


# the messages of the refusals above (ufjit's own texts)
MESSAGES = [
    ("passed_kept", "348:10: squares() is a generator: ufjit compiles a "
     "generator call as the iterable of a for loop"),
    ("passed_kept", "passing one kept in a variable, or returning one, is "
     "not supported"),
    ("returned", "259:12: squares() is a generator"),
    ("items_next", "270:14: generator items() is used as an object (next(), "
     "zip() of generators): ufjit compiles its loops holding a yield only "
     "over range()"),
    ("kept_printed", "284:5: 'it' holds a generator object of squares(): "
     "ufjit compiles one only as the argument of next()"),
    ("zip_mixed", "291:20: zip() of generators with other iterables is not "
     "supported"),
    ("tried_next", "299:9: 'yield' or 'return' inside try/except in "
     "generator tried() used as an object"),
    ("next_default", "316:12: next() of generator squares() takes no default"),
    ("next_twice", "StopIteration: next() of exhausted generator squares() "
     "(in 'next_twice')"),
]


def extra(ufjit, tmp):
    probs = []
    for kernel, want in MESSAGES:
        p = subprocess.run([ufjit, "call", FILE, kernel, "1", "-o",
                            os.path.join(tmp, "out.npy")],
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
    return check_cases(opt, FILE, cases(), "generators2", same,
                       lambda tmp: extra(opt.ufjit, tmp)
                       if opt.filter in "messages" else None)


if __name__ == "__main__":
    sys.exit(main())
