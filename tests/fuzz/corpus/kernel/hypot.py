# Seed 002's hypot, written exactly as the notebook does (semicolons
# included), as a plain @jit function and as ufuncs.
import math
from numba import jit, vectorize


@jit
def hypot_jit(x, y):
    x = abs(x);
    y = abs(y);
    t = min(x, y);
    x = max(x, y);
    t = t / x;
    return x * math.sqrt(1+t*t)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def hypot(x, y):
    x = abs(x);
    y = abs(y);
    t = min(x, y);
    x = max(x, y);
    t = t / x;
    return x * math.sqrt(1+t*t)


# The ufunc calling the @jit function (inlined by ufjit).
@vectorize(['float64(float64, float64)'])
def hypot_via_jit(x, y):
    return hypot_jit(x, y)


@vectorize(['float64(float64, float64)'])
def hypot_math(x, y):
    return math.hypot(x, y)
