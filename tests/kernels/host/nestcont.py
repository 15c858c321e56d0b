"""Nested typed containers (tests/e2e/run_nestcont_oracle.py,
tests/test_nestcont.c): dicts of typed lists and of dicts, lists of
typed lists and of dicts, container types bound at module level
(types.ListType, types.DictType), values mutated in place through d[k]
(reference semantics, as Numba's), and what Numba refuses. Iteration
order is insertion order in both, but the kernels still reduce to
numbers or sorted arrays."""
import numpy as np
from numba import njit, types
from numba.typed import Dict, List

LT = types.ListType(types.float64)
DT = types.DictType(types.int64, types.float64)
LLT = types.ListType(LT)
DLT = types.DictType(types.unicode_type, LT)
BADT = types.ListType(types.Set(types.int64))  # ufjit: refused where used


@njit
def group(keys, vals):
    d = Dict.empty(types.int64, LT)
    for i in range(keys.size):
        k = keys[i]
        if k not in d:
            d[k] = List.empty_list(types.float64)
        d[k].append(vals[i])
    return d


@njit
def group_sums(keys, vals):
    d = group(keys, vals)
    out = np.empty(len(d) * 3)
    i = 0
    for k, l in d.items():
        out[i] = k
        out[i + 1] = sum(l)
        out[i + 2] = len(l)
        i += 3
    return out


@njit
def group_keys_values(keys, vals):
    d = group(keys, vals)
    s = 0.0
    for k in d:
        s += k * len(d[k])
    for l in d.values():
        for x in l:
            s += x
    return s


@njit
def group_pop(keys, vals, k):
    d = group(keys, vals)
    l = d.pop(k)
    return len(d) * 1000.0 + len(l) * 10.0 + sum(l)


@njit
def group_del(keys, vals, k):
    d = group(keys, vals)
    del d[k]
    n = 0
    for l in d.values():
        n += len(l)
    return len(d) * 100 + n


@njit
def group_in(keys, vals, k, x):
    d = group(keys, vals)
    return (k in d) and (x in d[k])


@njit
def alias_value():
    d = Dict.empty(types.int64, LT)
    a = List.empty_list(types.float64)
    d[1] = a
    a.append(2.5)
    d[1].append(4.0)
    b = d[1]
    b.append(1.0)
    return len(a) * 100.0 + sum(d[1])


@njit
def copy_shallow():
    d = Dict.empty(types.int64, LT)
    d[1] = List.empty_list(types.float64)
    e = d.copy()
    e[1].append(3.0)
    e[2] = List.empty_list(types.float64)
    return len(d) * 10 + len(d[1])


@njit
def setdefault_list(keys, vals):
    d = Dict.empty(types.int64, LT)
    for i in range(keys.size):
        d.setdefault(keys[i], List.empty_list(types.float64)).append(vals[i])
    s = 0.0
    for k, l in d.items():
        s += k * sum(l)
    return s


@njit
def dict_of_dicts():
    d = {"a": {1: 2.0}}
    return d["a"][1]


@njit
def dict_of_dicts_typed(n):
    d = Dict.empty(types.unicode_type, DT)
    for i in range(n):
        k = "even" if i % 2 == 0 else "odd"
        if k not in d:
            d[k] = Dict.empty(types.int64, types.float64)
        d[k][i] = i * 0.5
    inner = d["even"]
    inner[-1] = 100.0
    s = 0.0
    for k, v in d.items():
        for j, x in v.items():
            s += j + x
    return s + len(d["even"]) * 1000 + len(d)


@njit
def dict_of_dict_literal(n):
    d = {1: {1: 1.0}}
    for i in range(2, n):
        d[i] = {i: i * 2.0}
        d[i][-i] = 1.0
    s = 0.0
    for v in d.values():
        s += len(v)
        for x in v.values():
            s += x
    return s


@njit
def dict_str_lists(words):
    d = Dict.empty(types.unicode_type, LT)
    for i in range(words.size):
        w = "k" + str(words[i] % 3)
        if w not in d:
            d[w] = List.empty_list(types.float64)
        d[w].append(float(words[i]))
    out = np.empty(len(d))
    i = 0
    for k in d:
        out[i] = sum(d[k]) * 10 + len(k)
        i += 1
    return np.sort(out)


@njit
def list_of_lists(n):
    l = List.empty_list(LT)
    for i in range(n):
        inner = List.empty_list(types.float64)
        for j in range(i):
            inner.append(j * 1.0)
        l.append(inner)
    l[0].append(7.0)
    s = 0.0
    for x in l:
        s += len(x) * 100 + sum(x)
    return s


