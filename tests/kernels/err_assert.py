# A failing assert in a ufunc kernel raises AssertionError in Numba too;
# ufjit reports it with the kernel line and writes no output.
from numba import vectorize


@vectorize(['float64(float64)'])
def non_negative_twice(x):
    assert x >= 0
    return x * 2
