# Python language features of njit functions: an augmented assignment's
# subscript evaluated once (compiler/lower/lower_fancy.c), nested defs and
# lambdas only called (compiler/front/closures.c), checked against Numba
# by tests/e2e/run_closure_oracle.py.
import numpy as np
from numba import guvectorize, njit, prange


@njit
def counted(c, n):
    c[0] += 1
    return np.arange(n) % 3


@njit
def counted_mask(c, n):
    c[0] += 1
    return np.arange(n) % 2 == 0


@njit
def counted_int(c, i):
    c[0] += 1
    return i


@njit
def aug_fancy_once(n):
    a = np.zeros(5)
    c = np.zeros(1, np.int64)
    a[counted(c, n)] += 1.5
    return a, c


@njit
def aug_fancy_arange(n):
    a = np.zeros(4, np.int64)
    a[np.arange(n) % 3] += 1
    return a


@njit
def aug_mask_once(n):
    a = np.arange(n) * 1.0
    c = np.zeros(1, np.int64)
    a[counted_mask(c, n)] *= 2.0
    return a, c


@njit
def aug_fancy_2d(n):
    a = np.ones((4, 3))
    c = np.zeros(1, np.int64)
    a[counted(c, n), 1:] -= np.arange(2.0)
    return a, c


@njit
def aug_fancy_random(seed, n):
    np.random.seed(seed)
    a = np.zeros(10, np.int64)
    for _ in range(3):
        a[np.random.randint(0, 10, n)] += 1
    return a, np.random.randint(0, 1000)


@njit
def aug_mask_random(seed, n):
    np.random.seed(seed)
    a = np.arange(n) * 1.0
    a[np.random.random(n) < 0.5] += np.random.random()
    return a


@njit
def aug_fancy_bad(n):
    a = np.zeros(2)
    c = np.zeros(1, np.int64)
    a[counted(c, n)] += 1.0
    return a, c


@njit
def aug_basic_once(i):
    a = np.ones(6)
    c = np.zeros(1, np.int64)
    a[counted_int(c, i)] += 2.5
    a[counted_int(c, i) + 1] *= 3.0
    return a, c


@njit
def aug_basic_2d(i):
    a = np.ones((3, 4))
    c = np.zeros(1, np.int64)
    a[counted_int(c, i), counted_int(c, i + 1)] += 7.0
    return a, c


@njit
def aug_slice_once(i):
    a = np.ones(6)
    c = np.zeros(1, np.int64)
    a[counted_int(c, i):] += 1.0
    a[:counted_int(c, i)] *= np.arange(i) + 2.0
    return a, c


@njit
def aug_random_basic(seed):
    np.random.seed(seed)
    a = np.zeros(8)
    for _ in range(20):
        a[np.random.randint(0, 8)] += np.random.random()
    return a


@njit
def two_array_index(a, i, j):
    a[i, j] += 1.0
    return a[i, j]


@njit
def clo_loop(x, n):
    s = 2.0

    def f(y):
        return y * s + x

    t = 0.0
    for i in range(n):
        t += f(i)
    return t


@njit
def clo_late(x):
    s = 1.0

    def f(y):
        return y + s
    s = 10.0
    r = f(x)
    s = 100.0
    return r + f(x)


@njit
def clo_loopvar(n):
    t = 0

    def f(y):
        return y * i
    for i in range(n):
        t += f(3)
    return t


@njit
def clo_nested(x):
    def f(y):
        def g(z):
            return z * x
        return g(y) + 1
    return f(x)


@njit
def clo_shadow(x):
    s = 1.0

    def f(y):
        s = y + 1
        return s
    r = f(x)
    return r + s


@njit
def clo_sibling(x):
    def f(y):
        return y * x

    def g(z):
        return f(z) + 1
    return g(3.0) + f(2.0)


@njit
def clo_array(a, k):
    def f(i):
        a[i] += k * i
    for i in range(a.shape[0]):
        f(i)
    return a


@njit
def clo_returns_array(n):
    def mk(m):
        return np.arange(m) * 2.0
    return mk(n) + mk(n)


@njit
def clo_poly(x):
    def f(y):
        return y + 1
    return f(1) + f(2.5) + f(x)


@njit
def clo_kw(x):
    def f(a, b):
        return a - b
    return f(b=x, a=10.0)


@njit
def clo_raise(x):
    def check(y):
        if y < 0:
            raise ValueError("negative")
        return y
    return check(x) * 2


@njit
def lam_one(x):
    g = lambda y: y + x
    return g(1.0) * 2


@njit
def lam_two(x):
    g = lambda: x * 2
    h = lambda a, b: a * b + g()
    return h(x, 3)


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
def gu_lam(x, out):
    sq = lambda y: y * y
    for i in range(x.shape[0]):
        out[i] = sq(x[i]) + 1.0


@njit
def clo_return(x):
    def f(y):
        return y + x
    return f


@njit
def use(g, y):
    return g(y)


@njit
def clo_passed(x):
    def f(y):
        return y + x
    return use(f, 1.0)


@njit
def clo_stored(x):
    def f(y):
        return y + x
    t = (f, 1)
    return t[0](2.0)


@njit
def clo_alias(x):
    def f(y):
        return y + x
    h = f
    return h(2.0)


@njit
def clo_recursive(n):
    def f(k):
        if k <= 0:
            return 0
        return k + f(k - 1)
    return f(n)


@njit
def is_none(x):
    return x is None, x is not None, None is None, None is not x


@njit
def is_same(x, y):
    return x is y, x is not y


@njit
def is_view(a):
    b = a
    c = a.copy()
    return a is b, a is c, a[:] is a, a[1:] is a, a is not b


@njit
def is_branch(x):
    if x is None:
        return -1.0
    return x * 2


@njit
def is_tuple(x):
    t = (x, 1)
    return t is t


@njit
def is_chain(x, y):
    return x is y is x


@njit(parallel=True)
def lam_prange(a, k):
    out = np.empty_like(a)
    f = lambda v: v * k + 1.0
    for i in prange(a.shape[0]):
        out[i] = f(a[i])
    return out


@njit(fastmath=True)
def clo_fastmath(a):
    def acc(x):
        s = 0.0
        for v in x:
            s += v
        return s
    return acc(a) + acc(a[::2])
