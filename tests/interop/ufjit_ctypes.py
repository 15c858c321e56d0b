"""libufjit.so's C ABI through ctypes, for the interop scripts beside this
one (dlpack_numpy.py, cupy_interop.py): the DLPack 1.1 structs, uf_error,
uf_dlpack_request, uf_cai, uf_call_options, the functions they call, the
PyCapsule plumbing of the __dlpack__ protocol, and a ufjit array with that
protocol (what the Python package gives DeviceNDArray).

The structures mirror include/ufjit/*.h field for field; ctypes lays them
out with the C compiler's rules, so sizes and offsets match on x86-64.

    import ufjit_ctypes as U
    lib = U.load(path_to_libufjit_so)
"""
import ctypes as C

# ---- DLPack 1.1 (include/ufjit/dlpack.h) ---------------------------------


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

READ_ONLY, IS_COPIED = 1, 2
KDLCPU, KDLCUDA = 1, 2

# ---- ufjit's structs ---------------------------------------------------------

UF_MAXDIMS = 64


class UfError(C.Structure):
    _fields_ = [("code", C.c_int), ("line", C.c_int), ("column", C.c_int),
                ("file", C.c_char * 256), ("message", C.c_char * 1024)]

    def __str__(self):
        return "%d: %s" % (self.code, self.message.decode())


class UfDevice(C.Structure):
    _fields_ = [("type", C.c_int), ("id", C.c_int)]


class UfRequest(C.Structure):
    """uf_dlpack_request"""
    _fields_ = [("has_stream", C.c_bool), ("stream", C.c_ssize_t),
                ("copy", C.c_int), ("has_device", C.c_bool),
                ("device", DLDevice)]


class UfCai(C.Structure):
    """uf_cai (include/ufjit/interop.h)"""
    _fields_ = [("version", C.c_int), ("typestr", C.c_char * 8),
                ("ndim", C.c_int), ("shape", C.c_int64 * UF_MAXDIMS),
                ("has_strides", C.c_bool),
                ("strides", C.c_int64 * UF_MAXDIMS),
                ("data", C.c_size_t),  # uintptr_t
                ("readonly", C.c_bool), ("has_mask", C.c_bool),
                ("has_stream", C.c_bool), ("stream", C.c_ssize_t)]


class UfCallOptions(C.Structure):
    """uf_call_options (include/ufjit/kernel.h)"""
    _fields_ = [("size", C.c_size_t), ("target", C.c_char_p),
                ("casting", C.c_int), ("casting_set", C.c_bool),
                ("where", C.c_void_p), ("num_threads", C.c_int),
                ("axes_mode", C.c_int), ("naxes", C.c_int),
                ("axes", C.POINTER(C.c_int)), ("keepdims", C.c_bool),
                ("initial", C.c_void_p), ("gufunc_nops", C.c_int),
                ("gufunc_naxes", C.POINTER(C.c_int)),
                ("gufunc_axes", C.POINTER(C.POINTER(C.c_int))),
                ("stream", C.c_void_p)]


WRITEABLE = 1 << 2
UF_DEVICE_CUDA = 2
UF_ERR_READONLY = -15
UF_ERR_NO_DEVICE = -16
# uf_dtype's order (ufjit/dtype.h)
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
          "int64", "uint64", "float32", "float64", "complex64", "complex128"]

P = C.c_void_p
I64P = C.POINTER(C.c_int64)
# uf_release_fn: a keep-alive or release callback, (ctx, data)
RELEASE = C.CFUNCTYPE(None, P, P)

