"""ufjit.cuda: numba.cuda's Python API over ufjit's CUDA target (a GPU
through the driver, or the in-process simulator with
UFJIT_ENABLE_CUDASIM=1): device arrays, streams, @cuda.jit kernels and
device functions, @cuda.reduce. Kernel bodies use numba.cuda's names
(cuda.grid, cuda.shared.array, cuda.atomic.add, ...): the C compiler reads
them; nothing of a kernel runs in Python."""

import os

import numpy as np

from . import _core
from ._dispatch import Dispatcher, Reduce, _as_array

_DEVICE_KW = {"fastmath", "cache", "inline", "link"}
_KERNEL_KW = {"fastmath", "cache", "debug", "max_registers", "link"}


def is_available():
    """Whether kernels can run: a driver with a device, or cudasim."""
    if os.environ.get("UFJIT_ENABLE_CUDASIM") == "1":
        return True
    return _core.cuda_available()[0]


def why_unavailable():
    """The driver's reason, or '' when a device is there."""
    return _core.cuda_available()[1]


class Stream:
    """cuda.stream(): operations on one run in order."""

    def __init__(self, target=None):
        self._s = _core.stream_create(target)

    @property
    def handle(self):
        """The CUstream as an int (1: the legacy default stream)."""
        return _core.stream_handle(self._s)

    def synchronize(self):
        self._s.synchronize()

    def auto_synchronize(self):
        return _AutoSync(self)

    def __repr__(self):
        return "<ufjit.cuda.Stream>"


class _AutoSync:
    def __init__(self, s):
        self.s = s

    def __enter__(self):
        return self.s

    def __exit__(self, *exc):
        self.s.synchronize()
        return False


def stream():
    return Stream()


class Event:
    """cuda.event(timing=True): recorded on a stream, done once the work
    queued there before it has run; timed against another event."""

    def __init__(self, timing=True, target=None):
        self._e = _core.event_create(target, bool(timing))

    def record(self, stream=0):
        self._e.record(_stream(stream))

    def wait(self, stream=0):
        """The stream's later work waits for this event (on the device)."""
        self._e.wait(_stream(stream))

    def synchronize(self):
        self._e.synchronize()

    def query(self):
        return self._e.query()

    def elapsed_time(self, evtend):
        """Milliseconds from this event to evtend (both timing events)."""
        return self._e.elapsed(evtend._e)

    def __repr__(self):
        return "<ufjit.cuda.Event>"


def event(timing=True):
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """numba.cuda.event_elapsed_time: milliseconds between two events."""
    return evtstart.elapsed_time(evtend)


def default_stream():
    return 0


def _stream(s):
    return s._s if isinstance(s, Stream) else (None if s in (0, None)
                                               else s)


class DeviceNDArray:
    """An array in device memory (numba.cuda's DeviceNDArray): views and
    slicing without copies, copies to and from the host."""

    def __init__(self, array, stream=0):
        self._ufjit_array = array
        self.stream = stream

    @property
    def shape(self):
        return self._ufjit_array.shape

    @property
    def strides(self):
        return self._ufjit_array.strides

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def dtype(self):
        return np.dtype(self._ufjit_array.dtype)

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def device_ctypes_pointer(self):
        return self._ufjit_array.data_ptr

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def is_c_contiguous(self):
        return self._ufjit_array.flags["C_CONTIGUOUS"]

    def is_f_contiguous(self):
        return self._ufjit_array.flags["F_CONTIGUOUS"]

    def copy_to_host(self, ary=None, stream=0):
        """A new NumPy array (or `ary`, filled) holding the elements."""
        r = _core.copy_to_host(self._ufjit_array, ary, _stream(stream))
        return ary if ary is not None else np.asarray(r)

    def copy_to_device(self, ary, stream=0):
        _core.copy_to_device(self._ufjit_array, _as_array(ary),
                             _stream(stream))

    def __getitem__(self, key):
        v = _core.index(self._ufjit_array, key)
        return DeviceNDArray(v, self.stream)

    @property
    def __cuda_array_interface__(self):
        """CAI v3: "stream" is the array's default stream, None without
        one (work on the legacy stream through ufjit is synchronous)."""
        return _core.cai_export(self._ufjit_array)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        """DLPack 1.1's producer: `stream` (None: the legacy default
        stream; -1: none; 1, 2 or a CUstream) is made to wait for the
        array's pending work, never the host."""
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        dev_type, dev_id = (-1, 0) if dl_device is None else dl_device
        return _core.dlpack_export(self._ufjit_array, stream, versioned,
                                   int(dev_type), int(dev_id), copy)

    def __dlpack_device__(self):
        return _core.dlpack_device(self._ufjit_array)

    def __setitem__(self, key, value):
        raise NotImplementedError("ufjit: assigning into a device array "
                                  "from Python is not supported yet: copy "
                                  "a host array with copy_to_device")

    def __repr__(self):
        return (f"<ufjit.cuda.DeviceNDArray shape={self.shape} "
                f"dtype={self.dtype}>")


