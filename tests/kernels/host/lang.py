"""Python statements inside kernels (tests/e2e/run_lang_oracle.py runs
each through `ufjit call` and through Numba): raise."""
import numpy as np
from numba import njit, prange


@njit
def raise_value(x):
    if x > 0:
        raise ValueError("x must not be positive")
    return x * 2


@njit
def raise_bare_class(x):
    if x > 0:
        raise IndexError
    return x


@njit
def raise_no_args(x):
    if x > 0:
        raise ZeroDivisionError()
    return x


@njit
def raise_args(x):
    if x > 1:
        raise Exception("too big", x, x * 0.5, x > 2)
    return x


@njit
def raise_key(x):
    if x > 0:
        raise KeyError("missing")
    return x


@njit
def raise_int_arg(x):
    if x < 0:
        raise RuntimeError(x)
    return x + 1


@njit
def raise_float_forms(x):
    if x != 0.0:
        raise ValueError(x, np.float32(x), np.uint8(7), -0.0, 1e16, 1e-5,
                         0.0001, 123.456, 1e300 * 10, x - x)
    return x


@njit
def raise_quotes(x):
    if x:
        raise TypeError("it's", 'say "hi"', "tab\there")
    return x


@njit
def raise_assertion(x):
    if x == 3:
        raise AssertionError("three")
    return x


@njit
def raise_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative element at", i)
        s += a[i]
    return s


@njit
def raise_unconditional(x):
    raise NotImplementedError("always", x)


@njit
def raise_callee(x):
    if x > 10:
        raise OverflowError("callee", x)
    return x + 1


@njit
def raise_caller(x):
    return raise_callee(raise_callee(x)) * 2


@njit(parallel=True)
def raise_prange(a):
    s = 0.0
    for i in prange(a.shape[0]):
        if a[i] > 100:
            raise ValueError("too large in prange")
        s += a[i]
    return s


@njit
def raise_array_arg(a):
    if a.shape[0] > 0:
        raise ValueError(a)
    return 0


@njit
def raise_complex_arg(x):
    if x > 0:
        raise ValueError(x * 1j)
    return x


@njit
def raise_variable(x):
    e = ValueError("held")
    if x > 0:
        raise e
    return x


@njit
def contains(x, a):
    return x in a


@njit
def not_contains(x, a):
    return x not in a


@njit
def contains_tuple(x):
    return x in (1.0, 2.5, 3.0)


@njit
def contains_int_tuple(x, n):
    return x in (n, n + 1, n * 2)


@njit
def contains_branch(a):
    n = 0
    for i in range(10):
        if i in a:
            n += 1
    return n


@njit
def contains_mixed_tuple(x):
    return x in (1, 2.5, 3)


@njit
def contains_array_key(a):
    return a in a


@njit
def print_values(x, n):
    print(1.5, 2, "text", x, np.float32(1.1), True, 1e20, 1e-5, -0.0,
          np.nan, 123456789.0, 1 / 3)
    print()
    print("n is", n, n > 2, np.uint8(n), -n)
    return x + n
