"""Dicts whose values are arrays (Numba's DictType[K, array(...)]): made by
stores, literals and setdefault, read, written through, overwritten,
popped, deleted, iterated, copied, updated, grown past rehashes, filled
by @njit helpers, with string, float and integer keys, 1-d to 3-d values
of several dtypes, and the refusals."""
import numpy as np
from numba import njit

TEXT = 'b a c a b a d e a c'
G = np.arange(4.0)


@njit
def basic(n):
    d = {}
    d[1] = np.zeros(n)
    return d[1].sum()


@njit
def basic_fill(n):
    d = {}
    d[1] = np.arange(n) * 1.5
    d[2] = np.ones(n)
    return d[1] + d[2]


@njit
def group_rows(a, keys):
    # rows of a summed by key: the typical grouping of a dict of arrays
    d = {}
    for i in range(a.shape[0]):
        k = keys[i]
        if k not in d:
            d[k] = np.zeros(a.shape[1])
        acc = d[k]
        acc += a[i]
    out = np.zeros((len(d), a.shape[1]))
    j = 0
    for k, v in d.items():
        out[j] = v * k
        j += 1
    return out


@njit
def group_setdefault(a, keys):
    d = {}
    d[0] = np.zeros(a.shape[1])  # Numba's setdefault needs a typed dict
    for i in range(a.shape[0]):
        x = d.setdefault(keys[i] % 3, np.zeros(a.shape[1]))
        x += a[i]
    out = np.zeros(3)
    for k in d:
        out[k] = d[k].sum()
    return out


@njit
def group_augassign(a, keys):
    # d[k] += row: in place, then stored back (the same buffer)
    d = {}
    for k in range(4):
        d[k] = np.zeros(a.shape[1])
    for i in range(a.shape[0]):
        d[keys[i] % 4] += a[i]
    return d[0] + 10 * d[1] + 100 * d[2] + 1000 * d[3]


@njit
def group_indices(keys):
    # indices per key: a count pass, then arrays filled
    counts = {}
    for k in keys:
        if k in counts:
            counts[k] += 1
        else:
            counts[k] = 1
    idx = {}
    fill = {}
    for k, c in counts.items():
        idx[k] = np.empty(c, np.int64)
        fill[k] = 0
    for i in range(keys.shape[0]):
        k = keys[i]
        idx[k][fill[k]] = i
        fill[k] += 1
    out = np.empty(keys.shape[0], np.int64)
    j = 0
    for k in sorted(idx.keys()):
        v = idx[k]
        out[j:j + v.shape[0]] = v
        j += v.shape[0]
    return out


@njit
def overwrite(n):
    # each store replaces the array; the old one is no longer seen
    d = {}
    for i in range(n):
        d[i % 3] = np.full(100, float(i))
    return d[0].sum() + 2 * d[1].sum() + 3 * d[2].sum(), len(d)


@njit
def write_through(n):
    d = {}
    d[1] = np.zeros(n)
    d[1][0] = 5.0
    d[1][2:] = 7.0
    x = d[1]
    x[1] = -1.0
    return d[1]


@njit
def same_buffer(n):
    d = {}
    d[1] = np.zeros(n)
    x = d.setdefault(1, np.ones(n))
    x[0] = 9.0
    y = d.get(1, np.ones(n))
    y[1] = 8.0
    return d[1]


@njit
def make_view(n):
    d = {}
    d[1] = np.arange(n) * 2.0
    d[2] = np.arange(n) * 3.0
    v = d[1][1:]
    d.clear()
    d[3] = np.zeros(2)
    return v


@njit
def view_outlives(n):
    # the view of a dict's value that a helper returns after the dict died
    v = make_view(n)
    w = make_view(n + 1)
    return v.sum() + w.sum() * 10


