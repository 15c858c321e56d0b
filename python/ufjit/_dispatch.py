"""The objects the decorators return: each holds the Python function (never
run), the decorator's arguments, and, once first called, the kernel the C
core compiled from the function's source."""

import ast
import re
import threading

import numpy as np

from . import _core, _numba, _override, _source
from .types import signature_text

_lock = threading.Lock()


def _as_array(x):
    """An operand as the C core takes it: arrays with the buffer protocol
    pass unchanged (no copy), ufjit.cuda's device arrays as their array;
    anything else through numpy.asarray."""
    if isinstance(x, (np.ndarray, _core.Array, str)):
        return x  # a str: an njit function's string argument
    inner = getattr(x, "_ufjit_array", None)
    if inner is not None:
        return inner
    if hasattr(x, "__cuda_array_interface__"):  # CuPy, PyTorch, Numba
        return _core.cai_import(x.__cuda_array_interface__, None, None, x)
    return np.asarray(x)


def _result(a):
    """A result as NumPy (host) or ufjit.cuda (device) sees it."""
    if isinstance(a, _core.Array):
        if a.on_device:
            from .cuda import DeviceNDArray
            return DeviceNDArray(a)
        return np.asarray(a)
    return a


# operands converted with numpy.asarray without further thought
_SCALAR_TYPES = (int, float, complex, bool, np.float64, np.float32,
                 np.int64, np.int32, np.int16, np.int8, np.uint64,
                 np.uint32, np.uint16, np.uint8, np.bool_, np.complex64,
                 np.complex128)


def _kw_text(options):
    return ", ".join(f"{k}={v!r}" for k, v in options.items())


class Dispatcher:
    """A decorated function: compiled by ufjit on first use."""

    _deco = ""  # the decorator's name in the kernel file

    def __init__(self, py_func, sigs, options):
        _numba.register_if_numba_loaded()  # Numba-jitted callers (_numba.py)
        self.py_func = py_func
        self._sigs = [signature_text(s) for s in sigs]
        self._options = dict(options)
        self._func = None
        self.__name__ = py_func.__name__
        self.__qualname__ = getattr(py_func, "__qualname__", self.__name__)
        self.__doc__ = py_func.__doc__
        self.__module__ = py_func.__module__
        self.__wrapped__ = py_func

    def _decorator_args(self):
        args = []
        if self._sigs:  # an empty list is the lazily typed form: none
            args.append(repr(self._sigs))
        if self._options:
            args.append(_kw_text(self._options))
        return args

    def _decorator_text(self):
        args = self._decorator_args()
        return f"@{self._deco}({', '.join(args)})" if args else \
            f"@{self._deco}"

    # (file name, kernel file text) of an object rebuilt from a pickle,
    # which has no Python function
    _source_text = None

    def _text(self):
        return self._source_text or _source.build(self)

    @property
    def kernel_source(self):
        """The kernel file text ufjit compiles for this function."""
        return self._text()[1]

    def _kernel(self):
        f = self._func
        if f is None:
            with _lock:
                if self._func is None:
                    name, text = self._text()
                    self._module = _core.load_source(name, text)
                    self._func = self._module.get(self.__name__)
                f = self._func
        return f

    def __reduce__(self):
        """Pickled as its kernel file's text, the name and the decorator's
        arguments: rebuilt where the defining module cannot be imported
        (a Dask worker process), compiled there on first use."""
        file, text = self._text()
        state = {k: v for k, v in self.__dict__.items()
                 if k in ("_sigs", "_options", "signature", "__qualname__",
                          "__doc__", "__module__")}
        return (_rebuild, (type(self).__name__, self.__name__, file, text,
                           state))

    def compile(self):
        """Parses and types the kernel now instead of at its first call."""
        self._kernel()
        return self

    def inspect_types(self, signature=None):
        return self._kernel().inspect(signature, 1)

    def inspect_llvm(self, signature=None):
        return self._kernel().inspect(signature, 2)

    def inspect_asm(self, signature=None):
        return self._kernel().inspect(signature, 4)

    @property
    def signatures(self):
        return self._kernel().signatures

    def __repr__(self):
        return f"<ufjit {self._deco} '{self.__name__}'>"


