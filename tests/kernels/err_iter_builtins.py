# enumerate()/zip() loops that Numba refuses too.
from numba import njit


@njit
def start_keyword(a):
    s = 0.0
    for i, x in enumerate(a, start=1):
        s += i * x
    return s


@njit
def three_names(a):
    s = 0.0
    for i, x, y in enumerate(a):
        s += i * x * y
    return s

