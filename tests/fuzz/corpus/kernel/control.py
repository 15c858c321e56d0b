# Control flow: if/elif/else, for over range (1, 2 and 3 arguments, negative
# steps), while, break, continue, pass, early returns, loop-carried types.
from numba import vectorize


@vectorize(['int64(int64)', 'float64(float64)'])
def classify(x):
    if x < -10:
        r = -2
    elif x < 0:
        r = -1
    elif x == 0:
        pass
        r = 0
    else:
        r = 1
    return r


@vectorize(['int64(int64)'])
def sum_range(n):
    s = 0
    for i in range(n):
        s += i
    return s


@vectorize(['int64(int64, int64)'])
def sum_range2(a, b):
    s = 0
    for i in range(a, b):
        s += i * i
    return s


@vectorize(['int64(int64, int64, int64)'])
def sum_range3(a, b, step):
    s = 0
    for i in range(a, b, step):
        s = s * 3 + i
    return s


# The loop variable keeps its last value after the loop, as in Python.
@vectorize(['int64(int64)'])
def loop_var_after(n):
    i = -1
    for i in range(n):
        pass
    return i


@vectorize(['int64(int64)'])
def collatz_steps(n):
    steps = 0
    while n != 1 and n > 0:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@vectorize(['int64(int64)'])
def break_continue(n):
    s = 0
    for i in range(100):
        if i % 3 == 0:
            continue
        if i > n:
            break
        s += i
    return s


@vectorize(['int64(int64)'])
def nested_loops(n):
    s = 0
    for i in range(n):
        for j in range(i):
            if j == 5:
                break
            s += i * j
    return s


# A float accumulator starting from an int literal: the loop joins int64
# and float64, the variable is float64 (Numba unifies at the loop head).
@vectorize(['float64(float64, int64)'])
def loop_unify(x, n):
    acc = 0
    for i in range(n):
        acc = acc + x / (i + 1)
    return acc


@vectorize(['float64(float64)'])
def early_return(x):
    if x != x:
        return -1.0
    if x > 0:
        return x
    return -x * 2


# Newton's method: while with a float condition.
@vectorize(['float64(float64)'])
def newton_sqrt(a):
    if a <= 0:
        return 0.0
    x = a
    i = 0
    while abs(x * x - a) > 1e-12 * a and i < 100:
        x = 0.5 * (x + a / x)
        i += 1
    return x


# Tuple unpacking and swapping.
@vectorize(['int64(int64, int64)'])
def fib(n, unused):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
