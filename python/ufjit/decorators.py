"""Numba's decorators over ufjit: the same arguments, the same results."""

import inspect

from ._dispatch import Function, GUFunc, Reduce, UFunc
from .types import ArrayType, Type

_VECTORIZE_KW = {"target", "identity", "nopython", "fastmath", "cache",
                 "boundscheck"}
_GUVECTORIZE_KW = _VECTORIZE_KW | {"writable_args"}
_NJIT_KW = {"nopython", "fastmath", "cache", "boundscheck", "nogil"}


def _python_function(fn):
    """The Python function behind `fn`: itself, or the one a Numba
    dispatcher (@jit, @njit) wraps, whose source ufjit compiles."""
    inner = getattr(fn, "py_func", None)
    if inner is not None and inspect.isfunction(inner) and \
            (type(fn).__module__ or "").startswith("numba"):
        return inner
    return fn


def _check(name, kwargs, allowed):
    bad = sorted(set(kwargs) - allowed)
    if bad:
        raise TypeError(f"ufjit: {name}() does not support "
                        f"{', '.join(repr(b) for b in bad)} (it takes "
                        f"{', '.join(sorted(allowed))})")


def _sig_list(sigs):
    """Numba's forms: a list of signatures, one signature (a string or a
    type object), or a tuple: of signatures, or of argument types (one
    signature without its return type)."""
    if sigs is None:
        return []
    if isinstance(sigs, list):
        return sigs  # [] is Numba's dynamic (lazily typed) form
    if isinstance(sigs, tuple):
        if sigs and all(isinstance(s, (Type, ArrayType)) for s in sigs):
            return [sigs]
        return list(sigs)
    return [sigs]


def vectorize(ftylist_or_function=(), **kwargs):
    """@vectorize, @vectorize(['float64(float64)'], target='parallel')."""
    _check("vectorize", kwargs, _VECTORIZE_KW)
    f = _python_function(ftylist_or_function)
    if inspect.isfunction(f):
        return UFunc(f, [], kwargs)
    sigs = _sig_list(ftylist_or_function)
    return lambda fn: UFunc(_python_function(fn), sigs, kwargs)


def guvectorize(*args, **kwargs):
    """@guvectorize(signatures, '(n),()->(n)', target=...), or the layout
    alone for a lazily typed gufunc."""
    _check("guvectorize", kwargs, _GUVECTORIZE_KW)
    if "writable_args" in kwargs:
        raise NotImplementedError("ufjit: guvectorize(writable_args=) is "
                                  "not supported yet")
    if len(args) == 1:
        sigs, layout = [], args[0]
    elif len(args) == 2:
        sigs, layout = _sig_list(args[0]), args[1]
    else:
        raise TypeError("guvectorize(signatures, layout, **options)")
    if not isinstance(layout, str):
        raise TypeError("guvectorize: the layout is a string such as "
                        "'(n),()->(n)'")
    return lambda fn: GUFunc(_python_function(fn), sigs, layout, kwargs)


def njit(signature_or_function=None, **kwargs):
    """@njit, @njit(cache=True), @njit('float64(float64)')."""
    _check("njit", kwargs, _NJIT_KW)
    f = _python_function(signature_or_function)
    if inspect.isfunction(f):
        return Function(f, [], kwargs)
    sigs = _sig_list(signature_or_function)
    return lambda fn: Function(_python_function(fn), sigs, kwargs)


def jit(signature_or_function=None, **kwargs):
    """@jit: ufjit compiles nopython code only (as Numba's default)."""
    if kwargs.get("nopython", True) is False or kwargs.get("forceobj"):
        raise NotImplementedError("ufjit: object mode (nopython=False, "
                                  "forceobj=True) is not supported")
    kwargs.pop("forceobj", None)
    return njit(signature_or_function, **kwargs)


def reduce(function):
    """@reduce: Numba's @cuda.reduce, on any target."""
    if not inspect.isfunction(function):
        raise TypeError("@reduce decorates a binary function")
    return Reduce(function, [], {})
