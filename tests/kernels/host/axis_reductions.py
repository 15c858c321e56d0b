# Reductions over one axis inside kernels (issue 18): np.sum, np.argmin
# and np.argmax with axis= (and their methods), the axis known or not,
# negative from the end; the other reductions take no axis in Numba and
# are refused. Run against Numba by tests/e2e/run_npaxis_oracle.py; host
# targets only (the results are new arrays).
import numpy as np
from numba import njit, guvectorize


@njit
def sum_axis(a, k):
    return np.sum(a, axis=k)


@njit
def sum_pos(a, k):
    return np.sum(a, k)


@njit
def sum_meth(a, k):
    return a.sum(axis=k)


@njit
def sum_meth_pos(a):
    return a.sum(0)


@njit
def sum_last(a):
    return np.sum(a, axis=-1)


@njit
def sum_of_sums(a):
    r = a.sum(axis=0)
    return r.sum()


@njit
def argmin_axis(a, k):
    return np.argmin(a, axis=k)


@njit
def argmax_meth(a, k):
    return a.argmax(k)


@njit
def min_axis(a):
    return np.min(a, axis=0)


@njit
def mean_axis(a):
    return a.mean(axis=0)


@njit
def float_axis(a):
    return np.sum(a, axis=1.0)


@guvectorize(['void(float64[:,:], float64[:])'], '(m,n)->(n)')
def gu_colsum(a, out):
    out[:] = a.sum(axis=0)


# ---- np.sum with dtype= and tuples of axes, np.cumsum(axis=),
# np.round(out=) (issue 18, as Numba 0.68 takes them) ----

@njit
def sum_dtype(a, k):
    return np.sum(a, axis=k, dtype=np.float32)


@njit
def sum_meth_dtype_i1(a, k):
    return a.sum(axis=k, dtype=np.int8)


@njit
def sum_meth_dtype_u1(a):
    return a.sum(dtype=np.uint8)


@njit
def sum_pos_dtype(a):
    return np.sum(a, 0, np.float32)


@njit
def sum_dtype_bool(a, k):
    return np.sum(a, axis=k, dtype=np.bool_)


@njit
def sum_dtype_c16(a):
    return np.sum(a, axis=-1, dtype=np.complex128)


@njit
def sum_dtype_of(a, b):
    return np.sum(a, axis=0, dtype=b.dtype)


@njit
def sum_none(a):
    return np.sum(a, axis=None)


@njit
def sum_none_dtype(a):
    return np.sum(a, None, np.int32)


@njit
def sum_tuple01(a):
    return np.sum(a, axis=(0, 1))


@njit
def sum_tuple_neg(a):
    return a.sum(axis=(-1, -3))


@njit
def sum_tuple1(a):
    return np.sum(a, (1,))


@njit
def sum_tuple_rt(a, i, j):
    return np.sum(a, axis=(i, j))


@njit
def sum_tuple_rt_dtype(a, i, j):
    return a.sum((i, j), np.float32)


@njit
def sum_tuple3(a, i, j, k):
    return np.sum(a, axis=(i, j, k))


@njit
def sum_no_axes(a):
    return np.sum(a, axis=())


@njit
def sum_no_axes_dtype(a):
    return np.sum(a, axis=(), dtype=np.float32)


@njit
def sum_0d(v, k):
    a = np.full((), v)
    return np.sum(a, axis=k)


@njit
def sum_0d_whole(v):
    a = np.full((), v)
    return np.sum(a, dtype=np.float32)


@njit
def sum_number(v):
    return np.sum(v, axis=2, dtype=np.float32)


@njit
def sum_number_plain(v):
    return np.sum(v)


@njit
def sum_dtype_str(a):
    return np.sum(a, dtype='f4')


@njit
def sum_dtype_float(a):
    return np.sum(a, axis=0, dtype=float)


@njit
def sum_c_to_f(a):
    return np.sum(a, axis=0, dtype=np.float64)


@njit
def sum_bool_axis(a):
    return np.sum(a, axis=True)


@njit
def sum_mixed_tuple(a):
    return np.sum(a, axis=(0, 1.0))


@njit
def sum_keepdims(a):
    return np.sum(a, axis=0, keepdims=True)


@njit
def prod_axis(a):
    return np.prod(a, axis=0)


@njit
def all_axis(a):
    return np.all(a, axis=0)


@njit
def nansum_axis(a):
    return np.nansum(a, axis=0)


@njit
def max_meth_axis(a):
    return a.max(axis=0)


@njit
def argmin_tuple(a):
    return np.argmin(a, axis=(0,))


@njit
def cumsum_axis(a, k):
    return np.cumsum(a, axis=k)


@njit
def cumsum_meth(a, k):
    return a.cumsum(k)


@njit
def cumsum_dtype_i1(a, k):
    return np.cumsum(a, axis=k, dtype=np.int8)


@njit
def cumsum_dtype_bool(a, k):
    return a.cumsum(axis=k, dtype=np.bool_)


@njit
def cumsum_none(a):
    return np.cumsum(a, axis=None)


@njit
def cumsum_0d(v):
    a = np.full((), v)
    return np.cumsum(a, axis=0)


@njit
def cumsum_tuple(a):
    return np.cumsum(a, axis=(0,))


@njit
def cumsum_c_to_f(a):
    return np.cumsum(a, axis=0, dtype=np.float64)


@njit
def cumsum_dtype_str(a):
    return np.cumsum(a, dtype='f4')


@njit
def cumprod_axis(a):
    return np.cumprod(a, axis=0)


@njit
def cumprod_meth_axis(a):
    return a.cumprod(0)


@njit
def round_out(a, o):
    return np.round(a, 1, o)


@njit
def round_out_kw(a, o, d):
    return np.around(a, decimals=d, out=o)


@njit
def round_out_then(a, o):
    np.round(a, 2, out=o)
    return o


@njit
def round_in_place(a):
    np.round(a, 1, a)
    return a


@njit
def round_number_out(x, o):
    return np.round(x, 1, o)


@njit
def round_number_out_0d(x):
    o = np.zeros(())
    return np.round(x, 1, o)


@njit
def round_out_number(a, x):
    return np.round(a, 1, x)


@njit
def round_out_none(a):
    return np.round(a, 1, None)


@njit
def round_meth_out(a, o):
    return a.round(1, o)


@guvectorize(['void(float64[:,:], float64[:,:])'], '(m,n)->(m,n)')
def gu_cumsum(a, out):
    out[:] = np.cumsum(a, axis=0)


@guvectorize(['void(float64[:,:,:], float32[:])'], '(m,n,p)->(n)')
def gu_sum_tuple(a, out):
    out[:] = np.sum(a, axis=(0, 2), dtype=np.float32)
