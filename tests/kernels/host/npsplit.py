# Loops over homogeneous tuples (compiler/types/infer.c type_for,
# compiler/lower/lower.c lower_for_tuple) and np.split / np.array_split
# inside njit functions, checked against Numba by
# tests/e2e/run_npsplit_oracle.py.
import numpy as np
from numba import njit


@njit
def tuple_ints(n):
    s = 0
    for v in (1, 2, n, 4):
        s = s * 10 + v
    return s


@njit
def tuple_floats(x):
    s = 0.0
    for v in (1.5, x, -2.25):
        s = s * 2.0 + v
    return s


@njit
def tuple_arrays(a, b, c):
    out = np.zeros(3)
    k = 0
    for p in (a, b, c):
        out[k] = p.sum()
        k += 1
    return out


@njit
def tuple_write(a, b):
    for p in (a, b):
        p[0] = 99.0
    return a, b


@njit
def _total(t):
    s = 0
    for v in t:
        s += v
    return s


@njit
def tuple_arg(a):
    return _total((a.shape[0], 3, 5)), _total(a.shape)


@njit
def tuple_built(n):
    t = (n, n + 1, n * 2)
    m = 0
    for v in t:
        if v > m:
            m = v
    return m


@njit
def tuple_break_else(n):
    s = 0
    for v in (3, 1, 4, 1, 5):
        if v == n:
            break
        s += v
    else:
        s = -s
    return s, v


@njit
def tuple_nested(n):
    s = 0
    for u in (1, 2):
        for v in (10, 20, 30):
            s += u * v * n
    return s


@njit
def tuple_alloc_in_loop(a):
    s = 0.0
    for p in (a, a + 1.0, a * 2.0):
        q = p + 1.0
        s += q[0]
    return s


@njit
def tuple_mixed(x):
    s = 0.0
    for v in (1, x):
        s += v
    return s


@njit
def tuple_empty(x):
    s = 0
    for v in ():
        s += 1
    return s


# ---- np.split / np.array_split: parts returned as a tuple of copies (a
# Numba list is not a kernel result) and summarised by their sizes.

@njit
def sizes(parts, axis):
    out = np.empty(len(parts), np.int64)
    k = 0
    for p in parts:
        out[k] = p.shape[axis]
        k += 1
    return out


@njit
def split3(a):
    p = np.split(a, 3)
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split1(a):
    p = np.split(a, 1)
    return p[0].copy()


@njit
def split0(a):
    p = np.split(a, 0)
    return p[0].copy()


@njit
def split_neg(a):
    p = np.split(a, -1)
    return p[0].copy()


@njit
def split_neg3(a):
    p = np.split(a, -3)
    return p[0].copy()


@njit
def array_split3(a):
    p = np.array_split(a, 3)
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def array_split5_sizes(a):
    return sizes(np.array_split(a, 5), 0)


@njit
def array_split_neg(a):
    p = np.array_split(a, -3)
    return p[0].copy()


@njit
def array_split0(a):
    p = np.array_split(a, 0)
    return p[0].copy()


@njit
def split_axis(a, ax):
    p = np.split(a, 2, axis=ax)
    return p[0].copy(), p[1].copy()


@njit
def array_split_axis(a, ax):
    p = np.array_split(a, 3, ax)
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split_idx(a):
    p = np.split(a, (2, 5))
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split_idx_unsorted(a):
    return sizes(np.split(a, (5, 2, -2, 3)), 0)


@njit
def split_idx_far(a):
    return sizes(np.array_split(a, (10, 12, -100)), 0)


@njit
def split_idx_axis(a, ax):
    p = np.array_split(a, (1, -1), axis=ax)
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split_idx_arg(a, i, j):
    p = np.split(a, (i, j))
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split_idx_mixed(a):
    p = np.array_split(a, (np.int32(1), 3))
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split_write(a):
    p = np.array_split(a, 2)
    p[1][0] = 7.0
    return a


@njit
def split_sum_parts(a):
    s = 0.0
    k = 1.0
    for p in np.array_split(a, 4):
        s += k * p.sum()
        k += 1.0
    return s


@njit
def split_index_rt(a, i):
    p = np.split(a, 4)
    return p[i].copy()


@njit
def split_len(a):
    return len(np.array_split(a, 6)), len(np.split(a, (1, 2)))


@njit
def hsplit2(a):
    p = np.hsplit(a, 2)
    return p[0].copy(), p[1].copy()


@njit
def vsplit2(a):
    p = np.vsplit(a, 2)
    return p[0].copy(), p[1].copy()


@njit
def dsplit2(a):
    p = np.dsplit(a, 2)
    return p[0].copy(), p[1].copy()


@njit
def hsplit_idx(a):
    p = np.hsplit(a, (1, 2))
    return p[0].copy(), p[1].copy(), p[2].copy()


@njit
def split_rt_sections(a, n):
    return np.split(a, n)[0].copy()


@njit
def split_array_indices(a, idx):
    return np.split(a, idx)[0].copy()


@njit
def split_float_sections(a):
    return np.split(a, 2.0)[0].copy()


@njit
def split_scalar(x):
    return np.split(x, 2)[0]


@njit
def split_idx_empty(a):
    return np.array_split(a, ())[0].copy()


@njit
def split_list_ary(x):
    return np.split((x, x), 2)[0].copy()
