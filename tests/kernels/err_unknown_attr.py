# math has no function 'sine'.
import math
from numba import vectorize


@vectorize
def bad_attr(x):
    return math.sine(x)
