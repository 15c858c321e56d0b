"""Python lists inside kernels (Numba's list(T)): literals, [] refined by
append, len, l[i] / l[i] = v, for, in, sum/min/max, truth, np.array(l),
aliasing, lists passed to and returned from @njit helpers
(tests/e2e/run_lists_oracle.py, tests/test_lists.c)."""
import numpy as np
from numba import njit


@njit
def literal(x):
    l = [1, 2.5, x]
    return sum(l), len(l), l[0], l[-1]


@njit
def literal_ints(n):
    l = [3, n, -7]
    return sum(l), min(l), max(l), l[1]


@njit
def from_array(a):
    l = []
    for v in a:
        l.append(v)
    return np.array(l)


@njit
def append_widens(a):
    l = [np.int32(1), np.int32(3)]
    l.append(a[0])
    return np.asarray(l)


@njit
def getitem(a, i):
    l = []
    for v in a:
        l.append(v)
    return l[i]


@njit
def setitem(a, i, v):
    l = []
    for x in a:
        l.append(x)
    l[i] = v
    return np.array(l)


@njit
def minmax(a):
    l = []
    for x in a:
        l.append(x)
    return min(l), max(l)


@njit
def total(a):
    l = []
    for x in a:
        l.append(x)
    return sum(l)


@njit
def contains(a, x):
    l = []
    for v in a:
        l.append(v)
    return x in l, x not in l


@njit
def truth(a):
    l = []
    for x in a:
        if x > 0:
            l.append(x)
    if l:
        return len(l)
    return -1


@njit
def alias(n):
    a = [1.0]
    b = a
    for i in range(n):
        b.append(i * 0.5)
    return len(a), a[-1], np.array(a)


@njit
def fill(l, n):
    for i in range(n):
        l.append(i * i)
    return l


@njit
def via_helper(n):
    l = [0]
    m = fill(l, n)
    return np.array(m), len(l)


@njit
def make_list(n):
    l = []
    for i in range(n):
        l.append(float(i) / 4)
    return l


@njit
def returned(n):
    l = make_list(n)
    l.append(-1.0)
    return np.array(l)


@njit
def as_float32(a):
    l = []
    for x in a:
        l.append(x)
    return np.array(l, dtype=np.float32)


@njit
def iterate(a):
    l = []
    for x in a:
        l.append(x)
    s = 0.0
    for v in l:
        s += v * 2
    return s


@njit
def iterate_append(n):
    l = [1]
    k = 0
    for v in l:
        if v < n:
            l.append(v + 1)
        k += 1
    return k, len(l)


@njit
def big(n):
    l = []
    for i in range(n):
        l.append(i * 0.5)
    return np.array(l).sum(), len(l), l[n - 1]


@njit
def bools(a):
    l = []
    for x in a:
        l.append(x > 0)
    return sum(l), max(l), np.array(l)


@njit
def complexes(a):
    l = [1j]
    for x in a:
        l.append(x)
    return sum(l), np.array(l)


@njit
def in_loop(n):
    t = 0.0
    for i in range(n):
        l = [float(i), 2.0]
        l.append(3.0)
        t += sum(l)
    return t


@njit
def empty_never(n):
    l = []
    return len(l)


@njit
def return_list(n):
    l = [1.0, 2.0]
    return l


@njit
def bad_append(a):
    l = [1.0]
    l.append(a)
    return len(l)


@njit
def not_empty(a):
    l = [v for v in a if v > 0]
    if not l:
        return -1.0
    return l[0]


@njit
def comp(a, t):
    x = 100.0
    l = [v * 2 for v in a if v > t]
    return np.array(l), x


@njit
def comp_nested(n):
    l = [i * j for i in range(n) for j in range(i) if (i + j) % 2 == 0]
    return np.array(l)


@njit
def comp_inline(a):
    return np.array([x + 1 for x in a]), sum([x for x in range(5)])


@njit
def comp_tuple(a):
    t = (1.0, 2.0, 3.0)
    l = [x * x for x in t]
    m = [y for y in l if y > 1]
    return np.array(m), len([i for i, v in enumerate(a)])


@njit
def constructors(a, n):
    l1 = list(range(n))
    l2 = list(a[::-1])
    l3 = list((1.0, 2.5, 3.0))
    l4 = list(l2)
    l4.append(0.0)
    l5 = list(range(n, 0, -2))
    return (np.array(l1), np.array(l2), np.array(l3), len(l4), len(l2),
            np.array(l5))


@njit
def list_empty(n):
    l = list()
    l.append(n)
    return np.array(l)


@njit
def list_mixed_tuple(n):
    l = list((1, 2.5, n))
    return len(l)



@njit
def methods(a, i):
    l = list(a)
    p = l.pop()
    q = l.pop(i)
    l.insert(i, 9.5)
    l.insert(-100, -1.0)
    l.insert(100, 100.0)
    c = l.count(9.5)
    k = l.index(100.0)
    l.remove(-1.0)
    m = l.copy()
    m.reverse()
    l.extend(m)
    l.extend(a)
    return p, q, c, k, np.array(l), np.array(m)


@njit
def pop_all(a):
    l = list(a)
    s = 0.0
    while l:
        s = s * 2 + l.pop()
    return s, len(l)


@njit
def pop_at(a, i):
    l = list(a)
    return l.pop(i)


@njit
def index_of(a, x):
    l = list(a)
    return l.index(x)


@njit
def remove_x(a, x):
    l = list(a)
    l.remove(x)
    return np.array(l)


@njit
def clear_extend(a):
    l = [1.0]
    l.clear()
    l.extend(l)
    l.extend(a)
    l.extend(l)
    return np.array(l), l.count(np.nan)


@njit
def insert_empty(n):
    l = []
    l.insert(5, n)
    l.insert(0, 2 * n)
    return np.array(l)
