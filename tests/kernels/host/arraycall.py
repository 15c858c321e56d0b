"""np.array of a list filled by one loop (lower_arraycall.c, Numba's
_inline_arraycall): the rewritten pattern over item types and iterables,
and the forms that must keep the list (a condition, continue, the list
used again, a list iterated) (tests/e2e/run_arraycall_oracle.py,
tests/test_arraycall.c). A list
appended in two loops is left to tests/test_arraycall.c: Numba 0.68
rewrites the second loop alone and returns its items only. Nested
comprehensions (a 2-D array in Numba) are not here: ufjit's parser
refuses a comprehension inside another, and the whole file with it."""
import numpy as np
from numba import njit


@njit
def append_f8(n):
    l = []
    for i in range(n):
        l.append(i * 0.5)
    return np.array(l)


@njit
def append_i8(n):
    l = []
    for i in range(n):
        l.append(i * 3 - 7)
    return np.array(l)


@njit
def append_bool(n):
    l = []
    for i in range(n):
        l.append(i % 3 == 0)
    return np.array(l)


@njit
def append_complex(n):
    l = []
    for i in range(n):
        l.append(complex(i, -i))
    return np.array(l)


@njit
def append_range_step(a, b, c):
    l = []
    for i in range(a, b, c):
        l.append(i * i)
    return np.array(l)


@njit
def append_dtype(n):
    l = []
    for i in range(n):
        l.append(i)
    return np.array(l, dtype=np.float32)


@njit
def append_asarray(n):
    l = []
    for i in range(n):
        l.append(i + 0.25)
    return np.asarray(l)


@njit
def append_early_return(n, stop):
    l = []
    for i in range(n):
        if i == stop:
            return np.zeros(1)
        l.append(float(i))
    return np.array(l)


@njit
def append_body_allocates(n):
    l = []
    for i in range(n):
        t = np.zeros(3) + i
        l.append(t.sum())
    return np.array(l)


@njit
def comp_range(n):
    return np.array([i * i for i in range(n)])


@njit
def comp_array(a):
    return np.array([x * 2.0 + 1.0 for x in a])


@njit
def comp_2d_rows(a):
    return np.array([r.sum() for r in a])


@njit
def comp_tuple(n):
    t = (1.5, 2.5, n * 1.0)
    return np.array([x * 2 for x in t])


@njit
def comp_condition(a):
    return np.array([x for x in a if x > 0])


@njit
def comp_in_loop(n):
    s = 0.0
    for k in range(n):
        s += np.array([k * 1.0 + j for j in range(k)]).sum()
    return s


@njit
def list_used_after(n):
    l = []
    for i in range(n + 1):
        l.append(i * 2)
    a = np.array(l)
    l[0] = 5
    return a + l[0]


@njit
def list_continue(n):
    l = []
    for i in range(n):
        if i % 2 == 0:
            continue
        l.append(i)
    return np.array(l)


@njit
def list_over_list(n):
    m = [1, 2, 3]
    l = []
    for x in m:
        l.append(x * n)
    return np.array(l)


@njit
def list_later_statement(n):
    l = []
    for i in range(n):
        l.append(i)
    k = n + 1
    return np.array(l), k


@njit
def array_in_next_loop(n):
    s = 0.0
    l = []
    for i in range(n):
        l.append(i * 1.0)
    for j in range(3):
        a = np.array(l)
        a[0] += 1.0
        s += a.sum()
    return s
