"""ufjit's vectorize and guvectorize objects called from Numba-jitted code.

Numba cannot type an object it does not know, so an @njit function calling
a ufjit ufunc failed to compile. Here Numba is taught that such an object
means Numba's own ufunc of the same Python function (built once, on first
use, with the same signatures and options): inside Numba-compiled code the
call is Numba's compilation of the kernel, which is what that code would
run had the file kept `from numba import vectorize`. Calls from Python
still run ufjit's loops.

Numba calls register() through the `numba_extensions` entry point of an
installed package; ufjit calls it too when numba is imported first (the
build tree has no entry point)."""
import sys

_registered = False


def _numba_twin(obj):
    """Numba's ufunc (DUFunc) or gufunc for `obj`'s function."""
    twin = obj.__dict__.get("_numba_twin")
    if twin is None:
        # Numba's own decorators, even where numba.vectorize was swapped
        # for ufjit's (a user's conftest, Numba's tests run on ufjit)
        from numba.np.ufunc import decorators as numba
        opts = {k: v for k, v in obj._options.items()
                if k in ("identity", "fastmath", "nopython", "boundscheck")}
        if getattr(obj, "signature", None):  # a gufunc: its layout
            args = ([obj._sigs] if obj._sigs else []) + [obj.signature]
            twin = numba.guvectorize(*args, **opts)(obj.py_func)
        elif obj._sigs:
            twin = numba.vectorize(obj._sigs, **opts)(obj.py_func)
        else:
            twin = numba.vectorize(**opts)(obj.py_func)
        obj.__dict__["_numba_twin"] = twin
    return twin


def _typeof(val, c):
    """Installs `val` in the typing context as its Numba twin (the same
    typing template and lowering) and returns None: Numba then finds it as
    a registered global, as it finds its own ufuncs."""
    from numba.core.typing.templates import AbstractTemplate
    if val.__dict__.get("_numba_installed"):
        return None  # found as a registered global from now on
    twin = _numba_twin(val)
    ctx = twin._dispatcher.targetdescr.typing_context
    cls = type(f"UfjitTyping_{val.__name__}", (AbstractTemplate,),
               dict(key=twin, generic=twin._type_me))
    ctx.insert_user_function(val, cls)
    for install in ("_install_ufunc_attributes", "_install_ufunc_methods"):
        if hasattr(twin, install):  # DUFunc's .reduce, .nin, ... in jit code
            getattr(twin, install)(cls)
    # the attributes above are registrations the context reads at refresh;
    # this typing is already under way
    ctx.refresh()
    val.__dict__["_numba_installed"] = True
    return None


def register():
    """Teaches Numba about ufjit's UFunc and GUFunc (idempotent)."""
    global _registered
    if _registered:
        return
    from numba.extending import typeof_impl

    from ._dispatch import GUFunc, UFunc
    for cls in (UFunc, GUFunc):
        typeof_impl.register(cls)(_typeof)
    _registered = True


def register_if_numba_loaded():
    if not _registered and "numba" in sys.modules:
        register()
