# More of lists and dicts inside kernels against Numba
# (tests/e2e/run_contmore_oracle.py): slice assignment l[a:b:c] = m,
# sort/sorted of lists of tuples and with key= a function or a lambda.
# test_contmore checks conversions, aliasing, leaks and out of memory
# through the C API.
import numpy as np
from numba import njit


@njit
def setslice(a, b, lo, hi):
    l = list(a)
    l[lo:hi] = list(b)
    return np.array(l), len(l)


@njit
def setslice_step(a, b, lo, hi, st):
    l = list(a)
    l[lo:hi:st] = list(b)
    return np.array(l)


@njit
def setslice_open(a, b):
    l = list(a)
    m = list(b)
    l[:] = m
    l[len(l):] = m
    l[:0] = m
    l[::-2] = l[::2]
    return np.array(l)


@njit
def setslice_shared(a, b):
    l = list(a)
    alias = l
    alias[1:] = list(b)
    return np.array(l), len(alias)


@njit
def setslice_self(a, lo, hi, st):
    l = list(a)
    l[lo:hi:st] = l
    return np.array(l)


@njit
def setslice_tuples(n):
    pts = [(0.5, 1)]
    for i in range(n):
        pts.append((i * 1.5, i))
    pts[1:3] = [(7.5, 8), (9.0, 10), (11.0, 12)]
    out = np.empty((len(pts), 2))
    for i in range(len(pts)):
        out[i, 0] = pts[i][0]
        out[i, 1] = pts[i][1]
    return out


@njit
def setslice_arrays(n):
    parts = [np.zeros(2) + i for i in range(n)]
    parts[::2] = [np.ones(2) * -i for i in range((n + 1) // 2)]
    parts[1:2] = [np.full(2, 9.0), np.full(2, 8.0)]
    out = np.empty((len(parts), 2))
    for i in range(len(parts)):
        out[i] = parts[i]
    return out


@njit
def setslice_array_src(a):
    l = list(a)
    l[0:1] = a
    return len(l)


@njit
def setslice_tuple_src(a):
    l = list(a)
    l[0:1] = (1.0, 2.0)
    return len(l)


@njit
def setslice_range_src(n):
    l = [1, 2, 3]
    l[0:1] = range(n)
    return len(l)


@njit
def setslice_number(a):
    l = list(a)
    l[0:1] = 5.0
    return len(l)


@njit
def setslice_empty_literal(a):
    l = list(a)
    l[0:1] = []
    return len(l)


@njit
def setslice_complex(a, b):
    l = list(a)
    l[0:1] = list(b)
    return np.array(l)


@njit
def pairs(l):
    out = np.empty((len(l), 2))
    for i in range(len(l)):
        out[i, 0] = l[i][0]
        out[i, 1] = l[i][1]
    return out


@njit
def neg(x):
    return -x


@njit
def sort_tuples(a, b, r):
    l = [(a[0], b[0])]
    for i in range(1, len(a)):
        l.append((a[i], b[i]))
    l.sort(reverse=r)
    return pairs(l), pairs(sorted(l)), pairs(sorted(l, reverse=True))


@njit
def sort_tuples_mixed(a, b):
    l = [(a[0], np.int32(b[0]))]
    for i in range(1, len(a)):
        l.append((a[i], np.int32(b[i])))
    return pairs(sorted(l)), pairs(sorted(l, reverse=1))


@njit
def sort_tuples_complex(a):
    l = [(a[0], 1j)]
    l.sort()
    return len(l)


@njit
def sort_key_lambda(a):
    l = list(a)
    return (np.array(sorted(l, key=lambda x: -x)),
            np.array(sorted(l, key=lambda x: (x % 3, -x), reverse=True)))


@njit
def sort_key_fn(a, r):
    l = list(a)
    l.sort(key=neg, reverse=r)
    return np.array(l)


@njit
def sort_key_sources(a):
    f = lambda x: x * 2
    return (np.array(sorted(a, key=neg)), np.array(sorted(a, key=f)),
            np.array(sorted(a[::2], key=lambda y: abs(y - 3))))


@njit
def sort_key_capture(a):
    return np.array(sorted(range(len(a)), key=lambda i: a[i]))


@njit
def sort_key_tuples(a, b):
    l = [(a[0], b[0])]
    for i in range(1, len(a)):
        l.append((a[i], b[i]))
    l.sort(key=lambda p: p[1] % 4)
    return pairs(l)


@njit
def sort_key_complex_items(a):
    l = list(a)
    l.sort(key=lambda z: z.imag)
    return np.array(l)


@njit
def sort_key_complex_keys(a):
    return len(sorted(a, key=lambda x: x * 1j))


@njit
def dict_update(a, b):
    d = {1: 2.0, 3: 4.0}
    for i in range(len(a)):
        d[int(a[i])] = b[i]
    e = {3: np.int32(5), 7: np.int32(8)}
    d.update(e)
    d.update(d)
    f = {np.int8(-1): 0.5}
    d.update(f)
    ks = np.empty(len(d), dtype=np.int64)
    vs = np.empty(len(d))
    i = 0
    for k, v in d.items():
        ks[i] = k
        vs[i] = v
        i += 1
    return ks, vs, len(e)


@njit
def dict_update_float_keys(a):
    d = {0.5: 1}
    e = {-0.0: 2, 0.0: 3}
    for i in range(len(a)):
        e[a[i]] = i
    d.update(e)
    return len(d), d[0.5], d[-0.0]


@njit
def dict_update_bad_value():
    d = {1: 2}
    d.update({3: 4.5})
    return len(d)


@njit
def dict_update_list():
    d = {1: 2.0}
    d.update([(3, 4.0)])
    return len(d)


@njit
def dict_eq(x, y):
    d = {1: 2.0, 3: x}
    e = {3: y, 1: 2.0}
    f = {1: 2, 3: 4}
    g = {1.0: 2.0, 3.0: x}
    h = {1: 2.0}
    return (d == e, d != e, d == f, d == g, d == d, f == h, h != f,
            d == {1: 2.0, 4: x})


@njit
def dict_lt():
    return {1: 2} < {1: 3}


@njit
def dict_tuples(a, n):
    d = {0: (0.5, 1)}
    for i in range(n):
        d[i + 1] = (a[i % len(a)], i)
    d[2] = (7, 8)
    e = {}
    e[3] = (1, 2)
    d.update(e)
    d.pop(1)  # Numba's pop of a tuple is an Optional it cannot index
    d.setdefault(50, (9.5, 9))
    last = d.popitem()
    s = 0.0
    for k, v in d.items():
        s = s * 3 + k + v[0] * 2 + v[1]
    t = 0.0
    for v in d.values():
        t += v[0]
    c = d.copy()
    return s, t, last[0], last[1][0], len(c), c[0][1], d[3][0], 2 in d


@njit
def dict_tuple_bad():
    d = {1: (1.0, 2.0)}
    d[2] = (1.0, 2.0, 3.0)
    return len(d)


@njit
def dict_tuple_eq():
    d = {1: (1.0, 2.0)}
    return d == d
