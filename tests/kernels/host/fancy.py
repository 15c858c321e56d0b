# Advanced indexing inside njit functions (compiler/types/infer_fancy.c,
# compiler/lower/lower_fancy.c): integer arrays (broadcast together) or
# one boolean array among a subscript's indices, read and written,
# checked against Numba (NumPy where Numba reads out of bounds or fails)
# by tests/e2e/run_fancy_oracle.py.
import numpy as np
from numba import njit


@njit
def take(a, idx):
    return a[idx]


@njit
def masked(a, m):
    return a[m]


@njit
def positive(a):
    return a[a > 0]


@njit
def rows(a, idx):
    return a[idx, :]


@njit
def cols(a, idx):
    return a[:, idx]


@njit
def row_of(a, idx):
    return a[1, idx]


@njit
def cols_from(a, idx):
    return a[idx, 1:]


@njit
def stepped(a, idx):
    return a[::-1, idx]


@njit
def mask_cols(a, m):
    return a[:, m]


@njit
def mask_row(a, m):
    return a[m, 0]


@njit
def newaxis_first(a, idx):
    return a[None, idx]


@njit
def ellipsis_last(a, idx):
    return a[..., idx]


@njit
def apart(a, idx):
    return a[idx, :, 0]


@njit
def together(a, idx):
    return a[:, 0, idx]


@njit
def chained(a, idx):
    b = a[idx]
    return b[b > 0] * 2


@njit
def set_mask_scalar(a, m):
    a[m] = 7
    return a


@njit
def set_positive(a):
    a[a < 0] = 0
    return a


@njit
def set_mask_array(a, m, v):
    a[m] = v
    return a


@njit
def set_take_scalar(a, idx):
    a[idx] = -1
    return a


@njit
def set_take_array(a, idx, v):
    a[idx] = v
    return a


@njit
def set_cols(a, idx, v):
    a[:, idx] = v
    return a


@njit
def set_self(a, idx):
    a[idx] = a[::-1][:idx.shape[0]]
    return a


@njit
def two_arrays(a, i, j):
    return a[i, j]


@njit
def arr_slice_arr(a, i, j):
    return a[i, :, j]


@njit
def slice_arr_arr(a, i, j):
    return a[:, i, j]


@njit
def arr_int_arr(a, i, j):
    return a[i, 1, j]


@njit
def int_arr_arr(a, i, j):
    return a[1, i, j]


@njit
def outer(a, i, j):
    return a[i[:, None], j]


@njit
def three_arrays(a, i, j, k):
    return a[i, j, k]


@njit
def arrays_newaxis(a, i, j):
    return a[i, None, j]


@njit
def ellipsis_arrays(a, i, j):
    return a[..., i, j]


@njit
def arrays_ellipsis(a, i, j):
    return a[i, ..., j]


@njit
def arrays_of_views(a, i, j):
    return a[::-1, 1:][i[::2], j[::-1]]


@njit
def mask_and_array(a, m, j):
    return a[m, j]


@njit
def array_and_mask(a, i, m):
    return a[i, m]


@njit
def set_two(a, i, j, v):
    a[i, j] = v
    return a


@njit
def set_two_scalar(a, i, j):
    a[i, j] = 7
    return a


@njit
def set_apart(a, i, j, v):
    a[i, :, j] = v
    return a


@njit
def set_outer(a, i, j, v):
    a[i[:, None], j] = v
    return a


@njit
def set_two_self(a, i, j):
    a[i, j] = a[j - 1, i]
    return a


@njit
def aug_two(a, i, j):
    a[i, j] += 1
    return a


@njit
def aug_two_array(a, i, j, v):
    a[i, j] -= v
    return a


@njit
def float_index(a, x):
    return a[x]


@njit
def zero_d_index(a, i):
    return a[i]


@njit
def mask_and_int(a, m):
    return a[m, 1]


@njit
def too_many(a, idx):
    return a[0, idx]


@njit
def aug_take(a, idx):
    a[idx] += 1
    return a


@njit
def aug_mask(a):
    a[a > 0] *= 2
    return a


@njit
def set_expr(a, idx):
    a[idx] = a[idx] * 2 + 1
    return a


@njit
def list_index(a):
    return a[[1, 2]]


@njit
def array_of_list():
    return np.array([1.0, 2.0, -3.5])


@njit
def asarray_of_list():
    return np.asarray([1, 2, 3])


@njit
def array_of_nested():
    return np.array([[1, 2], [3, 4]], dtype=np.float32)


@njit
def array_of_mixed():
    return np.array([1, 2.5, True])


@njit
def list_variable():
    x = [1.0, 2.0]
    return np.array(x)


@njit
def int_newaxis(a, idx):
    return a[1, None, idx]


@njit
def newaxis_int_mask(a, m):
    return a[None, 0, m]


# a 0-d integer array as an index: the integer it holds (Numba). ufjit
# passes a 0-d argument as a scalar, so the kernels make the 0-d arrays.
@njit
def zd_local(a):
    k = np.array(2)
    return a[k]


@njit
def zd_take(a, k):
    return a[np.array(k)]


@njit
def zd_pair(a, k, j):
    return a[np.array(k), np.asarray(j)]


@njit
def zd_row_part(a, k):
    return a[np.array(k), 1:3]


@njit
def zd_col(a, k):
    kk = np.array(k)
    return a[:, kk]


@njit
def zd_with_array(a, k, idx):
    return a[np.array(k), idx]


@njit
def zd_view(a, idx):
    return a[idx[1, ...], idx[-1:, ...][0, ...]]


@njit
def zd_store(a, k, v):
    a[np.array(k)] = v
    return a


@njit
def zd_aug(a, k, v):
    kk = np.array(k)
    a[kk] += v
    a[kk] += v
    return a


@njit
def zd_row_store(a, k):
    a[np.array(k)] = 7.0
    return a


@njit(boundscheck=True)
def zd_checked(a, k):
    return a[np.array(k)]


@njit
def zd_float(a):
    return a[np.array(1.0)]


@njit
def zd_bool(a):
    return a[np.array(True)]
