"""numba.typed.List and numba.typed.Dict inside kernels
(tests/e2e/run_typedcont_oracle.py)."""
import numpy as np
import numba
from numba import njit, types, typed
from numba.typed import List, Dict
from numba.typed import List as TL


@njit
def lst_append(n):
    l = List()  # like []: typed by the first append
    for i in range(n):
        l.append(i * 0.5)
    return l[-1], len(l)


@njit
def lst_empty_int(n):
    l = List.empty_list(types.int64)
    l.append(n)
    return l[0]


@njit
def lst_iterable(n):
    l = List([1, 2, 3])
    return len(l) + n


@njit
def dict_str_float(n):
    d = Dict.empty(key_type=types.unicode_type, value_type=types.float64)
    d['a'] = n
    return d['a']


@njit
def dict_plain(n):
    d = Dict()
    d[1] = 2.0
    return d[1]


@njit
def dict_positional(n):
    d = Dict.empty(types.int64, types.float64)
    d[1] = n
    return d[1]


@njit
def lst_empty_len(n):
    l = List.empty_list(types.float64)
    return len(l)


@njit
def dict_empty_len(n):
    d = Dict.empty(types.int64, types.int64)
    return len(d)


@njit
def lst_declared_float(n):
    l = List.empty_list(types.float64)
    for i in range(n):
        l.append(i)  # int64 stored as float64
    s = 0.0
    for x in l:
        s += x
    return s, l[-1]


@njit
def lst_declared_int32(n):
    l = List.empty_list(types.int32)
    l.append(n)
    return l[0]


@njit
def lst_float32(n):
    l = List.empty_list(item_type=types.float32)
    l.append(n)
    l.append(0.1)
    return l[0] + l[1]


@njit
def lst_np_dtype(n):
    l = List.empty_list(np.float64)
    l.append(n)
    return l[0]


@njit
def lst_array_items(n):
    l = List.empty_list(types.float64[:])
    l.append(np.ones(n))
    l.append(np.arange(n) * 1.0)
    return l[0].sum() + l[1].sum()


@njit
def lst_array2d(n):
    l = List.empty_list(types.int64[:, :])
    l.append(np.ones((n, 2), dtype=np.int64))
    return l[0].sum()


@njit
def lst_str_items(n):
    l = List.empty_list(types.unicode_type)
    l.append('ab')
    l.append('c' * n)
    return l[0] + l[1]


@njit
def lst_bool(n):
    l = List.empty_list(types.boolean)
    l.append(n > 1)
    return l[0]


@njit
def lst_complex(n):
    l = List.empty_list(types.complex128)
    l.append(n)
    return l[0]


@njit
def lst_range(n):
    l = List(range(n))
    return l[-1], len(l)


@njit
def lst_of_array(n):
    l = List(np.arange(n) * 2)
    return l[1]


@njit
def lst_module_forms(n):
    a = typed.List.empty_list(types.int64)
    a.append(n)
    b = numba.typed.List()
    b.append(2 * n)
    c = TL([5])
    return a[0] + b[0] + c[0]


@njit
def dict_module_forms(n):
    d = typed.Dict.empty(types.int64, types.int64)
    d[n] = 1
    e = numba.typed.Dict()
    e[n] = 2
    return d[n] + e[n]


@njit
def dict_str_values(n):
    d = Dict.empty(key_type=types.int64, value_type=types.unicode_type)
    d[n] = 'ab'
    return d[n]


@njit
def dict_float_keys(n):
    d = Dict.empty(types.float64, types.float64)
    d[n] = n  # int64 key and value stored as float64
    return d[3.0]


@njit
def dict_count(n):
    d = Dict.empty(types.int64, types.int64)
    for i in range(n):
        d[i % 3] = d.get(i % 3, 0) + 1
    return len(d), d[0]


@njit
def dict_plain_int_into_float(n):
    d = Dict()
    d[1] = 2.0
    d[2] = n  # the first store made it float64
    return d[2]


@njit
def dict_float_into_int(n):
    d = Dict.empty(types.int64, types.int64)
    d[1] = 2.5
    return d[1]


@njit
def dict_int_key_into_str(n):
    d = Dict.empty(types.unicode_type, types.int64)
    d[1] = 2
    return len(d)


@njit
def lst_str_into_int(n):
    l = List.empty_list(types.int64)
    l.append('x')
    return l[0]


@njit
def lst_float_into_int(n):
    l = List.empty_list(types.int64)
    l.append(2.7)
    return l[0]


@njit
def lst_plain_int_then_float(n):
    l = List()
    l.append(1)
    l.append(2.5)
    return l[1]


@njit
def lst_listtype(n):
    l = List.empty_list(types.ListType(types.int64))
    return len(l)


@njit
def lst_unituple(n):
    l = List.empty_list(types.UniTuple(types.int64, 2))
    l.append((1, 2))
    return l[0]


@njit
def dict_tuple_value(n):
    d = Dict.empty(types.int64, types.UniTuple(types.float64, 2))
    d[1] = (1.0, n)
    return d[1]


@njit
def lst_setitem_float_into_int(n):
    l = List.empty_list(types.int64)
    l.append(n)
    l[0] = 2.5
    return l[0]


@njit
def dict_complex_key(n):
    d = Dict.empty(types.complex128, types.int64)
    d[1j] = n
    return len(d)


@njit
def lst_plain_float_then_int(n):
    l = List()
    l.append(1.5)
    l.append(n)  # cast into the float64 the first append gave
    l[0] = n + 1
    return l[0] + l[1], len(l)


@njit
def lst_copy_of_typed(n):
    a = List.empty_list(types.int64)
    for i in range(n):
        a.append(i * i)
    b = List(a)
    b.append(100)
    return len(a), len(b), b[-2]


@njit
def lst_too_many_args(n):
    l = List(1, 2)
    return len(l)


@njit
def lst_unknown_attr(n):
    l = List.foo(1)
    return len(l)


@njit
def dict_missing_value_type(n):
    d = Dict.empty(types.int64)
    return len(d)


@njit
def lst_never_appended(n):
    l = List()
    return len(l)


@njit
def lst_value_as_type(n):
    l = List.empty_list(n)  # Numba takes the value's type; refused here
    return len(l)
