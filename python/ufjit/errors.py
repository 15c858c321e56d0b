"""The exceptions ufjit raises. Every one is a UfjitError, and also the
built-in exception a NumPy or Numba user expects for that kind of failure
(a shape mismatch is a ValueError, a failed bounds check an IndexError, an
integer division by zero in an njit function a ZeroDivisionError), so
existing ``except`` clauses keep working. Kernel errors carry the kernel
file's position: ``file``, ``line``, ``column``, and the message holds the
source line with a caret."""

import builtins


class UfjitError(Exception):
    """A failure reported by ufjit's C core: ``code`` is its UF_ERR_* name."""

    def __init__(self, message, code="", file="", line=0, column=0):
        super().__init__(message)
        self.code = code
        self.file = file
        self.line = line
        self.column = column


class KernelSyntaxError(UfjitError, SyntaxError):
    """The kernel file does not parse."""

    def __str__(self):  # SyntaxError's own __str__ wants its fields
        return self.args[0]


class TypingError(UfjitError, TypeError):
    """Type inference failed (Numba's TypingError)."""


class UnsupportedError(UfjitError, NotImplementedError):
    """A construct or option ufjit does not support."""


class ShapeError(UfjitError, ValueError):
    """Operands whose shapes do not broadcast or match a layout."""


class CastingError(UfjitError, TypeError):
    """A cast the casting rule forbids (NumPy's UFuncTypeError)."""


class DTypeError(UfjitError, TypeError):
    """No loop for these types, or a type ufjit does not have."""


class UfjitValueError(UfjitError, ValueError):
    """An invalid argument or value."""


class UfjitIndexError(UfjitError, IndexError):
    """An index out of range (a bounds check in a kernel)."""


class UfjitZeroDivisionError(UfjitError, ZeroDivisionError):
    """Division by zero in a kernel (njit follows Python)."""


class UfjitStopIteration(UfjitError, StopIteration):
    """min()/max() of an empty array in a kernel (Numba's next())."""


class UfjitAssertionError(UfjitError, AssertionError):
    """An ``assert`` in a kernel failed."""


try:  # numpy.linalg.LinAlgError (a ValueError) where NumPy is installed
    from numpy.linalg import LinAlgError as _LinAlgError
except ImportError:  # pragma: no cover
    _LinAlgError = ValueError


class UfjitLinAlgError(UfjitError, _LinAlgError):
    """np.linalg in a kernel: a singular or non-square matrix, inf or NaN
    (numpy.linalg.LinAlgError, as Numba raises)."""


class UfjitOverflowError(UfjitError, OverflowError):
    """A size that overflows."""


class ReadOnlyError(UfjitError, ValueError):
    """A write to a read-only array."""


class NoDeviceError(UfjitError, RuntimeError):
    """No CUDA driver or device (the message says which)."""


class UfjitIOError(UfjitError, OSError):
    """A file that cannot be read or written, or is malformed."""


class NotFoundError(UfjitError, LookupError):
    """A name that does not exist (a kernel, a target)."""


class UfjitMemoryError(UfjitError, MemoryError):
    """Out of memory: host, or a CUDA device's (its manager says which)."""


class LimitError(UfjitError, RuntimeError):
    """A documented limit was exceeded."""


class InternalError(UfjitError, RuntimeError):
    """A bug in ufjit: please report it."""


_BY_CODE = {
    "SYNTAX": KernelSyntaxError, "TYPING": TypingError,
    "UNSUPPORTED": UnsupportedError, "SHAPE": ShapeError,
    "CAST": CastingError, "TYPE": DTypeError, "VALUE": UfjitValueError,
    "INVALID": UfjitValueError, "INDEX": UfjitIndexError,
    "OVERFLOW": UfjitOverflowError, "READONLY": ReadOnlyError,
    "NO_DEVICE": NoDeviceError, "IO": UfjitIOError, "FORMAT": UfjitIOError,
    "NOT_FOUND": NotFoundError, "LIMIT": LimitError,
    "INTERNAL": InternalError, "NOMEM": UfjitMemoryError,
}

# errors raised inside compiled kernels name Python's exception first
_BY_PREFIX = {
    "ZeroDivisionError:": UfjitZeroDivisionError,
    "IndexError:": UfjitIndexError,
    "ValueError:": UfjitValueError,
    "LinAlgError:": UfjitLinAlgError,
    "StopIteration:": UfjitStopIteration,
    "AssertionError": UfjitAssertionError,
}


# a `raise` statement in a kernel: any of Python's built-in exception
# classes the compiler takes (compiler/types/exceptions.h), made on first
# use as a UfjitError and that class
_RAISED = {}


def _raised_class(message):
    head = message.split(":", 1)[0].split(" ", 1)[0]
    base = getattr(builtins, head, None)
    if not (isinstance(base, type) and issubclass(base, Exception)) or \
            issubclass(base, Warning):
        return None
    if head not in _RAISED:
        _RAISED[head] = type("Ufjit" + head, (UfjitError, base),
                             {"__doc__": f"{head} raised in a kernel."})
    return _RAISED[head]


def _make(code, name, message, file, line, column):
    """The C core's factory: an exception instance for one ufjit error
    (`name` is the C name, "UF_ERR_SHAPE")."""
    name = name[len("UF_ERR_"):] if name.startswith("UF_ERR_") else name
    cls = _BY_CODE.get(name, UfjitError)
    if file and not message.startswith(file):
        message = f"{file}:{line}:{column}: {message}"
    for prefix, c in _BY_PREFIX.items():
        if message.startswith(prefix):
            cls = c
            break
    else:
        cls = _raised_class(message) or cls
    return cls(message, name, file, line, column)
