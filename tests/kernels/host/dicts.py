"""Typed dicts of numbers inside kernels (Numba's DictType[K, V]): {} and
dict() refined by the first store, {k: v} literals, d[k] / d[k] = v,
in, len, truth, get, pop, setdefault, popitem, clear, copy, loops over
d, d.keys(), d.values(), d.items() in insertion order, dicts passed to
and returned from @njit helpers (tests/e2e/run_dicts_oracle.py,
tests/test_dicts.c)."""
import numpy as np
from numba import njit


@njit
def literal(x):
    d = {1: 2.5, 3: x, 1: -1.0}
    return len(d), d[1], d[3]


@njit
def count(a):
    d = {}
    for v in a:  # typed by this store (Numba types no get() before one)
        d[v] = 0
    for v in a:
        d[v] = d.get(v, 0) + 1
    keys = np.empty(len(d), a.dtype)
    counts = np.empty(len(d), np.int64)
    i = 0
    for k, c in d.items():
        keys[i] = k
        counts[i] = c
        i += 1
    return keys, counts


@njit
def getitem(a, k):
    d = dict()
    for i in range(a.shape[0]):
        d[a[i]] = i
    return d[k]


@njit
def contains(a, k):
    d = {}
    for v in a:
        d[v] = v * 2
    return k in d, k not in d, len(d)


@njit
def float_keys(a):
    # -0.0 and 0.0 are two keys, each NaN a new key found by no lookup
    d = {np.inf: 0.0}
    for v in a:
        d[v] = d.get(v, 0.0) + 1.0
    return len(d), d.get(0.0, -1.0), d.get(-0.0, -1.0), d.get(np.nan, -1.0)


@njit
def pop(a, k):
    d = {}
    for i in range(a.shape[0]):
        d[a[i]] = float(i)
    x = d.pop(k, -1.0)
    y = d.pop(a[0])
    return x, y, len(d), a[0] in d


@njit
def pop_missing(k):
    d = {1: 2}
    return d.pop(k)


@njit
def setdefault(a):
    d = {a[0]: 0}
    for v in a:
        d.setdefault(v, len(d))
    out = np.empty(len(d), np.int64)
    for k in d:
        out[d[k]] = k
    return out


@njit
def popitem(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    k, v = d.popitem()
    return k, v, len(d)


@njit
def clear_copy(a):
    d = {}
    for v in a:
        d[v] = 1.5
    c = d.copy()
    d.clear()
    c[100] = 2.0
    return len(d), len(c), c[100], 100 in d


@njit
def views(a):
    d = {}
    for i in range(a.shape[0]):
        d[a[i]] = a[i] * 0.5
    s = 0.0
    for k in d.keys():
        s = s * 3.0 + k
    for v in d.values():
        s = s * 3.0 + v
    return s


@njit
def delete_reinsert(n):
    # deletions then reinsertions keep insertion order, growth rehashes
    d = {}
    for i in range(n):
        d[i] = i
    for i in range(0, n, 2):
        d.pop(i)
    for i in range(0, n, 4):
        d[i] = -i
    t = 0
    j = 0
    for k, v in d.items():
        t += (j + 1) * (k + 2 * v)
        j += 1
    return len(d), t


@njit
def complex_values(a):
    d = {}
    for i in range(a.shape[0]):
        d[i] = a[i]
    d[0] = d[0] * 1j
    return d[0], d.get(7, 2j)


@njit
def narrow_keys(a):
    d = {np.int8(1): np.float32(0.5)}
    for v in a:
        d[v] = v
    return len(d), d[1], d.get(np.int64(300), -1.0), d.pop(0, -1.0)


@njit
def bool_keys(a):
    d = {True: 1}
    for v in a:
        d[v] = d.get(v, 0) + 10
    return len(d), d[True], d.get(False, -1)


@njit
def truth(a):
    d = {}
    for v in a:
        d[v] = 1
    return 1 if d else 0


@njit
def mutate_in_loop(n):
    d = {1: 2}
    m = 0
    for k in d:
        d[k + n] = 3
        m += 1
    return len(d), m


@njit
def fill(d, a):
    for v in a:
        d[v] = d.get(v, 0.0) + v
    return d


@njit
def helper_dict(a):
    d = {0.0: 0.0}
    d = fill(d, a)
    e = fill(d.copy(), a)
    return len(d), d[a[0]], e[a[0]]


@njit
def comprehension(a):
    d = {v: i * 0.5 for i, v in enumerate(a) if v > 0}
    return len(d), d.get(a[0], -1.0)


@njit
def never_stored():
    d = {}
    return len(d)


@njit
def float_key_lookup(k):
    d = {1: 2.0}
    return d[k]


@njit
def mixed_literal():
    d = {1: 2, 3: 4.5}
    return d[1]


@njit
def value_narrowing(x):
    d = {1: 2}
    d[2] = x
    return d[2]


@njit
def get_no_default(k):
    d = {1: 2}
    return d.get(k)


@njit
def returns_dict(n):
    d = {n: 1}
    return d


@njit
def not_dict(n):
    d = {n: 1}
    return not d


@njit
def array_key(a):
    d = {}
    d[a] = 1
    return len(d)


@njit
def augmented(a, k):
    d = {0: 1.5}
    for v in a:
        d[v % 4] = d.get(v % 4, 0.0)
        d[v % 4] += v * 0.5
    d[k] *= 2.0
    return d[0], d[1], len(d)
