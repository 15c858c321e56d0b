# Basic slicing and views inside kernels (issue 18): a[1:-1], a[::-1],
# a[i, :], a[:, j], None / np.newaxis, ellipsis, .shape/.strides/.ndim/
# .size/len() of views, and slice assignment from a number or an array
# (overlapping included). Run against Numba by
# tests/e2e/run_slicing_oracle.py (njit and guvectorize), and through the
# C API by tests/test_slicing.c.
import numpy as np
from numba import njit, guvectorize


# A digest of a 1-D view that sees order, length and every element.
@njit
def d1(v):
    s = 0.0
    for k in range(v.shape[0]):
        s += v[k] * (k + 1)
    return s


@njit
def d2(v):
    s = 0.0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            s += v[i, j] * (i * 7 + j + 1)
    return s


@njit
def rev(a):
    v = a[::-1]
    return d1(v), len(v), v.strides[0]


@njit
def sl(a, lo, hi, st):
    v = a[lo:hi:st]
    return d1(v), len(v)


@njit
def sl2(a, lo, hi):
    v = a[lo:hi]
    return d1(v), len(v)


@njit
def heads(a):
    return d1(a[1:]), d1(a[:-1]), d1(a[1:-1]), d1(a[::2]), d1(a[1::3]), \
        d1(a[-3:]), d1(a[:-20]), d1(a[5:2]), d1(a[::-3]), d1(a[-2::-2])


@njit
def row_col(a, i):
    r = a[i, :]
    c = a[:, i]
    return d1(r), d1(c), r.shape[0], c.shape[0], r.strides[0], c.strides[0]


@njit
def rows(a):
    s = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        s += d1(r) * (i + 1)
    return s


@njit
def sub2(a):
    v = a[1:, ::-2]
    return d2(v), v.shape[0], v.shape[1], v.ndim, v.size


@njit
def newaxis(a):
    v = a[None, :]
    w = a[:, np.newaxis]
    x = a[2, None]
    return v.shape[0], v.shape[1], w.shape[0], w.shape[1], w.strides[1], \
        x.shape[0], x[0], v.ndim, d2(w)


@njit
def ellipsis(a):
    v = a[..., 1]
    w = a[1, ...]
    x = a[1, 2, ...]
    return d1(v), d1(w), x, v.ndim, w.ndim


@njit
def three(a, i):
    v = a[:, i, ::-1]
    w = a[i, 1:]
    return d2(v), d2(w), v.shape[0], v.shape[1], w.shape[0], w.shape[1]


@njit
def chain(a):
    v = a[1:][::-1][::2]
    return d1(v), len(v)


@njit
def attrs(a):
    v = a[::2, 1:]
    return v.shape[0], v.shape[1], v.strides[0], v.strides[1], v.ndim, \
        v.size, len(v)


@njit
def fill(a, v):
    a[1:4] = v
    a[::-3] = 7
    return d1(a)


@njit
def fill_all(a, v):
    a[:] = v
    return d1(a)


@njit
def fill_row(a, i, v):
    a[i, :] = v
    a[:, -1] = -1.0
    return d2(a)


@njit
def shift_right(a):
    a[1:] = a[:-1]
    return d1(a)


@njit
def shift_left(a):
    a[:-1] = a[1:]
    return d1(a)


@njit
def reverse_in_place(a):
    a[:] = a[::-1]
    return d1(a)


@njit
def spread(a):
    n = len(a) // 2
    a[::2] = a[:n]
    return d1(a)


@njit
def copy_rows(a):
    a[1:, :] = a[:-1, :]
    return d2(a)


@njit
def bcast_row(a, b):
    a[:, :] = b
    return d2(a)


@njit
def bcast_col(a, b):
    a[1:] = b[:, None][: a.shape[0] - 1]
    return d2(a)


@njit
def assign_from(a, b):
    a[1:3] = b
    return d1(a)


@njit
def empty_views(a):
    v = a[3:3]
    w = a[10:]
    x = a[::-1][len(a):]
    v[:] = 5.0
    return len(v), len(w), len(x), d1(a)


@njit
def step_var(a, st):
    a[::st] = 1.0
    return d1(a)


# guvectorize kernels using views in the core loop.
@guvectorize(["void(float64[:, :], float64[:])"], "(m,n)->(m)")
def row_dot_rev(a, out):
    for i in range(a.shape[0]):
        r = a[i, :]
        q = r[::-1]
        s = 0.0
        for j in range(r.shape[0]):
            s += r[j] * q[j]
        out[i] = s


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
def gu_shift(a, out):
    out[:] = 0.0
    out[1:] = a[:-1]


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
def gu_reverse(a, out):
    out[:] = a
    out[:] = out[::-1]


@guvectorize(["void(float64[:, :], float64[:, :])"], "(m,n)->(n,m)")
def gu_transpose(a, out):
    for j in range(a.shape[1]):
        out[j, :] = a[:, j]


@guvectorize(["void(int64[:], int64, int64[:])"], "(n),()->(n)")
def gu_every(a, k, out):
    out[:] = 0
    out[::k] = a[::k]
