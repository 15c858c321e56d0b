"""Sets of tuples of numbers, of complex numbers and of strings inside
kernels (Numba's set(T) of every key kind), and set(d) / set(d.keys()) of
dicts (tests/e2e/run_sets2_oracle.py, tests/test_sets2.c). Iteration order
is not Numba's (each follows its own hash table): the kernels sort or sum
what they return."""
import numpy as np
from numba import njit

TEXT = ('the quick brown fox jumps over the lazy dog and the dog '
        'sleeps while a fox runs a mile \u00e9t\u00e9 \u65e5\u672c '
        '\u65e5\u672c the end')


@njit
def enc2(s):
    out = np.empty(len(s), np.float64)
    i = 0
    for t in s:
        out[i] = t[0] * 1000.0 + t[1]
        i += 1
    return np.sort(out)


@njit
def encc(s):
    out = np.empty(len(s), np.float64)
    i = 0
    for z in s:
        out[i] = z.real * 1000.0 + z.imag
        i += 1
    return np.sort(out)


# ---- tuples of numbers -----------------------------------------------------

@njit
def tup_literal(n):
    s = {(n, 1), (2, 3), (n, 1)}
    s.add((2, 3))
    s.add((n, n))
    return len(s), (n, 1) in s, (9, 9) in s, (9, 9) not in s, enc2(s)


@njit
def tup_add(a, b):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    return len(s), enc2(s)


@njit
def tup_discard(a, b, k):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    s.discard((k, k))
    s.discard((k, k))
    s.discard((a[0], b[0]))
    return len(s), (a[0], b[0]) in s, enc2(s)


@njit
def tup_remove(a, b, k):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    s.remove((k, k))
    return len(s), enc2(s)


@njit
def tup_pop_all(a, b):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    n = 0
    tot = 0
    while s:
        t = s.pop()
        tot += t[0] * 7 + t[1]
        n += 1
    return n, tot, len(s)


@njit
def tup_pop_empty(n):
    s = {(n, 1)}
    s.pop()
    s.pop()
    return n


@njit
def tup_ops(a, b, c, d):
    s = set()
    t = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    for i in range(len(c)):
        t.add((c[i], d[i]))
    return (enc2(s | t), enc2(s & t), enc2(s - t), enc2(s ^ t),
            enc2(s.union(t)), enc2(s.intersection(t)),
            enc2(s.difference(t)), enc2(s.symmetric_difference(t)))


@njit
def tup_inplace(a, b, c, d):
    s = set()
    t = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    for i in range(len(c)):
        t.add((c[i], d[i]))
    u = s.copy()
    u |= t
    v = s.copy()
    v &= t
    w = s.copy()
    w -= t
    x = s.copy()
    x ^= t
    y = s.copy()
    y.update(t)
    z = s.copy()
    z.intersection_update(t)
    q = s.copy()
    q.difference_update(t)
    r = s.copy()
    r.symmetric_difference_update(t)
    return (enc2(u), enc2(v), enc2(w), enc2(x), enc2(y), enc2(z), enc2(q),
            enc2(r))


@njit
def tup_compare(a, b, c, d):
    s = set()
    t = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    for i in range(len(c)):
        t.add((c[i], d[i]))
    return (s == t, s != t, s <= t, s < t, s >= t, s > t, s.issubset(t),
            s.issuperset(t), s.isdisjoint(t), s == s.copy())


@njit
def tup_hetero(a, f):
    s = set()
    for i in range(len(a)):
        s.add((a[i], f[i]))
    return len(s), (a[0], f[0]) in s, (a[0], f[0] + 0.5) in s, enc2(s)


@njit
def tup_nested(a, b):
    s = set()
    for i in range(len(a)):
        s.add(((a[i], b[i]), a[i] + b[i]))
    tot = 0
    for t in s:
        tot += t[0][0] * 100 + t[0][1] * 10 + t[1]
    return len(s), ((a[0], b[0]), a[0] + b[0]) in s, tot


@njit
def tup_nan(x):
    s = {(x, 1.0), (x, 1.0), (2.0, x)}
    return len(s), (x, 1.0) in s, (2.0, x) in s


