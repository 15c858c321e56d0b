#!/usr/bin/env python3
"""DLPack between ufjit and NumPy itself, through ctypes on libufjit.so.

- NumPy consumes ufjit: numpy.from_dlpack on an object whose __dlpack__
  wraps uf_array_to_dlpack_ex's tensor in a "dltensor_versioned" capsule
  (uf_array_to_dlpack_legacy's in a "dltensor" one when the caller gives
  no max_version): every dtype, views with negative strides, 0-d, empty,
  read-only arrays; the memory is shared, and ufjit's array is released
  when NumPy's array goes.
- ufjit consumes NumPy: arr.__dlpack__(max_version=(1, 1)) and the legacy
  arr.__dlpack__(), the capsule renamed "used_..." as the protocol asks,
  then uf_array_from_dlpack: same pointer, shape, strides and values, a
  read-only NumPy array stays read-only, and NumPy's deleter runs (its
  reference on the array is dropped) when ufjit releases it.

usage: dlpack_numpy.py path/to/libufjit.so   (exit 77 without NumPy)
"""
import ctypes as C
import gc
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

import ufjit_ctypes as U
from ufjit_ctypes import DTYPES, WRITEABLE, UfArray, LegacyOnly, take

lib = U.load(sys.argv[1])
RELEASE = U.RELEASE

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def err():
    return U.UfError()


def ok(ptr, e, what):
    if not ptr:
        raise AssertionError("%s: %s" % (what, e.message.decode()))
    return ptr


# ---- ufjit as the producer ------------------------------------------------


def uf_from_numpy(x):
    """A new ufjit array holding a copy of x (any layout)."""
    e = err()
    shape = (C.c_int64 * max(x.ndim, 1))(*x.shape)
    a = ok(lib.uf_empty(DTYPES.index(x.dtype.name), x.ndim, shape, 0,
                        C.byref(e)), e, "uf_empty")
    c = np.ascontiguousarray(x)
    C.memmove(lib.uf_array_data(a), c.ctypes.data, c.nbytes)
    return a


def uf_slice(a, expr):
    e = err()
    v = ok(lib.uf_array_slice(a, expr.encode(), C.byref(e)), e, expr)
    lib.uf_array_release(a)
    return v


def numpy_consumes_ufjit():
    base = np.arange(24).reshape(4, 6)
    for name in DTYPES:
        x = (base % 2 == 1) if name == "bool" else (base * 3 - 7).astype(name)
        if name.startswith("complex"):
            x = x + 1j * (base - 2.5).astype(name)
        for expr, view in [(":", x), ("::-1, 1::2", x[::-1, 1::2]),
                           ("2, ::-2", x[2, ::-2]), ("1, 3", x[1, 3]),
                           ("1:1", x[1:1])]:
            a = uf_slice(uf_from_numpy(x), expr)
            data = lib.uf_array_data(a)
            p = UfArray(a)
            y = np.from_dlpack(p)
            what = "np.from_dlpack(ufjit %s[%s])" % (name, expr)
            check(y.dtype == x.dtype, what + ": dtype %s" % y.dtype)
            check(y.shape == view.shape, what + ": shape %s" % (y.shape,))
            check(np.array_equal(y, view), what + ": values")
            check(y.flags.writeable, what + ": writeable")
            check(p.calls and p.calls[0]["max_version"] is not None,
                  what + ": NumPy asked for a versioned tensor")
            if y.size > 1:
                check(y.ctypes.data == data, what + ": not shared")
                check(y.strides == view.strides,
                      what + ": strides %s" % (y.strides,))
                y.flat[0] = y.flat[1]  # the memory is ufjit's
                check(C.string_at(data, y.itemsize) == y.flat[1].tobytes(),
                      what + ": write not seen by ufjit")

    # read-only: NumPy sees the flag
    a = uf_from_numpy(np.arange(6.0))
    e = err()
    lib.uf_array_set_writeable(a, False, C.byref(e))
    y = np.from_dlpack(UfArray(a))
    check(not y.flags.writeable, "read-only ufjit array: NumPy may write")
    check(np.array_equal(y, np.arange(6.0)), "read-only: values")

    # copy=True: NumPy gets a copy (made by ufjit or by NumPy)
    a = uf_from_numpy(np.arange(6.0))
    data = lib.uf_array_data(a)
    p = UfArray(a)
    y = np.from_dlpack(p, copy=True)
    check(y.ctypes.data != data and np.array_equal(y, np.arange(6.0)),
          "copy=True shares memory")
    check(p.calls[-1]["copy"] is True, "copy=True not forwarded")

    # the legacy capsule, for a producer without max_version
    a = uf_slice(uf_from_numpy(np.arange(12.0).reshape(3, 4)), "::-1")
    p = LegacyOnly(a)
    y = np.from_dlpack(p)
    check(np.array_equal(y, np.arange(12.0).reshape(3, 4)[::-1]),
          "legacy capsule: values")
    check(p.calls[-1]["max_version"] is None, "legacy: not the legacy path")

    # lifetimes: ufjit's array lives until NumPy's array goes
    released = []
    release = RELEASE(lambda ctx, data: released.append(data))
    mem = np.arange(10.0)
    n = (C.c_int64 * 1)(10)
    e = err()
    a = ok(lib.uf_array_wrap(10, 1, n, None, mem.ctypes.data, True, release,
                             None, C.byref(e)), e, "uf_array_wrap")
    p = UfArray(a)
    y = np.from_dlpack(p)
    del p  # our reference released: the tensor holds the array
    gc.collect()
    check(released == [], "released while NumPy holds it")
    check(np.array_equal(y[::-1], mem[::-1]), "lifetime: values")
    del y
    gc.collect()
    check(len(released) == 1, "released %d times after NumPy's array went"
          % len(released))

    # an unconsumed capsule is deleted by its destructor
    released.clear()
    a = ok(lib.uf_array_wrap(10, 1, n, None, mem.ctypes.data, True, release,
                             None, C.byref(e)), e, "uf_array_wrap")
    p = UfArray(a)
    cap = p.__dlpack__(max_version=(1, 1))
    del p
    del cap
    gc.collect()
    check(len(released) == 1, "an unconsumed capsule leaked the array")