def _call_options(target, casting=None, where=True, stream=None, **more):
    opts = {k: v for k, v in more.items() if v is not None}
    if stream not in (None, 0):
        opts["stream"] = getattr(stream, "_s", stream)
    if target is not None:
        opts["target"] = target
    if casting is not None:
        opts["casting"] = casting
    if where is not True and where is not None:
        opts["where"] = _as_array(where)
    return opts


def _tuple_len(sig):
    """Outputs of a vectorize signature: 1, or the length of its returned
    tuple ("Tuple(float64, int64)(float64)", "(float64, int64)(...)")."""
    head = sig.lstrip()
    for prefix in ("UniTuple(", "Tuple(", "("):
        if head.startswith(prefix):
            depth, n = 0, 1
            for ch in head[len(prefix) - 1:]:
                depth += ch in "([" and 1 or (ch in ")]" and -1 or 0)
                if ch == "," and depth == 1:
                    n += 1
                if depth == 0:
                    break
            if prefix == "UniTuple(":  # UniTuple(float64, 2)
                inner = head[len(prefix):head.index(")")]
                return int(inner.rsplit(",", 1)[1])
            return n
    return 1


def _numpy_char(sig_type):
    return np.dtype(sig_type.strip()).char


def _rebuild(cls_name, name, file, text, state):
    """A dispatcher from its pickle (Dispatcher.__reduce__)."""
    classes = {"UFunc": UFunc, "GUFunc": GUFunc, "Function": Function,
               "Reduce": Reduce}
    if cls_name not in classes:
        from . import cuda
        classes.update(Kernel=cuda.Kernel, DeviceFunction=cuda.DeviceFunction,
                       CudaReduce=cuda.CudaReduce)
    cls = classes[cls_name]
    obj = cls.__new__(cls)
    obj.__dict__.update(state)
    obj.py_func = None
    obj._func = None
    obj._source_text = (file, text)
    obj.__name__ = name
    return obj


# Host calls on fewer elements keep the GIL (see ufpy_fastcall.c).
_HOLD_GIL_BELOW = 1 << 14


def _core_path(obj, f):
    """From now on the C call path (_core.UFuncBase) runs obj's kernel f."""
    if obj._options.get("target", "cpu") in ("cpu", "parallel"):
        obj._core_hold_gil_below = _HOLD_GIL_BELOW
    obj._core_func = f


