# How kernels bind and prune (compiler/types/infer_prune.c, infer.c's
# partial typing, compiler/types/infer_arrview.c): isinstance on locals
# pruning the branch not taken, checked against Numba by
# tests/e2e/run_npiterbind_oracle.py.
import numpy as np
from numba import njit

DEBUG = False


# ---- isinstance on locals ------------------------------------------------

@njit
def inst_float_local(a):
    x = a.sum()
    if isinstance(x, float):
        return x
    else:
        return x.sum()


@njit
def inst_float_local_else(a):
    x = a.sum()
    if isinstance(x, int):
        return x.foo
    else:
        return x * 2.0


@njit
def inst_int_local(n):
    x = n * 3
    if isinstance(x, int):
        return x + 1
    return x.bar()


@njit
def inst_int_local_else(n):
    x = n * 3
    if isinstance(x, float):
        return x.bar()
    return x - 1


@njit
def inst_complex_local(a):
    x = a[0] * 1j
    if isinstance(x, complex):
        return x.imag
    return x.nope


@njit
def inst_complex_local_else(a):
    x = a[0] * 1j
    if isinstance(x, float):
        return x.nope
    return x.real


@njit
def inst_array_local(a):
    x = a + 1
    if isinstance(x, float):
        return x.foo
    return x.sum()


@njit
def inst_array_local_else(a):
    x = a * 2
    if isinstance(x, (int, float)):
        return x.foo
    else:
        return x[0]


@njit
def inst_tuple_local(a):
    x = (a[0], 2)
    if isinstance(x, tuple):
        return x[0] + x[1]
    return x.foo


@njit
def inst_tuple_local_else(a):
    x = (a[0], 2)
    if isinstance(x, float):
        return x.foo
    return x[1] * 1.0


@njit
def inst_np_type_local(a):
    x = a[0]
    if isinstance(x, np.float32):
        return 1
    elif isinstance(x, np.float64):
        return 2
    return x.foo


@njit
def inst_elif_local(a):
    x = a.sum()
    if isinstance(x, int):
        return x.foo
    elif isinstance(x, complex):
        return x.bar
    elif isinstance(x, float):
        return x + 0.5
    else:
        return x.baz


@njit
def inst_not_local(a):
    x = a.sum()
    if not isinstance(x, float):
        return x.foo
    return x


@njit
def inst_and_const(a):
    x = a.sum()
    if isinstance(x, float) and not DEBUG:
        return x
    return x.foo


@njit
def inst_or_const(a):
    x = a.sum()
    if DEBUG or isinstance(x, int):
        return x.foo
    return x * 3.0


@njit
def inst_and_runtime(a, c):
    x = a.sum()
    if isinstance(x, int) and c > 0:
        return x.foo
    return x


@njit
def inst_and_runtime_refused(a, c):
    x = a.sum()
    if isinstance(x, float) and c > 0:
        return x
    return x.foo


@njit
def inst_ternary_local(a):
    x = a.sum()
    return x * 2.0 if isinstance(x, float) else x.foo


@njit
def inst_ternary_local_else(a):
    x = a[0]
    return x.foo if isinstance(x, tuple) else x + 1


@njit
def inst_bool_var(a):
    x = a.sum()
    b = isinstance(x, float)
    if b:
        return x
    return x.foo


@njit
def inst_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        y = a[i]
        if isinstance(y, float):
            s += y
        else:
            s += y.foo
    return s


@njit
def inst_value_local(a):
    x = a.sum()
    return isinstance(x, float), isinstance(x, int)


@njit
def inst_while_local(a):
    x = a.sum()
    while isinstance(x, int):
        return x.foo
    return x


@njit
def inst_arg_reassigned(x):
    x = x * 2.5
    if isinstance(x, float):
        return x
    return x.foo


@njit
def inst_join_refused(a, c):
    if c > 0:
        x = 1.0
    else:
        x = 2.0
    if isinstance(x, float):
        return x
    return 0.0


@njit
def inst_join_mixed_refused(a, c):
    if c > 0:
        x = 1
    else:
        x = 2.5
    if isinstance(x, float):
        return 1
    return 0


@njit
def inst_loop_join_refused(a):
    x = a[0]
    for i in range(3):
        x = x + 1
    if isinstance(x, float):
        return x
    return x.foo


@njit
def inst_dead_untyped_local(a):
    x = a.sum()
    if isinstance(x, int):
        return x.foo
    return x


# ---- iterators kept in a variable ----------------------------------------

@njit
def it_ndindex(a):
    it = np.ndindex(a.shape)
    s = 0.0
    k = 1
    for idx in it:
        s += a[idx] * k
        k += 1
    return s


@njit
def it_ndindex_0d(x):
    it = np.ndindex(())
    c = 0
    for idx in it:
        c += 1 + x
    return c


@njit
def it_ndindex_count(a):
    it = np.ndindex(a.shape)
    c = 0
    for idx in it:
        c += 1
    return c


@njit
def it_ndindex_args(m, n):
    it = np.ndindex(m, n)
    s = 0
    for i, j in it:
        s += i * 10 + j
    return s


@njit
def it_ndenumerate(a):
    it = np.ndenumerate(a)
    s = 0.0
    for idx, v in it:
        s += v * (len(idx) + 1)
    return s


@njit
def it_nditer(a):
    it = np.nditer(a)
    s = 0.0
    for v in it:
        s += v.item()
    return s


@njit
def it_enumerate(a):
    it = enumerate(a)
    s = 0.0
    for i, v in it:
        s += i * v
    return s


@njit
def it_zip(a, b):
    it = zip(a, b)
    s = 0.0
    for x, y in it:
        s += x * y
    return s


@njit
def it_enumerate_of_bound(a):
    it = np.ndindex(a.shape)
    c = 0
    for k, idx in enumerate(it, 1):
        c += k
    return c


@njit
def it_in_if(a, c):
    it = np.ndenumerate(a)
    s = 0.0
    if c > 0:
        s += 1.0
        for idx, v in it:
            s += v
    return s


@njit
def it_in_loop_body(a):
    s = 0
    for k in range(3):
        it = np.ndindex(a.shape)
        for idx in it:
            s += k
    return s


@njit
def it_two_loops(a):
    it = np.ndindex(a.shape)
    s = 0
    for idx in it:
        s += 1
    for idx in it:
        s += 100
    return s


@njit
def it_next(a):
    it = zip(a, a)
    x, y = next(it)
    return x + y


@njit
def it_loop_in_loop(a):
    it = np.ndindex(a.shape)
    s = 0
    for k in range(2):
        for idx in it:
            s += 1
    return s


@njit
def it_reassigned_arg(a):
    it = np.ndindex(a.shape)
    a = np.zeros((5, 5))
    s = 0
    for idx in it:
        s += 1
    return s


@njit
def count_it(it):
    s = 0
    for i in it:
        s += 1
    return s


@njit
def it_passed_on(a):
    it = np.ndindex(a.shape)
    return count_it(it)
