# Array methods and NumPy functions that copy, reshape, fill, accumulate,
# sort, search and round arrays inside kernels (issue 18): a.copy(),
# a.reshape(), a.ravel(), a.flatten(), a.astype(), a.fill(), a.cumsum(),
# np.sort, a.sort(), np.argsort, np.searchsorted, np.round. Run against
# Numba by tests/e2e/run_array_methods_oracle.py, and through the C API
# (leaks, out of memory, layouts) by tests/test_array_methods.c. Host
# targets only (they allocate), hence under tests/kernels/host/.
import numpy as np
from numba import njit, guvectorize


@njit
def copy_m(a):
    return a.copy()


@njit
def copy_np(a):
    return np.copy(a)


@njit
def copy_is_new(a):
    b = a.copy()
    b[0] = 99.0
    return a[0] + b[0]


@njit
def reshape_ints(a):
    return a.reshape(3, 2)


@njit
def reshape_tuple(a, m):
    return a.reshape((m, -1))


@njit
def reshape_np(a):
    return np.reshape(a, 6)


@njit
def reshape_view(a):
    b = a.reshape(a.size)
    b[0] = -1.0
    return a


@njit
def reshape_two_neg(a):
    return a.reshape(-1, -1)


@njit
def reshape_0d(a):
    return a.reshape(())


@njit
def reshape_A(a):
    return a[::2].reshape(2)


@njit
def ravel_m(a):
    return a.ravel()


@njit
def ravel_np(a):
    return np.ravel(a)


@njit
def flatten_m(a):
    return a.flatten()


@njit
def astype_f4(a):
    return a.astype(np.float32)


@njit
def astype_str(a):
    return a.astype('i2')


@njit
def astype_bool(a):
    return a.astype(np.bool_)


@njit
def astype_int(a):
    return a.astype(int)


@njit
def fill_m(a, v):
    a.fill(v)
    return a


@njit
def fill_copy(a, v):
    b = a.copy()
    b.fill(v)
    return b


@njit
def cumsum_m(a):
    return a.cumsum()


@njit
def cumsum_np(a):
    return np.cumsum(a)


@njit
def cumprod_np(a):
    return np.cumprod(a)


@njit
def cumprod_m(a):
    return a.cumprod()


@njit
def sort_np(a):
    return np.sort(a)


@njit
def sort_m(a):
    b = a.copy()
    b.sort()
    return b


@njit
def sort_in_place(a):
    a.sort()
    return a


@njit
def sort_kind(a):
    return np.sort(a, kind='mergesort')


@njit
def argsort_np(a):
    return np.argsort(a)


@njit
def argsort_m(a):
    return a.argsort()


@njit
def ss_left(a, v):
    return np.searchsorted(a, v)


@njit
def ss_right(a, v):
    return np.searchsorted(a, v, side='right')


@njit
def ss_bad_side(a, v):
    return np.searchsorted(a, v, side='middle')


@njit
def round0(x):
    return np.round(x)


@njit
def round_d(x, d):
    return np.round(x, d)


@njit
def around_d(x, d):
    return np.around(x, decimals=d)


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def gu_sorted(x, out):
    s = np.sort(x)
    c = s.cumsum()
    for i in range(x.shape[0]):
        out[i] = c[i]


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def gu_round(x, out):
    r = np.round(x.copy().reshape(x.size), 1)
    for i in range(x.shape[0]):
        out[i] = r[i]


@njit
def zero_d_copy(x):
    return np.full((), x).copy()


@njit
def zero_d_ravel(x):
    return np.full((), x).ravel()


@njit
def zero_d_cumsum(x):
    return np.cumsum(np.full((), x))


@njit
def zero_d_round(x):
    return np.round(np.full((), x), 1)


@njit
def flat_iter(a):
    s = 0.0
    k = 1.0
    for x in a.flat:
        s += x * k
        k += 1.0
    return s


@njit
def flat_index(a):
    b = a.copy()
    n = b.size
    for i in range(n):
        b.flat[i] = b.flat[n - 1 - i] + i
    return b


@njit
def argsort_kind(a):
    return a.argsort(kind='quicksort')


@njit
def argsort_heap(a):
    return np.argsort(a, kind='heapsort')


@njit
def sort_m_kind(a):
    b = a.copy()
    b.sort(kind='mergesort')
    return b


@njit
def cumsum_dtype(a):
    return np.cumsum(a, dtype=np.float32)


@njit
def cumsum_axis(a):
    return np.cumsum(a, axis=0)


@njit
def flat_get(a, k):
    return a.flat[k]


@njit
def flat_set(a, k, v):
    a.flat[k] = v
    return a


@njit
def flat_aug(a):
    for i in range(a.size):
        a.flat[i] += i
    return a


@njit
def flat_enum(a):
    s = 0.0
    for i, x in enumerate(a.flat):
        s = s * 0.5 + i * x
    return s


@njit
def flat_zip(a, b):
    s = 0.0
    for x, y in zip(a.flat, b.flat):
        s = s * 0.5 + x * y
    return s


@njit
def flat_len(a):
    return len(a.flat)


@njit
def flat_copy_out(a):
    out = np.empty(a.size, a.dtype)
    i = 0
    for x in a.flat:
        out[i] = x
        i += 1
    return out


@njit
def zero_d_flat(x, k):
    a = np.full((), x)
    s = 0.0
    for v in a.flat:
        s += v
    a.flat[k] = s * 2
    return a.flat[0] + len(a.flat)


# np.cumsum of a number: the number in the accumulator's dtype (returned
# in an array, so its dtype is compared); axis= is not read, as Numba
@njit
def cumsum_number(x):
    return np.full(1, np.cumsum(x))


@njit
def cumsum_number_args(x):
    return np.full(1, np.cumsum(x, axis=1, dtype=np.int8))


@njit
def cumprod_number(x):
    return np.cumprod(x)
