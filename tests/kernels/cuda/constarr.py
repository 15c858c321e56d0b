# Module-level arrays in cuda.jit kernels (tests/test_cuda_constarr.c):
# cuda.const.array_like puts the array in constant memory, as numba-cuda
# does (so does any global array read on the GPU); on cudasim the same
# values come from host memory.
import numpy as np
from numba import cuda

# a 5-tap binomial filter, and a 2-D table
TAPS = np.array([1, 4, 6, 4, 1], dtype=np.float32) / 16
TABLE = (np.arange(12, dtype=np.float64).reshape(3, 4) - 5.5) * 0.25
PRIMES = np.array([2, 3, 5, 7, 11, 13, 17, 19], dtype=np.int32)


@cuda.jit(device=True)
def tap(k):
    t = cuda.const.array_like(TAPS)
    return t[k]


@cuda.jit('void(float32[::1], float32[::1])')
def smooth(x, out):
    i = cuda.grid(1)
    if i < out.size:
        s = np.float32(0)
        for k in range(TAPS.size):
            j = min(max(i + k - 2, 0), x.size - 1)
            s += tap(k) * x[j]
        out[i] = s


@cuda.jit('void(float64[:, ::1], int64[::1])')
def lookup(out, idx):
    i, j = cuda.grid(2)
    tab = cuda.const.array_like(TABLE)
    pr = cuda.const.array_like(PRIMES)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = tab[i % tab.shape[0], j % tab.shape[1]] * pr[(i + j) % len(pr)]
    if i == 0 and j == 0:
        idx[0] = tab.size + pr.ndim


@cuda.jit('void(int32[::1])')
def plain_global(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = PRIMES[i % 8] * 2
