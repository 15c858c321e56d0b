"""Sets of numbers inside kernels (Numba's set(T)): {a, b} literals, set()
refined by its first add, set(x) of a 1-D array, a list, a tuple or a set,
add, discard, remove, pop, clear, copy, update, in, len, truth, loops,
the operators and methods, sets passed to and returned from @njit
helpers, list(s) and sorted(s) (tests/e2e/run_sets_oracle.py,
tests/test_sets.c). Iteration order is not Numba's (each follows its own
hash table): the kernels sort what they return."""
import numpy as np
from numba import njit, prange


@njit
def items(s, like):
    out = np.empty(len(s), like.dtype)
    i = 0
    for v in s:
        out[i] = v
        i += 1
    return np.sort(out)


@njit
def literal(x):
    s = {1, 2, 3, 2}
    s.add(x)
    return len(s), 2 in s, x in s, 9 not in s


@njit
def from_array(a):
    return items(set(a), a)


@njit
def from_list(a):
    s = set(list(a))
    return items(s, a)


@njit
def from_tuple(x):
    s = set((x, 2, 3, x))
    return len(s), x in s


@njit
def add_discard(a):
    s = set()
    for v in a:
        s.add(v % 7)
    s.discard(3)
    s.discard(100)
    s.discard(3)
    return items(s, a)


@njit
def remove(a, k):
    s = set(a)
    s.remove(k)
    return items(s, a)


@njit
def pop_one(x):
    s = {x}
    return s.pop(), len(s)


@njit
def pop_empty(x):
    s = {x}
    s.pop()
    return s.pop()


@njit
def pop_all(a):
    s = set(a)
    out = np.empty(len(s), a.dtype)
    i = 0
    while len(s) > 0:
        out[i] = s.pop()
        i += 1
    return np.sort(out)


@njit
def clear_copy(a):
    s = set(a)
    t = s.copy()
    s.clear()
    t.add(99)
    return len(s), len(t), bool(s), bool(t), 99 in s, 99 in t


@njit
def update(a):
    s = {1}
    s.update(a)
    s.update([7, 8])
    s.update((9, 10))
    s.update({11, 1})
    return items(s, a)


@njit
def float_keys(a):
    # 0.0 and -0.0 are one item (the first kept), each NaN a new item
    # that no lookup finds
    s = {-0.0}
    s.add(0.0)
    neg = np.signbit(s.pop())
    for v in a:
        s.add(v)
    return len(s), neg, 0.0 in s, -0.0 in s, np.nan in s


@njit
def widen(x):
    s = {1, 2}
    s.add(x)
    return items(s, np.empty(0))


@njit
def contains_cast(x):
    s = {1, 2}
    return x in s, x not in s


@njit
def discard_cast(x):
    s = {1, 2}
    s.discard(x)
    return len(s)


@njit
def truth(n):
    s = set()
    s.add(n)
    if n == 0:
        s.clear()
    k = 0
    if s:
        k = 1
    return bool(s), len(s), k


@njit
def loop_break(a, stop):
    s = set(a)
    found = -1
    for v in s:
        if v == stop:
            found = v
            break
    else:
        found = -2
    return found


@njit
def add_to(s, v):
    s.add(v)


@njit
def make(n):
    s = set()
    for i in range(n):
        s.add(i * 3)
    return s


@njit
def helpers(a):
    s = set(a)
    add_to(s, 100)
    t = make(4)
    return len(s), 100 in s, items(t, a)


@njit
def ops(a, b):
    sa = set(a)
    sb = set(b)
    return (items(sa | sb, a), items(sa & sb, a), items(sa - sb, a),
            items(sa ^ sb, a))


@njit
def inplace(a, b):
    sb = set(b)
    c1 = set(a)
    c1 |= sb
    c2 = set(a)
    c2 &= sb
    c3 = set(a)
    c3 -= sb
    c4 = set(a)
    c4 ^= sb
    return items(c1, a), items(c2, a), items(c3, a), items(c4, a)


@njit
def methods(a, b):
    sa = set(a)
    sb = set(b)
    u = sa.union(sb)
    i = sa.intersection(sb)
    d = sa.difference(sb)
    x = sa.symmetric_difference(sb)
    c1 = set(a)
    c1.intersection_update(sb)
    c2 = set(a)
    c2.difference_update(sb)
    c3 = set(a)
    c3.symmetric_difference_update(sb)
    return (len(u), len(i), len(d), len(x), items(c1, a), items(c2, a),
            items(c3, a))


@njit
def compare(a, b):
    sa = set(a)
    sb = set(b)
    return (sa == sb, sa != sb, sa <= sb, sa < sb, sa >= sb, sa > sb,
            sa.issubset(sb), sa.issuperset(sb), sa.isdisjoint(sb))


@njit
def self_ops(a):
    s = set(a)
    t = s | s
    u = s - s
    s ^= s
    return len(t), len(u), len(s)


@njit
def growth(n):
    s = set()
    for i in range(n):
        s.add(i * 7919 % n)
    for i in range(0, n, 2):
        s.discard(i)
    for i in range(0, n, 4):
        s.add(i)
    total = 0
    for v in s:
        total += v
    return len(s), total, (n - 1) in s, 2 in s


@njit
def never_added():
    s = set()
    return len(s)


@njit
def remove_float(x):
    s = {1, 2}
    s.remove(x)
    return len(s)


@njit
def op_list():
    s = {1, 2}
    t = s | [3]
    return len(t)


@njit
def union_list():
    s = {1, 2}
    t = s.union([3])
    return len(t)


@njit
def mixed_sets(a):
    s = set(a)
    t = {1, 2}
    return len(s | t)


@njit
def set_2d(a):
    s = set(a)
    return len(s)


@njit
def mixed_tuple(x):
    s = set((1, x))
    return len(s)


@njit
def not_set(n):
    s = {n}
    return not s


@njit
def returns_set(n):
    return {n, 2}


@njit
def tuple_items(n):
    s = {(n, 1)}
    return len(s)


@njit
def complex_items(x):
    s = {x}
    return len(s)


@njit(parallel=True)
def in_prange(n):
    s = {0}
    for i in prange(n):
        s.add(i)
    return len(s)


@njit
def to_list(a):
    s = set(a)
    l = list(s)
    l.sort()
    return np.array(l), np.array(sorted(s)), sorted(s, reverse=True)[0]


@njit
def minmax(a):
    s = set(a)
    return min(s), max(s)


@njit
def sum_set(a):
    return sum(set(a))
