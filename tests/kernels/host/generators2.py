"""Generator objects inside kernels (issue 18), against Numba
(tests/e2e/run_generators2_oracle.py): next() of a generator kept in a
variable (StopIteration past its end), next() mixed with a later for
loop over the same object, zip() of two or more generators, generators
with several yields, ifs, while loops, nested range loops, break,
continue and return, arrays held across a yield; and what Numba refuses
(next() with a default) or ufjit does not do (a generator object passed
to or returned from another function, loops over arrays holding a yield
in a generator used as an object)."""
import numpy as np
from numba import njit


@njit
def squares(n):
    for i in range(n):
        yield i * i


@njit
def next_twice(n):
    it = squares(n)
    return next(it) + next(it)


@njit
def next_in_loop(n, m):
    it = squares(n)
    s = 0
    for _ in range(m):
        s = s * 10 + next(it)
    return s


@njit
def next_then_for(n):
    it = squares(n)
    a = next(it)
    s = 0
    for v in it:
        s += v
    return a * 1000 + s


@njit
def for_then_next(n):
    it = squares(n)
    s = 0
    for v in it:
        s += v
        if v >= 4:
            break
    return s * 100 + next(it)


@njit
def for_else_object(n, stop):
    it = squares(n)
    next(it)
    s = 0
    for v in it:
        if v == stop:
            break
        s += v
    else:
        s = -s
    return s


@njit
def zip_two(n):
    s = 0
    for a, b in zip(squares(n), squares(n + 1)):
        s += a * b
    return s


@njit
def countdown(n):
    while n > 0:
        yield n
        n -= 1


@njit
def three(x):
    yield x
    yield x * 2.5
    yield x - 1


@njit
def zip_three(n, x):
    s = 0.0
    for a, b, c in zip(squares(n), countdown(n), three(x)):
        s = s * 3.0 + a + b * c
    return s


@njit
def zip_objects(n):
    p = squares(n)
    q = countdown(n)
    first = next(q)
    s = first * 1000
    for a, b in zip(p, q):
        s += a - b
    return s


@njit
def three_next(x):
    it = three(x)
    a = next(it)
    b = next(it)
    c = next(it)
    return a * 100.0 + b * 10.0 + c


@njit
def evens_odds(n):
    for i in range(n):
        if i % 2 == 0:
            yield i
        else:
            yield -i
    yield 100


@njit
def alternate_next(n, m):
    it = evens_odds(n)
    s = 0
    for _ in range(m):
        s = s * 7 + next(it)
    return s


@njit
def grid(n, m):
    for i in range(n):
        for j in range(1, m, 2):
            if j > i + 2:
                break
            yield i * 10 + j


@njit
def grid_next(n, m, k):
    it = grid(n, m)
    s = 0
    for _ in range(k):
        s = s * 3 + next(it)
    return s


@njit
def until_limit(n, limit):
    total = 0
    for i in range(n):
        total += i
        if total > limit:
            return
        if i % 3 == 1:
            continue
        yield total


@njit
def limited_next(n, limit, k):
    it = until_limit(n, limit)
    s = 0
    for _ in range(k):
        s = s * 5 + next(it)
    return s


@njit
def chunks(a, size):
    buf = np.zeros(size)
    j = 0
    for i in range(a.shape[0]):
        buf[j] = a[i]
        j += 1
        if j == size:
            yield buf.sum()
            buf = np.zeros(size)
            j = 0
    if j:
        yield buf.sum()


@njit
def chunk_next(a, size):
    it = chunks(a, size)
    x = next(it)
    y = next(it)
    return x * 1000.0 + y


@njit
def chunk_zip(a, size):
    s = 0.0
    for x, y in zip(chunks(a, size), chunks(a, size + 1)):
        s = s * 2.0 + x - y
    return s


@njit
def rows(m):
    for i in range(m.shape[0]):
        yield m[i] * 2.0


@njit
def row_next(m):
    it = rows(m)
    r0 = next(it)
    r1 = next(it)
    return r0 + r1


@njit
def gen_in_loop(n):
    s = 0
    for k in range(n):
        it = squares(k + 3)
        s += next(it) * 100 + next(it) * 10 + next(it)
    return s


@njit
def two_objects(n):
    p = squares(n)
    q = squares(n)
    a = next(p)
    b = next(p)
    c = next(q)
    return a * 100 + b * 10 + c


# ---- what ufjit does not do (Numba runs it) ---------------------------------

@njit
def consume(it):
    s = 0
    for v in it:
        s += v
    return s


@njit
def passed(n):
    return consume(squares(n))


@njit
def returns_gen(n):
    return squares(n)


@njit
def returned(n):
    it = returns_gen(n)
    return next(it)


@njit
def items(a):
    for x in a:
        yield x + 1.0


@njit
def items_next(a):
    it = items(a)
    return next(it)


@njit
def kept_printed(n):
    it = squares(n)
    x = next(it)
    print(it)
    return x


@njit
def zip_mixed(n):
    s = 0
    for a, b, c in zip(squares(n), countdown(n), range(3)):
        s += a * b + c
    return s


@njit
def tried(n):
    for i in range(n):
        try:
            yield i
        except Exception:
            yield -i


@njit
def tried_next(n):
    it = tried(n)
    return next(it)


# ---- what Numba refuses -----------------------------------------------------

@njit
def next_default(n):
    it = squares(n)
    return next(it, -1)


# ---- generator objects passed to njit functions -----------------------------

@njit
def firsts(x, it, y):
    a = next(it)
    b = next(it)
    return x * a + y * b


@njit
def passed_next(n):
    return firsts(10, squares(n), 100) + firsts(1, three(n * 0.5), 1)


@njit
def zipper(it, n):
    s = 0
    for a, b in zip(it, squares(n)):
        s += a * b
    return s


@njit
def passed_zip(n):
    return zipper(countdown(n), n + 2) * 10 + consume(countdown(n))


@njit
def passed_kept(n):
    it = squares(n)
    return consume(it)
