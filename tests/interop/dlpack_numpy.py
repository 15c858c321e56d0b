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

# ---- the C ABI ---------------------------------------------------------


class DLDevice(C.Structure):
    _fields_ = [("device_type", C.c_int32), ("device_id", C.c_int32)]


class DLDataType(C.Structure):
    _fields_ = [("code", C.c_uint8), ("bits", C.c_uint8),
                ("lanes", C.c_uint16)]


class DLTensor(C.Structure):
    _fields_ = [("data", C.c_void_p), ("device", DLDevice),
                ("ndim", C.c_int32), ("dtype", DLDataType),
                ("shape", C.POINTER(C.c_int64)),
                ("strides", C.POINTER(C.c_int64)),
                ("byte_offset", C.c_uint64)]


class DLPackVersion(C.Structure):
    _fields_ = [("major", C.c_uint32), ("minor", C.c_uint32)]


class DLManagedTensorVersioned(C.Structure):
    pass


DELETER_V = C.CFUNCTYPE(None, C.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion), ("manager_ctx", C.c_void_p),
    ("deleter", DELETER_V), ("flags", C.c_uint64), ("dl_tensor", DLTensor)]


class DLManagedTensor(C.Structure):
    pass


DELETER_L = C.CFUNCTYPE(None, C.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor),
                            ("manager_ctx", C.c_void_p),
                            ("deleter", DELETER_L)]


class UfError(C.Structure):
    _fields_ = [("code", C.c_int), ("line", C.c_int), ("column", C.c_int),
                ("file", C.c_char * 256), ("message", C.c_char * 1024)]


class UfRequest(C.Structure):
    _fields_ = [("has_stream", C.c_bool), ("stream", C.c_ssize_t),
                ("copy", C.c_int), ("has_device", C.c_bool),
                ("device", DLDevice)]


READ_ONLY, IS_COPIED = 1, 2
KDLCPU = 1
# uf_dtype's order (ufjit/dtype.h)
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
          "int64", "uint64", "float32", "float64", "complex64", "complex128"]

