# np.nonzero, a.nonzero(), np.where(cond), np.flatnonzero, np.argwhere,
# np.extract and np.unique inside kernels, checked against Numba by
# tests/e2e/run_npfind_oracle.py (line:col of the refused lines are in its
# cases: keep them in place).
import numpy as np
from numba import njit


@njit
def nz(a):
    return np.nonzero(a)


@njit
def nz_meth(a):
    return a.nonzero()


@njit
def where1(a):
    return np.where(a)


@njit
def where_kw(a):
    return np.where(condition=a)


@njit
def where_tuple(x):
    return np.where((x, 0.0, 1, x - x))


@njit
def flat(a):
    return np.flatnonzero(a)


@njit
def flat_kw(a):
    return np.flatnonzero(a=a)


@njit
def flat_tuple(x):
    return np.flatnonzero((0, x, 2.5))


@njit
def argw(a):
    return np.argwhere(a)


@njit
def argw_tuple(x):
    return np.argwhere((x, 0, x))


@njit
def ext(c, a):
    return np.extract(c, a)


@njit
def ext_kw(c, a):
    return np.extract(arr=a, condition=c)


@njit
def ext_tuples(x):
    return np.extract((1, 0, x), (1, 2.5, 3))


@njit
def uniq(a):
    return np.unique(a)


@njit
def uniq_kw(a):
    return np.unique(ar=a)


@njit
def nz_index(a):
    # the rows and columns of the positive elements, used in a loop
    i, j = np.nonzero(a > 0)
    s = 0.0
    for k in range(len(i)):
        s += a[i[k], j[k]] * (k + 1)
    return s, len(i), np.nonzero(a)[1]


@njit
def in_loop(a):
    # a result made on every iteration (freed at each iteration's end)
    t = 0
    for r in range(a.shape[0]):
        t += np.flatnonzero(a[r]).sum() + len(np.unique(a[r]))
    return t


@njit
def nz_0d(a):
    return np.nonzero(np.full((), a))


@njit
def argw_0d(a):
    return np.argwhere(np.full((), a))


@njit
def nz_kw(a):
    return np.nonzero(a=a)


@njit
def uniq_counts(a):
    return np.unique(a, return_counts=True)


@njit
def uniq_number(x):
    return np.unique(x)


@njit
def nz_number(x):
    return np.nonzero(x)


@njit
def flat_0d(x):
    return np.flatnonzero(np.full((), x))


@njit
def uniq_0d(x):
    return np.unique(np.full((), x))


@njit
def ext_0d(x, y):
    return np.extract(np.full((), x), np.full((), y))


@njit
def sets(a, b):
    return (np.union1d(a, b), np.intersect1d(a, b), np.setxor1d(a, b),
            np.setdiff1d(a, b), np.isin(a, b), np.isin(a, b, invert=True))


@njit
def sets_au(a, b, u):
    return (np.intersect1d(a, b, u), np.setxor1d(a, b, assume_unique=u),
            np.setdiff1d(ar1=a, ar2=b, assume_unique=u),
            np.isin(element=a, test_elements=b, assume_unique=u,
                    invert=not u))


@njit
def sets_tuple(x):
    return (np.union1d((x, 1), (2.5, x)), np.intersect1d((x, 1), (2.5, x)),
            np.isin(x, (1, 2, 3)), np.isin((x, 0), 2))


@njit
def isin_int_flag(a, b):
    return np.isin(a, b, invert=1)


@njit
def union_number(a):
    return np.union1d(3, a)


@njit
def delete(a, i):
    return np.delete(a, i)


@njit
def delete_kw(a, i):
    return np.delete(obj=i, arr=a)


@njit
def delete_tuple(a, i):
    return np.delete(a, (i, 0, i))


@njit
def delete_local(n):
    a = np.arange(n) * 1.5
    b = np.delete(a, n - 1)
    b[0] = 7.0  # a copy: a is unchanged
    return a, b


@njit
def delete_float_obj(a):
    return np.delete(a, 1.0)


@njit
def delete_number(i):
    return np.delete(3.0, i)