# the name the package's documentation uses beside Numba's
DeviceArray = DeviceNDArray


def is_cuda_array(obj):
    """Whether obj describes device memory (__cuda_array_interface__)."""
    return hasattr(obj, "__cuda_array_interface__")


def from_cuda_array_interface(desc, owner=None, sync=True, stream=0):
    """A DeviceNDArray over the memory a CAI dict names, no copy; `owner`
    is kept alive as long as the array. With a "stream" in desc and
    sync, `stream` (0: the legacy default) waits for it on the device,
    never the host; sync=False ignores it."""
    if not sync:
        desc = dict(desc, stream=None)
    a = _core.cai_import(desc, None, _stream(stream), owner)
    return DeviceNDArray(a, stream)


def as_cuda_array(obj, sync=True, stream=0):
    """numba.cuda.as_cuda_array: a DeviceNDArray over obj's memory (CuPy,
    PyTorch, ... anything with __cuda_array_interface__), no copy."""
    if isinstance(obj, DeviceNDArray):
        return obj
    if not is_cuda_array(obj):
        raise TypeError(f"{type(obj).__name__} has no "
                        "__cuda_array_interface__")
    return from_cuda_array_interface(obj.__cuda_array_interface__, obj, sync,
                                     stream)


def external_stream(ptr):
    """numba.cuda.external_stream: a Stream over a CUstream made by
    someone else (CuPy, PyTorch); it is not destroyed with the wrapper."""
    s = Stream.__new__(Stream)
    s._s = _core.stream_external(None, int(ptr))
    return s


def to_device(obj, stream=0, copy=True, to=None):
    """A device array holding a copy of host array `obj` (or, with `to`,
    that device array filled)."""
    if to is not None:
        to.copy_to_device(obj, stream)
        return to
    a = np.asarray(obj)
    return DeviceNDArray(_core.to_device(a, None, _stream(stream)), stream)


def device_array(shape, dtype=np.float64, strides=None, order='C',
                 stream=0):
    if strides is not None:
        raise NotImplementedError("ufjit: device_array(strides=) is not "
                                  "supported; use order=")
    return DeviceNDArray(_core.new_array(shape, np.dtype(dtype).name, order,
                                         None, "device"), stream)


def device_array_like(ary, stream=0):
    order = "F" if ary.flags["F_CONTIGUOUS"] and \
        not ary.flags["C_CONTIGUOUS"] else "C"
    return device_array(ary.shape, ary.dtype, order=order, stream=stream)


def pinned_array(shape, dtype=np.float64, strides=None, order='C'):
    """A NumPy array in page-locked host memory."""
    if strides is not None:
        raise NotImplementedError("ufjit: pinned_array(strides=)")
    return np.asarray(_core.new_array(shape, np.dtype(dtype).name, order,
                                      None, "pinned"))


def _arg(x):
    """A kernel argument as the C core takes it."""
    if isinstance(x, DeviceNDArray):
        return x._ufjit_array
    if is_cuda_array(x) and not isinstance(x, np.ndarray):
        return as_cuda_array(x)._ufjit_array
    return _as_array(x)


class _Launch:
    def __init__(self, kernel, grid, block, stream, shared, forall=None):
        self.kernel, self.grid, self.block = kernel, grid, block
        self.stream, self.shared, self.forall = stream, shared, forall

    def __call__(self, *args):
        k = self.kernel._kernel()
        argv = [_arg(a) for a in args]
        if self.forall is not None:
            k.launch(0, 0, argv, _stream(self.stream), self.shared, None,
                     True, self.forall)
        else:
            k.launch(self.grid, self.block, argv, _stream(self.stream),
                     self.shared)


