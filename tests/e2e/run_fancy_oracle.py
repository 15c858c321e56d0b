#!/usr/bin/env python3
"""Advanced indexing inside kernels (tests/kernels/host/fancy.py) against
Numba: each case runs through `ufjit call` and through Numba on the same
inputs (arrays copied for each, since stores write them); dtype, shape and
every element are compared exactly, NaN equal to NaN. Where Numba reads
out of bounds or fails with an internal AssertionError (an index out of
range, a mask of another length, an N-d mask), the case is "numpy": the
plain Python function gives the result or the exception ufjit must raise.
What Numba refuses while compiling ufjit refuses at the kernel's
FILE:LINE:COL, and so do the forms ufjit refuses on purpose ("refused").

    run_fancy_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys
import tempfile
import warnings

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, b1, f4, f8, i1, i4, i8, u1, u2, c16  # noqa: E402
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "fancy.py")


def cases():
    """(kernel, inputs, expect): None compares with Numba, "numpy" with
    the plain function (result or exception), an exception name is what
    Numba raises, "TypingError" what it refuses, "refused" a form Numba
    runs that ufjit refuses at compile time, "broken" a form Numba fails
    on with an internal error that ufjit refuses at compile time."""
    idx = V("i8", [3, -1, 0, 0, 2])
    return [
        # a[idx]: index dtypes, negative indices, repeats, views, N-d idx
        ("take", [f8(6, special=True), idx], None),
        ("take", [i1(5, lo=-128, hi=128), V("u1", [4, 0, 1])], None),
        ("take", [u2(7), V("i4", [-7, 6, 3])], None),
        ("take", [c16(5), V("u8", [0, 4, 4])], None),
        ("take", [b1(5), V("i2", [1, 2])], None),
        ("take", [f4(8).view("::-2"), V("i8", [0, 3, -4])], None),
        ("take", [f8(5), i8(0)], None),
        ("take", [f8(6), V("i8", [5, 0, 1, 2], shape=(2, 2))], None),
        ("take", [f8(6), V("i8", [5, 0, 1, 2, 3, 4, 0, 1], shape=(2, 2, 2)).F],
         None),
        ("take", [f8(4, 3), V("i8", [2, 0])], None),
        ("take", [f8(4, 3).F, V("i8", [-1, 1, 1])], None),
        ("take", [f8(0, 3), i8(0)], None),
        ("take", [f8(5), V("i8", [5])], "numpy"),
        ("take", [f8(5), V("i8", [-6])], "numpy"),
        ("take", [f8(5), V("u8", [2**63])], "numpy"),
        # a[mask], a[a > 0]
        ("masked", [f8(7, special=True), b1(7)], None),
        ("masked", [i4(6).view("::-1"), b1(6)], None),
        ("masked", [f8(0), b1(0)], None),
        ("masked", [f8(5, 4), b1(5)], None),
        ("masked", [f8(5), b1(4)], "numpy"),
        ("masked", [f8(5), b1(6)], "numpy"),
        ("masked", [f8(3, 4), b1(3, 4)], "numpy"),
        ("masked", [f8(3, 4).F, b1(3, 4).view("::-1, ::-1")], "numpy"),
        ("masked", [i8(2, 3, 2), b1(2, 3, 2)], "numpy"),
        ("masked", [f8(3, 4), b1(4, 3)], "numpy"),
        ("positive", [f8(1000, special=True)], None),
        ("positive", [i8(9, 3)], "numpy"),
        ("positive", [f4(0)], None),
        # with integers, slices, None, an ellipsis
        ("rows", [f8(4, 3), V("i8", [3, 0, -1])], None),
        ("rows", [i8(4, 3).F, V("i8", [1])], None),
        ("cols", [f8(3, 5), V("i8", [4, 0, 0])], None),
        ("cols", [f8(3, 5).view("::-1, 1:"), V("i8", [-1, 2])], None),
        ("row_of", [f8(3, 4), V("u1", [3, 1])], None),
        ("cols_from", [u1(3, 4), V("i8", [2, 0])], None),
        ("stepped", [f8(3, 4), V("i8", [0, 3])], None),
        ("mask_cols", [f8(3, 4), b1(4)], None),
        ("mask_row", [i4(3, 4), b1(3)], None),
        ("newaxis_first", [f8(3, 4), V("i8", [0, 2])], None),
        ("ellipsis_last", [f8(2, 3, 4), V("i8", [3, 1])], None),
        ("apart", [i8(2, 3, 4), V("i8", [1, 0, 1])], None),
        ("together", [i8(2, 3, 4), V("i8", [3, 0])], None),
        ("together", [i8(2, 3, 4), V("i8", [0, 1, 2, 3], shape=(2, 2))],
         None),
        ("chained", [f8(6), V("i8", [5, 4, 0])], None),
        ("int_newaxis", [f8(3, 4), V("i8", [3, 0])], None),
        ("int_newaxis", [f8(3, 4, 2), V("i8", [3, 0, 1])], None),
        ("newaxis_int_mask", [f8(2, 4), b1(4)], None),
        ("mask_cols", [f8(3, 4), b1(3)], "numpy"),
        ("cols", [f8(3, 5), V("i8", [5])], "numpy"),
        # stores
        ("set_mask_scalar", [f8(6, special=True), b1(6)], None),
        ("set_mask_scalar", [i1(4, 3), b1(4)], None),
        ("set_positive", [f8(5, 4)], "numpy"),
        ("set_positive", [i4(6).view("::-1")], None),
        ("set_mask_array", [f8(4), V("?", [True, False, True, False]),
                            V("f8", [10.0, 20.0])], None),
        ("set_mask_array", [f8(4), V("?", [True, False, True, True]),
                            V("i4", [5])], None),
        ("set_mask_array", [f8(4), V("?", [True, False, True, True]),
                            V("f8", [1.0, 2.0])], "ValueError"),
        ("set_take_scalar", [f8(5), V("i8", [4, -5])], None),
        ("set_take_array", [f8(5), V("i8", [0, 0, 1]),
                            V("f8", [1.0, 2.0, 3.0])], None),
        ("set_take_array", [u1(5), V("i8", [4, 2]), V("i8", [300, -1])],
         None),
        ("set_take_array", [f8(5), V("i8", [0, 1]), V("f8", [1.0, 2.0, 3.0])],
         "ValueError"),
        ("set_take_array", [f8(5), V("i8", [7]), V("f8", [1.0])], "numpy"),
        ("set_cols", [f8(3, 4), V("i8", [0, 2]), V("f8", [9.0, 8.0])], None),
        ("set_cols", [f8(3, 4), V("i8", [3]), f8(3, 1)], None),
        ("set_cols", [f8(3, 4).F, V("i8", [3, 1]), f8(1, 2)], None),
        ("set_self", [f8(6), V("i8", [0, 1, 2])], None),
        ("aug_take", [f8(5), V("i8", [0, 0, 3])], None),
        ("aug_take", [i8(4, 2), V("i8", [-1])], None),
        ("aug_mask", [f8(6, special=True)], None),
        ("set_expr", [f8(5), V("i8", [0, 0, 3])], None),
        # lists: np.array's argument, refused as an index as Numba does
        ("array_of_list", [], None),
        ("asarray_of_list", [], None),
        ("array_of_nested", [], None),
        ("array_of_mixed", [], None),
        ("list_index", [f8(4)], "TypingError"),
        ("list_variable", [], None),
        # refused
        ("float_index", [f8(4), f8(2)], "TypingError"),
        ("mask_and_int", [f8(4), b1(4)], "TypingError"),
        ("too_many", [f8(4), V("i8", [1])], "TypingError"),
        ("mask_and_array", [f8(3, 4), b1(3), V("i8", [0, 1])], "broken"),
        ("array_and_mask", [f8(3, 4), V("i8", [0, 1]), b1(4)], "broken"),
        # several integer arrays, broadcast together
        ("two_arrays", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3])], None),
        ("two_arrays", [f8(3, 4, special=True), V("i8", [-1, -3, 0]),
                        V("i4", [-4, 0, 3])], None),
        ("two_arrays", [f8(3, 4), V("u1", [2, 2, 0]), V("i8", [1])], None),
        ("two_arrays", [f8(3, 4), V("i8", [0, 1, 2, 0], shape=(2, 2)),
                        V("i8", [1, 2, 3, 0], shape=(2, 2)).F], None),
        ("two_arrays", [i4(3, 4).F, V("i8", [0, 2, 1], shape=(3, 1)),
                        V("i2", [3, 0])], None),
        ("two_arrays", [f8(3, 4).view("::-1, ::-2"), V("i8", [0, 2]),
                        V("i8", [1, -1])], None),
        ("two_arrays", [f8(3, 4), V("i8", [2, 0, 1, 1]).view("::-2"),
                        V("i8", [3, 0, 1, 2]).view("::2")], None),
        ("two_arrays", [f8(3, 4), i8(0), i8(0)], None),
        ("two_arrays", [f8(3, 4), i8(0), V("i8", [1])], None),
        ("two_arrays", [f8(0, 4), i8(0), V("i8", [1])], None),
        ("two_arrays", [f8(3, 4, 2), V("i8", [2, 0]), V("i8", [3, 3])], None),
        ("two_arrays", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 2, 3])],
         "ValueError"),
        ("two_arrays", [f8(3, 4), V("i8", [0, 1, 2, 0, 1, 2], shape=(2, 3)),
                        V("i8", [1, 2])], "ValueError"),
        ("two_arrays", [f8(3, 4), V("i8", [0, 3]), V("i8", [1, 2])], "numpy"),
        ("two_arrays", [f8(3, 4), V("i8", [0, 1]), V("i8", [1, -5])],
         "numpy"),
        ("two_arrays", [f8(3, 4), V("u8", [0, 1]), V("u8", [2**63, 0])],
         "numpy"),
        ("arr_slice_arr", [f8(2, 3, 4), V("i8", [0, 1]), V("i8", [1, 3])],
         None),
        ("arr_slice_arr", [i8(2, 3, 4).F, V("i8", [1, 0, 1], shape=(3, 1)),
                           V("i8", [0, -1])], None),
        ("slice_arr_arr", [f8(2, 3, 4), V("i8", [0, 2]), V("i8", [1, 3])],
         None),
        ("slice_arr_arr", [f8(2, 3, 4).view("::-1, :, ::-1"),
                           V("i8", [2, 0, 1, 1], shape=(2, 2)),
                           V("i8", [0])], None),
        ("arr_int_arr", [f8(2, 3, 4), V("i8", [0, 1]), V("i8", [1, 3])],
         None),
        ("arr_int_arr", [f8(2, 3, 4), V("i8", [0, 1], shape=(2, 1)),
                         V("i8", [1, 3])], None),
        ("int_arr_arr", [f8(2, 3, 4), V("i8", [0, 2]), V("i8", [1, 3])],
         None),
        ("outer", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3, 0])], None),
        ("outer", [u1(3, 4), i8(0), V("i8", [1, 3, 0])], None),
        ("three_arrays", [f8(2, 3, 4), V("i8", [0, 1]), V("i8", [2]),
                          V("i8", [1, 0, 3, 2], shape=(2, 1, 2))], None),
        ("arrays_newaxis", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3])],
         None),
        ("ellipsis_arrays", [f8(2, 3, 4), V("i8", [0, 2]), V("i8", [1, 2])],
         None),
        ("arrays_ellipsis", [f8(2, 3, 4), V("i8", [0, 1]), V("i8", [1, 3])],
         None),
        ("arrays_of_views", [f8(4, 5), V("i8", [0, 1, 3, 2]),
                             V("i8", [3, 0])], None),
        # stores through several arrays
        ("set_two", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3]),
                     V("f8", [5.0, 6.0])], None),
        ("set_two", [f8(3, 4), V("i8", [0, 0, 1]), V("i8", [1, 1, 2]),
                     V("f8", [5.0, 6.0, 7.0])], None),
        ("set_two", [i4(3, 4).F, V("i8", [0, 2]), V("i8", [-1, 0]),
                     V("f8", [2.5])], None),
        ("set_two", [f8(3, 4).view("::-1, ::-1"), V("i8", [0, 2]),
                     V("i8", [1, 3]), V("f8", [5.0, 6.0])], None),
        ("set_two", [f8(3, 4), i8(0), i8(0), V("f8", [5.0])], None),
        ("set_two", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3]),
                     V("f8", [5.0, 6.0, 7.0])], "ValueError"),
        ("set_two", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 2, 3]),
                     V("f8", [5.0])], "ValueError"),
        ("set_two", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 4]),
                     V("f8", [5.0])], "numpy"),
        ("set_two_scalar", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3])],
         None),
        ("set_two_scalar", [u1(3, 4), V("i8", [0, 1, 2], shape=(3, 1)),
                            V("i8", [3, 0])], None),
        ("set_apart", [f8(2, 3, 4), V("i8", [0, 1]), V("i8", [1, 3]),
                       V("f8", [5.0, 6.0, 7.0])], None),
        ("set_outer", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3]),
                       V("f8", [1.0, 2.0], shape=(2, 1))], None),
        ("set_two_self", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3])], None),
        ("aug_two", [f8(3, 4), V("i8", [0, 0, 1]), V("i8", [1, 1, 2])],
         None),
        ("aug_two", [i8(3, 4).view("::-1"), V("i8", [-1, 2]),
                     V("i8", [0, 0], shape=(2, 1))], None),
        ("aug_two_array", [f8(3, 4), V("i8", [0, 2]), V("i8", [1, 3]),
                           V("f8", [0.5, 0.25])], None),
        # a 0-d integer array as an index: the integer it holds
        ("zd_local", [f8(5, special=True)], None),
        ("zd_take", [f8(6), S("4")], None),
        ("zd_take", [f8(6), S("-1")], None),
        ("zd_take", [i8(6).view("::-2"), S("int16:-3")], None),
        ("zd_take", [f8(5), S("uint8:4")], None),
        ("zd_take", [c16(5), S("uint64:0")], None),
        ("zd_take", [u1(3, 5), S("uint8:2")], None),
        ("zd_take", [f8(3, 4), S("1")], None),
        ("zd_take", [f8(3, 4).F, S("int32:-3")], None),
        ("zd_pair", [f8(3, 4), S("2"), S("1")], None),
        ("zd_pair", [i8(3, 4).view("::-1"), S("-1"), S("uint32:3")], None),
        ("zd_row_part", [f8(3, 4), S("1")], None),
        ("zd_col", [f8(3, 4), S("-2")], None),
        ("zd_col", [f8(0, 4), S("3")], None),
        ("zd_with_array", [f8(3, 4), S("2"), V("i8", [3, 0, -1])], None),
        ("zd_with_array", [f8(3, 4, 2), S("int8:-1"), V("i8", [1, 1])], None),
        ("zd_view", [i8(3, 4), V("i8", [1, 0, 2, -2]).view("::-1")], None),
        ("zd_store", [f8(5), S("3"), S("9.5")], None),
        ("zd_store", [i4(5), S("-5"), S("2.75")], None),
        ("zd_aug", [f8(5), S("1"), S("0.5")], None),
        ("zd_aug", [u1(4).view("::-1"), S("-1"), S("250")], None),
        ("zd_row_store", [f8(3, 4), S("1")], None),
        ("zd_checked", [f8(5), S("-5")], None),
        ("zd_checked", [f8(5), S("5")], "IndexError"),
        ("zd_checked", [f8(5), S("-6")], "IndexError"),
        ("zd_checked", [f8(2, 3), S("uint64:2")], "IndexError"),
        ("zd_float", [f8(4)], "TypingError"),
        ("zd_bool", [f8(4)], "broken"),
    ]


def copies(vals):
    return [v.copy() if isinstance(v, np.ndarray) else v for v in vals]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        return np.array_equal(got, want, equal_nan=True)
    return np.array_equal(got, want)


def expected(fn, vals, expect):
    """(want, raises, problems) from Numba or, for "numpy", the plain
    function."""
    probs = []
    try:
        f = fn.py_func if expect == "numpy" else fn
        with np.errstate(all="ignore"):
            want = as_array(f(*copies(vals)))
        if expect not in (None, "numpy"):
            probs.append("Numba does not raise")
        return want, None, probs
    except Exception as e:  # noqa: BLE001
        name = type(e).__name__
        if expect == "numpy":
            return None, name, probs
        if expect != name:
            probs.append(f"Numba raises {name}: {str(e)[:200]}, the case "
                         f"expects {expect}")
        return None, expect, probs


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod, rec = lazy_load(FILE), Record(FILE)
    fails = n = 0
    warnings.simplefilter("ignore")
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-fancy-") as tmp:
        for kernel, inputs, expect in cases():
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)

            def reference():
                fn = getattr(mod(), kernel)
                if expect == "broken":  # Numba fails inside, ufjit refuses
                    want, raises, probs = None, "TypingError", []
                    try:
                        fn(*copies(vals))
                        probs.append("Numba does not fail")
                    except Exception:  # noqa: BLE001
                        pass
                elif expect == "refused":  # Numba runs it, ufjit refuses it
                    want, raises, probs = None, "TypingError", []
                    try:
                        fn(*copies(vals))
                    except Exception as e:  # noqa: BLE001
                        probs.append(f"Numba raises {type(e).__name__}")
                else:
                    want, raises, probs = expected(fn, vals, expect)
                return want, raises, probs
            want, raises, probs = rec.answer(
                rec.key(kernel, expect, vals), vals, reference)
            probs = list(probs)
            p, out, cmd = run_ufjit(opt.ufjit, FILE, kernel, args, tmp, cid)
            mark = f"{FILE}:" if raises == "TypingError" else f"{raises}:"
            if raises:
                if p.returncode != 1 or mark not in p.stderr:
                    probs.append(f"ufjit did not raise {raises}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}\n  {cmd}")
            elif want is not None and not same(np.load(out), want):
                got = np.load(out)
                probs.append(f"ufjit {got.dtype} {got!r}, expected "
                             f"{want.dtype} {want!r}\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
    rec.close()
    print(f"{n - fails}/{n} fancy cases agree with Numba (NumPy where "
          "Numba reads out of bounds)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
