# Kernels returning a tuple: NumPy-style ufuncs with several outputs.
# Numba's vectorize cannot build these (the files still import: the ufuncs
# are lazy), so the oracle computes the same with NumPy.
import math
from numba import vectorize, njit


@vectorize
def sincos(x):
    return math.sin(x), math.cos(x)


@vectorize
def divmod_pair(x, y):
    return x // y, x % y


# Outputs of different types: bool, float64, int64.
@vectorize
def stats3(a, b, c):
    return a < b, (a + b + c) / 3, min(a, b, c)


@njit
def to_polar(x, y):
    return math.hypot(x, y), math.atan2(y, x)


@vectorize
def polar(x, y):
    r, phi = to_polar(x, y)
    return r, phi
