"""ufjit: Numba's vectorize, guvectorize, reduce and njit, compiled by
ufjit's C core. A Numba user switches by changing one import:

    from ufjit import vectorize, float64

    @vectorize([float64(float64, float64)])
    def add(x, y):
        return x + y

Nothing of a kernel runs in Python: its source goes to the C compiler the
first time it is called. NumPy arrays go in and come out without copies."""

from . import _core, errors
from . import cuda  # noqa: F401 (ufjit.cuda, as numba.cuda)
from ._core import version as _c_version
from .decorators import guvectorize, jit, njit, reduce, vectorize
from .errors import TypingError, UfjitError
from .types import *  # noqa: F401,F403 (Numba's type objects)
from .types import __all__ as _types_all

_core._set_error_factory(errors._make)

__version__ = _c_version()


def from_dlpack(x, *, device=None, copy=None):
    """An array over another library's memory through DLPack (NumPy,
    CuPy, PyTorch, JAX ...), no copy: host memory comes back as a
    numpy.ndarray, device memory as a ufjit.cuda.DeviceNDArray."""
    kwargs = {"max_version": (1, 1)}
    if device is not None:
        kwargs["dl_device"] = device
    if copy is not None:
        kwargs["copy"] = copy
    try:
        cap = x.__dlpack__(**kwargs)
    except TypeError:  # a producer from before DLPack 1.0's keywords
        cap = x.__dlpack__()
    a = _core.dlpack_import(cap)
    if a.on_device:
        return cuda.DeviceNDArray(a)
    return __import__("numpy").asarray(a)


def targets():
    """The targets this build of ufjit has ('cpu', 'parallel', ...)."""
    return _core.targets()


__all__ = ["vectorize", "guvectorize", "njit", "jit", "reduce", "errors", "cuda",
           "from_dlpack",
           "TypingError", "UfjitError", "targets"] + list(_types_all)