class UFunc(_core.UFuncBase, Dispatcher):
    """@vectorize: behaves as a NumPy ufunc (call, out=, where=, casting=,
    dtype=, reduce, accumulate, outer). Calling it runs C first
    (_core.UFuncBase: NumPy arrays in and out= once compiled), then
    _slow_call for everything else."""

    _deco = "vectorize"

    def _kernel(self):
        f = Dispatcher._kernel(self)
        if self._core_func is None:
            _core_path(self, f)
        return f

    @property
    def nin(self):
        return self._kernel().nin

    @property
    def nout(self):
        """Known once a signature is compiled; before, from the declared
        return type (a tuple gives several), else 1 as Numba's DUFunc."""
        k = self._kernel()
        if k.nout >= 0:
            return k.nout
        sigs = k.signatures
        return _tuple_len(sigs[0]) if sigs else 1

    @property
    def nargs(self):
        return self.nin + self.nout

    @property
    def types(self):
        """NumPy's 'dd->d' form of each declared signature."""
        out = []
        for s in self._kernel().signatures:
            ret, args = s[:s.index("(")], s[s.index("(") + 1:-1]
            ins = "".join(_numpy_char(a) for a in args.split(",") if a)
            out.append(f"{ins}->{_numpy_char(ret)}")
        return out

    @property
    def ntypes(self):
        return len(self._kernel().signatures)

    @property
    def identity(self):
        """NumPy's ufunc.identity: 0, 1, a literal, or None (also for
        Numba's "reorderable", which NumPy shows as None)."""
        ident = self._options.get("identity")
        return None if ident == "reorderable" else ident

    signature = None  # a ufunc's core signature: none

    def _target(self, target):
        return target

    def _slow_call(self, *args, out=None, where=True, casting=None,
                   dtype=None, target=None, stream=None, **kwargs):
        k = self._func or self._kernel()
        if out is None and where is True and casting is None and \
                dtype is None and target is None and stream is None and \
                not kwargs and \
                len(args) == k.nin:
            # the common call: NumPy arrays and scalars, nothing else
            ins, scalars = [], True
            for a in args:
                t = type(a)
                if t is np.ndarray:
                    ins.append(a)
                    scalars = False
                elif t in _SCALAR_TYPES:
                    ins.append(np.asarray(a))
                else:
                    break
            else:
                res = k.call(ins)
                if scalars:
                    res = [np.asarray(r)[()] for r in res]
                else:
                    res = [np.asarray(r) for r in res]
                return res[0] if len(res) == 1 else tuple(res)
        outs_t = out if isinstance(out, tuple) else \
            (() if out is None else (out,))
        who = _override.overriding(args + outs_t)
        if who:
            kw = dict(kwargs)
            for k, v in (("where", where), ("casting", casting),
                         ("dtype", dtype)):
                if v is not None and v is not True:
                    kw[k] = v
            if outs_t:
                kw["out"] = outs_t
            return _override.dispatch(self, "__call__", args, kw, who)
        if kwargs:
            raise TypeError(f"{self.__name__}() got unexpected keyword "
                            f"argument(s) {', '.join(sorted(kwargs))}")
        if dtype is not None:
            sig, args = self._cast_for_dtype(k, args, dtype, casting)
            k = self._kernel_for(sig)
        if len(args) == k.nin + self.nout and out is None:
            args, out = args[:k.nin], args[k.nin:]
        if len(args) != k.nin:
            raise TypeError(f"{self.__name__}() takes {k.nin} positional "
                            f"argument(s) but {len(args)} were given")
        outs = None
        if out is not None:
            outs = list(out) if isinstance(out, tuple) else [out]
        ins = [_as_array(a) for a in args]
        res = k.call(ins, None if outs is None else
                     [_as_array(o) for o in outs],
                     **_call_options(target, casting, where, stream))
        if outs is not None:
            res = outs
        else:
            res = [_result(r) for r in res]
            if all(type(a) in _SCALAR_TYPES for a in args):
                res = [r[()] for r in res]
        return res[0] if len(res) == 1 else tuple(res)

    def _cast_for_dtype(self, k, args, dtype, casting):
        """NumPy's dtype=: the loop computing in `dtype` (the first declared
        signature returning it; a lazy kernel's, all inputs of it), the
        inputs cast to its types under `casting` (default same_kind).
        Returns the signature and the cast inputs (as many as given: a
        reduction gives one for a two-input loop)."""
        want = np.dtype(dtype)
        types = chosen = None
        for sig in k.signatures:
            cut = sig.rindex("(", 0, sig.rindex(")"))
            if np.dtype(sig[:cut].strip()) == want:
                types = [t.strip() for t in sig[cut + 1:-1].split(",")]
                chosen = sig
                break
        if types is None:
            if k.signatures:
                raise TypeError(
                    f"ufunc '{self.__name__}': no loop computes in {want} "
                    f"(its loops: {', '.join(self.types)})")
            types = [want.name] * k.nin
            chosen = f"{want.name}({', '.join(types)})"
        rule = casting or "same_kind"
        out = []
        for a, t in zip(args, types):
            a = np.asarray(a)
            if not np.can_cast(a.dtype, t, rule):
                raise TypeError(f"ufunc '{self.__name__}': cannot cast "
                                f"{a.dtype} to {np.dtype(t)} under the "
                                f"'{rule}' rule")
            out.append(a.astype(t, copy=False))
        return chosen, tuple(out)

    def _kernel_for(self, sig):
        """The kernel compiled with `sig` as its only loop, so that the
        call runs exactly that loop (cached per signature)."""
        cache = self.__dict__.setdefault("_by_signature", {})
        f = cache.get(sig)
        if f is None:
            with _lock:
                f = cache.get(sig)
                if f is None:
                    if self.py_func is None:
                        raise NotImplementedError(
                            "ufjit: dtype= on a ufunc rebuilt from a "
                            "pickle is not supported yet")
                    clone = type(self).__new__(type(self))
                    clone.__dict__.update(self.__dict__)
                    clone._sigs, clone._func = [sig], None
                    name, text = _source.build(clone)
                    f = _core.load_source(name, text).get(self.__name__)
                    cache[sig] = f
        return f

    def _method(self, name, a, axis, out, keepdims=None, initial=None,
                where=True, dtype=None, target=None):
        k = self._kernel()
        if dtype is not None:
            # NumPy: the loop computing in dtype, the input cast to it
            # (unsafely, as NumPy's reductions do)
            sig, (a,) = self._cast_for_dtype(k, (a,), dtype, "unsafe")
            k = self._kernel_for(sig)
        if where is not True:
            raise NotImplementedError(f"ufjit: {name}(where=) is not "
                                      "supported yet")
        opts = _call_options(target)
        if axis is None:
            opts["all_axes"] = True
        else:
            opts["axes"] = list(axis) if isinstance(axis, tuple) else [axis]
        if keepdims:
            opts["keepdims"] = True
        if initial is not None:
            opts["initial"] = np.asarray(initial)
        if isinstance(out, tuple):
            out = out[0]
        r = getattr(k, name)(_as_array(a), out, **opts)
        if out is not None:
            return out
        r = np.asarray(r)
        return r[()] if r.ndim == 0 else r

    def _override(self, method, inputs, **kwargs):
        who = _override.overriding(inputs + (kwargs.get("out") or ()))
        if not who:
            return NotImplemented
        kw = {k: v for k, v in kwargs.items() if v is not None}
        return _override.dispatch(self, method, inputs, kw, who)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=None, where=True, target=None):
        r = self._override("reduce", (array,), axis=axis, dtype=dtype,
                           out=out if out is None else (out,),
                           keepdims=keepdims or None, initial=initial)
        if r is not NotImplemented:
            return r
        return self._method("reduce", array, axis, out, keepdims, initial,
                            where, dtype, target)

    def accumulate(self, array, axis=0, dtype=None, out=None, target=None):
        r = self._override("accumulate", (array,), axis=axis, dtype=dtype,
                           out=out if out is None else (out,))
        if r is not NotImplemented:
            return r
        return self._method("accumulate", array, axis, out, dtype=dtype,
                            target=target)

    def outer(self, a, b, out=None, target=None):
        r = self._override("outer", (a, b),
                           out=out if out is None else (out,))
        if r is not NotImplemented:
            return r
        r = self._kernel().outer(_as_array(a), _as_array(b), out,
                                 **_call_options(target))
        return out if out is not None else np.asarray(r)

    def at(self, a, indices, b=None):
        """NumPy's ufunc.at: a[indices] = f(a[indices] (, b)), unbuffered,
        so an index given twice is updated twice, in order. Done in rounds:
        round r applies every index's r-th occurrence, all distinct, as one
        vectorized gather-call-scatter on a's elements."""
        k = self._kernel()
        if k.nin not in (1, 2) or (k.nin == 2) != (b is not None):
            raise TypeError(f"{self.__name__}.at takes a, indices"
                            f"{', b' if k.nin == 2 else ''}")
        if not isinstance(a, np.ndarray):
            raise TypeError("ufunc.at's first operand is a NumPy array")
        if not a.flags.writeable:
            raise ValueError("ufunc.at: the array is read-only")
        flat = np.arange(a.size).reshape(a.shape)[indices]
        pos = np.asarray(flat).ravel()
        vals = None if b is None else \
            np.broadcast_to(np.asarray(b), np.shape(flat)).ravel()
        order = np.argsort(pos, kind="stable")
        sorted_pos = pos[order]
        first = np.r_[True, sorted_pos[1:] != sorted_pos[:-1]]
        starts = np.maximum.accumulate(np.where(first,
                                                np.arange(pos.size), 0))
        rank = np.empty(pos.size, dtype=np.intp)
        rank[order] = np.arange(pos.size) - starts
        view = a.reshape(-1) if a.flags.c_contiguous else None
        for r in range(int(rank.max()) + 1 if pos.size else 0):
            sel = rank == r
            p = pos[sel]
            cur = view[p] if view is not None else a.flat[p]
            args = (cur,) if vals is None else (cur, vals[sel])
            res = self._slow_call(*args, casting="unsafe")
            if view is not None:
                view[p] = res
            else:
                a.flat[p] = res

    def reduceat(self, *args, **kwargs):
        raise NotImplementedError("ufjit: ufunc.reduceat is not supported "
                                  "yet")