# ---- NumPy as the producer -------------------------------------------------


def uf_values(a, x, what):
    """ufjit's array a describes x's memory: pointer, shape, strides,
    dtype and values."""
    nd = lib.uf_array_ndim(a)
    check(nd == x.ndim, what + ": ndim %d" % nd)
    shape = tuple(lib.uf_array_shape(a)[i] for i in range(nd))
    strides = tuple(lib.uf_array_strides(a)[i] for i in range(nd))
    check(shape == x.shape, what + ": shape %s" % (shape,))
    check(DTYPES[lib.uf_array_dtype(a)] == x.dtype.name,
          what + ": dtype %s" % DTYPES[lib.uf_array_dtype(a)])
    if x.size > 1:
        check(lib.uf_array_data(a) == x.ctypes.data, what + ": a copy")
        check(strides == x.strides, what + ": strides %s" % (strides,))
    e = err()
    c = ok(lib.uf_array_copy(a, 0, C.byref(e)), e, "uf_array_copy")
    got = C.string_at(lib.uf_array_data(c), lib.uf_array_nbytes(c))
    check(got == np.ascontiguousarray(x).tobytes(), what + ": values")
    lib.uf_array_release(c)


def ufjit_consumes_numpy():
    base = np.arange(24).reshape(4, 6)
    for name in DTYPES:
        x = (base % 3 == 0) if name == "bool" else (base * 5 - 9).astype(name)
        for label, view in [("whole", x), ("::-1, 1::2", x[::-1, 1::2]),
                            ("F", np.asfortranarray(x)), ("0-d", x[1, 2]
                                                          [()]),
                            ("empty", x[:0]), ("column", x[:, 3])]:
            view = np.asarray(view)
            what = "ufjit from numpy %s %s" % (name, label)
            r0 = sys.getrefcount(view)
            cap = view.__dlpack__(max_version=(1, 1))
            a, e = take(cap)
            if not a:
                check(False, what + ": " + e.message.decode())
                continue
            del cap
            check(lib.uf_array_flags(a) & WRITEABLE, what + ": read-only")
            uf_values(a, view, what)
            check(sys.getrefcount(view) > r0, what + ": NumPy let go early")
            lib.uf_array_release(a)
            check(sys.getrefcount(view) == r0,
                  what + ": NumPy's deleter did not run")

    # read-only NumPy arrays stay read-only
    x = np.arange(8.0)
    x.flags.writeable = False
    a, e = take(x.__dlpack__(max_version=(1, 1)))
    ok(a, e, "read-only import")
    check(not lib.uf_array_flags(a) & WRITEABLE, "read-only lost")
    check(lib.uf_array_set_writeable(a, True, C.byref(e)) != 0,
          "read-only import made writeable")
    lib.uf_array_release(a)

    # the legacy capsule
    x = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::-1]
    r0 = sys.getrefcount(x)
    a, e = take(x.__dlpack__(), legacy=True)
    ok(a, e, "legacy import")
    uf_values(a, x, "legacy")
    lib.uf_array_release(a)
    check(sys.getrefcount(x) == r0, "legacy: NumPy's deleter did not run")

    # round trip: NumPy -> ufjit -> NumPy shares one buffer
    x = np.arange(6.0).reshape(2, 3)
    a, e = take(x.__dlpack__(max_version=(1, 1)))
    y = np.from_dlpack(UfArray(ok(a, e, "round trip")))
    y[1, 2] = 42.0
    check(x[1, 2] == 42.0, "round trip: not the same memory")


numpy_consumes_ufjit()
ufjit_consumes_numpy()
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("dlpack_numpy: NumPy %s and ufjit agree" % np.__version__)
