# np.convolve and np.correlate inside njit functions
# (compiler/types/infer_npsignal.c, compiler/lower/lower_npsignal.c),
# checked against Numba by tests/e2e/run_npsignal_oracle.py.
import numpy as np
from numba import njit


@njit
def convolve(a, v):
    return np.convolve(a, v)


@njit
def convolve_valid(a, v):
    return np.convolve(a, v, "valid")


@njit
def convolve_same(a, v):
    return np.convolve(a, v, mode="same")


@njit
def convolve_kw(a, v):
    return np.convolve(v=v, a=a)


@njit
def convolve_bad_mode(a, v):
    return np.convolve(a, v, "wide")


@njit
def correlate(a, v):
    return np.correlate(a, v)


@njit
def correlate_full(a, v):
    return np.correlate(a, v, "full")


@njit
def correlate_same(a, v):
    return np.correlate(a, v, mode="same")


@njit
def correlate_bad_mode(a, v):
    return np.correlate(a, v, mode="Full")


@njit
def correlate_in_loop(a, v):
    s = 0.0
    for i in range(3):
        s += np.correlate(a[i:], v, "full").sum()
    return s


@njit
def convolve_scalar(a, x):
    return np.convolve(a, x)


@njit
def correlate_axis(a, v):
    return np.correlate(a, v, axis=0)


@njit
def bartlett(m):
    return np.bartlett(m)


@njit
def blackman(m):
    return np.blackman(m)


@njit
def hamming(m):
    return np.hamming(m)


@njit
def hanning(m):
    return np.hanning(m)


@njit
def hanning_kw(m):
    return np.hanning(M=m)


@njit
def windows_in_loop(m):
    s = 0.0
    for k in range(m):
        s += np.bartlett(k).sum() + np.blackman(k).sum()
        s += np.hamming(k).sum() + np.hanning(k).sum()
    return s
