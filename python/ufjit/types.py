"""Numba's type objects, so that signatures written with objects work:
``float64``, ``int32[:]``, ``float64[:, ::1]``, ``void(float64[:], int32)``.
Each stands for its signature text (``str()``), which is what ufjit's C
compiler reads. Called on a value outside a signature, a scalar type
converts it as Numba's does (``float32(2.5)`` is ``numpy.float32(2.5)``)."""

import numpy as np


class Type:
    """A scalar type (``float64``) or ``void``."""

    def __init__(self, name, numpy_name=None):
        self.name = name
        self.numpy_name = numpy_name

    def __str__(self):
        return self.name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __getitem__(self, index):
        """``float64[:]``, ``float64[:, ::1]``, ``float64[::1, :]``."""
        if self.numpy_name is None:
            raise TypeError(f"{self.name} has no arrays")
        parts = index if isinstance(index, tuple) else (index,)
        text = []
        for i, p in enumerate(parts):
            if not isinstance(p, slice) or p.start is not None or \
                    p.stop is not None or p.step not in (None, 1):
                raise TypeError("array types are written with ':' and "
                                "'::1' only, e.g. float64[:, ::1]")
            if p.step == 1 and i not in (0, len(parts) - 1):
                raise TypeError("'::1' marks the first or last axis only")
            text.append("::1" if p.step == 1 else ":")
        return ArrayType(self, len(parts), ", ".join(text))

    def __call__(self, *args):
        if args and all(isinstance(a, (Type, ArrayType)) for a in args) or \
                not args:
            return Signature(self, args)
        if self.numpy_name is None or len(args) != 1:
            raise TypeError(f"{self.name}() takes one value")
        return np.dtype(self.numpy_name).type(args[0])

    @property
    def dtype(self):
        return np.dtype(self.numpy_name)


class ArrayType:
    """An array type of a signature: dtype, dimensions and layout."""

    def __init__(self, dtype, ndim, text):
        self.dtype = dtype
        self.ndim = ndim
        self.text = text

    def __str__(self):
        return f"{self.dtype}[{self.text}]"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, ArrayType) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class Signature:
    """``float64(float64, int32)``: a return type and argument types."""

    def __init__(self, ret, args):
        self.return_type = ret
        self.args = tuple(args)

    def __str__(self):
        return f"{self.return_type}({', '.join(str(a) for a in self.args)})"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Signature) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


_SCALARS = [
    ("boolean", "bool", "bool"), ("bool_", "bool", "bool"),
    ("int8", "int8", "int8"), ("int16", "int16", "int16"),
    ("int32", "int32", "int32"), ("int64", "int64", "int64"),
    ("uint8", "uint8", "uint8"), ("uint16", "uint16", "uint16"),
    ("uint32", "uint32", "uint32"), ("uint64", "uint64", "uint64"),
    ("float32", "float32", "float32"), ("float64", "float64", "float64"),
    ("complex64", "complex64", "complex64"),
    ("complex128", "complex128", "complex128"),
    ("intp", "int64", "int64"), ("uintp", "uint64", "uint64"),
    ("byte", "uint8", "uint8"), ("char", "int8", "int8"),
    ("short", "int16", "int16"), ("ushort", "uint16", "uint16"),
    ("intc", "int32", "int32"), ("uintc", "uint32", "uint32"),
    ("int_", "int64", "int64"), ("uint", "uint64", "uint64"),
    ("longlong", "int64", "int64"), ("ulonglong", "uint64", "uint64"),
    ("float_", "float64", "float64"), ("double", "float64", "float64"),
    ("f4", "float32", "float32"), ("f8", "float64", "float64"),
    ("c8", "complex64", "complex64"), ("c16", "complex128", "complex128"),
    ("i1", "int8", "int8"), ("i2", "int16", "int16"),
    ("i4", "int32", "int32"), ("i8", "int64", "int64"),
    ("u1", "uint8", "uint8"), ("u2", "uint16", "uint16"),
    ("u4", "uint32", "uint32"), ("u8", "uint64", "uint64"),
]

__all__ = ["Type", "ArrayType", "Signature", "void", "none"]
for _alias, _name, _np in _SCALARS:
    globals()[_alias] = Type(_name, _np)
    __all__.append(_alias)
void = Type("void")
none = void


def signature_text(sig):
    """A signature as ufjit's compiler reads it: strings pass unchanged,
    type objects become their text, tuples of argument types (Numba's
    ``(int32[:], int32)`` form) become that list."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, (Signature, Type, ArrayType)):
        return str(sig)
    if isinstance(sig, tuple):
        return ", ".join(signature_text(a) for a in sig)
    numba_text = _numba_type_text(sig)
    if numba_text is not None:
        return numba_text
    raise TypeError(f"a signature is a string or a type object, not "
                    f"{type(sig).__name__}")


def _numba_type_text(t):
    """Numba's own type objects (a file mixing `from numba import float64`
    with ufjit's decorators): its signatures, scalars and arrays as the
    same text; None for anything else."""
    mod = type(t).__module__ or ""
    if not mod.startswith("numba"):
        return None
    if hasattr(t, "return_type") and hasattr(t, "args"):
        ret = _numba_type_text(t.return_type)
        args = [_numba_type_text(a) for a in t.args]
        if ret is None or None in args:
            return None
        return f"{ret}({', '.join(args)})"
    if hasattr(t, "dtype") and hasattr(t, "ndim") and hasattr(t, "layout"):
        dt = _numba_type_text(t.dtype)
        axes = [":"] * t.ndim
        if t.layout == "C" and t.ndim:
            axes[-1] = "::1"
        elif t.layout == "F" and t.ndim:
            axes[0] = "::1"
        return None if dt is None else f"{dt}[{', '.join(axes)}]"
    text = str(t)
    return {"none": "void", "bool": "boolean"}.get(text, text)

