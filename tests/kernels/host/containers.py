# Container operations Numba users write, against Numba: tests/e2e/
# run_containers_oracle.py. The del statement (dict and list items, list
# slices, several targets), lists and sorted lists made from dicts, and
# what Numba refuses of them. Containers are filled with append and
# d[k] = v: Numba 0.68 fails on `del` of a literal's item (an
# AssertionError in its lowering: the literal's type carries its initial
# value). Lists come back folded into numbers or joined into strings.
from numba import njit


@njit
def ints(n):
    """[0, 1, ..., n - 1] (a list Numba can delete from)."""
    l = list()
    for i in range(n):
        l.append(i)
    return l


@njit
def fold(l):
    h = 0
    for x in l:
        h = h * 31 + x + 1
    return h


# ---- del d[k] ---------------------------------------------------------------

@njit
def del_dict_int(k):
    d = dict()
    for i in range(6):
        d[i] = i * 0.5
    del d[k]
    return len(d), d.get(k, -1.0), d.get(2, -1.0)


@njit
def del_dict_str(k):
    d = dict()
    for w in 'one two three four'.split():
        d[w] = len(w)
    key = 'two' if k == 0 else ('' if k == 1 else 'four')
    del d[key]
    return len(d), ','.join([w for w in d])


@njit
def del_dict_reinsert(n):
    d = dict()
    for i in range(n):
        d[i] = i
    for i in range(0, n, 2):
        del d[i]
    for i in range(0, n, 4):
        d[i] = -i
    s = 0
    for k, v in d.items():
        s = s * 7 + k * 3 + v
    return len(d), s


@njit
def del_dict_all(n):
    """10^4 keys deleted one by one, then the dict refilled (rehash)."""
    d = dict()
    for i in range(n):
        d[i * 7919 % 100003] = float(i)
    for i in range(n):
        del d[i * 7919 % 100003]
    e = len(d)
    for i in range(n):
        d[i] = 1.0
    return e, len(d), d[n - 1]


@njit
def del_dict_float_key(k):
    d = dict()
    d[1.5] = 1
    d[2.5] = 2
    del d[k]
    return len(d)


@njit
def del_dict_tuple_value(k):
    d = dict()
    d[1] = (1, 2.0)
    d[2] = (3, 4.0)
    del d[k]
    return len(d), d[3 - k][0]


@njit
def del_dict_str_value(k):
    d = dict()
    d[1] = 'a'
    d[2] = 'bb'
    del d[k]
    return d[3 - k]


@njit
def del_dict_in_loop(n):
    d = dict()
    for i in range(n):
        d[i] = i
    for i in range(n):
        if i % 3 != 0:
            del d[i]
    return len(d), sum([k for k in d])


# ---- del l[i] ---------------------------------------------------------------

@njit
def del_list_index(i):
    l = ints(5)
    del l[i]
    return fold(l), len(l)


@njit
def del_list_empty(i):
    l = ints(0)
    del l[i]
    return len(l)


@njit
def del_list_float(i):
    l = list()
    for k in range(4):
        l.append(k * 1.5)
    del l[i]
    return l[0] + 10.0 * l[-1], len(l)


@njit
def del_list_str(i):
    l = list()
    for w in 'a bb ccc dddd'.split():
        l.append(w)
    del l[i]
    return ','.join(l)


@njit
def del_list_tuple(i):
    l = list()
    for k in range(4):
        l.append((k, k * 2.0))
    del l[i]
    return l[0][0] + 10 * l[-1][0], len(l)