@njit
def list_of_dicts(n):
    l = List()
    for i in range(n):
        l.append(Dict.empty(types.int64, types.float64))
        l[i][i] = i * 1.5
    l[0][5] = 2.0
    s = 0.0
    for d in l:
        s += len(d) * 100
        for v in d.values():
            s += v
    return s


@njit
def list_of_dicts_typed(n):
    l = List.empty_list(DT)
    for i in range(n):
        d = Dict.empty(types.int64, types.float64)
        d[i] = 1.0
        l.append(d)
    x = l.pop()
    return len(l) * 10.0 + len(x)


@njit
def dict_lists_of_lists():
    d = Dict.empty(types.int64, LLT)
    d[1] = List.empty_list(LT)
    d[1].append(List.empty_list(types.float64))
    d[1][0].append(5.0)
    return d[1][0][0] + len(d[1])


@njit
def module_dlt(n):
    d = Dict.empty(types.unicode_type, LT)
    d["x"] = List.empty_list(types.float64)
    for i in range(n):
        d["x"].append(i * 1.0)
    return sum(d["x"])


@njit
def returned_through_calls(keys, vals):
    d = group(keys, vals)
    e = group(vals.astype(np.int64), vals)
    for k, l in e.items():
        if k in d:
            d[k].extend(l)
    s = 0.0
    for l in d.values():
        s += sum(l) + len(l)
    return s


@njit
def grow_in_loop(n):
    d = Dict.empty(types.int64, LT)
    for i in range(n):
        k = i % 7
        if k not in d:
            d[k] = List.empty_list(types.float64)
        d[k].append(i * 1.0)
        if len(d[k]) > 5:
            d[k] = List.empty_list(types.float64)
    s = 0.0
    for l in d.values():
        s += sum(l)
    return s


@njit
def pop_missing():
    d = Dict.empty(types.int64, types.float64)
    d[1] = 2.0
    return d.pop(3)


@njit
def pop_missing_list():
    d = Dict.empty(types.int64, LT)
    return len(d.pop(3))


@njit
def getitem_missing_list():
    d = Dict.empty(types.int64, LT)
    return len(d[3])


@njit
def add_dict(l, i):
    d = Dict.empty(types.int64, types.float64)
    d[i] = 1.0
    l.append(d)


@njit
def callee_appends(n):
    l = List.empty_list(DT)
    for i in range(n):
        add_dict(l, i)
    l[0] = Dict.empty(types.int64, types.float64)
    s = 0
    for d in l:
        s += len(d)
    return s


@njit
def nested_aug(n):
    d = Dict.empty(types.int64, DT)
    d[1] = Dict.empty(types.int64, types.float64)
    d[1][2] = 1.0
    for i in range(n):
        d[1][2] += 1.5
    return d[1][2]


@njit
def nested_aug_missing():
    d = Dict.empty(types.int64, DT)
    d[1] = Dict.empty(types.int64, types.float64)
    d[1][2] += 1.5
    return d[1][2]


@njit
def get_default(k):
    d = Dict.empty(types.int64, LT)
    d[1] = List.empty_list(types.float64)
    d[1].append(3.0)
    l = d.get(k, List.empty_list(types.float64))
    return len(l)


@njit
def popitem_clear_update():
    d = Dict.empty(types.int64, LT)
    e = Dict.empty(types.int64, LT)
    e[4] = List.empty_list(types.float64)
    e[4].append(2.0)
    d.update(e)
    d[4].append(3.0)
    k, l = e.popitem()
    d.clear()
    return k * 100 + len(l) * 10 + len(d) + len(e)


@njit
def values_list(n):
    d = Dict.empty(types.int64, LT)
    for i in range(n):
        d[i] = List.empty_list(types.float64)
        d[i].append(i * 1.0)
    v = list(d.values())
    return len(v) + v[-1][0]


@njit
def typed_list_of_lists(n):
    l = List()
    for i in range(n):
        l.append(List.empty_list(types.float64))
        l[-1].append(i * 2.0)
    s = 0.0
    for x in l:
        s += x[0]
    return s


@njit
def list_of_sets():
    l = List.empty_list(BADT)
    return len(l)


@njit
def items_as_list():
    d = Dict.empty(types.int64, LT)
    d[1] = List.empty_list(types.float64)
    return len(list(d.items()))


@njit
def eq_dict_lists():
    d = Dict.empty(types.int64, LT)
    e = Dict.empty(types.int64, LT)
    return d == e


# ---- what Numba refuses ------------------------------------------------

@njit
def reflected_value():
    d = {1: [1.0]}
    return len(d)


@njit
def set_value():
    d = {1: {2, 3}}
    return len(d)


@njit
def listtype_in_kernel():
    d = Dict.empty(types.int64, types.ListType(types.float64))
    return len(d)


@njit
def type_as_value():
    x = LT
    return 1
