# Numba compiles a list comprehension in the iterable of another; ufjit
# refuses it with its position (its loop would run once, before the
# statement), never miscompiles. One in another's item is compiled.
from numba import vectorize


@vectorize
def list_comp(n):
    squares = [x * 2 for x in [i for i in range(n + 1)]]
    return len(squares)