class GUFunc(_core.UFuncBase, Dispatcher):
    """@guvectorize: a generalized ufunc (outputs allocated or passed
    last, axes=, axis=, keepdims=). Calls run C first (_core.UFuncBase),
    then _slow_call."""

    _deco = "guvectorize"

    def _kernel(self):
        f = Dispatcher._kernel(self)
        if self._core_func is None:
            _core_path(self, f)
        return f

    def __init__(self, py_func, sigs, layout, options):
        super().__init__(py_func, sigs, options)
        self.signature = layout

    @property
    def identity(self):
        ident = self._options.get("identity")
        return None if ident == "reorderable" else ident

    def _decorator_args(self):
        # no signatures: the layout alone, a lazily typed gufunc
        args = ([repr(self._sigs)] if self._sigs else []) + \
            [repr(self.signature)]
        if self._options:
            args.append(_kw_text(self._options))
        return args

    @property
    def nin(self):
        return self._kernel().nin

    @property
    def nout(self):
        return self._kernel().nout

    def _slow_call(self, *args, out=None, axes=None, axis=None,
                   keepdims=None, casting=None, target=None):
        outs_t = out if isinstance(out, tuple) else \
            (() if out is None else (out,))
        who = _override.overriding(args + outs_t)
        if who:
            kw = {k: v for k, v in (("axes", axes), ("axis", axis),
                                    ("keepdims", keepdims),
                                    ("casting", casting)) if v is not None}
            if outs_t:
                kw["out"] = outs_t
            return _override.dispatch(self, "__call__", args, kw, who)
        k = self._kernel()
        if len(args) == k.nin + k.nout and out is None:
            args, out = args[:k.nin], args[k.nin:]
        if len(args) != k.nin:
            raise TypeError(f"{self.__name__}() takes {k.nin} inputs "
                            f"(and optionally {k.nout} outputs), not "
                            f"{len(args)} arguments")
        outs = None
        if out is not None:
            outs = list(out) if isinstance(out, tuple) else [out]
        opts = _call_options(target, casting)
        if axes is not None:
            opts["gufunc_axes"] = [list(a) if isinstance(a, (tuple, list))
                                   else [a] for a in axes]
        if axis is not None:
            opts["axes"] = [axis]
        if keepdims:
            opts["keepdims"] = True
        res = k.call([_as_array(a) for a in args],
                     None if outs is None else [_as_array(o) for o in outs],
                     **opts)
        if outs is not None:
            return outs[0] if len(outs) == 1 else tuple(outs)
        res = [_result(r) for r in res]
        if not res:
            return None
        return res[0] if len(res) == 1 else tuple(res)