@njit
def return_value(n):
    d = {}
    for i in range(n):
        d[i] = np.full(3, float(i))
    return d[n // 2]


@njit
def pop_value(n):
    d = {}
    d[1] = np.arange(n) * 1.0
    d[2] = np.ones(n)
    x = d.pop(1)
    y = d.pop(7, np.full(n, 4.0))
    return x + y + d[2], len(d)


@njit
def pop_missing(n):
    d = {}
    d[1] = np.zeros(n)
    return d.pop(n).sum()


@njit
def popitem_value(n):
    d = {}
    for i in range(n):
        d[i] = np.full(2, i * 1.0)
    k, v = d.popitem()
    k2, v2 = d.popitem()
    return v * k + v2, len(d)


@njit
def popitem_empty(n):
    d = {}
    d[1] = np.zeros(n)
    d.popitem()
    return d.popitem()[1].sum()


@njit
def del_item(n):
    d = {}
    for i in range(n):
        d[i] = np.full(2, i * 1.0)
    del d[0]
    del d[n - 1]
    s = 0.0
    for v in d.values():
        s += v.sum()
    return s, len(d), 0 in d, 1 in d


@njit
def del_missing(n):
    d = {}
    d[1] = np.zeros(3)
    del d[n]
    return len(d)


@njit
def get_missing(n):
    d = {}
    d[1] = np.zeros(3)
    return d[n].sum()


@njit
def get_default(n):
    d = {}
    d[1] = np.ones(n)
    return d.get(1, np.zeros(n)).sum() + d.get(2, np.full(n, 3.0)).sum()


@njit
def contains_len(n):
    d = {}
    for i in range(0, n, 2):
        d[i] = np.zeros(i)
    c = 0
    for i in range(n):
        if i in d:
            c += 1
    t = 0
    if d:
        t = 1
    return c, len(d), t, 1 not in d


@njit
def iter_keys_values(n):
    d = {}
    for i in range(n):
        d[n - i] = np.arange(i + 1) * 1.0
    ks = np.empty(len(d))
    vs = np.empty(len(d))
    j = 0
    for k in d:
        ks[j] = k
        j += 1
    j = 0
    for v in d.values():
        vs[j] = v.sum()
        j += 1
    return ks, vs


@njit
def iter_modify(n):
    # values changed in place while walked
    d = {}
    for i in range(n):
        d[i] = np.full(3, i * 1.0)
    for k, v in d.items():
        v[:] = v * 2 + k
    out = np.empty(n * 3)
    for i in range(n):
        out[3 * i:3 * i + 3] = d[i]
    return out


@njit
def copy_shallow(n):
    d = {}
    d[1] = np.zeros(n)
    e = d.copy()
    e[1][0] = 7.0
    e[2] = np.ones(n)
    del d[1]
    return e[1], len(d), len(e)


@njit
def update_values(n):
    d = {}
    d[1] = np.zeros(n)
    d[2] = np.ones(n)
    e = {}
    e[2] = np.full(n, 5.0)
    e[3] = np.full(n, 6.0)
    d.update(e)
    e[3][0] = -1.0
    return d[1] + d[2] + d[3], len(d)


@njit
def values_list(n):
    d = {}
    for i in range(n):
        d[i] = np.full(2, i + 0.5)
    l = list(d.values())
    s = 0.0
    for x in l:
        s += x.sum()
    return s, len(l)


@njit
def many_keys(n):
    # 10^4 keys: rehashes move entries, the arrays stay where they are
    d = {}
    for i in range(n):
        d[i * 7] = np.full(2, float(i))
    for i in range(0, n, 2):
        del d[i * 7]
    for i in range(0, n, 4):
        d[i * 7] = np.full(2, -1.0)
    s = 0.0
    for k, v in d.items():
        s += v[0] * (k % 5) + v[1]
    return s, len(d)


@njit
def str_keys(n):
    d = {}
    d['a'] = np.zeros(n)
    for w in TEXT.split():
        x = d.setdefault(w, np.zeros(n))
        x += 1.0
    out = np.empty(len(d))
    j = 0
    for w in sorted(d.keys()):
        out[j] = d[w].sum()
        j += 1
    return out


@njit
def str_keys_missing(n):
    d = {}
    d['a'] = np.zeros(n)
    return d['b'].sum()


@njit
def float_keys(n):
    d = {}
    for i in range(n):
        d[i * 0.5] = np.full(2, i * 1.0)
    return d[1.0] + d.get(0.25, np.zeros(2)), len(d)


@njit
def float_keys_missing(n):
    d = {}
    d[1.5] = np.zeros(n)
    return d[2.5].sum()


@njit
def two_d(n):
    d = {}
    for k in range(3):
        d[k] = np.zeros((n, 2))
    for i in range(n):
        d[i % 3][i, 0] = i
        d[i % 3][i, 1] = -i
    return d[0] + d[1] * 10 + d[2] * 100


@njit
def three_d(n):
    d = {}
    d[1] = np.arange(n * 6).reshape((n, 2, 3)) * 1.0
    d[2] = np.ones((n, 2, 3))
    return (d[1] + d[2])[n - 1]


@njit
def dtypes(n):
    a = {}
    a[1] = np.arange(n)
    b = {}
    b[1] = np.arange(n) > 1
    c = {}
    c[1] = np.arange(n) * (1 + 2j)
    f = {}
    f[1] = np.ones(n, np.float32)
    return a[1].sum(), b[1].sum(), c[1].sum(), f[1].sum()


@njit
def layout_a_first(a):
    # the first store is a strided view (layout A): a C array stores too
    d = {}
    d[1] = a[::2]
    d[2] = np.zeros(3)
    d[3] = a[1:]
    return d[1].sum() + d[2].sum() + 10 * d[3].sum()


@njit
def layout_c_then_a(a):
    # the first store fixes layout C: a strided view is refused
    d = {}
    d[1] = np.zeros(3)
    d[2] = a[::2]
    return d[2].sum()


@njit
def dtype_mismatch(n):
    d = {}
    d[1] = np.zeros(n)
    d[2] = np.zeros(n, np.int64)
    return d[2].sum()


@njit
def ndim_mismatch(n):
    d = {}
    d[1] = np.zeros(n)
    d[2] = np.zeros((n, 2))
    return len(d)


@njit
def literal(n):
    d = {1: np.zeros(n), 2: np.ones(n), 3: np.arange(n) * 1.0}
    return d[1] + d[2] + d[3]


@njit
def args_stored(a, b):
    # arrays of the caller stored: writes through them are the caller's
    d = {}
    d[0] = a
    d[1] = b
    d[0][0] = 100.0
    d[2] = a + b
    return a.sum() + d[1].sum() + d[2].sum()


@njit
def fill_helper(d, n):
    for i in range(n):
        d[i] = np.full(3, float(i))


@njit
def across_fill(n):
    # a helper stores arrays it makes into the caller's dict
    d = {}
    d[-1] = np.zeros(3)
    fill_helper(d, n)
    s = 0.0
    for v in d.values():
        s += v.sum()
    return s, len(d)


@njit
def make_dict(n):
    d = {}
    for i in range(n):
        d[i] = np.arange(i + 1) * 1.0
    return d


@njit
def across_return(n):
    d = make_dict(n)
    e = make_dict(2)
    return d[n - 1].sum() + e[1].sum(), len(d)


@njit
def loop_rebuild(n):
    # a new dict of new arrays each iteration: memory stays bounded
    s = 0.0
    for i in range(n):
        d = {}
        d[0] = np.full(1000, float(i))
        d[1] = d[0] * 2
        s += d[1][0]
    return s


@njit
def loop_overwrite(n):
    d = {}
    d[0] = np.zeros(1000)
    for i in range(n):
        d[i % 2] = np.full(1000, float(i))
    return d[0][0] + d[1][0]


@njit
def clear_reinsert(n):
    d = {}
    for i in range(n):
        d[i] = np.full(2, float(i))
    d.clear()
    d[5] = np.ones(2)
    return d[5], len(d)


@njit
def dict_eq(n):
    d = {}
    d[1] = np.zeros(n)
    e = {}
    e[1] = np.zeros(n)
    return d == e


@njit
def list_value(n):
    d = {}
    d[1] = [1.0]
    d[1].append(2.0)
    return len(d[1])


@njit
def list_setdefault(n):
    d = {}
    for i in range(n):
        d.setdefault(i % 3, []).append(i)
    return len(d)


@njit
def items_list(n):
    d = {}
    d[1] = np.zeros(n)
    l = list(d.items())
    return len(l)


@njit
def setdefault_first(n):
    # Numba types setdefault only on a dict typed by a store before it
    d = {}
    x = d.setdefault(1, np.zeros(n))
    return x.sum()


@njit
def layout_f(n):
    # F arrays (transposes): a dict of array(float64, 2d, F)
    d = {}
    d[1] = np.zeros((2, n)).T
    d[2] = np.ones((2, n)).T
    return d[1] + d[2] * 2


@njit
def global_value(n):
    # a module-level array is readonly: so is the dict's value type
    d = {}
    d[1] = G
    d[2] = G[1:]
    return d[1].sum() + d[2].sum() * n


@njit
def global_write(n):
    d = {}
    d[1] = G
    d[1][0] = 5.0
    return d[1].sum()


@njit
def get_mixed_layout(a):
    # a dict of A arrays, a C default: unified
    d = {}
    d[1] = a[::2]
    return d.get(2, np.ones(3)).sum() + d.get(1, np.ones(3)).sum()


@njit
def zero_d(n):
    d = {}
    d[1] = np.arange(n * 1.0)[n - 1:n].reshape(())
    d[2] = np.zeros(n)[0:1].reshape(())
    return d[1] + d[2], len(d)


@njit
def overwrite_while_walking(n):
    # each value replaced by a new array during the walk (size unchanged)
    d = {}
    for i in range(n):
        d[i] = np.full(3, float(i))
    for k, v in d.items():
        d[k] = v + 1
        w = np.empty(100)
        w[0] = 0.0
    s = 0.0
    for v in d.values():
        s += v.sum()
    return s