@njit
def del_list_drain(n):
    l = ints(n)
    while len(l) > 0:
        del l[len(l) // 2]
    l.append(7)
    return len(l), l[0]


# ---- del l[a:b:c] -----------------------------------------------------------

@njit
def del_slice(i, j, k):
    l = ints(10)
    del l[i:j:k]
    return fold(l), len(l)


@njit
def del_slice_forms(n):
    l = ints(n)
    del l[n - 3:]
    del l[:2]
    del l[::3]
    del l[::-2]
    del l[:]
    l.append(n)
    return len(l), l[0]


@njit
def del_slice_head(n):
    l = ints(n)
    del l[:-2]
    return fold(l), len(l)


@njit
def del_slice_big(n):
    l = ints(n)
    del l[1::2]
    del l[::-5]
    s = 0
    for x in l:
        s += x
    return len(l), s


@njit
def del_slice_str(i, j, k):
    l = list()
    for w in 'a b c d e f g'.split():
        l.append(w)
    del l[i:j:k]
    return ','.join(l)


# ---- several targets, refusals ----------------------------------------------

@njit
def del_several(k):
    d = dict()
    d[1] = 1
    d[2] = 2
    l = ints(4)
    del d[1], l[0]
    del (d[2], l[-1])
    l.append(5)
    del [l[0], l[-1]]
    return len(d), fold(l)


@njit
def del_array(a):
    del a[0]
    return a


@njit
def del_string(k):
    s = 'abc' * k
    del s[0]
    return s


@njit
def del_tuple(k):
    t = (k, k)
    del t[0]
    return k


@njit
def del_variable(k):
    x = k + 1
    del x
    return k


@njit
def del_list_float_index(k):
    l = ints(3)
    del l[1.0]
    return len(l)


# ---- lists from dicts ---------------------------------------------------------

@njit
def filled(n):
    d = dict()
    for i in range(n):
        d[i * 7 % 11] = (n - i) * 0.25
    return d


@njit
def list_keys(n):
    d = filled(n)
    a = list(d)
    b = list(d.keys())
    return fold(a), fold(b), len(a)


@njit
def list_values(n):
    d = filled(n)
    v = list(d.values())
    s = 0.0
    for i in range(len(v)):
        s += v[i] * (i + 1)
    return s, len(v)


@njit
def list_items(n):
    d = filled(n)
    it = list(d.items())
    h = 0.0
    for k, v in it:
        h = h * 3.0 + k + v
    return h, len(it)


@njit
def sorted_keys(n):
    d = filled(n)
    a = sorted(d)
    b = sorted(d, reverse=True)
    return fold(a), fold(b)


@njit
def sorted_values(n):
    d = filled(n)
    v = sorted(d.values())
    s = 0.0
    for i in range(len(v)):
        s += v[i] * (i + 1)
    return s, len(v)


@njit
def sorted_items(n):
    d = dict()
    for i in range(n):
        d[i * 7 % 11] = (i * 3) % 4
    it = sorted(d.items())
    h = 0
    for k, v in it:
        h = h * 13 + k * 5 + v
    return h


@njit
def sorted_items_by_value(n):
    d = dict()
    for i in range(n):
        d[i * 7 % 11] = (i * 3) % 4 + i * 0.001
    it = sorted(d.items(), key=lambda kv: kv[1])
    h = 0
    for k, v in it:
        h = h * 13 + k
    return h


@njit
def sorted_items_reverse(n):
    d = dict()
    for i in range(n):
        d[i % 5] = i
    it = sorted(d.items(), reverse=True)
    return it[0][0], it[0][1], it[-1][0]


@njit
def str_keys_lists(k):
    d = dict()
    for w in 'pear apple fig banana apple'.split():
        d[w] = len(w)
    a = ','.join(list(d))
    b = ','.join(sorted(d))
    c = ','.join(sorted(d.keys(), reverse=True))
    return a, b, c, len(list(d.values()))


@njit
def str_keys_items(k):
    d = dict()
    for w in 'pear apple fig'.split():
        d[w] = len(w)
    c = sorted(d.items())
    return c[0][0], c[0][1]


@njit
def str_values_lists(k):
    d = dict()
    d[3] = 'x'
    d[1] = 'abc'
    d[2] = 'ab'
    a = ','.join(list(d.values()))
    b = ','.join(sorted(d.values()))
    return a, b, sorted(d)[0]


@njit
def str_values_items(k):
    d = dict()
    d[3] = 'x'
    d[1] = 'abc'
    c = sorted(d.items(), key=lambda kv: kv[1])
    return c[0][0]


@njit
def empty_dict_lists(k):
    d = dict()
    d[1] = 1.0
    del d[1]
    return len(list(d)), len(list(d.values())), len(sorted(d.items()))


@njit
def set_from_dict(n):
    d = filled(n)
    s = set(d)
    return len(s), (3 in s), (100 in s)


@njit
def tuple_from_dict(n):
    d = filled(n)
    return tuple(d)
