# np.flip, np.fliplr, np.flipud, np.rot90, np.expand_dims, np.swapaxes,
# np.moveaxis, np.transpose(a, axes), np.permute_dims and np.atleast_Nd
# inside njit functions (compiler/types/infer_npview.c,
# compiler/lower/lower_npview.c), checked against Numba by
# tests/e2e/run_npview_oracle.py.
import numpy as np
from numba import njit


@njit
def flip(m):
    return np.flip(m)


@njit
def flip_kw(m):
    return np.flip(m=m)


@njit
def flip_axis(m):
    return np.flip(m, 0)


@njit
def flip_scalar(x):
    return np.flip(x)


@njit
def flip_strides(m):
    return np.flip(m).strides


@njit
def flip_sum(m):
    return np.flip(m).sum()


@njit
def flip_write(m):
    # a view: writes reach the argument
    v = np.flip(m)
    v[0] = 100.0
    return m


@njit
def flip_local(n):
    # a view of a local array returned: it keeps its block alive
    a = np.arange(n) * 2.0
    return np.flip(a)


@njit
def flip_in_loop(n):
    s = 0.0
    for i in range(n):
        t = np.arange(i + 1) * 1.0
        v = np.flip(t)
        s += v[0] * (i + 1)
    return s


@njit
def fliplr(m):
    return np.fliplr(m)


@njit
def flipud(m):
    return np.flipud(m)


@njit
def rot90(m):
    return np.rot90(m)


@njit
def rot90k(m, k):
    return np.rot90(m, k)


@njit
def rot90_kw(m, k):
    return np.rot90(m, k=k)


@njit
def rot90_axes(m):
    return np.rot90(m, 1, (0, 1))


@njit
def rot90_float_k(m):
    return np.rot90(m, 1.0)


@njit
def expand_dims(a, axis):
    return np.expand_dims(a, axis)


@njit
def expand_dims_kw(a):
    return np.expand_dims(a, axis=-1)


@njit
def expand_dims_tuple(a):
    return np.expand_dims(a, (0, 1))


@njit
def expand_dims_bool(a):
    return np.expand_dims(a, True)


@njit
def expand_dims_scalar(x):
    return np.expand_dims(x, 0)


@njit
def swapaxes(a, i, j):
    return np.swapaxes(a, i, j)


@njit
def swapaxes_strides(a):
    return np.swapaxes(a, 0, -1).strides


@njit
def swapaxes_kw(a):
    return np.swapaxes(a, axis2=0, axis1=1)


@njit
def moveaxis(a, s, d):
    return np.moveaxis(a, s, d)


@njit
def moveaxis_tuple(a):
    return np.moveaxis(a, (0, 1), (1, 0))


@njit
def transpose_axes(a, i, j):
    return np.transpose(a, (i, j))


@njit
def transpose3(a):
    return np.transpose(a, (1, 2, 0))


@njit
def transpose_kw(a):
    return np.transpose(a, axes=(2, 0, 1))


@njit
def transpose_none(a):
    return np.transpose(a, None)


@njit
def method_transpose(a, i, j):
    return a.transpose((i, j))


@njit
def method_transpose_args(a):
    return a.transpose(2, 0, 1)


@njit
def method_transpose_1d(a, i):
    return a.transpose(i)


@njit
def transpose_wrong_count(a):
    return np.transpose(a, (0, 1, 2))


@njit
def transpose_strides(a):
    return np.transpose(a, (1, 0)).strides


@njit
def permute_dims(a):
    return np.permute_dims(a, (1, 0))


@njit
def permute_dims_reversed(a):
    return np.permute_dims(a)


@njit
def permute_dims_none_strides(a):
    return np.permute_dims(a, None).strides


@njit
def atleast_1d(a):
    return np.atleast_1d(a)


@njit
def atleast_2d(a):
    return np.atleast_2d(a)


@njit
def atleast_3d(a):
    return np.atleast_3d(a)


@njit
def atleast_2d_two(a, b):
    return np.atleast_2d(a, b)


@njit
def atleast_3d_three(a, b, c):
    return np.atleast_3d(a, b, c)


@njit
def atleast_1d_scalar(x):
    return np.atleast_1d(x)


@njit
def views_chain(a):
    # views of views: rot90 of a swapped, expanded, flipped array
    v = np.expand_dims(np.swapaxes(np.flip(a), 0, 1), 0)
    return np.rot90(v[0], 3) + 0.0


@njit
def view_then_write(a):
    v = np.rot90(a)
    v[0, 0] = -1.0
    w = np.expand_dims(a, 1)
    w[1, 0, 1] = -2.0
    return a


@njit
def flip_0d(x):
    return np.flip(np.full((), x))


@njit
def flipud_0d(x):
    return np.flipud(np.full((), x))


@njit
def expand_dims_0d(x, axis):
    return np.expand_dims(np.full((), x), axis)


@njit
def atleast_0d(x):
    z = np.full((), x)
    return np.atleast_1d(z), np.atleast_2d(z), np.atleast_3d(z)


@njit
def atleast_3d_three_0d(a, b, x):
    return np.atleast_3d(a, b, np.full((), x))


@njit
def ascontiguousarray(a):
    return np.ascontiguousarray(a)


@njit
def asfortranarray(a):
    return np.asfortranarray(a)


@njit
def ascontiguous_0d(x):
    # a 0-d array gives a 1-D view of its element: writes reach it
    z = np.full((), x)
    v = np.ascontiguousarray(z)
    v[0] += 1.0
    return z


@njit
def ascontiguous_is_view(a):
    # a C array comes back itself; an 'A' view that is contiguous at run
    # time too; a strided one is copied (the write does not reach a)
    v = np.ascontiguousarray(a[::2])
    v[0] = -5.0
    w = np.asfortranarray(a)
    w[-1] = -6.0
    return a


@njit
def asfortran_2d_copy(a):
    v = np.asfortranarray(a)
    v[0, 0] = -1.0
    return a, v


@njit
def asarray(a):
    return np.asarray(a)


@njit
def asarray_f4(a):
    return np.asarray(a, np.float32)


@njit
def asarray_dtype_kw(a):
    return np.asarray(a, dtype=np.int64)


@njit
def asarray_same(a):
    v = np.asarray(a, dtype=np.float64)
    v[0] = 42.0
    return a


@njit
def asarray_tuple(x, y):
    return np.asarray((x, y, x + y))


@njit
def asarray_mixed_tuple(x):
    return np.asarray((x, 1))


@njit
def ascontiguous_tuple(x):
    return np.ascontiguousarray((x, x))


@njit
def roll(a, shift):
    return np.roll(a, shift)


@njit
def roll_kw(a):
    return np.roll(a, shift=-2)


@njit
def roll_axis(a):
    return np.roll(a, 1, 0)


@njit
def roll_float_shift(a):
    return np.roll(a, 1.5)


@njit
def roll_local(n, s):
    # the copy is new: writing it leaves the source alone
    a = np.arange(n) * 1.0
    r = np.roll(a, s)
    r[0] = -1.0
    return a, r


@njit
def take(a, i):
    return np.take(a, i)


@njit
def take_method(a, i):
    return a.take(i)


@njit
def take_tuple(a, i, j):
    return np.take(a, (i, j, -1))


@njit
def take_axis(a, i):
    return np.take(a, i, axis=0)


@njit
def take_float(a):
    return np.take(a, 1.0)
