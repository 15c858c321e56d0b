# Strings as dict keys and values, and lists of strings, inside kernels,
# against Numba: tests/e2e/run_strdict_oracle.py. Each kernel returns
# strings and numbers as uf_call gives them.
from numba import njit

TEXT = ('the quick brown fox jumps over the lazy dog and the dog '
        'sleeps while a fox runs a mile \u00e9t\u00e9 \u65e5\u672c '
        '\u65e5\u672c the end')


# ---- word counting: THE typical dict program ------------------------------

@njit
def wc_counts(k):
    d = {}
    for w in TEXT.split():
        if w in d:
            d[w] = d.get(w, 0) + 1
        else:
            d[w] = 1
    return d['the'], d['fox'], d.get('cat', 0), d['\u65e5\u672c'], len(d)


@njit
def wc_sorted(k):
    d = {}
    for w in TEXT.split():
        if w in d:
            d[w] += 1
        else:
            d[w] = 1
    keys = [w for w in d]
    keys.sort()
    return ','.join(keys), ','.join(sorted(d.keys())[:3])


@njit
def wc_order(k):
    d = dict()
    d['the'] = 0
    for w in TEXT.split():
        d[w] = d.setdefault(w, 0) + k
    parts = []
    for w, c in d.items():
        parts.append(w + '=' + str(c))
    return ' '.join(parts)


@njit
def wc_most(k):
    d = {}
    for w in TEXT.split():
        if w not in d:
            d[w] = 0
        d[w] += 1
    best = ''
    n = 0
    for w in d:
        if d[w] > n:
            best = w
            n = d[w]
    total = 0
    for c in d.values():
        total += c
    return best, n, total


@njit
def wc_get_first(k):
    d = {}
    for w in TEXT.split():
        d[w] = d.get(w, 0) + 1
    return len(d)


# ---- string keys ----------------------------------------------------------

@njit
def keys_basic(k):
    d = {}
    d['a'] = 1
    d['bb'] = 2
    d['a'] += 10
    s = 'b' * k
    return d['a'], d['bb'], len(d), 'a' in d, s in d, 'c' not in d


@njit
def keys_missing(k):
    d = {'a': 1, 'b': 2}
    return d['z' * k]


@njit
def keys_literal(k):
    d = {'one': 1, 'two': 2, 'three': 3, 'two': 22}
    return len(d), d['two'], ','.join([x for x in d])


@njit
def keys_get_pop(k):
    d = {'a': 1.5, 'b': 2.5}
    x = d.get('a', 0.0)
    y = d.get('q' * k, -1.0)
    z = d.pop('b')
    w = d.pop('nope', 7.0)
    v = d.setdefault('c', 3.0)
    u = d.setdefault('a', 9.0)
    return x, y, z, w, v, u, len(d), 'b' in d


@njit
def keys_pop_missing(k):
    d = {'a': 1}
    return d.pop('b' * k)


@njit
def keys_runtime(k):
    d = {}
    for i in range(k):
        d['k' + str(i % 7)] = i
    return len(d), d['k0'], d.get('k6', -1), 'k' + str(k) in d


@njit
def keys_many(k):
    d = {}
    for i in range(k):
        d[str(i)] = i * 2
    s = 0
    for key in d:
        s += d[key]
    n = 0
    for i in range(0, k, 3):
        n += d.pop(str(i))
    return len(d), s, n, d.get(str(k - 1), -1), d.get('0', -1)


@njit
def keys_reinsert(k):
    d = {'a': 1, 'b': 2, 'c': 3}
    d.pop('b')
    d['b'] = 20 + k
    d.pop('a')
    d['d'] = 4
    d['a'] = 5
    ks = ''
    for x in d:
        ks += x
    return ks, d['b'], len(d)


@njit
def keys_nonascii(k):
    d = {}
    d['\u00e9'] = 1
    d['e'] = 2
    d['\u65e5\u672c'] = 3
    d['\U0001f600'] = 4
    d['\u00e9'] += k
    return (d['\u00e9'], d['e'], d['\u65e5\u672c'], d['\U0001f600'], len(d),
            'e\u0301' in d)


@njit
def keys_empty(k):
    d = {'': 0}
    d['' * k] += 5
    d['x'[:0]] += 1
    return d[''], len(d), '' in d


@njit
def keys_popitem(k):
    d = {'a': 1, 'b': 2}
    d['c' * k] = 3
    kk, v = d.popitem()
    return kk, v, len(d)


@njit
def keys_copy_clear(k):
    d = {'a': 1, 'b': 2}
    e = d.copy()
    d.clear()
    d['z'] = k
    return len(d), len(e), e['a'], d['z'], 'a' in d


@njit
def keys_update(k):
    d = {'a': 1, 'b': 2}
    e = {'b': 20, 'c' * k: 30}
    d.update(e)
    ks = ''
    for x, v in d.items():
        ks += x + str(v) + ';'
    return ks, len(d)


@njit
def keys_eq(k):
    d = {'a': 1, 'b': 2}
    e = {'b': 2, 'a': k}
    f = {'a': 1}
    return d == e, d != e, d == f


@njit
def keys_tuple_value(k):
    d = {}
    d['p'] = (1, 2.5)
    d['q'] = (k, 0.5)
    a, b = d['q']
    return a, b, d['p'][0], len(d)


@njit
def keys_bad_type(k):
    d = {'a': 1}
    return d[1]


@njit
def keys_int_into_str(k):
    d = {}
    d['a'] = 1
    d[2] = 3
    return len(d)


# ---- string values --------------------------------------------------------

