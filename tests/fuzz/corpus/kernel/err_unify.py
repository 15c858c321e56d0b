# Seed 003's "Type unification (3)": a tuple and a float32 cannot unify.
from numba import vectorize


@vectorize
def select_tuple(a, b, c):
    if c:
        ret = (a, a)
    else:
        ret = b
    return ret
