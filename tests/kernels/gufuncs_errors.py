# guvectorize kernels that must fail, one error each, with Numba's message
# (Numba raises them at decoration, so this file does not import under
# Numba: tests/e2e/run_gufunc_oracle.py runs each kernel on its own).
from numba import float64, guvectorize


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n;m),(n)->(m)')
def bad_token(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n)(n)->(n)')
def bad_token_name(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(n),')
def bad_token_end(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)=>(n)')
def bad_arrow(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(m)')
def undefined_output(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:,:])'],
             '(n),(n)->(m,p)')
def undefined_outputs(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(n,)')
def comma_paren(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'],
             '(n),(n)->(n)->(n)')
def two_arrows(x, y, out):
    pass


# seed 003's batch_matmul as written: its vector declared 2-d
@guvectorize([(float64[:, :], float64[:, :], float64[:])],
             '(m,n),(n)->(m)')
def batch_matmul(M, v, y):
    pass


# seed 003's max_min as written: its input declared 2-d
@guvectorize([(float64[:, :], float64[:, :], float64[:])], '(n)->(),()')
def max_min_seed(arr, largest, smallest):
    pass


@guvectorize(['void(float64[:], float64[:,:], float64[:])'], '(n),()->(n)')
def mismatch_arg2(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:,:])'],
             '(n),(n)->(n)')
def mismatch_out(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64)'], '(n),(n)->(n)')
def scalar_not_scalar(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:])'], '(n),(n)->(n)')
def too_few_types(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:], float64[:])'],
             '(n),(n)->(n)')
def too_many_types(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n)->(n)')
def layout_arity(x, y, out):
    pass


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def returns_value(x, out):
    return 1.0


@guvectorize(['float64(float64[:], float64[:])'], '(n)->(n)')
def return_type(x, out):
    pass


# Numba accepts a plain scalar type for an output and leaves the output
# unwritten; refused here
@guvectorize(['void(float64[:], float64)'], '(n)->()')
def scalar_output(x, out):
    out = x[0]