@njit
def tup_negzero(x):
    s = {(0.0, 1.0), (x, 1.0)}
    return len(s), (-0.0, 1.0) in s, (0.0, 1.0) in s


@njit
def tup_many(n):
    s = set()
    for i in range(n):
        s.add((i, i % 7))
    for i in range(0, n, 2):
        s.discard((i, i % 7))
    m = len(s)
    for i in range(0, n, 2):
        s.add((i, i % 7))
    tot = 0
    for t in s:
        tot += t[0] + t[1]
    return m, len(s), tot, (n - 1, (n - 1) % 7) in s, (n, 0) in s


@njit
def tup_from_list(a, b):
    lst = []
    for i in range(len(a)):
        lst.append((a[i], b[i]))
    s = set(lst)
    return len(s), enc2(s)


@njit
def tup_from_tuple(n):
    s = set(((n, 2), (3, 4), (n, 2)))
    return len(s), (n, 2) in s, enc2(s)


@njit
def tup_clear_readd(a, b):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    n0 = len(s)
    s.clear()
    n1 = len(s)
    s.add((a[0], b[0]))
    return n0, n1, len(s), (a[0], b[0]) in s, bool(s)


@njit
def tup_loop_break(a, b, k):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    found = 0
    for t in s:
        if t[0] == k:
            found = 1
            break
    else:
        found = -1
    return found


@njit
def tup_to_list(a, b):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    lst = list(s)
    tot = 0
    for t in lst:
        tot += t[0] * 3 + t[1]
    return len(lst), tot


@njit
def tup_sorted(a, b):
    s = set()
    for i in range(len(a)):
        s.add((a[i], b[i]))
    lst = sorted(s)
    out = np.empty(2 * len(lst), np.int64)
    for i in range(len(lst)):
        out[2 * i] = lst[i][0]
        out[2 * i + 1] = lst[i][1]
    return out


# ---- complex numbers -------------------------------------------------------

@njit
def cx_basic(x, y):
    z = complex(x, y)
    s = {z, 1 + 2j, z}
    s.add(1 + 2j)
    s.add(3j)
    a = len(s)
    s.discard(3j)
    s.discard(3j)
    return a, len(s), z in s, 3j in s, (1 + 2j) in s, encc(s)


@njit
def cx_from_array(a):
    s = set(a)
    return len(s), encc(s)


@njit
def cx_ops(a, b):
    s = set(a)
    t = set(b)
    u = s.copy()
    u ^= t
    return (encc(s | t), encc(s & t), encc(s - t), encc(s ^ t), encc(u),
            s <= t, s == t, s.isdisjoint(t))


@njit
def cx_pop_all(a):
    s = set(a)
    tot = 0j
    n = 0
    while len(s) > 0:
        tot += s.pop()
        n += 1
    return n, tot.real, tot.imag


@njit
def cx_remove(a, x):
    s = set(a)
    s.remove(complex(x, 0.0))
    return len(s), encc(s)


@njit
def cx_pop_empty(x):
    s = {complex(x, 1.0)}
    s.pop()
    s.pop()
    return x


@njit
def cx_nan(x):
    s = {complex(x, 1.0), complex(x, 1.0), complex(1.0, x)}
    return len(s), complex(x, 1.0) in s


@njit
def cx_negzero(x):
    s = {0j, complex(x, 0.0), complex(0.0, x)}
    return len(s), complex(-0.0, -0.0) in s


@njit
def cx64(a):
    s = set(a)
    s.add(np.complex64(1 + 1j))
    return len(s), np.complex64(1 + 1j) in s, encc(s)


@njit
def cx_many(n):
    s = set()
    for i in range(n):
        s.add(complex(i, -i))
    for i in range(0, n, 3):
        s.remove(complex(i, -i))
    tot = 0.0
    for z in s:
        tot += z.real - z.imag
    return len(s), tot


# ---- strings (sorted in each kernel: Numba cannot pass a set of strings
# to another @njit function, its lowering fails) ---------------------------

