# Loops over numba.literal_unroll (compiler/front/unroll.c,
# compiler/types/infer_unroll.c): the body typed once per item, break,
# continue and else as in any loop, variables joined across the items;
# checked against Numba by tests/e2e/run_unroll_oracle.py.
import numpy as np
import numba
from numba import njit, literal_unroll
from numba import literal_unroll as lu
from numba import types
from numba.core.types import unicode_type as ut2
from numba.typed import Dict, List
from numba.types import float64, int64, unicode_type


@njit
def _sum(t):
    s = 0.0
    for v in literal_unroll(t):
        s += v
    return s


@njit
def _count_str(t):
    n = 0
    for v in literal_unroll(t):
        if isinstance(v, str):
            n += len(v)
        else:
            n += 1
    return n


@njit
def het_arg(a):
    return _sum((1, a[0], True, np.float32(a[1])))


@njit
def het_local(a):
    t = (1, a[0], 2.5)
    s = 0
    for v in literal_unroll(t):
        s += v
    return s


@njit
def display_mixed(a):
    n = 0.0
    for v in literal_unroll((1, 'abc', a[0], 'de')):
        if isinstance(v, str):
            n += len(v)
        else:
            n += v
    return n


@njit
def str_arg(a):
    return _count_str(('ab', 3, 'cde', a[0]))


@njit
def homo_display(a):
    s = 0
    for v in literal_unroll((1, 2, 3)):
        s += v
    return s


@njit
def homo_arg(a):
    return _sum((a[0], a[1], a[2]))


@njit
def strings(a):
    out = ''
    for v in lu(('a', 'bc', 'd')):
        out += v
    return len(out) * 10 + (out == 'abcd')


@njit
def list_display(a):
    s = 0.0
    for v in literal_unroll([1, 2.5, 3]):
        s += v
    return s


@njit
def list_var(a):
    ls = [1, 2, 3]
    s = 0
    for v in literal_unroll(ls):
        s += v
    return s


@njit
def dict_var(a):
    d = {1: 2.5, 4: 1.0}
    s = 0.0
    for v in literal_unroll(d):
        s += v
    return s


@njit
def range_(a):
    s = 0
    for v in literal_unroll(range(4)):
        s += v
    return s


@njit
def break_(a):
    s = 0.0
    for v in literal_unroll((1, 2.5, 3, a[0])):
        if v == 3:
            break
        s += v
    return s


@njit
def continue_(a):
    s = 0.0
    for v in literal_unroll((1, 2.5, 3, a[0])):
        if v == 2.5:
            continue
        s += v
    return s


@njit
def else_(a):
    s = 0
    for v in literal_unroll((1, 2)):
        s += v
    else:
        s += 100
    for w in literal_unroll((1, 'x', 2)):
        if isinstance(w, str):
            break
        s += w
    else:
        s += 1000
    return s


@njit
def last_value(a):
    for v in literal_unroll((1, a[0])):
        pass
    return v


@njit
def in_loops(a):
    s = 0.0
    for k in range(3):
        for v in literal_unroll((1, a[0], 'x', 4)):
            if isinstance(v, str):
                break
            if k == 1:
                continue
            s += v * k
    j = 0
    while j < 2:
        for v in literal_unroll((1, 2.5)):
            s += v
        j += 1
    return s


@njit
def loops_inside(a):
    s = 0.0
    for v in literal_unroll((1, a[0])):
        for k in range(3):
            if k == 1:
                continue
            if k == 2:
                break
            s += v
        i = 0
        while i < 2:
            s += v
            i += 1
    return s


@njit
def arrays(a):
    s = 0.0
    for x in literal_unroll((a, a[:2] * 2, np.arange(3), a.reshape(1, -1))):
        s += x.sum() + x.ndim
    return s


@njit
def index_literal(a):
    t = (1, a[0], 'abc')
    s = 0.0
    for i in literal_unroll((0, 1)):
        s += t[i]
    return s + len(t[2])


@njit
def assigned_in_body(a):
    s = 0.0
    for v in literal_unroll((1, a[0])):
        v = v * 2
        s += v
    return s


@njit
def defined_in_body(a):
    for v in literal_unroll((1, a[0])):
        x = v * 2
    return x


@njit
def two_loops(a):
    t = (1, a[0])
    s = 0.0
    for v in literal_unroll(t):
        s += v
    for v in literal_unroll(t):
        s += v * 10
    return s


@njit
def tuples_items(a):
    s = 0.0
    for p in literal_unroll(((1, 2.5), (3, a[0], 5))):
        s += p[0] + len(p)
    return s


@njit
def complex_(a):
    z = 0
    for v in literal_unroll((1, 2j, a[0])):
        z += v
    return z


@njit
def long_homo(a):
    return _sum((1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0,
                 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0,
                 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0,
                 31.0, 32.0, 33.0, 34.0, 35.0, a[0]))


@njit
def long_het(a):
    return _sum((1, 2.5) * 20)


@njit
def attr_homo(a):
    s = 0.0
    for v in numba.literal_unroll((1.0, a[0])):
        s += v
    return s


@njit
def attr_het(a):
    s = 0.0
    for v in numba.literal_unroll((1, a[0])):
        s += v
    return s


@njit
def call_outside(a):
    t = literal_unroll((1, a[0]))
    return t[0] + t[1]


@njit
def via_variable(a):
    x = literal_unroll((1, a[0]))
    s = 0.0
    for v in x:
        s += v
    return s


# refused, as Numba refuses them


@njit
def nested(a):
    s = 0.0
    for v in literal_unroll((1, 2.5)):
        for w in literal_unroll((3, a[0])):
            s += v * w
    return s


@njit
def returns(a):
    for v in literal_unroll((1, 2.5, 3)):
        if v > a[0]:
            return v
    return -1.0


@njit
def tuple_target(a):
    s = 0.0
    for x, y in literal_unroll(((1, 2.5), (3, a[0]))):
        s += x * y
    return s


@njit
def array_arg(a):
    return _sum(a)


@njit
def string_(a):
    n = 0
    for c in literal_unroll('abc'):
        n += 1
    return n


@njit
def empty(a):
    n = 0
    for v in literal_unroll(()):
        n += 1
    return n


@njit
def join_refused(a):
    r = 0
    for v in literal_unroll((1, 'a', a[0])):
        r = v
    return r


@njit
def last_value_refused(a):
    for v in literal_unroll((1, 'a')):
        pass
    return v


@njit
def join_unused(a):
    r = 0
    for v in literal_unroll((1, 'a', a[0])):
        r = v
    return 7


# types imported from numba.types / numba.core.types (issue 18)


@njit
def typed_str_list(a):
    ls = List.empty_list(unicode_type)
    ls.append('ab')
    m = List.empty_list(ut2)
    m.append('c')
    return len(ls) + len(m) + len(ls[0])


@njit
def typed_arr_list(a):
    ls = List.empty_list(float64[:])
    ls.append(a)
    m = List.empty_list(types.float64[:])
    m.append(a * 2)
    return ls[0][1] + m[0][1]


@njit
def typed_str_dict(a):
    d = Dict.empty(key_type=unicode_type, value_type=int64)
    d['x'] = 3
    e = Dict.empty(key_type=types.unicode_type, value_type=types.float64)
    e['y'] = a[0]
    return d['x'] + e['y']


@njit(int64(float64[:]))
def sig_objects(a):
    return len(a)


@njit(types.float64(types.float64[:]))
def sig_types(a):
    return a[0] * 2
