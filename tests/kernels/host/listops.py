"""Operations on Python lists of numbers beyond tests/kernels/host/lists.py:
l.sort() and sorted(x) with reverse= (tests/e2e/run_listops_oracle.py,
tests/test_listops.c)."""
import numpy as np
from numba import njit


@njit
def sort_list(a, r):
    l = list(a)
    l.sort(reverse=r)
    m = list(a)
    m.sort()
    return np.array(l), np.array(m)


@njit
def sort_kw(a):
    l = list(a)
    l.sort(key=None, reverse=True)
    m = list(a)
    m.sort(None, False)
    return np.array(l), np.array(m)


@njit
def sorted_array(a, r):
    return np.array(sorted(a, reverse=r)), np.array(sorted(a))


@njit
def sorted_new(a):
    l = list(a)
    s = sorted(l)
    l.append(-1.0)
    s.append(99.0)
    return np.array(s), np.array(l)


@njit
def sorted_tuple(x):
    t = (x, 3, -1, x * 2)
    return np.array(sorted(t)), np.array(sorted(t, reverse=True))


@njit
def sorted_range(n):
    return (np.array(sorted(range(n), reverse=True)),
            np.array(sorted(range(n, 0, -2))))


@njit
def sort_empty(n):
    l = [1.5]
    l.pop()
    l.sort()
    s = sorted(range(n))
    return len(l), len(s)


@njit
def sort_complex(a):
    l = list(a)
    l.sort()
    return np.array(l)


@njit
def sorted_mixed_tuple(x):
    return np.array(sorted((x, 2.5, 0)))


@njit
def neg(x):
    return -x


@njit
def sort_key_fn(a):
    l = list(a)
    l.sort(key=neg)
    return np.array(l)


@njit
def sort_key_bad(a):
    l = list(a)
    l.sort(key=3)
    return np.array(l)


@njit
def sort_reverse_float(a):
    l = list(a)
    l.sort(reverse=1.5)
    return np.array(l)


@njit
def sorted_2d(a):
    return len(sorted(a))


@njit
def sorted_number(x):
    return len(sorted(x))


@njit
def slices(a, lo, hi, st):
    l = list(a)
    return (np.array(l[lo:hi:st]), np.array(l[lo:]), np.array(l[:hi]),
            np.array(l[::-1]), np.array(l[::st]))


@njit
def concat(a, b):
    l = list(a)
    m = list(b)
    r = l + m
    r.append(7)
    return np.array(r), len(l), np.array(l + l)


@njit
def repeat(a, n):
    l = list(a)
    return np.array(l * n), np.array(n * l), len(l)


@njit
def repeat_bool(a):
    l = list(a)
    return len(l * True)


@njit
def inplace(a, b, n):
    l = list(a)
    alias = l
    l += list(b)
    l += l
    alias *= n
    return np.array(l), len(alias)


@njit
def inplace_complex(a, b):
    l = list(a)
    l += list(b)
    return np.array(l)


@njit
def compare(a, b):
    l = list(a)
    m = list(b)
    return l == m, l != m, l < m, l <= m, l > m, l >= m


@njit
def compare_complex(a, b):
    l = list(a)
    m = list(b)
    return l == m, l != m


@njit
def compare_complex_lt(a, b):
    return list(a) < list(b)
