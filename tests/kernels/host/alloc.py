# Allocation inside kernels (issue 18): np.empty/zeros/ones/full and their
# *_like forms, np.arange, np.linspace, arrays returned from njit functions
# and passed between kernels, scratch arrays in guvectorize kernels.
# Run against Numba by tests/e2e/run_alloc_oracle.py, and through the C
# API (values, leaks, out of memory) by tests/test_alloc.c. Host targets
# only, hence not in tests/kernels/ itself, whose every kernel must also
# compile for CUDA (test_nvvm_ptx, test_cuda_vectorize), where allocation
# is refused.
import numpy as np
from numba import njit, guvectorize, vectorize


@njit
def empty_filled(n):
    a = np.empty(n)
    for i in range(n):
        a[i] = i * 0.5
    return a


@njit
def zeros2(m, n):
    return np.zeros((m, n), dtype=np.int32)


@njit
def ones3(m):
    return np.ones((2, m, 3), np.float32)


@njit
def ones_float(n):
    return np.ones(n, dtype=float)


@njit
def zeros0d():
    return np.zeros(())


@njit
def full_f(n, v):
    return np.full(n, v)


@njit
def full_typed(n, v):
    return np.full((n, 2), v, dtype=np.int16)


@njit
def full_bool(n):
    return np.full(n, True)


@njit
def zeros_like(a):
    return np.zeros_like(a)


@njit
def ones_like(a):
    return np.ones_like(a)


@njit
def empty_like_copy(a):
    e = np.empty_like(a)
    for i in range(a.shape[0]):
        e[i] = a[i]
    return e


@njit
def full_like(a):
    return np.full_like(a, 7.9)


@njit
def like_dtype(a):
    return np.ones_like(a, dtype=np.int8)


@njit
def str_dtype(n):
    return np.ones((n, 2), dtype='f4')


@njit
def zeros_of_dtype(a):
    return np.zeros(3, dtype=a.dtype)


@njit
def ar1(n):
    return np.arange(n)


@njit
def ar2(a, b):
    return np.arange(a, b)


@njit
def ar3(a, b, c):
    return np.arange(a, b, c)


@njit
def ar_f32(n):
    return np.arange(n, dtype=np.float32)


@njit
def lin(a, b, n):
    return np.linspace(a, b, n)


@njit
def lin50(a, b):
    return np.linspace(a, b)


# An array made in one kernel and used in another, and a view of one
# returned.
@njit
def total(n):
    t = empty_filled(n)
    s = 0.0
    for i in range(t.shape[0]):
        s += t[i]
    return s


@njit
def tail(n):
    a = np.arange(n)
    return a[2:]


@njit
def reversed_range(n):
    return empty_filled(n)[::-1]


@njit
def pick(n, first):
    a = np.ones(n)
    b = np.zeros(n)
    if first:
        return a
    return b


@njit
def in_loop(n):
    s = 0.0
    for k in range(n):
        tmp = np.empty(k + 1)
        for i in range(k + 1):
            tmp[i] = i
        s += tmp[k]
    return s


@njit
def pair(n):
    return np.arange(n), n * 2


@njit
def from_pair(n):
    a, m = pair(n)
    b = np.zeros(m)
    for i in range(n):
        b[2 * i] = a[i]
    return b[1:]


@njit
def passthrough(a):
    return a[1:]


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def gu_scratch(x, out):
    n = x.shape[0]
    tmp = np.empty(n)
    for i in range(n):
        tmp[i] = x[i] * 2.0
    for i in range(n):
        out[i] = tmp[n - 1 - i]


@guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def gu_cumsum_last(x, out):
    c = np.zeros(x.shape[0] + 1)
    for i in range(x.shape[0]):
        c[i + 1] = c[i] + x[i]
    out[0] = c[x.shape[0]]


@vectorize(['float64(float64)'])
def vec_alloc(x):
    t = np.arange(3.0)
    return x * t[2]


# Lifetimes in loops (blocks freed per iteration, views keeping their base
# alive: compiler/lower/lower_nrt_loop.c): values against Numba's.
@njit
def last_view(n, m):
    v = np.arange(1)[::-1]
    for i in range(n):
        t = np.arange(m) + i
        v = t[::-1]
    return v


@njit
def kept_view(n):
    v = np.zeros(2)
    for i in range(n):
        t = np.full(4, i * 1.0)
        if i == 2:
            v = t[1:3]
    return v


@njit
def skip_and_stop(n):
    s = 0.0
    for i in range(n):
        t = np.full(3, i * 1.0)
        if i % 2 == 0:
            continue
        if i > n - 3:
            break
        s += t[1]
    return s


@njit
def shifted_pair(n):
    p = (np.zeros(2), np.zeros(2))
    for i in range(n):
        p = (np.full(2, i * 1.0), p[0])
    return p[1]


@njit
def rows_plus_one(n):
    s = 0.0
    for row in np.ones((n, 3)) * 2.0:
        t = row + 1.0
        s += t.sum()
    return s


@njit
def grow_until(n):
    t = np.zeros(1)
    while t.shape[0] < n:
        t = np.ones(t.shape[0] * 2) + t[0]
    return t


@njit
def mismatch_in_loop(n):
    s = 0.0
    for i in range(n):
        t = np.ones(i + 1) + np.ones(2)
        s += t[0]
    return s


# Refused as Numba refuses them (TypingError).
@njit
def bad_dtype(n):
    return np.ones(n, dtype=int)


@njit
def float_shape(x):
    return np.zeros(x)
