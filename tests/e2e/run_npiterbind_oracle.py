#!/usr/bin/env python3
"""How kernels bind and prune (tests/kernels/host/npiterbind.py) against
Numba: isinstance on locals of int, float, complex, array and tuple type
pruning the branch not taken (code there that would not type included),
in if/elif chains, under `not`, with and/or of another constant, in
conditional expressions and through a variable; isinstance of a variable
several assignments reach refused at FILE:LINE:COL as Numba refuses it.
np.ndindex, np.ndenumerate, np.nditer, enumerate and zip kept in a
variable and read by one for loop, over 0-d, empty, 3-d, F and strided
shapes; the uses ufjit refuses (Numba runs them) at FILE:LINE:COL.
Each case runs through `ufjit call` and through Numba on the same inputs;
dtype, shape and values must agree exactly. What Numba refuses compiling
ufjit refuses at the kernel's FILE:LINE:COL.

    run_npiterbind_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i4, i8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npiterbind.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL]): None returns,
    "TypingError": Numba fails compiling and ufjit refuses at
    FILE:LINE:COL."""
    nan = V("f8", [1.0, np.nan, 2.5, -np.inf])
    # sums exact in any order: a.sum() may add in another order than Numba
    m2 = V("f8", [0.5 * k - 3 for k in range(12)], (3, 4))
    arrays = [f8(5), f8(0), m2, f8(12).view("::-2"), nan,
              i8(6), i4(4), f4(3), c16(3), b1(5)]
    out = []
    # a.sum() is float64, int64, complex128 ... by dtype: the branch kept
    # depends on the argument's type, the other holds `x.foo`
    for k in ("inst_float_local", "inst_float_local_else", "inst_not_local",
              "inst_and_const", "inst_or_const", "inst_ternary_local",
              "inst_bool_var", "inst_while_local", "inst_dead_untyped_local"):
        out += [(k, [a], None) for a in (f8(5), f8(0), m2,
                                         f8(12).view("::-2"), nan)]
        # the kept branch changes with the sum's type: int64 / complex128
        out += [(k, [i8(4)], "TypingError"),
                (k, [c16(3)], None if k in (
                    "inst_float_local_else", "inst_or_const",
                    "inst_while_local", "inst_dead_untyped_local")
                 else "TypingError")]
    out += [("inst_elif_local", [a], None) for a in (f8(4), m2, nan)]
    out += [("inst_elif_local", [a], "TypingError")
            for a in (i8(3), c16(2), f4(3))]
    for k in ("inst_int_local", "inst_int_local_else"):
        out += [(k, [S(v)], None) for v in ("3", "-7", "0", "int32:5",
                                            "true")]
        out += [(k, [S("2.5")], "TypingError"),
                (k, [S("int8:4")], None), (k, [S("uint64:4")], None)]
    for k in ("inst_complex_local", "inst_complex_local_else"):
        out += [(k, [a], None) for a in (f8(3), i8(2), nan, f4(2))]
        out += [(k, [c16(2)], None)]
    for k in ("inst_array_local", "inst_array_local_else",
              "inst_tuple_local", "inst_tuple_local_else",
              "inst_ternary_local_else"):
        out += [(k, [a], None) for a in arrays
                if k == "inst_array_local" or a.shape[0] > 0]
    # y = a[i] is a float64 only for 1-D float64 a: else `y.foo` is live
    out += [("inst_in_loop", [a], None if a.dtype == np.float64 and
             len(a.shape) == 1 else "TypingError") for a in arrays]
    out += [("inst_np_type_local", [f8(3)], None),
            ("inst_np_type_local", [f4(3)], None),
            ("inst_np_type_local", [i8(3)], "TypingError"),
            ("inst_value_local", [f8(4)], None),
            ("inst_value_local", [i8(4)], None),
            ("inst_value_local", [c16(4)], None),
            ("inst_and_runtime", [f8(4), S("1")], None),
            ("inst_and_runtime", [f8(4), S("-1")], None),
            ("inst_and_runtime", [i8(4), S("1")], "TypingError"),
            ("inst_and_runtime_refused", [f8(4), S("1")], "TypingError",
             "156:14"),
            ("inst_arg_reassigned", [S("2")], None),
            ("inst_arg_reassigned", [S("2.5")], None),
            ("inst_arg_reassigned", [S("1j")], "TypingError"),
            ("inst_join_refused", [f8(3), S("1")], "TypingError", "220:8"),
            ("inst_join_mixed_refused", [f8(3), S("0")], "TypingError",
             "231:8"),
            ("inst_loop_join_refused", [f8(3)], "TypingError", "241:8")]
    # iterators kept in a variable: 1-d, 3-d, empty, reversed, F, 0-d
    shapes = [f8(5), f8(2, 3, 4), f8(0), f8(3, 0), f8(2, 0, 3),
              f8(12).view("::-3"), f8(3, 4).F, f8(4, 5).view("::2, ::-2"),
              i4(2, 3, 2), c16(2, 3), b1(4)]
    for k in ("it_ndindex", "it_ndindex_count", "it_ndenumerate",
              "it_nditer", "it_enumerate_of_bound", "it_in_loop_body"):
        out += [(k, [a], None) for a in shapes]
    out += [("it_ndindex_0d", [S(v)], None) for v in ("0", "4", "-2")]
    out += [("it_nditer", [S(v)], None) for v in ("2.5", "7")]
    out += [("it_ndindex_args", [S(m), S(n)], None)
            for m, n in (("3", "4"), ("0", "5"), ("4", "0"), ("1", "1"),
                         ("-2", "3"))]
    out += [("it_in_if", [a, S(c)], None) for a in shapes[:4]
            for c in ("1", "0")]
    for k in ("it_enumerate", "it_zip"):
        for a in (f8(6), f8(0), f8(3, 4), f8(9).view("::-2"), i8(5)):
            # the rows of a 2-d array: s += row makes s an array
            out += [(k, [a] + ([a] if k == "it_zip" else []),
                     "TypingError" if len(a.shape) == 2 else None)]
    out += [("it_zip", [f8(6), f8(4)], None),
            ("it_zip", [f8(2), i4(5)], None),
            ("it_zip", [f8(0), f8(3)], None)]
    # Numba runs these (its iterators are objects: a second loop sees
    # nothing, next() steps it, a callee takes it); ufjit refuses them
    # at the use, naming what works
    out += [("it_two_loops", [f8(2, 3)], "refused-here", "366:16"),
            ("it_next", [f8(3)], "refused-here", "374:17"),
            ("it_loop_in_loop", [f8(2, 3)], "refused-here", "383:20"),
            ("it_reassigned_arg", [f8(2, 3)], "refused-here", "393:16"),
            ("it_passed_on", [f8(2, 3)], "refused-here", "409:21")]
    return out


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npiterbind", same)


if __name__ == "__main__":
    sys.exit(main())
