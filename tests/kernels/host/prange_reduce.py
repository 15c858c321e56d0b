# prange reductions on arrays and with /= (lower_prange_array.c), and the
# operators Numba refuses, checked against Numba's parallel=True by
# tests/e2e/run_prange_oracle.py (on 1, 2 and 7 threads, the same bits).
import numpy as np
from numba import njit, prange


@njit(parallel=True)
def pdiv(n):
    s = 1000.0
    for i in prange(n):
        s /= 2.0
    return s


@njit(parallel=True)
def pdiv_int(n):
    s = 1000
    for i in prange(n):
        s /= 2
    return s


@njit(parallel=True)
def pdiv_e(a):
    s = 3.5
    for i in prange(a.shape[0]):
        s = s / (a[i] + 0.5)
    return s


@njit(parallel=True)
def pdiv_c(a):
    s = 1.0 + 2.0j
    for i in prange(a.shape[0]):
        s /= a[i] + 0.75j
    return s


@njit(parallel=True)
def arr_iadd(m):
    s = np.zeros(m.shape[1])
    for i in prange(m.shape[0]):
        s += m[i, :]
    return s


@njit(parallel=True)
def arr_isub(m):
    s = np.full(m.shape[1], 100.0)
    for i in prange(m.shape[0]):
        s -= m[i]
    return s


@njit(parallel=True)
def arr_imul(m):
    s = np.ones(m.shape[1])
    for i in prange(m.shape[0]):
        s *= 1.0 + m[i] * 0.01
    return s


@njit(parallel=True)
def arr_idiv(m):
    s = np.full(m.shape[1], 1000.0)
    for i in prange(m.shape[0]):
        s /= 1.0 + m[i] * 0.01
    return s


@njit(parallel=True)
def arr_2d(m):
    s = np.zeros((2, m.shape[1]))
    for i in prange(m.shape[0]):
        s += m[i]
    return s


@njit(parallel=True)
def arr_3d(c):
    s = np.zeros((c.shape[1], c.shape[2]))
    for i in prange(c.shape[0]):
        s += c[i] * 2
    return s


@njit(parallel=True)
def arr_int(mi):
    s = np.zeros(mi.shape[1], dtype=np.int64)
    p = np.ones(mi.shape[1], dtype=np.int64)
    for i in prange(mi.shape[0]):
        s += mi[i]
        p *= mi[i] % 3 + 1
    return s, p


@njit(parallel=True)
def arr_scalar(m):
    s = np.zeros(5)
    t = 0.0
    for i in prange(m.shape[0]):
        s += m[i, 0]
        t += m[i, 1]
    return s, t


@njit(parallel=True)
def arr_arg(m, s):
    for i in prange(m.shape[0]):
        s += m[i]
    return s


@njit(parallel=True)
def arr_col(m):
    s = np.zeros(m.shape[0])
    for j in prange(m.shape[1]):
        s += m[:, j]
    return s


@njit(parallel=True)
def arr_f32(m):
    s = np.zeros(m.shape[1], dtype=np.float32)
    for i in prange(m.shape[0]):
        s += m[i]
    return s


# s = s + e on an array: Numba 0.68 returns s as it was before the loop;
# ufjit as a serial loop (checked against Numba's serial compile)
@njit(parallel=True)
def arr_rebind(m):
    s = np.zeros(m.shape[1])
    for i in prange(m.shape[0]):
        s = s + m[i]
    return s


@njit(parallel=True)
def scratch(n):
    t = 0.0
    for i in prange(n):
        x = np.arange(i % 7 + 1)
        t += x.sum()
    return t


# refused as Numba refuses them
@njit(parallel=True)
def pfloordiv(n):
    s = 1000
    for i in prange(n):
        s //= 2
    return s


@njit(parallel=True)
def ppow(n):
    s = 2.0
    for i in prange(n):
        s = s ** 1.01
    return s


@njit(parallel=True)
def pmod(n):
    s = 1000
    for i in prange(n):
        s %= 7
    return s


@njit(parallel=True)
def arr_or(mi):
    s = np.zeros(mi.shape[1], dtype=np.int64)
    for i in prange(mi.shape[0]):
        s |= mi[i]
    return s


# |= &= ^= on numbers: Numba 0.68 refuses them as reductions (ValueError)
@njit(parallel=True)
def sc_or(mi):
    s = 0
    for i in prange(mi.shape[0]):
        s |= mi[i, 0]
    return s


@njit(parallel=True)
def sc_and_bool(mi):
    s = True
    for i in prange(mi.shape[0]):
        s &= mi[i, 0] > 3
    return s


# an array reduction read elsewhere in the body (here without changing
# the result, which Numba's threads would otherwise decide)
@njit(parallel=True)
def arr_read(m):
    s = np.zeros(m.shape[1])
    for i in prange(m.shape[0]):
        s += m[i]
        if s.sum() > 1e300:
            s[0] = 0.0
    return s
