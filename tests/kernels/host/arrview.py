# a.view(dtype), np.frombuffer and isinstance inside njit functions
# (compiler/types/infer_arrview.c, compiler/lower/lower_arrview.c, the
# branch pruning of compiler/types/infer_prune.c), checked against Numba
# by tests/e2e/run_arrview_oracle.py.
import numba
import numpy as np
from numba import njit

K = 3


@njit
def view_i8(a):
    return a.view(np.int64)


@njit
def view_u8(a):
    return a.view(np.uint64)


@njit
def view_i4(a):
    return a.view(np.int32)


@njit
def view_i2(a):
    return a.view(np.int16)


@njit
def view_u1(a):
    return a.view(np.uint8)


@njit
def view_f8(a):
    return a.view(np.float64)


@njit
def view_f4(a):
    return a.view(np.float32)


@njit
def view_c16(a):
    return a.view(np.complex128)


@njit
def view_c8(a):
    return a.view(np.complex64)


@njit
def view_b1(a):
    return a.view(np.bool_)


@njit
def view_dtype(a, b):
    return a.view(b.dtype)


@njit
def view_back(a):
    return a.view(np.uint8).view(a.dtype)


@njit
def view_write(a):
    v = a.view(np.uint8)
    v[0] = 255
    v[-1] = 1
    return a


@njit
def view_write_wide(a):
    v = a.view(np.int64)
    v[0] = -1
    return a


@njit
def view_sum(a):
    return a.view(np.uint8).sum()


@njit
def view_loop(a):
    v = a.view(np.uint16)
    s = 0
    for i in range(v.size):
        s += v[i] * (i + 1)
    return s


@njit
def view_in_loop(n):
    s = 0
    for i in range(n):
        a = np.arange(4.0) + i
        v = a.view(np.int64)
        s += v[1] & 0xFFFF
    return s


@njit
def view_of_new(n):
    a = np.ones(n)
    return a.view(np.uint8)


@njit
def view_str(a):
    return a.view('i8')


@njit
def view_kw(a):
    return a.view(dtype=np.int64)


@njit
def view_pyclass(a):
    return a.view(float)


@njit
def view_none(a):
    return a.view()


@njit
def fb(a):
    return np.frombuffer(a, dtype=np.float64)


@njit
def fb_default(a):
    return np.frombuffer(a)


@njit
def fb_i2(a):
    return np.frombuffer(a, np.int16)


@njit
def fb_u1(a):
    return np.frombuffer(a, np.uint8)


@njit
def fb_c8(a):
    return np.frombuffer(a, np.complex64)


@njit
def fb_none(a):
    return np.frombuffer(a, None)


@njit
def fb_float(a):
    return np.frombuffer(a, float)


@njit
def fb_dtype(a, b):
    return np.frombuffer(a, b.dtype)


@njit
def fb_str(a):
    return np.frombuffer(a, 'i4')


@njit
def fb_kw(a):
    return np.frombuffer(buffer=a, dtype=np.int16)


@njit
def fb_count(a, n):
    return np.frombuffer(a, np.uint8, n)


@njit
def fb_offset(a, k):
    return np.frombuffer(a, np.int64, -1, k)


@njit
def fb_count_offset(a, n, k):
    return np.frombuffer(a, np.int64, count=n, offset=k)


@njit
def fb_offset_mixed(a):
    return np.frombuffer(a, np.uint8, offset=3)


@njit
def fb_write(a):
    r = np.frombuffer(a, np.uint8)
    r[0] = 7
    return a


@njit
def fb_float_count(a):
    return np.frombuffer(a, np.uint8, 2.0)


@njit
def fb_scalar(x):
    return np.frombuffer(x)


@njit
def inst_branch(x):
    if isinstance(x, int):
        return x + 1
    else:
        return x.sum()


@njit
def inst_float(x):
    return isinstance(x, float)


@njit
def inst_complex(x):
    return isinstance(x, complex)


@njit
def inst_bool(x):
    return isinstance(x, bool)


@njit
def inst_classes(x):
    return isinstance(x, (int, float))


@njit
def inst_nested(x):
    return isinstance(x, (int, (float, complex)))


@njit
def inst_np(x):
    return isinstance(x, np.float64), isinstance(x, np.int32)


@njit
def inst_numba_type(x):
    return isinstance(x, numba.int64)


@njit
def inst_tuple(x):
    t = (x, 1)
    return isinstance(t, tuple), isinstance(x, tuple)


@njit
def inst_literal(x):
    return (isinstance(3, int), isinstance(2.5, float), isinstance(K, int),
            isinstance(True, bool), isinstance(None, int))


@njit
def inst_other(x):
    return (isinstance(x, str), isinstance(x, list), isinstance(x, dict),
            isinstance(x, set))


@njit
def inst_not(x):
    if not isinstance(x, int):
        return x.sum()
    return x + 1


@njit
def inst_elif(x):
    if isinstance(x, float):
        return x * 2.0
    elif isinstance(x, int):
        return x + 1.0
    return x.sum() * 1.0


@njit
def inst_ternary(x):
    return x + 1 if isinstance(x, int) else x.sum()


@njit
def inst_and(x, y):
    if isinstance(x, int) and isinstance(y, int):
        return x + y
    return 0


@njit
def inst_var(x):
    b = isinstance(x, int)
    if b:
        return x + 1
    return x.sum()


@njit
def inst_while(x):
    while isinstance(x, int):
        return 1
    return x.size


@njit
def inst_local(x):
    y = x * 2
    if isinstance(y, float):
        return 1.0
    return 2.0


@njit
def inst_local_pruned(x):
    y = x + 1
    if isinstance(y, int):
        return y
    return y.sum()


@njit
def inst_ndarray(x):
    return isinstance(x, np.ndarray)


@njit
def inst_nontype(x):
    return isinstance(x, 3)


@njit
def inst_onearg(x):
    return isinstance(x)


@njit
def inst_kw(x):
    return isinstance(x, classinfo=int)
