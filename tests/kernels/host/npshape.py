# np.repeat / a.repeat, np.resize, np.broadcast_to and np.broadcast_arrays
# inside njit functions (compiler/types/infer_npshape.c,
# compiler/lower/lower_npshape.c), checked against Numba by
# tests/e2e/run_npshape_oracle.py.
import numpy as np
from numba import njit


@njit
def repeat(a, r):
    return np.repeat(a, r)


@njit
def repeat_method(a, r):
    return a.repeat(r)


@njit
def repeat_kw(a, r):
    return np.repeat(a, repeats=r)


@njit
def repeat_local(n, r):
    # a new array of a local one, returned
    a = np.arange(n) * 1.5
    return np.repeat(a, r)


@njit
def repeat_in_loop(n):
    s = 0.0
    for i in range(n):
        t = np.repeat(np.arange(i + 1) * 1.0, i % 3)
        s += t.sum()
    return s


@njit
def repeat_bool_count(a):
    return np.repeat(a, True)


@njit
def repeat_float_count(a):
    return np.repeat(a, 2.0)


@njit
def repeat_2d_counts(a, r):
    return np.repeat(a, r)


@njit
def resize(a, n):
    return np.resize(a, n)


@njit
def resize2(a, m, n):
    return np.resize(a, (m, n))


@njit
def resize_kw(a, n):
    return np.resize(a, new_shape=(n,))


@njit
def resize_empty_tuple(a):
    return np.resize(a, ())


@njit
def resize_bool_shape(a):
    return np.resize(a, True)


@njit
def broadcast_to(a, m, n):
    return np.broadcast_to(a, (m, n))


@njit
def broadcast_to_int(a, n):
    return np.broadcast_to(a, n)


@njit
def broadcast_to_3(a, n):
    return np.broadcast_to(a, (2, n, 3))


@njit
def broadcast_to_kw(a, n):
    return np.broadcast_to(array=a, shape=(n, 3))


@njit
def broadcast_to_0d(x):
    return np.broadcast_to(x, ())


@njit
def broadcast_to_strides(a, m, n):
    return np.broadcast_to(a, (m, n)).strides


@njit
def broadcast_to_sum(a, m, n):
    return np.broadcast_to(a, (m, n)).sum()


@njit
def broadcast_to_local(n):
    # a view of a local array returned: it keeps its block alive
    a = np.arange(3) * 2.0
    return np.broadcast_to(a, (n, 3))


@njit
def broadcast_to_in_loop(n):
    s = 0.0
    for i in range(n):
        v = np.broadcast_to(np.arange(i + 1) * 1.0, (2, i + 1))
        s += v[1, i]
    return s


@njit
def broadcast_to_write(a):
    v = np.broadcast_to(a, (2, 3))
    v[0, 0] = 1.0
    return v


@njit
def broadcast_to_nonscalar_0d(a):
    return np.broadcast_to(a, ())


@njit
def broadcast_to_float_shape(a):
    return np.broadcast_to(a, 2.0)


@njit
def broadcast_arrays(a, b):
    x, y = np.broadcast_arrays(a, b)
    return x, y


@njit
def broadcast_arrays3(a, b, c):
    x, y, z = np.broadcast_arrays(a, b, c)
    return x, y, z


@njit
def broadcast_arrays_index(a, b):
    return np.broadcast_arrays(a, b)[1]


@njit
def broadcast_arrays_number(a, x):
    u, v = np.broadcast_arrays(a, x)
    return u, v


@njit
def broadcast_arrays_numbers(x, y):
    u, v = np.broadcast_arrays(x, y)
    return u, v


@njit
def broadcast_arrays_sum(a, b):
    x, y = np.broadcast_arrays(a, b)
    return (x * y).sum()


@njit
def broadcast_arrays_mixed(a, b):
    return np.broadcast_arrays(a, b)[0]


@njit
def trim_zeros(a):
    return np.trim_zeros(a)


@njit
def trim_zeros_f(a):
    return np.trim_zeros(a, 'f')


@njit
def trim_zeros_b(a):
    return np.trim_zeros(a, trim='B')


@njit
def trim_zeros_none(a):
    return np.trim_zeros(a, '')


@njit
def trim_zeros_write(a):
    # a view: writes reach the argument
    v = np.trim_zeros(a)
    v[0] = 100.0
    return a


@njit
def trim_zeros_local(n):
    a = np.zeros(n + 4)
    a[2:n + 2] = np.arange(n) + 1.0
    return np.trim_zeros(a)


@njit
def trim_zeros_int_trim(a):
    return np.trim_zeros(a, 1)


@njit
def bshapes(a, n):
    return np.broadcast_shapes(a.shape, (4,), n)


@njit
def bshapes_none():
    return len(np.broadcast_shapes())


@njit
def bshapes_tuples(m, n):
    return np.broadcast_shapes((1, 1, 1, 1), (2,), (3, m), (), n)


@njit
def bshapes_empty(n):
    return np.broadcast_shapes((0,), (n,))


@njit
def bshapes_float(a):
    return np.broadcast_shapes(a.shape, 2.0)


@njit
def bshapes_bool():
    return np.broadcast_shapes(True)
