"""Lists of lists (Numba's list(list(T)), any depth), nested list
comprehensions, np.array of a list of lists (2-D and 3-D arrays), and
lists of tuples holding strings: made, indexed, mutated through l[i],
aliased, iterated, passed to and returned from @njit functions."""
import numpy as np
from numba import njit


@njit
def table(n):
    # Numba's example: [[0, 0, 0], [0, 1, 2], [0, 2, 4]] for n = 3
    return np.array([[i * j for j in range(3)] for i in range(n)])


@njit
def literal_append():
    l = [[1.0, 2.0], [3.0]]
    l[0].append(5.0)
    return len(l[0]), l[0][2], len(l[1])


@njit
def triangle(n):
    # inner lengths differ: a ragged list read item by item
    l = [[j for j in range(i)] for i in range(n)]
    total = 0
    for row in l:
        for x in row:
            total += x
    return total, len(l), len(l[n - 1]) if n > 0 else -1


@njit
def with_conditions(n):
    l = [[j for j in range(i) if j % 2 == 0] for i in range(n) if i != 2]
    out = np.zeros(len(l), dtype=np.int64)
    for k in range(len(l)):
        out[k] = len(l[k]) * 100 + sum(l[k])
    return out


@njit
def depth3(n):
    return np.array([[[i + 10 * j + 100 * k for k in range(2)]
                      for j in range(n)] for i in range(3)])


@njit
def depth3_mutate(n):
    l = [[[float(k)] for k in range(2)] for j in range(n)]
    l[0][1].append(7.5)
    l[n - 1][0][0] = -1.0
    return len(l[0][1]), l[0][1][1], l[n - 1][0][0], len(l)


@njit
def set_items(n):
    l = [[0.0, 0.0, 0.0] for i in range(n)]
    for i in range(n):
        for j in range(3):
            l[i][j] = i + j / 10.0
    return np.array(l)


@njit
def alias_shared():
    # one inner list twice: a change through either is seen by both
    a = [1, 2]
    l = [a, a]
    a.append(3)
    l[0].append(4)
    return len(l[1]), len(a), l[1][3]


@njit
def alias_taken(v):
    l = [[1], [2]]
    a = l[0]
    a.append(v)
    b = l[1]
    b[0] = v * 2
    return len(l[0]), l[0][1], l[1][0]


@njit
def empty_inner(n):
    return np.array([[1.0 for j in range(0)] for i in range(n)])


@njit
def empty_levels(n):
    # an empty last level is a dimension of 0; an empty outer list is
    # Numba's IndexError (it reads l[0] for the shape)
    l = [[1.0], [2.0]]
    for i in range(n):
        l.pop()
    if len(l) > 0:
        l[0].pop()
        if len(l) > 1:
            l[1].pop()
    return np.array(l)


@njit
def empty_outer(n):
    l = [[1.0]]
    l.clear()
    for i in range(n):
        l.append([float(i)])
    return len(l)


@njit
def ragged(n):
    # [1.0, 2.0] sets the shape: a second row of another length raises
    l = [[1.0, 2.0]]
    for i in range(n):
        l.append([float(i) for j in range(i + 2)])
    return np.array(l)


@njit
def ragged_short():
    return np.array([[1, 2, 3], [4, 5]])


@njit
def many(n):
    # n inner lists, each appended to inside the loop that made it
    l = []
    for i in range(n):
        row = [i]
        row.append(2 * i)
        l.append(row)
    total = 0
    for i in range(n):
        total += l[i][1] - l[i][0]
    return total, len(l)


@njit
def rebound_in_loop(n):
    # the inner variable is rebound each iteration; the outer list keeps
    # every inner list made
    outer = []
    for i in range(n):
        inner = [i, i + 1]
        outer.append(inner)
        inner = [-1]
        inner.append(-2)
    return np.array(outer)


@njit
def pop_inner():
    l = [[1, 2], [3]]
    x = l.pop()
    x.append(5)
    y = l.pop(0)
    return len(l), x[1], y[1]


@njit
def del_inner():
    l = [[1, 2], [3], [4, 5, 6]]
    del l[0]
    l.insert(1, [9])
    return len(l), l[0][0], l[1][0], len(l[2])


@njit
def overwrite():
    l = [[1, 2], [3]]
    l[0] = [9, 9, 9]
    return len(l[0]), l[0][2], l[1][0]


@njit
def reversed_copy():
    l = [[1], [2, 2], [3, 3, 3]]
    m = l.copy()
    l.reverse()
    m[0].append(7)
    return len(l[0]), len(l[2]), len(m[0]), l[2][1]


@njit
def outer_index(i):
    l = [[1.0, 2.0], [3.0]]
    return l[i][0]


@njit
def inner_index(i):
    l = [[1.0, 2.0], [3.0]]
    return l[1][i]


@njit
def inner_store(i):
    l = [[1.0, 2.0], [3.0]]
    l[0][i] = 5.0
    return l[0][0] + l[0][1]


@njit
def pop_empty_inner():
    l = [[1.0], [2.0]]
    l[1].pop()
    return l[1].pop()


