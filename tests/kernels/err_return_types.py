# Two returns whose types cannot unify (an int64 and a tuple).
from numba import vectorize


@vectorize
def two_returns(x):
    if x > 0:
        return x
    return x, x
