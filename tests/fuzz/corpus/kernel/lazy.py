# Bare @vectorize (and @vectorize with options but no signatures): compiled
# on first use for the exact input types, with Numba's typing of them.
import math
from numba import vectorize


@vectorize
def add(x, y):
    return x + y


@vectorize(target='cpu')
def scale(x):
    return x * 2.5 - 1


@vectorize()
def halve(x):
    return x / 2


@vectorize(nopython=True)
def clip01(x):
    return min(max(x, 0), 1)


@vectorize
def poly(x):
    return 3 * x ** 3 - 2 * x ** 2 + x - 7


@vectorize
def softplus(x):
    return math.log1p(math.exp(-abs(x))) + max(x, 0.0)