@njit
def as_float32(n):
    l = [[1, 2]]
    for i in range(n):
        l.append([i, i])
    return np.array(l, dtype=np.float32)


@njit
def comprehension_as_float32(n):
    # Numba's arraycall rewrite fails typing this one; NumPy's answer
    return np.array([[i, i + 1] for i in range(n)], dtype=np.float32)


@njit
def ints_as_float(n):
    return np.array([[i * 2 for i in range(n)]], dtype=np.float64)


@njit
def bools(n):
    return np.array([[i % 2 == 0 for i in range(n)] for j in range(2)])


@njit
def literal2d():
    return np.array([[1, 2], [3, 4]])


@njit
def literal2d_float():
    return np.array([[1.5, 2.0], [3.0, 4.25], [5.0, 6.0]])


@njit
def complex2d(n):
    return np.array([[complex(i, j) for j in range(2)] for i in range(n)])


@njit
def make_rows(n):
    return [[float(i + j) for j in range(i + 1)] for i in range(n)]


@njit
def add_row(l, v):
    l.append([v, v])


@njit
def through_calls(n):
    l = make_rows(n)
    add_row(l, -1.0)
    total = 0.0
    for row in l:
        total += sum(row)
    return total, len(l), len(l[n])


@njit
def calls_in_loop(n):
    total = 0.0
    for k in range(n):
        l = make_rows(k + 1)
        total += l[k][k]
    return total


@njit
def sums_in_comprehension(n):
    # a comprehension inside a call argument inside a comprehension
    return np.array([sum([j for j in range(i)]) for i in range(n)])


@njit
def lens_in_comprehension(n):
    return np.array([len([j for j in range(i) if j > 1]) for i in range(n)])


@njit
def strings_nested():
    l = [['a', 'b'], ['cd']]
    l[1].append('e')
    s = ''
    for row in l:
        for x in row:
            s += x
    return s


@njit
def arrays_nested(n):
    l = [[np.zeros(n)], [np.ones(n), np.arange(n) * 1.0]]
    l[0].append(np.full(n, 2.0))
    total = 0.0
    for row in l:
        for a in row:
            total += a.sum()
    return total, len(l[0])


@njit
def dict_items_str():
    d = {'a': 1, 'b': 2}
    l = list(d.items())
    k, v = l[1]
    return len(l), k + l[0][0], v


@njit
def dict_items_str_values(n):
    d = {1: 'a', 2: 'bb'}
    d[n] = 'c' * n
    l = list(d.items())
    s = ''
    for k, v in l:
        s += v + '|'
    return s, len(l)


@njit
def tuples_with_strings(n):
    l = [('a', 1), ('bc', 2)]
    for i in range(n):
        l.append(('k' + 'z' * i, i * 10))
    s = ''
    total = 0
    for t in l:
        s += t[0]
        total += t[1]
    return s, total, len(l)


@njit
def tuples_with_strings_set(n):
    l = [('a', 1.5)]
    l[0] = ('b' * n, 2.5)
    t = l.pop()
    return t[0], t[1], len(l)


@njit
def bad_empty_append():
    l = [[1.0]]
    l.append([])
    return len(l)


@njit
def bad_unify():
    l = [[1, 2], [2.5]]
    return len(l)


@njit
def returned(n):
    return [[i] for i in range(n)]


@njit
def sorted_tuples_str(n):
    l = [('b', 2), ('a', 3), ('a', 1), ('', n)]
    l.sort()
    m = sorted(l, reverse=True)
    return l[0][1], l[1][1], l[3][0], m[0][0], m[3][1]


@njit
def sorted_dict_items(n):
    d = {'pear': 1, 'fig': 2}
    d['b' * n] = n
    s = ''
    for t in sorted(d.items()):
        s += t[0] + str(t[1])
    return s


@njit
def sorted_by_string_key(n):
    # string keys (a key= lambda returning str) ordered by code point
    l = sorted(['pear', 'fig', 'b' * n, 'apple'], key=lambda s: s[1:] + s)
    out = ''
    for s in l:
        out += s + ','
    return out


@njit
def rows_by_append(n):
    # `row = []` refined by its appends before it is appended itself
    rows = []
    for i in range(n):
        row = []
        for j in range(i + 1):
            row.append(j * 1.5)
        rows.append(row)
    t = 0.0
    for r in rows:
        t += r[-1]
    return t, len(rows)


@njit
def refined_after_append():
    l = [[1.0]]
    x = []
    l.append(x)
    x.append(2.0)
    return len(l[1]), l[1][0]


@njit
def strings_in_loop(n):
    # strings made in a loop survive its sweeps inside inner lists
    outer = []
    for i in range(n):
        s = 'x' * (i % 4)
        outer.append([s, s + 'y'])
        s = 'q'
    out = ''
    for row in outer:
        out += row[0] + row[1] + '.'
    return out, len(outer)


@njit
def tuples_in_loop(n):
    # tuples holding strings made in a loop survive its sweeps
    l = []
    for i in range(n):
        l.append(('k' * (i % 3) + 'v', i))
    out = ''
    for t in l:
        out += t[0] + str(t[1])
    return len(l), out