_FUNCTIONS = [
    ("uf_empty", P, [C.c_int, C.c_int, I64P, C.c_int, P]),
    ("uf_array_wrap", P, [C.c_int, C.c_int, I64P, I64P, P, C.c_bool,
                          RELEASE, P, P]),
    ("uf_array_retain", P, [P]),
    ("uf_array_release", None, [P]),
    ("uf_array_data", P, [P]),
    ("uf_array_ndim", C.c_int, [P]),
    ("uf_array_shape", I64P, [P]),
    ("uf_array_strides", I64P, [P]),
    ("uf_array_flags", C.c_int, [P]),
    ("uf_array_dtype", C.c_int, [P]),
    ("uf_array_nbytes", C.c_int64, [P]),
    ("uf_array_device", UfDevice, [P]),
    ("uf_array_slice", P, [P, C.c_char_p, P]),
    ("uf_array_copy", P, [P, C.c_int, P]),
    ("uf_array_set_writeable", C.c_int, [P, C.c_bool, P]),
    # DLPack
    ("uf_array_to_dlpack_ex", C.c_int, [P, P, P, P]),
    ("uf_array_to_dlpack_legacy", C.c_int, [P, P, P, P]),
    ("uf_array_from_dlpack", P, [P, P]),
    ("uf_array_from_dlpack_legacy", P, [P, P]),
    # CUDA Array Interface
    ("uf_array_to_cai", C.c_int, [P, C.POINTER(UfCai), P]),
    ("uf_array_from_cai", P, [C.POINTER(UfCai), C.c_char_p, P, RELEASE, P,
                              P]),
    # streams and device arrays
    ("uf_stream_create", P, [C.c_char_p, P]),
    ("uf_stream_synchronize", C.c_int, [P, P]),
    ("uf_stream_destroy", None, [P]),
    ("uf_stream_handle", C.c_ssize_t, [P]),
    ("uf_stream_external", P, [C.c_char_p, C.c_ssize_t, P]),
    ("uf_stream_wait_foreign", C.c_int, [C.c_char_p, C.c_ssize_t, P, P]),
    ("uf_array_stream", P, [P]),
    ("uf_array_set_stream", C.c_int, [P, P, P]),
    ("uf_device_array", P, [C.c_int, C.c_int, I64P, C.c_int, C.c_char_p,
                            P]),
    ("uf_to_device", P, [P, C.c_char_p, P, P]),
    ("uf_copy_to_device", C.c_int, [P, P, P, P]),
    ("uf_copy_to_host", P, [P, P, P, P]),
    # kernels
    ("uf_context_new", P, [P]),
    ("uf_context_free", None, [P]),
    ("uf_module_from_string", P, [P, C.c_char_p, C.c_char_p, P]),
    ("uf_module_free", None, [P]),
    ("uf_module_get", P, [P, C.c_char_p, P]),
    ("uf_call", C.c_int, [P, C.POINTER(P), C.c_int, C.POINTER(P), C.c_int,
                          C.POINTER(UfCallOptions), P]),
]

lib = None


def load(path):
    """libufjit.so with every function above typed; also kept as `lib`"""
    global lib
    lib = C.CDLL(path)
    for name, res, args in _FUNCTIONS:
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


# ---- the PyCapsule side of __dlpack__ ------------------------------------

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
    give it: the request forwarded to uf_array_to_dlpack_ex (or, for a
    consumer giving no max_version, uf_array_to_dlpack_legacy). `device`
    is what __dlpack_device__ answers. Takes over one reference of arr."""

    def __init__(self, arr, device=(KDLCPU, 0)):
        self.arr = arr  # a reference of ours, released in __del__
        self.device = device
        self.calls = []

    def __del__(self):
        lib.uf_array_release(self.arr)

    def __dlpack_device__(self):
        return self.device

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
        e = UfError()
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


def take(cap, legacy=False):
    """The consumer's side of the capsule protocol: the tensor renamed
    "used_..." (ours now: the capsule's destructor leaves it) and given to
    uf_array_from_dlpack(_legacy). Returns (array or None, uf_error)."""
    name, used = (NAME_L, USED_L) if legacy else (NAME_V, USED_V)
    ptr = api.PyCapsule_GetPointer(cap, name)
    api.PyCapsule_SetName(cap, used)
    e = UfError()
    fn = lib.uf_array_from_dlpack_legacy if legacy else lib.uf_array_from_dlpack
    return fn(ptr, C.byref(e)), e