@njit
def vals_int_keys(k):
    d = {}
    d[1] = 'one'
    d[2] = 'two'
    d[3] = 'x' * k
    d[1] = d[1] + '!'
    out = ''
    for v in d.values():
        out += v + '|'
    return out, d[1], len(d[3]), d.get(9, 'none')


@njit
def vals_str_keys(k):
    d = {'a': 'alpha', 'b': 'beta'}
    d['g'] = 'gam' + 'ma' * k
    x = d.pop('b')
    y = d.pop('zz', 'dflt')
    z = d.setdefault('a', 'no')
    w = d.setdefault('d', 'delta')
    parts = []
    for kk, v in d.items():
        parts.append(kk + ':' + v)
    return ','.join(parts), x, y, z, w


@njit
def vals_eq(k):
    d = {'a': 'x', 'b': 'y'}
    e = {'b': 'y', 'a': 'x' if k == 1 else 'z'}
    return d == e, d != e


@njit
def vals_runtime(k):
    d = {}
    for i in range(k):
        d[i % 5] = 'v' + str(i)
    out = ''
    for i in range(5):
        out += d.get(i, '-') + ' '
    return out


@njit
def vals_missing(k):
    d = {1: 'a'}
    return d[k]


@njit
def vals_popitem(k):
    d = {1: 'a', 2: 'b' * k}
    kk, v = d.popitem()
    return kk, v, len(d)


# ---- dicts of strings across calls ----------------------------------------

@njit
def _fill(d, n):
    for i in range(n):
        d['w' + str(i)] = str(i * i)


@njit
def across_fill(k):
    d = {'start': 'here'}
    _fill(d, k)
    out = d['start']
    for i in range(k):
        out += ',' + d['w' + str(i)]
    return out, len(d)


@njit
def _build(n):
    d = {}
    for i in range(n):
        d[str(i) + str(i)] = 'v' + str(i)
    return d


@njit
def across_return(k):
    d = _build(k)
    out = ''
    for kk, v in d.items():
        out += kk + '=' + v + ' '
    return out, len(d)


# ---- hash -----------------------------------------------------------------

@njit
def hash_str(k):
    return hash('abc' * k)


# ---- lists of strings -----------------------------------------------------

@njit
def lst_in(k):
    l = ['a', 'bb', 'c' + str(k)]
    return 'bb' in l, 'zz' in l, 'c1' in l, 'a' not in l


@njit
def lst_index_count(k):
    l = ['a', 'bb', 'a', '\u00e9']
    return l.index('a'), l.index('bb'), l.count('a'), l.count('q'), l.index('\u00e9')


@njit
def lst_index_missing(k):
    l = ['a', 'bb']
    return l.index('c' * k)


@njit
def lst_eq(k):
    l = ['a', 'bb']
    m = ['a', 'b' * k]
    return l == m, l != m, l == ['a'], l < m, ['a'] < l


@njit
def lst_concat(k):
    l = ['a', 'bb']
    m = l + ['c' + str(k)]
    l += ['d']
    return ','.join(m), len(m), ','.join(l)


@njit
def lst_sort(k):
    l = ['pear', 'apple', 'Zoo', '', '\u00e9', 'app', 'b' + str(k)]
    l.sort()
    return ','.join(l)


@njit
def lst_sorted(k):
    l = ['pear', 'apple', 'Zoo', '', '\u00e9', 'app']
    return ','.join(sorted(l)), ','.join(sorted(l, reverse=True)), l[0]


@njit
def lst_minmax(k):
    l = ['pear', 'apple', 'Zoo', '\u00e9', 'app' * k]
    return min(l), max(l)


@njit
def lst_mutate(k):
    l = ['a', 'b', 'c']
    l.append('d' + str(k))
    x = l.pop()
    l[0] = 'z'
    l.insert(1, 'y')
    l.remove('b')
    l.reverse()
    y = l.pop(0)
    return ','.join(l), x, y, len(l)


@njit
def lst_remove_missing(k):
    l = ['a', 'b']
    l.remove('q' * k)
    return len(l)


@njit
def lst_slice(k):
    l = ['a', 'b', 'c', 'd']
    return ','.join(l[1:3]), ','.join(l[::-1]), ','.join(l[k:])


@njit
def lst_grow(k):
    l = []
    for i in range(k):
        l.append(str(i))
    l.reverse()
    return len(l), l[0], l[-1], ','.join(l[:3])


@njit
def lst_min_empty(k):
    l = ['a']
    l.pop()
    return min(l)


@njit
def lst_split_sort(k):
    words = TEXT.split()
    words.sort(reverse=k > 0)
    m = words * 2
    return words[0], words[-1], len(m), m.count('the'), 'fox' in m


@njit
def lst_sorted_dict(k):
    d = {'pear': 1, 'apple': 2, '\u00e9t\u00e9': 3, 'Apple': 4}
    d['b' + str(k)] = 5
    return ','.join(sorted(d)), ','.join(sorted(d.keys(), reverse=True))


@njit
def keys_loop_sweep(k):
    # strings made in the loop live only in the dict: the loop's sweeps
    # must keep them
    d = {}
    for i in range(k):
        s = 'x' + str(i)
        t = s + s
        d[t] = s
        if i % 3 == 0:
            d.pop(t)
    out = 0
    for key, v in d.items():
        if key == v + v:
            out += 1
    return out, len(d)


@njit
def vals_aug(k):
    d = {'a': 'x', 'b': ''}
    for i in range(k):
        d['a'] += str(i)
        d['b'] += 'y'
    return d['a'], d['b'], len(d['a'])
