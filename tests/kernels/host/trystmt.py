# try/except inside njit functions (compiler/front/parser_stmt.c,
# compiler/lower/lower_try.c), checked against Numba by
# tests/e2e/run_trystmt_oracle.py, refused forms at the end.
import numpy as np
from numba import guvectorize, njit, prange


@njit
def raise_caught(x):
    try:
        if x > 0:
            raise ValueError("positive", x)
        r = 1
    except Exception:
        r = 2
    return r


@njit
def bare_except(x):
    try:
        r = 10 // x
    except:  # noqa: E722
        r = -1
    return r


@njit
def float_div(x):
    try:
        r = 1.0 / x
    except Exception:
        r = -7.5
    return r


@njit
def else_clause(x):
    try:
        r = 1
        if x > 5:
            raise IndexError()
    except Exception:
        r = 2
    else:
        r = 3
        if x < 0:
            raise ValueError("from else")
    return r


@njit
def with_finally(x):
    r = 0
    try:
        if x > 0:
            raise ValueError("a")
        r = 1
    except Exception:
        r = 2
    finally:
        r += 10
    return r


@njit
def try_finally_only(x):
    r = 0
    try:
        r = x * 2
    finally:
        r += 1
    return r


@njit
def raise_in_handler(x):
    try:
        if x > 0:
            raise ValueError("a")
        r = 1
    except Exception:
        if x > 5:
            raise IndexError("from the handler")
        r = 2
    return r


@njit
def callee(x):
    if x > 0:
        raise ValueError("callee", x)
    return x * 3


@njit
def calls_raiser(x):
    try:
        r = callee(x)
    except Exception:
        r = -7
    return r


@njit
def singular(a):
    try:
        b = np.linalg.inv(a)
        r = b.sum()
    except Exception:
        r = -1.0
    return r


@njit
def bad_reshape(a, n):
    try:
        r = a.reshape((n, -1)).sum()
    except Exception:
        r = -1.0
    return r


@njit
def nested(x):
    try:
        try:
            if x > 0:
                raise ValueError()
            r = 1
        except Exception:
            if x > 3:
                raise IndexError()
            r = 2
    except Exception:
        r = 3
    return r


@njit
def loop_break_continue(n):
    s = 0
    for i in range(n):
        try:
            if i == 7:
                break
            if i % 2 == 1:
                continue
            if i == 4:
                raise ValueError()
            s += i
        except Exception:
            s -= 100
    return s


@njit
def loop_return(n):
    s = 0
    for i in range(n):
        try:
            if i == 4:
                return -s
        except Exception:
            pass
        s += i
    return s


@njit
def while_break_in_handler(n):
    r = 0
    while True:
        try:
            r += 1
            if r > n:
                raise ValueError()
        except Exception:
            break
    return r


@njit
def partial_update(n):
    # the handler sees what the try block assigned before raising
    s = 0
    try:
        for i in range(n):
            s += i
            if i == 3:
                raise ValueError()
    except Exception:
        s = -s
    return s


@njit
def return_in_try(x):
    try:
        if x > 0:
            return 5
        r = 1
    except Exception:
        r = 2
    return r


@njit
def alloc_then_raise(n):
    # arrays made in the try block are freed once, whether it raises
    try:
        a = np.ones(n)
        b = np.arange(n) * 2.0
        if n > 3:
            raise ValueError()
        r = a.sum() + b.sum()
    except Exception:
        r = -1.0
    return r


@njit
def alloc_in_loop(n):
    t = 0.0
    for i in range(n):
        try:
            a = np.full(i + 1, 2.0)
            if i % 3 == 0:
                raise ValueError()
            t += a.sum()
        except Exception:
            t -= 1.0
    return t


@njit
def returns_array(n):
    try:
        a = np.arange(n)
        if n > 4:
            raise ValueError()
    except Exception:
        a = np.zeros(2, np.int64)
    return a


@njit
def negative_dims(n):
    try:
        a = np.zeros(n)
        r = a.size
    except Exception:
        r = -3
    return r


@njit
def callee_alloc(n):
    a = np.ones(n)
    if n > 2:
        raise ValueError("big")
    return a


@njit
def calls_alloc_raiser(n):
    try:
        r = callee_alloc(n).sum()
    except Exception:
        r = -2.0
    return r


@njit
def int_index(a, i):
    try:
        r = a[i]
    except Exception:
        r = -9.0
    return r


@njit(parallel=True)
def in_prange(n):
    s = np.zeros(n)
    for i in prange(n):
        try:
            if i % 3 == 2:
                raise ValueError()
            s[i] = i
        except Exception:
            s[i] = -1
    return s


@njit
def sum_no_raise(a):
    s = 0.0
    for i in range(a.shape[0]):
        try:
            s += a[i] * 2.0
        except Exception:
            s = -1.0
    return s


@njit
def sum_plain(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * 2.0
    return s


@njit
def handler_only_types(x):
    r = 0
    try:
        r = 1
        if x > 0:
            raise ValueError()
        r = 2
    except Exception:
        r += 10
    return r


@guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def gu_max(a, out):
    try:
        out[0] = a.max()
    except Exception:
        out[0] = -1.0


@njit
def while_div(n):
    i = 0
    t = 0.0
    while i < n:
        try:
            t += 10 // (i - 2)
        except Exception:
            t += 100.0
        i += 1
    return t


@njit
def except_class(x):
    try:
        r = 1 // x
    except ZeroDivisionError:
        r = 0
    return r


@njit
def except_tuple(x):
    try:
        r = 1 // x
    except (ValueError, ZeroDivisionError):
        r = 0
    return r


@njit
def except_as(x):
    try:
        r = 1 // x
    except Exception as e:  # noqa: F841
        r = 0
    return r


@njit
def reraise(x):
    try:
        r = 1 // x
    except Exception:
        raise
    return r


@njit
def break_finally(n):
    r = 0
    for i in range(n):
        try:
            if i == 2:
                break
        finally:
            r += 1
    return r