class _CudaJit(Dispatcher):
    _deco = "cuda.jit"

    def _decorator_args(self):
        args = [repr(s) for s in self._sigs[:1]]  # cuda.jit takes one
        if len(self._sigs) > 1:
            raise NotImplementedError("ufjit: cuda.jit takes one signature")
        if self._options:
            args.append(", ".join(f"{k}={v!r}"
                                  for k, v in self._options.items()))
        return args


class Kernel(_CudaJit):
    """@cuda.jit: launched as kernel[grid, block](args) or
    kernel[grid, block, stream, sharedmem](args)."""

    def __getitem__(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("a launch configuration is [grid, block] or "
                             "[grid, block, stream, sharedmem]")
        grid, block = config[0], config[1]
        stream = config[2] if len(config) > 2 else 0
        shared = config[3] if len(config) > 3 else 0
        return _Launch(self, grid, block, stream, shared)

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        if tpb:
            blocks = (ntasks + tpb - 1) // tpb
            return _Launch(self, blocks, tpb, stream, sharedmem)
        return _Launch(self, 0, 0, stream, sharedmem, forall=ntasks)

    def __call__(self, *args):
        raise ValueError(f"kernel '{self.__name__}' needs a launch "
                         "configuration: kernel[blocks, threads](...)")


class DeviceFunction(_CudaJit):
    """@cuda.jit(device=True): called from kernels (inlined)."""

    def __call__(self, *args):
        raise TypeError(f"device function '{self.__name__}' is called from "
                        "kernels only")


def jit(func_or_sig=None, device=False, **kwargs):
    """@cuda.jit, @cuda.jit('void(float32[:])'), @cuda.jit(device=True)."""
    allowed = _DEVICE_KW if device else _KERNEL_KW
    bad = sorted(set(kwargs) - allowed)
    if bad:
        raise TypeError(f"ufjit: cuda.jit() does not support "
                        f"{', '.join(repr(b) for b in bad)}")
    opts = dict(kwargs)
    if device:
        opts = {"device": True, **opts}
    cls = DeviceFunction if device else Kernel
    if callable(func_or_sig) and not isinstance(func_or_sig, str):
        return cls(func_or_sig, [], opts)
    sigs = [] if func_or_sig is None else (
        func_or_sig if isinstance(func_or_sig, list) else [func_or_sig])
    return lambda fn: cls(fn, sigs, opts)


class CudaReduce(Reduce):
    """@cuda.reduce: f(array, size=None, res=None, init=0, stream=0)."""

    _deco = "cuda.reduce"

    def __call__(self, array, size=None, res=None, init=0, stream=0):
        if size is not None:
            array = array[:size]
        opts = {"initial": np.asarray(init)}
        if stream not in (0, None):
            opts["stream"] = _stream(stream)
        r = self._kernel().call([_arg(array)], **opts)[0]
        if r.on_device:
            r = _core.copy_to_host(r)
        value = np.asarray(r)
        if res is not None:  # numba-cuda: the result goes to res[0]
            res[:1].copy_to_device(value.reshape(1))
            return None
        return value[()]


def reduce(function):
    return CudaReduce(function, [], {})


# ---- memory managers ----------------------------------------------------


class MemoryManager:
    """The protocol of a memory manager written in Python (subclassing
    this is optional): ufjit calls, with the stream the memory is used on
    as an int (0: the legacy default stream),

      initialize(driver)         before first use, maybe again; `driver`
                                 allocates device memory itself
                                 (driver.mem_alloc(n) -> address,
                                 driver.mem_free(address),
                                 driver.mem_get_info())
      memalloc(nbytes, stream)   -> a device address (MemoryError when
                                 there is no memory)
      memfree(address, nbytes, stream)
      get_memory_info()          -> (free, total)   (optional)
      reset()                    frees what it holds (optional)
      defer_cleanup_begin() / defer_cleanup_end()   (optional, both)

    Pinned host memory is then served by ufjit's driver services."""

    def initialize(self, driver):
        self.driver = driver

    def memalloc(self, nbytes, stream):
        return self.driver.mem_alloc(nbytes)

    def memfree(self, address, nbytes, stream):
        self.driver.mem_free(address)


class _StreamRef:
    """A ufjit stream handle as the CUDA stream protocol's object
    (`__cuda_stream__` -> (version 0, handle)), which RMM's Stream takes."""

    __slots__ = ("handle",)

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


class RMMMemoryManager(MemoryManager):
    """ufjit's device memory from RMM's current device memory resource
    (a pool, a tracking adaptor...), on the stream each allocation is used
    on: rmm.DeviceBuffer(size=, stream=) per allocation, held until ufjit
    frees it, when RMM gives it back on that buffer's stream. So ufjit,
    CuPy and cuDF share one pool. Made by rmm_memory_manager()."""

    def __init__(self, rmm_module):
        self._rmm = rmm_module
        self._buffers = {}  # address -> DeviceBuffer, while ufjit holds it
        self._streams = {}  # handle -> RMM Stream (made once per stream)

    def _stream(self, handle):
        s = self._streams.get(handle)
        if s is None:
            stream_mod = getattr(getattr(self._rmm, "pylibrmm", None),
                                 "stream", None)
            if stream_mod is None:  # RMM before pylibrmm: rmm._cuda.stream
                import importlib
                stream_mod = importlib.import_module("rmm._cuda.stream")
            s = stream_mod.Stream(_StreamRef(handle)) if handle else \
                stream_mod.DEFAULT_STREAM
            self._streams[handle] = s
        return s

    def memalloc(self, nbytes, stream):
        buf = self._rmm.DeviceBuffer(size=nbytes, stream=self._stream(stream))
        address = int(buf.ptr)
        self._buffers[address] = buf
        return address

    def memfree(self, address, nbytes, stream):
        # dropping the buffer hands the memory back to RMM (on its stream)
        self._buffers.pop(address)

    def get_memory_info(self):
        """The device's (free, total), as the driver reports them: RMM's
        resource may be a pool, whose free memory the driver counts as
        used (numba's RMM plug-in cannot say more either)."""
        return self.driver.mem_get_info()

    def reset(self):
        self._buffers.clear()
        self._streams.clear()


def rmm_memory_manager(rmm_module=None):
    """A memory manager allocating through RMM (`import rmm` happens here,
    not when ufjit is imported): `cuda.set_memory_manager(
    cuda.rmm_memory_manager())`, after configuring RMM (rmm.reinitialize,
    rmm.mr.set_current_device_resource). `rmm_module` stands in for the
    `rmm` package (tests)."""
    if rmm_module is None:
        try:
            import rmm as rmm_module
        except ImportError as e:
            raise ImportError("ufjit: rmm_memory_manager() needs the rmm "
                              "package (pip install rmm-cu12 or rmm-cu13)") \
                from e
    return RMMMemoryManager(rmm_module)


def set_memory_manager(manager, target=None):
    """Installs the memory manager of `target` ("cuda" or "cudasim"),
    before its first allocation (or after memory_reset): a Python object
    following MemoryManager's protocol, a C plug-in named
    "path/to/plugin.so:factory" (as UFJIT_CUDA_MEMORY_MANAGER names one,
    NUMBA_CUDA_MEMORY_MANAGER's counterpart), or None for the default
    (Numba's deferred deallocation)."""
    name = type(manager).__name__ if manager is not None and \
        not isinstance(manager, str) else "python"
    _core.set_memory_manager(target, manager, name)


def memory_stats(target=None):
    """Counters of target's memory manager: live allocations and bytes,
    the default manager's pending queue, flushes, failed frees."""
    return _core.memory_stats(target)


def memory_reset(target=None):
    """Numba's Context.reset for memory: frees the queue and the
    manager's holdings; refused while memory is in use."""
    _core.memory_reset(target)


def get_memory_info(target=None):
    """(free, total) bytes as the memory manager reports them."""
    return _core.memory_info(target)


class defer_cleanup:
    """numba.cuda.defer_cleanup(): nothing is freed inside the block."""

    def __init__(self, target=None):
        self.target = target

    def __enter__(self):
        _core.defer_cleanup_begin(self.target)
        return self

    def __exit__(self, *exc):
        _core.defer_cleanup_end(self.target)
        return False

