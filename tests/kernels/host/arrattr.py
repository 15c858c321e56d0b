# dtypes as values, the parts of arrays and the builtins min/max/sum over
# arrays and tuples inside kernels (issue 18): d = a.dtype, np.zeros(n, d),
# a.astype(d), dtypes passed to kernels, a.dtype == b.dtype; a.real,
# a.imag, a.conj(), np.real/np.imag/np.conj of arrays; min(a), max(a),
# sum(a), sum(a, start), sum of tuples. Run against Numba by
# tests/e2e/run_arrattr_oracle.py; error cases are checked at their
# FILE:LINE:COL there, so keep the line numbers of the refused lines in
# step with ERR_AT in that driver. Host targets only (several allocate).
import numpy as np
from numba import njit, guvectorize


@njit
def dt_zeros(a):
    d = a.dtype
    return np.zeros(3, d)


@njit
def dt_ones_kw(a):
    d = np.float32
    return np.ones(2, dtype=d)


@njit
def dt_astype(a, b):
    d = b.dtype
    return a.astype(d)


@njit
def dt_empty_like(a, b):
    d = b.dtype
    e = np.empty_like(a, dtype=d)
    e[...] = 1
    return e


@njit
def dt_full(a, v):
    d = a.dtype
    return np.full(3, v, d)


@njit
def dt_full_like(a):
    d = a.dtype
    return np.full_like(a, 2, d)


@njit
def dt_arange(a):
    d = a.dtype
    return np.arange(4, dtype=d)


@njit
def make_zeros(n, d):
    return np.zeros(n, d)


@njit
def dt_pass(a):
    return make_zeros(3, a.dtype)


@njit
def dt_pass_class(a):
    d = np.float32
    return make_zeros(2, d)


@njit
def dtype_of(a):
    return a.dtype


@njit
def dt_returned(a):
    d = dtype_of(a)
    return np.ones(2, d)


@njit
def dt_tuple(a):
    t = (a.dtype, 3)
    return np.zeros(t[1], t[0])


@njit
def dt_same_join(a, flag):
    if flag:
        d = a.dtype
    else:
        d = a.dtype
    return np.zeros(2, d)


@njit
def dt_loop(a):
    s = 0.0
    for i in range(3):
        d = a.dtype
        s += np.ones(2, d)[0]
    return s


@njit
def dt_eq(a, b):
    return a.dtype == b.dtype


@njit
def dt_branch(a):
    if a.dtype == np.dtype('float64'):
        return 1
    return 2


@njit
def dt_np_dtype(a):
    d = np.dtype('int16')
    e = np.dtype(np.float32)
    return np.zeros(2, d), np.ones(2, e)


@njit
def dt_type_call(a):
    d = a.dtype
    return d.type(3)


@njit
def dt_class_call(x):
    d = np.float32
    return d(x)


@njit
def dt_cast(a):
    return np.float64(a[0]) + np.float32(a[1])


# ---- refused, as Numba refuses them (lines checked by the driver) ------


@njit
def dt_join_classes(a, flag):
    d = np.float32 if flag else np.float64
    return np.zeros(2, d)


@njit
def dt_join_dtypes(a, b, flag):
    if flag:
        d = a.dtype
    else:
        d = b.dtype
    return np.zeros(2, d)


@njit
def dt_ne(a, b):
    return a.dtype != b.dtype


@njit
def dt_eq_class(a):
    return a.dtype == np.float64


@njit
def dt_call_dtype(a):
    d = a.dtype
    return d(3)


@njit
def dt_itemsize(a):
    d = a.dtype
    return d.itemsize


# ---- .real, .imag, .conj() -------------------------------------------


@njit
def part_real(a):
    return a.real


@njit
def part_imag(a):
    return a.imag


@njit
def part_np_real(a):
    return np.real(a)


@njit
def part_np_imag(a):
    return np.imag(a)


@njit
def part_conj(a):
    return a.conj()


@njit
def part_conjugate(a):
    return a.conjugate()


@njit
def part_np_conj(a):
    return np.conj(a)


@njit
def part_np_conjugate(a):
    return np.conjugate(a)


@njit
def write_real(a):
    a.real[:] = 0
    return a


@njit
def write_imag(a):
    a.imag[1] = 7
    return a


@njit
def real_aliases(a):
    x = a.real
    x[0] = 9
    return a


@njit
def conj_is_new(a):
    x = a.conj()
    x[0] = 9
    return a


@njit
def part_sum(a):
    return a.real.sum() + 2 * a.imag.sum()


@njit
def part_of_new(n):
    z = np.ones(n) * (1 + 2j)
    return z.imag


@njit
def write_imag_real(a):
    a.imag[0] = 7
    return a


@njit
def imag_var_write(a):
    x = a.imag
    x[0] = 7
    return x


# ---- min, max, sum ----------------------------------------------------


@njit
def b_min(a):
    return min(a)


@njit
def b_max(a):
    return max(a)


@njit
def b_sum(a):
    return sum(a)


@njit
def b_sum_start(a, s):
    return sum(a, s)


@njit
def b_sum_kw(a, s):
    return sum(a, start=s)


@njit
def b_tuple(x, y):
    t = (x, y, 2)
    return sum(t), min(t), max(t)


@njit
def b_sum_view(a):
    return sum(a[::-2]) + sum(a.real)


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def gu_parts(x, out):
    d = x.dtype
    t = np.empty(x.shape[0], d)
    for i in range(x.shape[0]):
        t[i] = x[i] * 2
    m = max(t)
    s = sum(x)
    for i in range(x.shape[0]):
        out[i] = t[i] - m + s


@guvectorize(['void(complex128[:], float64[:])'], '(n)->(n)')
def gu_complex(z, out):
    r = z.real
    c = z.conj()
    for i in range(z.shape[0]):
        out[i] = r[i] + c[i].imag


# ---- sum/min/max of range(), len(range()) in the range's dtype --------


@njit
def b_sum_range(n):
    return sum(range(n))


@njit
def b_sum_range3(a, b, s):
    return sum(range(a, b, s)) * 1000 + sum(range(a, b, s), 0.5)


@njit
def b_sum_range_start(n, s):
    return sum(range(n), s)


@njit
def b_minmax_range(a, b, s):
    return min(range(a, b, s)) * 1000 + max(range(a, b, s))


@njit
def b_len_range(a, b):
    # in an array, so the dtype (int32, int64, uint64) is compared
    return np.full(1, len(range(b))), np.full(1, len(range(a, b))), \
        np.full(1, len(range(a, b, 2)))


@njit
def b_zip_range(a, b, x):
    s = 0
    for i, v in zip(range(a, b, 3), x):
        s += i * v
    for i, v in enumerate(range(b, a, -2)):
        s += i - v
    return s


# ---- Python's float, int, bool, complex held in variables -------------


@njit
def cls_call(x):
    d = float
    return d(x)


@njit
def cls_int(x):
    d = int
    e = bool
    return d(x), e(x)


@njit
def cls_zeros(n):
    d = float
    return np.zeros(n, d) + np.ones(n, dtype=d)


@njit
def cls_full(n):
    d = int
    return np.full(n, 2, d)


@njit
def cls_tuple(n):
    t = (complex, 3)
    return t[0](n)


@njit
def cls_pass(n):
    return make_zeros(n, float)


@njit
def cls_zeros_int(n):
    d = int
    return np.zeros(n, d)


@njit
def cls_join(flag):
    d = float if flag else int
    return d(3)


@njit
def cls_astype(a):
    d = float
    return a.astype(d) + np.arange(3, dtype=d)
