"""Strings known at compile time inside kernels (Numba's Literal[str]):
literals, module str constants, locals holding them, callees specialised
per string value, string keyword values, and what stays refused
(tests/e2e/run_strconst_oracle.py runs these through ufjit and Numba)."""
import numpy as np
from numba import njit

MODE = 'same'
FAST = 'fast'
EMPTY = ''


@njit
def reduce_by(x, how):
    # pruned per value, as Numba's literal dispatch: only one way is typed
    if how == 'sum':
        return x.sum()
    elif how == 'max':
        return x.max()
    elif how in ('min', 'smallest'):
        return x.min()
    raise ValueError('unknown reduction:', how)


@njit
def dispatch(x):
    s = 'sum'
    return reduce_by(x, s) + 10.0 * reduce_by(x, 'max') + \
        100.0 * reduce_by(x, 'smallest')


@njit
def dispatch_bad(x):
    return reduce_by(x, 'median')


@njit
def folds():
    s = FAST
    e = EMPTY
    u = 'h\u00e9llo'
    return (len(s), len(u), len(e), s == 'fast', s != 'fast',
            s in ('a', 'fast'), s not in ('a', 'fast'), not s, not e,
            'abc' < 'abd', s >= 'fasu')


@njit
def pruned(x):
    if FAST == 'fast':
        return x * 2.0
    else:
        return (x, x)  # never typed: the branch is pruned


@njit
def truthy(x):
    e = EMPTY
    if e:
        return (x, x)  # pruned: an empty string is false
    s = 'on'
    if s:
        return x + 1.0
    return x


@njit
def keywords(x, v):
    side = 'right'
    trim = 'f'
    kind = 'mergesort'
    a = np.searchsorted(x, v, side=side)
    b = np.trim_zeros(x, trim).size
    c = np.argsort(x, kind=kind)[0]
    return a, b, c


@njit
def conv_mode(a, v):
    return np.convolve(a, v, mode=MODE)


@njit
def conv_bad_mode(a, v):
    m = 'middle'
    return np.convolve(a, v, m)


@njit
def raise_msg(x):
    msg = 'negative input'
    if x < 0:
        raise ValueError(msg)
    return x


@njit
def helper_loop(x):
    acc = 0.0
    for i in range(3):
        acc += reduce_by(x, 'max')
    return acc


# ---- refused ------------------------------------------------------------

@njit
def runtime_choice(c):
    s = 'a' if c else 'b'  # unicode_type in Numba: refused here
    return s == 'a'


@njit
def runtime_join(c):
    if c:
        s = 'a'
    else:
        s = 'b'
    return s == 'a'


@njit
def str_plus_int():
    s = 'abc'
    return s + 1


@njit
def str_return():
    s = 'abc'
    return s


@njit
def str_concat():
    s = 'abc'
    return len(s + 'd')


@njit
def str_index():
    s = 'abc'
    return s[0] == 'a'


@njit
def str_ufunc(x):
    s = 'abc'
    return np.sin(s) + x


@njit
def str_store(x):
    x[0] = 'a'
    return x


@njit
def str_of_int(n):
    return len(str(n))


# ---- dtype names held in variables (appended: the refusals above keep
# their lines) ---------------------------------------------------------------

DT = 'float32'


@njit
def dtype_names(n):
    d = 'i4'
    return np.zeros(n, dtype=d), np.ones(n, DT), np.full(n, 2, dtype=d)


@njit
def dtype_bad_name(n):
    d = 'f9'
    return np.zeros(n, dtype=d)
