# np.concatenate, np.stack, np.hstack, np.vstack, np.row_stack, np.dstack,
# np.column_stack and np.append inside njit functions
# (compiler/types/infer_npjoin.c, compiler/lower/lower_npjoin.c), checked
# against Numba by tests/e2e/run_npjoin_oracle.py.
import numpy as np
from numba import njit


@njit
def cat2(a, b):
    return np.concatenate((a, b))


@njit
def cat3(a, b, c, k):
    return np.concatenate((a, b, c), axis=k)


@njit
def cat_axis(a, b, k):
    return np.concatenate((a, b), k)


@njit
def cat_var(a, b):
    t = (a, b, a)
    return np.concatenate(t, axis=-1)


@njit
def cat_one(a):
    return np.concatenate((a,))


@njit
def cat_kw(a, b):
    return np.concatenate(arrays=(a, b), axis=0)


@njit
def cat_views(a):
    return np.concatenate((a[::2], a[1::2], a[::-1]))


@njit
def cat_loop(a, n):
    r = a
    for i in range(n):
        r = np.concatenate((r, a * i))
    return r


@njit
def cat_sum(a, b):
    return np.concatenate((a, b), axis=1).sum()


@njit
def cat_none(a, b):
    return np.concatenate((a, b), axis=None)


@njit
def cat_float_axis(a, b):
    return np.concatenate((a, b), 1.0)


@njit
def cat_list(a, b):
    return np.concatenate([a, b])


@njit
def cat_array_arg(a):
    return np.concatenate(a)


@njit
def stack2(a, b):
    return np.stack((a, b))


@njit
def stack_axis(a, b, k):
    return np.stack((a, b), axis=k)


@njit
def stack3(a, b, c):
    return np.stack((a, b, c), -1)


@njit
def hstack2(a, b):
    return np.hstack((a, b))


@njit
def hstack3(a, b, c):
    return np.hstack((a, b, c))


@njit
def vstack2(a, b):
    return np.vstack((a, b))


@njit
def row_stack2(a, b):
    return np.row_stack((a, b))


@njit
def vstack_rows(a, n):
    # n rows of a, stacked one call at a time (the benchmark's loop)
    r = np.vstack((a, a))
    for i in range(n):
        r = np.vstack((r, a[None, :]))
    return r


@njit
def dstack2(a, b):
    return np.dstack((a, b))


@njit
def column_stack2(a, b):
    return np.column_stack((a, b))


@njit
def column_stack3(a, b, c):
    return np.column_stack((a, b, c))


@njit
def append2(a, v):
    return np.append(a, v)


@njit
def append_axis(a, v, k):
    return np.append(a, v, axis=k)


@njit
def append_none(a, v):
    return np.append(a, v, None)


@njit
def append_tuple(a):
    return np.append(a, (1, 2.5))


@njit
def append_tuple_first(a):
    return np.append((True, 3), a)


@njit
def append_num(a):
    return np.append(a, 7)


@njit
def append_bad_axis(a, v):
    return np.append(a, v, axis=1.5)


# 0-d arrays (a and b of one element each, reshaped to ())
@njit
def stack_0d(a, b):
    return np.stack((a.reshape(()), b.reshape(())))


@njit
def hstack_0d(a, b):
    return np.hstack((a.reshape(()), b.reshape(())))


@njit
def vstack_0d(a, b):
    return np.vstack((a.reshape(()), b.reshape(())))


@njit
def dstack_0d(a, b):
    return np.dstack((a.reshape(()), b.reshape(())))


@njit
def cat_0d(a, b):
    return np.concatenate((a.reshape(()), b.reshape(())))


@njit
def column_stack_0d(a, b):
    return np.column_stack((a.reshape(()), b.reshape(())))


@njit
def append_0d(a, b):
    return np.append(a.reshape(()), b)


# np.array / np.asarray of numbers and tuples (and np.asarray of arrays)
@njit
def array_pair(x, y):
    return np.array((x, y))


@njit
def array_nested(x):
    return np.array(((1, 2.5), (x, 4), (5, 6)))


@njit
def array_nested_dt(x):
    return np.array(((1, 2), (x, 4)), np.float32)


@njit
def array_scalar(x):
    return np.array(x)


@njit
def array_dtype_kw(x):
    return np.array((x, x + 1), dtype=np.int8)


@njit
def array_of_array(a):
    return np.array(a)


@njit
def array_ragged(x):
    return np.array(((1, 2), (x,)))


@njit
def asarray_same(a):
    b = np.asarray(a)
    b[0] = 99
    return a


@njit
def asarray_dt(a):
    return np.asarray(a, np.int32)


@njit
def asarray_tuple(x):
    return np.asarray((x, True, 3))


@njit
def asarray_scalar_dt(x):
    return np.asarray(x, dtype=np.complex64)