class Function(Dispatcher):
    """@njit / @jit: a plain function, compiled per argument types."""

    _deco = "njit"

    def __call__(self, *args):
        k = self._kernel()
        res = k.call([_as_array(a) for a in args])
        vals = []
        for r in res:
            if isinstance(r, str):  # a returned string
                vals.append(r)
                continue
            a = np.asarray(r)
            vals.append(a[()] if a.ndim == 0 else _argument_itself(a, args))
        tree = k.result_tree
        if tree is not None and tree != "None":
            # nested tuples come back flat, their values depth first;
            # "str(k)" marks a string's index
            tree = re.sub(r"str\((\d+)\)", r"\1", tree)
            return _nest(ast.literal_eval(tree), vals)
        if not vals:
            return None
        return vals[0] if len(vals) == 1 else tuple(vals)


def _argument_itself(a, args):
    """An argument returned unchanged (`return a`) is that argument, as
    in Numba; another view of it stays a view of its memory."""
    if a.base is None:
        return a
    for x in args:
        if (type(x) is np.ndarray and x.dtype == a.dtype
                and x.shape == a.shape
                and (x.strides == a.strides or a.size == 0)
                and x.__array_interface__["data"][0]
                == a.__array_interface__["data"][0]):
            return x
    return a


def _nest(tree, vals):
    if isinstance(tree, tuple):
        return tuple(_nest(t, vals) for t in tree)
    return vals[tree]


class Reduce(Dispatcher):
    """@reduce (Numba's @cuda.reduce): a binary combining function applied
    to every element: f(array, init=None) -> scalar."""

    _deco = "reduce"

    def __call__(self, array, size=None, res=None, init=None, stream=0,
                 target=None, axis=None):
        if size is not None or res is not None or stream != 0:
            raise NotImplementedError("ufjit: reduce's size=, res= and "
                                      "stream= are not supported yet")
        opts = _call_options(target)
        if init is not None:
            opts["initial"] = np.asarray(init)
        if axis is not None:
            opts["axes"] = list(axis) if isinstance(axis, tuple) else [axis]
        r = np.asarray(self._kernel().call([_as_array(array)], **opts)[0])
        return r[()] if r.ndim == 0 else r
