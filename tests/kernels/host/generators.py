"""Generator functions (yield) inside kernels, against Numba
(tests/e2e/run_generators_oracle.py): for loops over generators, list(),
sorted(), min(), max(), enumerate() and zip() of one, generators over
arrays yielding elements, views and tuples, generators consuming
generators, return ending one, several yields, yields in while loops and
if branches, break / continue / else in the consuming loop; and what
Numba refuses (or ufjit does not do: next(), generator objects)."""
import numpy as np
from numba import njit


@njit
def squares(n):
    for i in range(n):
        yield i * i


@njit
def sum_squares(n):
    s = 0
    for v in squares(n):
        s += v
    return s


@njit
def list_squares(n):
    return np.array(list(squares(n)))


@njit
def alternating(n):
    i = 0
    while True:
        if i >= n:
            return
        if i % 2:
            yield i
        else:
            yield -i
        i += 1


@njit
def list_alternating(n):
    return np.array(list(alternating(n)))


@njit
def three(x):
    yield x
    yield x * 2.5
    yield x - 1


@njit
def list_three(x):
    return np.array(list(three(x)))


@njit
def rows(a):
    for i in range(a.shape[0]):
        yield a[i]


@njit
def sum_rows(a):
    s = 0.0
    for r in rows(a):
        s += r.sum()
    return s


@njit
def scale_rows(a, f):
    for r in rows(a):
        r *= f
    return a


@njit
def elems(a):
    for x in a:
        if x > 0:
            yield x


@njit
def positives(a):
    return np.array(list(elems(a)))


@njit
def pairs(n):
    for i in range(n):
        yield i, i * 0.5


@njit
def sum_pairs(n):
    s = 0.0
    for i, x in pairs(n):
        s += i * 10 + x
    return s


@njit
def plus_one(n):
    for v in squares(n):
        yield v + 1


@njit
def list_plus_one(n):
    return np.array(list(plus_one(n)))


@njit
def nested_loops(n):
    s = 0
    for v in squares(n):
        for w in squares(v):
            s += w
    return s


@njit
def consumer_jumps(n):
    s = 0
    for v in squares(n):
        if v > 30:
            break
        if v == 4:
            continue
        s += v
    else:
        s = -s
    return s


@njit
def inner_loops(n):
    for i in range(n):
        for j in range(i):
            if j == 3:
                break
            yield i * 10 + j


@njit
def first_over(n, limit):
    for v in inner_loops(n):
        if v > limit:
            return v
    return -1


@njit
def enumerated(n):
    s = 0
    for i, v in enumerate(squares(n)):
        s += i * v
    for i, v in enumerate(squares(n), 5):
        s += i * v
    return s


@njit
def zipped(n, a):
    s = 0.0
    for v, x in zip(squares(n), a):
        s += v * x
    for k, v in zip(range(10, 20, 3), squares(n)):
        s += k * v
    return s


@njit
def zip_else(n, a):
    s = 0.0
    for v, x in zip(squares(n), a):
        s += v * x
    else:
        s += 1000.0
    return s


@njit
def collected(n):
    return min(squares(n)) + max(squares(n)) * 100


@njit
def descending(n):
    for i in range(n):
        yield (i * 7) % 5


@njit
def sorted_gen(n):
    return np.array(sorted(descending(n)))


@njit
def with_default(n, step=2):
    i = 0
    while i < n:
        yield i
        i += step


@njit
def defaults(n):
    s = 0
    for v in with_default(n):
        s += v
    for v in with_default(n, step=3):
        s += 100 * v
    return s


@njit
def early_return(a):
    for x in a:
        if x < 0:
            return
        yield x


@njit
def until_negative(a):
    s = 0.0
    n = 0
    for x in early_return(a):
        s += x
        n += 1
    return s * 1000 + n


@njit
def cumsums(a):
    t = 0.0
    for x in a:
        t += x
        yield t


@njit
def cumsum_array(a):
    out = np.empty_like(a)
    for i, t in enumerate(cumsums(a)):
        out[i] = t
    return out


@njit
def chunks(a, k):
    i = 0
    while i < a.shape[0]:
        yield a[i:i + k]
        i += k


@njit
def chunk_sums(a, k):
    out = np.zeros((a.shape[0] + k - 1) // k)
    for i, c in enumerate(chunks(a, k)):
        out[i] = c.sum()
    return out


@njit
def made_arrays(n):
    for i in range(n):
        yield np.arange(i + 1) * 1.5


@njit
def sum_made(n):
    s = 0.0
    for b in made_arrays(n):
        s += b.sum()
    return s


@njit
def twice(n):
    s = 0
    for v in squares(n):
        s += v
    for v in squares(n + 1):
        s += v * 1000
    return s


@njit
def bare_yield(n):
    for i in range(n):
        yield


@njit
def count_bare(n):
    c = 0
    for _ in bare_yield(n):
        c += 1
    return c


@njit
def classify(a):
    for x in a:
        if x < 0:
            yield -1
        elif x == 0:
            yield 0
        else:
            yield 1


@njit
def signs(a):
    return np.array(list(classify(a)))


@njit
def firsts(n, limit):
    for v in squares(n):
        if v > limit:
            return
        yield v


@njit
def until_limit(n, limit):
    s = 0
    for v in firsts(n, limit):
        s += v
    else:
        s += 1000
    return s


@njit
def grid(n):
    for i in range(n):
        j = 0
        while j < n:
            yield i, j
            j += 1


@njit
def find_in_grid(n, t):
    i = j = -1
    for i, j in grid(n):
        if i * j == t:
            break
    else:
        return -1
    return i * 100 + j


@njit
def shadowing(n):
    i = 100
    s = 0
    for v in squares(n):
        s += v + i
    return s + i


@njit
def kept(n):
    it = squares(n)
    s = 0
    for v in it:
        s += v
    return s


@njit
def closure_consumer(n):
    def inner(m):
        t = 0
        for v in squares(m):
            t += v
        return t
    return inner(n) + inner(n + 1)


# ---- what Numba runs and ufjit refuses -----------------------------------

@njit
def next_twice(n):
    it = squares(n)
    return next(it) + next(it)


@njit
def kept_rebound(n):
    it = squares(n)
    n = 2
    s = 0
    for v in it:
        s += v
    return s


@njit
def zip_two(n):
    s = 0
    for a, b in zip(squares(n), squares(n + 1)):
        s += a * b
    return s


@njit
def tried(n):
    try:
        yield n
    except Exception:
        yield -n


@njit
def use_tried(n):
    s = 0
    for v in tried(n):
        s += v
    return s


@njit
def returns_gen(n):
    return squares(n)


# ---- what Numba refuses --------------------------------------------------

@njit
def next_exhausted(n):
    it = squares(n)
    s = 0
    for _ in range(n + 1):
        s += next(it)
    return s


@njit
def summed(n):
    return sum(squares(n))


@njit
def delegating(n):
    yield from squares(n)


@njit
def use_delegating(n):
    return np.array(list(delegating(n)))


@njit
def sent(n):
    x = yield 1
    yield x


@njit
def use_sent(n):
    return np.array(list(sent(n)))


@njit
def recursive(n):
    if n > 0:
        for v in recursive(n - 1):
            yield v
    yield n


@njit
def use_recursive(n):
    return np.array(list(recursive(n)))


@njit
def in_gen(n):
    return 4 in squares(n)
