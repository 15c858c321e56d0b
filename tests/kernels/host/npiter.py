"""np.ndindex, np.ndenumerate and np.nditer as the iterables of for loops
inside njit kernels, against Numba (tests/e2e/run_npiter_oracle.py).
The kernels record what each iteration yields, in order, so that the
order, the count and the values are all compared."""
import numpy as np
from numba import njit


# ---- np.ndindex -----------------------------------------------------------

@njit
def nd_shape(a):
    out = np.zeros(a.size)
    c = 0
    for idx in np.ndindex(a.shape):
        out[c] = a[idx]
        c += 1
    return out


@njit
def nd_sum(a):
    s = 0.0
    for idx in np.ndindex(a.shape):
        s += a[idx]
    return s


@njit
def nd_sum_loops(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


@njit
def nd_ints(m, n):
    c = 0
    k = 0
    for idx in np.ndindex(m, n):
        c = (c * 31 + idx[0] * 7 + idx[1] + 1) % 1000003
        k += 1
    return c, k


@njit
def nd_ints3(m, n, p):
    c = 0
    k = 0
    for i, j, l in np.ndindex(m, n, p):
        c = (c * 31 + i * 49 + j * 7 + l + 1) % 1000003
        k += 1
    return c, k


@njit
def nd_unpack(m, n):
    out = np.zeros((m * n, 2), dtype=np.int64)
    c = 0
    for i, j in np.ndindex(m, n):
        out[c, 0] = i
        out[c, 1] = j
        c += 1
    return out


@njit
def nd_star(a):
    s = 0.0
    k = 0
    for idx in np.ndindex(*a.shape):
        k += 1
        s = s * 0.5 + a[idx] * k
    return s, k


@njit
def nd_tuple_literal(m):
    c = 0
    for idx in np.ndindex((m, 3)):
        c = c * 10 + idx[0] * 3 + idx[1] + 1
    return c


@njit
def nd_one(m):
    c = 0
    for (i,) in np.ndindex(m):
        c = c * 10 + i + 1
    return c


@njit
def nd_none():
    c = 0
    for idx in np.ndindex():
        c += 1 + len(idx)
    for idx in np.ndindex(()):
        c += 10
    return c


@njit
def nd_zero_d(x):
    a = np.full((), x)
    s = 0.0
    for idx in np.ndindex(a.shape):
        s += a[idx] + 1.0
    return s


@njit
def nd_control(m, n):
    c = 0
    for i, j in np.ndindex(m, n):
        if j == 1:
            continue
        if i == 2 and j == 2:
            break
        c = c * 10 + i * 3 + j + 1
    else:
        c = -c
    return c


@njit
def nd_last(m, n):
    last = (-1, -1)
    for idx in np.ndindex(m, n):
        last = idx
    return last


@njit
def nd_nested(m):
    c = 0
    for i, j in np.ndindex(m, 2):
        for (k,) in np.ndindex(i + 1):
            c = c * 3 + k + j
    return c % 1000003


@njit
def nd_alloc(m, n):
    s = 0.0
    for i, j in np.ndindex(m, n):
        t = np.ones(i + j + 1)
        s += t.sum()
    return s


@njit
def nd_float(x):
    c = 0
    for idx in np.ndindex(x, 2):
        c += 1
    return c


@njit
def nd_bool(x):
    c = 0
    for idx in np.ndindex(x):
        c += 1
    return c


@njit
def nd_mixed(m, n):
    c = 0
    for idx in np.ndindex((np.int32(m), n)):
        c += 1
    return c


@njit
def nd_bound(m):
    it = np.ndindex(m)
    c = 0
    for idx in it:
        c += 1
    return c


@njit
def nd_kw(m):
    c = 0
    for idx in np.ndindex(shape=m):
        c += 1
    return c


@njit
def nd_unpack_bad(m, n):
    c = 0
    for i, j, k in np.ndindex(m, n):
        c += 1
    return c


# ---- np.ndenumerate -------------------------------------------------------

@njit
def en_order(a):
    vals = np.zeros(a.size, dtype=a.dtype)
    keys = np.zeros(a.size, dtype=np.int64)
    c = 0
    for idx, v in np.ndenumerate(a):
        vals[c] = v
        k = 0
        for d in range(len(idx)):
            k = k * 100 + idx[d]
        keys[c] = k
        c += 1
    return vals, keys


@njit
def en_two(a):
    s = 0.0
    for (i, j), v in np.ndenumerate(a):
        s = s * 0.5 + v * (i + 1) - j
    return s


@njit
def en_tuple(a):
    s = 0
    for t in np.ndenumerate(a):
        s = s * 7 + t[0][0] + int(t[1])
    return s % 1000003


@njit
def en_zero_d(x):
    a = np.full((), x)
    n = 0
    s = 0.0
    for idx, v in np.ndenumerate(a):
        n += 1 + len(idx)
        s += v
    return n, s


@njit
def en_write(a):
    b = a.copy()
    for idx, v in np.ndenumerate(b):
        b[idx] = v * 2 + idx[0]
    return b


@njit
def en_complex(a):
    s = 0j
    for idx, v in np.ndenumerate(a):
        s = s * 0.5 + v
    return s


@njit
def en_scalar(x):
    s = 0.0
    for idx, v in np.ndenumerate(x):
        s += v
    return s


# ---- np.nditer ------------------------------------------------------------

@njit
def it_order(a):
    out = np.zeros(a.size, dtype=a.dtype)
    c = 0
    for x in np.nditer(a):
        out[c] = x[()]
        c += 1
    return out


@njit
def it_write(a):
    b = a.copy()
    k = 0
    for x in np.nditer(b):
        k += 1
        x[()] = x[()] * 3 + k
    return b


@njit
def it_view_write(a):
    b = a.copy()
    for x in np.nditer(b[::2]):
        x[()] = -1
    return b


@njit
def it_pair(a, b):
    out = np.zeros(max(a.size, b.size))
    c = 0
    for x, y in np.nditer((a, b)):
        out[c] = x[()] * 10 + y[()]
        c += 1
    return out[:c]


@njit
def it_scalar(a, s):
    out = np.zeros(a.size)
    c = 0
    for x, y in np.nditer((a, s)):
        out[c] = x[()] - y[()]
        c += 1
    return out


@njit
def it_number(s):
    t = 0.0
    n = 0
    for x in np.nditer(s):
        t += x[()]
        n += 1
    return t, n


@njit
def it_three(a, b, c):
    s = 0.0
    for x, y, z in np.nditer((a, b, c)):
        s = s * 0.5 + x[()] + 2 * y[()] + 3 * z[()]
    return s


@njit
def it_zero_d(x):
    a = np.full((), x)
    s = 0.0
    n = 0
    for y in np.nditer(a):
        s += y[()]
        n += 1
    for y, z in np.nditer((a, np.ones(3))):
        s += y[()] * z[()]
        n += 1
    return s, n


@njit
def it_ndim(a):
    n = 0
    for x in np.nditer(a):
        n += x.ndim + x.size + 1
    return n


@njit
def it_item(a):
    s = 0.0
    for x in np.nditer(a):
        s = s * 0.5 + x.item()
    return s


@njit
def it_list(a):
    s = 0.0
    for x in np.nditer([a, a]):
        s += x[0][()]
    return s


@njit
def it_empty_tuple(a):
    s = 0.0
    for x in np.nditer(()):
        s += 1.0
    return s


# ---- enumerate, zip and a.flat over arrays (desugar_for.c) ----------------

@njit
def py_enumerate_zip(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s = s * 0.5 + i * x - y
    return s


@njit
def py_flat(a):
    out = np.zeros(a.size, dtype=a.dtype)
    c = 0
    for x in a.flat:
        out[c] = x
        c += 1
    return out


# ---- a.item() ---------------------------------------------------------------

@njit
def item(a):
    return a.item()


@njit
def item_of_view(a):
    return a[1:2, ::-1][:, :1].item()


@njit
def item_arg(a):
    return a.item(0)


@njit
def item_zero_d(x):
    return np.full((), x).item()


# ---- enumerate() of the iterators ------------------------------------------

@njit
def enum_ndindex(m, n):
    c = 0
    for k, (i, j) in enumerate(np.ndindex(m, n)):
        c = (c * 31 + k * 100 + i * 10 + j) % 1000003
    return c


@njit
def enum_ndenumerate(a):
    s = 0.0
    for k, (idx, v) in enumerate(np.ndenumerate(a), 5):
        if k == 7:
            continue
        s = s * 0.5 + k * v + idx[0]
    return s


@njit
def enum_nditer(a):
    s = 0.0
    for t in enumerate(np.nditer(a)):
        s = s * 0.5 + t[0] * t[1][()]
    return s
