"""Lists whose items are arrays (Numba's list(array(...))): made by
append, literals and comprehensions, read, written, iterated, popped,
inserted, extended, copied, reversed, passed to and returned from @njit
functions, and the NumPy functions that take or return them."""
import numpy as np
from numba import njit


@njit
def pieces(a):
    # views of a appended: list(array(float64, 1d, A)), items summed back
    parts = []
    for i in range(0, a.shape[0], 2):
        parts.append(a[i:i + 2])
    out = np.zeros(len(parts))
    for k in range(len(parts)):
        out[k] = parts[k].sum()
    return out


@njit
def survive(n):
    # each array outlives the variable that held it: the list keeps it
    l = []
    for i in range(n):
        t = np.full(3, float(i))
        l.append(t)
        t = np.zeros(5)
    out = np.empty(n * 3)
    k = 0
    for x in l:
        for j in range(x.shape[0]):
            out[k] = x[j]
            k += 1
    return out


@njit
def literal(a, b):
    # [a, b[::2]]: layouts C and A unify to A
    l = [a, b[::2]]
    l[0] = l[0] * 2.0
    return l[0].sum() + l[1].sum() + l[-1][0] + len(l)


@njit
def methods(a):
    l = [a, a + 1.0]
    l.append(np.ones(a.shape[0]))
    x = l.pop()
    l.insert(0, x * 3.0)
    l.insert(-100, a * 0.0)
    l.extend([a * 5.0, a * 6.0])
    c = l.copy()
    l.reverse()
    y = l.pop(1)
    l.clear()
    l.append(y)
    out = np.empty(len(c) + len(l))
    for k in range(len(c)):
        out[k] = c[k].sum()
    out[len(c)] = l[0].sum()
    return out


@njit
def comprehension(a, n):
    zs = [np.zeros(3) for _ in range(n)]
    l = [a * 2 for _ in range(2)]
    m = [x + 1.0 for x in l]
    s = 0.0
    for z in zs:
        s += z.sum() + z.shape[0]
    for x in m:
        s += x.sum()
    return s


@njit
def grow(l, v):
    # a callee appends a new array to the caller's list and returns a list
    l.append(v * 10.0)
    r = [np.arange(3.0)]
    r.append(l[0])
    return r


@njit
def through_calls(a):
    l = [a]
    r = grow(l, a)
    s = 0.0
    for x in l:
        s += x.sum()
    for x in r:
        s += x.sum()
    return s + len(l) * 100 + len(r) * 1000


@njit
def rows2d(a):
    # 2-D items; a row of each read back
    l = [a, a.T.copy(), np.ones((2, 2))]
    return l[0][0, 0] + l[1][1, 0] + l[2].sum() + l[1].shape[0]


@njit
def index_error(a, i):
    l = [a, a]
    return l[i].sum()


@njit
def set_error(a, i):
    l = [a, a]
    l[i] = a
    return 0.0


@njit
def pop_empty(a):
    l = [a]
    l.pop()
    l.pop()
    return 0.0


@njit
def bad_unify(a):
    l = [a]
    l.append(a.astype(np.float32))
    return len(l)


@njit
def bad_ndim(a):
    l = [a]
    l.append(np.zeros((2, 2)))
    return len(l)


@njit
def bad_sum(a):
    l = [a, a]
    return sum(l)


@njit
def bad_array(a):
    l = [a, a]
    return np.array(l)


@njit
def returned(a):
    return [a, a]


@njit
def split_n(a, n):
    # a run-time section count: Numba's list of views
    parts = np.split(a, n)
    out = np.zeros(len(parts) * 2)
    for i in range(len(parts)):
        out[2 * i] = parts[i].sum()
        out[2 * i + 1] = parts[i].shape[0]
    return out


@njit
def array_split_n(a, n, ax):
    parts = np.array_split(a, n, axis=ax)
    parts[0][...] = -1.0
    s = np.zeros(len(parts) + 1)
    for i, p in enumerate(parts):
        s[i] = p.sum() + p.shape[ax] * 1000
    s[-1] = a.sum()
    return s


@njit
def hsplit_n(a, n):
    parts = np.hsplit(a, n)
    return np.concatenate((parts[0], parts[-1]))


@njit
def cat_list(a):
    l = [a, a]
    return np.concatenate(l)


@njit
def stack_list(a):
    l = [a, a]
    return np.stack(l)


@njit
def vstack_list(a):
    l = [a, a]
    return np.vstack(l)


@njit
def points(a):
    # a list of homogeneous tuples: append, unpacking for, l[i][0]
    pts = []
    for i in range(a.shape[0]):
        pts.append((a[i], a[i] * 2))
    s = 0.0
    for x, y in pts:
        s += x * y
    out = np.array(pts)
    out[0, 0] += s + len(pts)
    return out


@njit
def mixed_tuples(a):
    # items (int64, int64) then (float64, int64): Tuple(float64, int64)
    pts = [(1, 2), (3, 4)]
    pts.append((a[0], 6))
    pts[0] = (np.int32(7), np.int8(1))
    p = pts.pop(1)
    pts.insert(0, p)
    q = pts.copy()
    q.reverse()
    q.extend(pts)
    r = np.array(q)
    r[0, 0] += q[1][0] * 100 + len(q)
    return r


@njit
def tuples_as(a):
    pts = [(np.int32(1), np.int8(2))]
    pts.append((np.int32(a.shape[0]), np.int8(-3)))
    return np.asarray(pts), np.array(pts, dtype=np.float32)


@njit
def tuples_empty(a):
    pts = [(1.0, 2.0)]
    pts.clear()
    return np.array(pts)


@njit
def tuples_bad(a):
    pts = [(1, 2)]
    pts.append((5, 6, 7))
    return len(pts)
