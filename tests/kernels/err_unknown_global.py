# A name that is neither a local, a module constant nor an import.
from numba import vectorize


@vectorize
def uses_unknown(x):
    return x + SCALE_FACTOR
