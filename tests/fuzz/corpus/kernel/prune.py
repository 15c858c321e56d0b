# Branch pruning (compiler/types/infer_prune.c): branches whose condition is a
# compile-time constant, as Numba's dead_branch_prune decides them. Each
# kernel below has a dead branch that would not type (a tuple where a
# float64 is returned); Numba compiles them all, and so must ufjit.
# Checked against Numba by tests/e2e/run_prune_oracle.py, which also runs
# the kernels Numba refuses (constants it does not fold).
from numba import vectorize, guvectorize

DEBUG = False
ON = True
K = 5
FZ = 0.0
F1 = 2.5


@vectorize(['float64(float64)'])
def global_false(x):
    if DEBUG:
        return (x, x)
    return x * 2


@vectorize(['float64(float64)'])
def global_true_else(x):
    if ON:
        return x * 2
    else:
        return (x, x)


@vectorize(['float64(float64)'])
def literal_zero(x):
    if 0:
        return (x, x)
    return x + 1


@vectorize(['float64(float64)'])
def compare_const(x):
    if K > 3:
        return x - 1
    return (x, x)


@vectorize(['float64(float64)'])
def float_const(x):
    if FZ:
        return (x, x)
    if F1 > 2:
        return x * 3
    return (x, x)


@vectorize(['float64(float64)'])
def while_false(x):
    while DEBUG:
        return (x, x)
    return x


@vectorize(['float64(float64)'])
def and_dead(x):
    if x > 0 and DEBUG:
        return (x, x)
    if DEBUG and x > 0:
        return (x, x)
    return x + 0.5


@vectorize(['float64(float64)'])
def or_not(x):
    if not DEBUG:
        if x > 0 or ON:
            return x
    return (x, x)


@vectorize(['float64(float64)'])
def ifexp_dead(x):
    y = (x, x) if DEBUG else x
    z = x if (DEBUG or ON) else (x, x)
    return y + z


@vectorize(['float64(float64)'])
def local_consts(x):
    flag = False
    if flag:
        return (x, x)
    flag2 = True
    flag2 = False
    if flag2:
        return (x, x)
    c = K > 7
    if c:
        return (x, x)
    return x


@vectorize(['float64(float64)'])
def chains(x):
    if 0 < K < 3:
        return (x, x)
    if x > 3 > 4:
        return (x, x)
    return -x


@vectorize(['float64(float64)'])
def while_entry_false(x):
    n = 0
    while n > 0:
        n -= 1
        y = (x, x)
        return y[0]
    return x


@vectorize(['float64(float64)'])
def dead_after(x):
    if ON:
        return x + 2
    y = (x, x)
    return y[0]


@vectorize(['float64(float64)'])
def while_true_return(x):
    while ON:
        if x > 0:
            return x
        x += 1.0
    return (x, x)


@vectorize(['float64(float64)'])
def run_once(x):
    flag = True
    while flag:
        x = x + 1.0
        flag = False
    return x


@vectorize(['float64(float64)'])
def entered_loop(x):
    n = 3
    while n > 0:
        n -= 1
        x = x + 1.0
    return x


@vectorize(['float64(float64)'])
def elif_chain(x):
    if DEBUG:
        return (x, x)
    elif K == 5:
        return x + 10
    else:
        return (x, x, x)


@vectorize(['float64(float64)'])
def boolop_value(x):
    y = DEBUG and (x, x)
    z = DEBUG or x
    return z + y


@vectorize(['float64(float64)'])
def dead_unknown_name(x):
    if DEBUG:
        return undefined_function(x)
    return x


@vectorize(['float64(float64)'])
def ssa_after_prune(x):
    n = 1
    if DEBUG:
        n = 2
    if n > 1:
        return (x, x)
    return x * n


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def ndim_const(a, out):
    for i in range(a.shape[0]):
        if a.ndim == 2:
            out[i] = (a[i], a[i])
        else:
            out[i] = a[i] * 2