lib = C.CDLL(sys.argv[1])
P = C.c_void_p
I64P = C.POINTER(C.c_int64)
RELEASE = C.CFUNCTYPE(None, P, P)
for name, res, args in [
        ("uf_empty", P, [C.c_int, C.c_int, I64P, C.c_int, P]),
        ("uf_array_wrap", P, [C.c_int, C.c_int, I64P, I64P, P, C.c_bool,
                              RELEASE, P, P]),
        ("uf_array_release", None, [P]),
        ("uf_array_data", P, [P]),
        ("uf_array_ndim", C.c_int, [P]),
        ("uf_array_shape", I64P, [P]),
        ("uf_array_strides", I64P, [P]),
        ("uf_array_flags", C.c_int, [P]),
        ("uf_array_dtype", C.c_int, [P]),
        ("uf_array_nbytes", C.c_int64, [P]),
        ("uf_array_slice", P, [P, C.c_char_p, P]),
        ("uf_array_copy", P, [P, C.c_int, P]),
        ("uf_array_set_writeable", C.c_int, [P, C.c_bool, P]),
        ("uf_array_to_dlpack_ex", C.c_int, [P, P, P, P]),
        ("uf_array_to_dlpack_legacy", C.c_int, [P, P, P, P]),
        ("uf_array_from_dlpack", P, [P, P]),
        ("uf_array_from_dlpack_legacy", P, [P, P])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args
WRITEABLE = 1 << 2

api = C.pythonapi
# the destructor gets the dying capsule as a plain pointer: a py_object
# would take a reference on it and free it a second time
CAPSULE_DESTRUCTOR = C.CFUNCTYPE(None, P)
api.PyCapsule_New.restype = C.py_object
api.PyCapsule_New.argtypes = [P, C.c_char_p, CAPSULE_DESTRUCTOR]
api.PyCapsule_GetPointer.restype = P
api.PyCapsule_GetPointer.argtypes = [C.py_object, C.c_char_p]
api.PyCapsule_SetName.restype = C.c_int
api.PyCapsule_SetName.argtypes = [C.py_object, C.c_char_p]
# the same two on a raw PyObject*, for the destructor
capsule_is_valid = C.PYFUNCTYPE(C.c_int, P, C.c_char_p)(
    ("PyCapsule_IsValid", api))
capsule_pointer = C.PYFUNCTYPE(P, P, C.c_char_p)(
    ("PyCapsule_GetPointer", api))

# capsule names must outlive the capsules: module-level buffers
NAME_V = C.create_string_buffer(b"dltensor_versioned")
NAME_L = C.create_string_buffer(b"dltensor")
USED_V = C.create_string_buffer(b"used_dltensor_versioned")
USED_L = C.create_string_buffer(b"used_dltensor")

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def err():
    return UfError()


def ok(ptr, e, what):
    if not ptr:
        raise AssertionError("%s: %s" % (what, e.message.decode()))
    return ptr


# ---- ufjit as the producer ------------------------------------------------


@CAPSULE_DESTRUCTOR
def destroy_versioned(cap):
    # still named "dltensor_versioned": nobody consumed it, delete it here
    if capsule_is_valid(cap, NAME_V):
        t = C.cast(capsule_pointer(cap, NAME_V),
                   C.POINTER(DLManagedTensorVersioned))
        t.contents.deleter(t)


@CAPSULE_DESTRUCTOR
def destroy_legacy(cap):
    if capsule_is_valid(cap, NAME_L):
        t = C.cast(capsule_pointer(cap, NAME_L),
                   C.POINTER(DLManagedTensor))
        t.contents.deleter(t)


class UfArray:
    """A ufjit array with the DLPack protocol, as the Python package will
    give it: the request forwarded to uf_array_to_dlpack_ex."""

    def __init__(self, arr):
        self.arr = arr  # a reference of ours, released in __del__
        self.calls = []

    def __del__(self):
        lib.uf_array_release(self.arr)

    def __dlpack_device__(self):
        return (KDLCPU, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        self.calls.append(dict(stream=stream, max_version=max_version,
                               dl_device=dl_device, copy=copy))
        rq = UfRequest()
        rq.has_stream = stream is not None
        rq.stream = stream if stream is not None else 0
        rq.copy = -1 if copy is None else int(bool(copy))
        if dl_device is not None:
            rq.has_device = True
            rq.device = DLDevice(*dl_device)
        e = err()
        if max_version is None or max_version[0] < 1:
            out = C.POINTER(DLManagedTensor)()
            if lib.uf_array_to_dlpack_legacy(self.arr, C.byref(rq),
                                             C.byref(out), C.byref(e)):
                raise BufferError(e.message.decode())
            return api.PyCapsule_New(C.cast(out, P), NAME_L, destroy_legacy)
        out = C.POINTER(DLManagedTensorVersioned)()
        if lib.uf_array_to_dlpack_ex(self.arr, C.byref(rq), C.byref(out),
                                     C.byref(e)):
            raise BufferError(e.message.decode())
        return api.PyCapsule_New(C.cast(out, P), NAME_V, destroy_versioned)


class LegacyOnly(UfArray):
    """A producer from before DLPack 1.0: no max_version keyword."""

    def __dlpack__(self, stream=None):
        return UfArray.__dlpack__(self, stream=stream)


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


def take(cap, legacy=False):
    """The consumer's side of the capsule protocol."""
    name, used = (NAME_L, USED_L) if legacy else (NAME_V, USED_V)
    ptr = api.PyCapsule_GetPointer(cap, name)
    api.PyCapsule_SetName(cap, used)  # ours now: its destructor leaves it
    e = err()
    fn = lib.uf_array_from_dlpack_legacy if legacy else lib.uf_array_from_dlpack
    a = fn(ptr, C.byref(e))
    return a, e


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
