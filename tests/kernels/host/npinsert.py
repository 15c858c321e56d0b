# np.insert inside kernels, checked against Numba by
# tests/e2e/run_npinsert_oracle.py (line:col of the refused lines are in
# its cases: keep them in place).
import numpy as np
from numba import njit


@njit
def ins(a, i, v):
    return np.insert(a, i, v)


@njit
def ins_kw(a, i, v):
    return np.insert(values=v, arr=a, obj=i)


@njit
def ins_axis_none(a, i, v):
    return np.insert(a, i, v, None)


@njit
def ins_tuple_obj(a, i, v):
    return np.insert(a, (i, 0, i), v)


@njit
def ins_tuple_vals(a, i):
    return np.insert(a, i, (1.5, 2.5, -3.5))


@njit
def ins_tuple_arr(i, v):
    return np.insert((1, 2, 3), i, v)


@njit
def ins_local(n):
    a = np.arange(n) * 1.5
    b = np.insert(a, n, -1.0)
    b[0] = 7.0  # a copy: a is unchanged
    return a, b


@njit
def ins_loop(a, n):
    for k in range(n):
        a = np.insert(a, k * 2, k)
    return a


@njit
def ins_axis(a):
    return np.insert(a, 1, 2.0, axis=0)


@njit
def ins_float_obj(a):
    return np.insert(a, np.array([1.0]), 2.0)


@njit
def ins_bool_obj(a):
    return np.insert(a, True, 2.0)


@njit
def ins_number_arr(v):
    return np.insert(3.0, 0, v)


@njit
def ins_complex_vals(a):
    return np.insert(a, 0, 1j)


@njit
def ins_mixed_tuple(a):
    return np.insert(a, (1, 2.0), 0)