@njit
def str_literal(k):
    s = {'b', 'a', 'b'}
    s.add('c')
    s.add('a')
    n = len(s)
    s.discard('b')
    s.discard('zz')
    j0 = []
    for w in s:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    return n, len(s), 'a' in s, 'b' in s, 'q' not in s, r0


@njit
def str_words(k):
    s = set(TEXT.split())
    j0 = []
    for w in s:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    return len(s), 'fox' in s, 'cat' in s, '\u65e5\u672c' in s, r0


@njit
def str_runtime(n):
    s = set()
    for i in range(n):
        s.add(chr(97 + i % 26) + chr(97 + i % 3))
    j0 = []
    for w in s:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    return len(s), 'aa' in s, 'bd' in s, r0


@njit
def str_ops(k):
    s = set('a b c d e'.split())
    t = set('d e f g'.split())
    u = s.copy()
    u -= t
    v = s.copy()
    v.symmetric_difference_update(t)
    j0 = []
    for w in s | t:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    j1 = []
    for w in s & t:
        j1.append(w)
    r1 = '|'.join(sorted(j1))
    j2 = []
    for w in s - t:
        j2.append(w)
    r2 = '|'.join(sorted(j2))
    j3 = []
    for w in s ^ t:
        j3.append(w)
    r3 = '|'.join(sorted(j3))
    j4 = []
    for w in u:
        j4.append(w)
    r4 = '|'.join(sorted(j4))
    j5 = []
    for w in v:
        j5.append(w)
    r5 = '|'.join(sorted(j5))
    return (r0, r1, r2, r3,
            r4, r5, s <= t, s == t, s.isdisjoint(t),
            s.issuperset({'a', 'b'}))


@njit
def str_remove(k):
    s = set('x y z'.split())
    s.remove('y')
    if k:
        s.remove('y')
    j0 = []
    for w in s:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    return r0


@njit
def str_pop(k):
    s = set('p q r'.split())
    got = []
    while s:
        got.append(s.pop())
    if k:
        s.pop()
    return '|'.join(sorted(got)), len(s)


@njit
def str_many(n):
    s = set()
    for i in range(n):
        s.add(chr(0x4e00 + i))
    for i in range(0, n, 2):
        s.discard(chr(0x4e00 + i))
    m = len(s)
    for i in range(0, n, 2):
        s.add(chr(0x4e00 + i))
    tot = 0
    for w in s:
        tot += ord(w) - 0x4e00
    return m, len(s), tot, chr(0x4e00 + n - 1) in s, chr(0x4e00 + n) in s


@njit
def str_loop(k):
    s = set(TEXT.split())
    n = 0
    tot = 0
    for w in s:
        n += 1
        tot += len(w)
    return n, tot


@njit
def str_clear_copy(k):
    s = set(TEXT.split())
    c = s.copy()
    s.clear()
    s.add('only')
    j0 = []
    for w in s:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    return len(s), len(c), c == set(TEXT.split()), r0


# ---- set(d), set(d.keys()) -------------------------------------------------

@njit
def dict_int_keys(a):
    d = {}
    for v in a:
        d[v] = v * 0.5
    s = set(d)
    t = set(d.keys())
    return len(s), s == t, np.sort(np.array(list(s)))


@njit
def dict_float_keys(a):
    d = {}
    for v in a:
        d[v] = 1
    s = set(d)
    return len(s), 0.0 in s, np.sort(np.array(list(s)))


@njit
def dict_str_keys(k):
    d = {}
    for w in TEXT.split():
        d[w] = len(w)
    s = set(d)
    t = set(d.keys())
    j0 = []
    for w in s:
        j0.append(w)
    r0 = '|'.join(sorted(j0))
    return len(s), s == t, r0


# ---- refusals --------------------------------------------------------------

@njit
def dict_values(k):
    d = {1: 2, 3: 4}
    s = set(d.values())
    return len(s)


@njit
def min_tuples(k):
    s = {(k, 1), (2, 3)}
    return min(s)


@njit
def tup_list_item(k):
    s = {(k, np.zeros(2))}
    return len(s)


@njit
def tup_unify(c):
    if c:
        s = {(c, 2)}
    else:
        s = {(1.5, 2.0)}
    return len(s)
