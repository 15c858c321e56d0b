/* Turning the status a compiled host kernel returned into an error
 * (jit.h: uf__jit_status_error), and the runtime side of the host's error
 * sink: the IndexError record its generated code writes. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_internal.h"
#include "common/ustr.h"
#include "compiler/host/jit.h"

/* The last IndexError message of this thread. Per thread, not in a sink
 * passed in, because generated code has no context to pass it through: a
 * fallible kernel is `i32 f(T *out, args...)` wherever it is called from
 * (the loops, njit callers, reduce trees), and giving it one more
 * argument would change every kernel's code. Per thread is also enough:
 * every caller turns a nonzero status into its error on the thread that
 * ran the kernel, right after it returned (the ufunc and gufunc loops'
 * loop_error inside each parallel worker, njit_call.c, reduce_exec.c),
 * so the thread's last record is that status's. */
static _Thread_local char index_msg[640];

/* The host's error sink (codegen_host.c: index_error): generated code
 * calls it, as the JIT's symbol UF__RT_INDEX_ERROR, just before it
 * returns UF__JIT_INDEX; axis -1 is a tuple index. */
void uf__rt_index_error(const char *kernel, const char *file, int32_t line,
                        int64_t index, int32_t axis, int64_t size,
                        int32_t is_unsigned)
{
    char ix[32];
    if (is_unsigned)
        snprintf(ix, sizeof ix, "%" PRIu64, (uint64_t)index);
    else
        snprintf(ix, sizeof ix, "%" PRId64, index);
    if (axis < 0)
        snprintf(index_msg, sizeof index_msg, "IndexError: tuple index %s is "
                 "out of range for a tuple of %" PRId64 " elements (in '%s' "
                 "at %s:%d)", ix, size, kernel, file, (int)line);
    else
        snprintf(index_msg, sizeof index_msg, "IndexError: index %s is out "
                 "of bounds for axis %d with size %" PRId64 " (in '%s' at "
                 "%s:%d)", ix, (int)axis, size, kernel, file, (int)line);
}

/* The exception of the last raise statement on this thread (UF__RT_RAISE)
 * and its uf_errcode. */
static _Thread_local char raise_msg[640];
static _Thread_local int raise_code;

/* Appends to b (cap bytes, *at used) as snprintf would, cut at the end. */
static void put(char *b, size_t cap, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *b, size_t cap, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b + *at, cap - *at, fmt, ap);
    va_end(ap);
    *at += n < 0 ? 0 : (size_t)n;
    if (*at >= cap)
        *at = cap - 1;
}

/* Python's repr() of a float: the shortest digits that read back as v,
 * positional for exponents -4 .. 15, else d.ddde+XX. */
static void put_float(char *b, size_t cap, size_t *at, double v)
{
    if (isnan(v)) {
        put(b, cap, at, "nan");
        return;
    }
    if (isinf(v)) {
        put(b, cap, at, v < 0 ? "-inf" : "inf");
        return;
    }
    char e[40];
    for (int p = 0; p < 17; p++) {
        snprintf(e, sizeof e, "%.*e", p, v);
        if (strtod(e, NULL) == v)
            break;
    }
    const char *m = e;
    bool neg = *m == '-';
    m += neg;
    char digits[24];
    int nd = 0;
    for (; *m != 'e'; m++)
        if (*m != '.')
            digits[nd++] = *m;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';
    int exp = atoi(m + 1);
    put(b, cap, at, "%s", neg ? "-" : "");
    if (exp < -4 || exp >= 16) {
        put(b, cap, at, "%c", digits[0]);
        if (nd > 1)
            put(b, cap, at, ".%s", digits + 1);
        put(b, cap, at, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    } else if (exp < 0) {
        put(b, cap, at, "0.%.*s%s", -exp - 1, "0000", digits);
    } else {
        for (int k = 0; k <= exp; k++)
            put(b, cap, at, "%c", k < nd ? digits[k] : '0');
        put(b, cap, at, ".%s", nd > exp + 1 ? digits + exp + 1 : "0");
    }
}

/* Python's repr() of a string: single quotes unless it holds one and no
 * double quote. */
static void put_repr(char *b, size_t cap, size_t *at, const char *s)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    put(b, cap, at, "%c", q);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == (unsigned char)q || *c == '\\')
            put(b, cap, at, "\\%c", *c);
        else if (*c == '\n')
            put(b, cap, at, "\\n");
        else if (*c == '\t')
            put(b, cap, at, "\\t");
        else if (*c == '\r')
            put(b, cap, at, "\\r");
        else if (*c < 0x20 || *c == 0x7f)
            put(b, cap, at, "\\x%02x", *c);
        else
            put(b, cap, at, "%c", *c);
    }
    put(b, cap, at, "%c", q);
}

/* Python's repr() of a complex number: "2j" when the real part is +0.0,
 * else "(1+2j)", each part as a float's repr without a trailing ".0". */
static void put_complex(char *b, size_t cap, size_t *at, const double *z)
{
    for (int k = 0; k < 2; k++) {
        bool bare = z[0] == 0.0 && !signbit(z[0]);
        if (k == 0 && bare)
            continue;
        char part[64] = "";
        size_t n = 0;
        put_float(part, sizeof part, &n, z[k]);
        if (n >= 2 && strcmp(part + n - 2, ".0") == 0)
            part[n - 2] = '\0';
        bool sign = k == 1 && !bare && part[0] != '-';
        put(b, cap, at, "%s%s%s%s%s", k == 0 ? "(" : "", sign ? "+" : "",
            part, k == 1 ? "j" : "", k == 1 && !bare ? ")" : "");
    }
}

/* One argument as str() (repr: as repr()) gives it. */
static void put_arg(char *b, size_t cap, size_t *at, int32_t kind,
                    int64_t word, bool repr)
{
    char utf8[1024];
    if (kind == UF__RAISE_USTR) { /* as UTF-8, then as a literal */
        uf__ustr_utf8((const uf__ustr *)(intptr_t)word, utf8, sizeof utf8);
        word = (int64_t)(intptr_t)utf8;
        kind = UF__RAISE_STR;
    }
    switch (kind) {
    case UF__RAISE_COMPLEX:
        put_complex(b, cap, at, (const double *)(intptr_t)word);
        break;
    case UF__RAISE_STR:
        if (repr)
            put_repr(b, cap, at, (const char *)(intptr_t)word);
        else
            put(b, cap, at, "%s", (const char *)(intptr_t)word);
        break;
    case UF__RAISE_UINT:
        put(b, cap, at, "%" PRIu64, (uint64_t)word);
        break;
    case UF__RAISE_FLOAT: {
        double d;
        memcpy(&d, &word, sizeof d);
        put_float(b, cap, at, d);
        break;
    }
    case UF__RAISE_BOOL:
        put(b, cap, at, "%s", word ? "True" : "False");
        break;
    default:
        put(b, cap, at, "%" PRId64, word);
        break;
    }
}

/* The sink of UF__RT_RAISE: "Cls" alone without arguments, else "Cls: "
 * and str() of the exception: its one argument's str() (KeyError's
 * repr()), or the repr() of the tuple of them. */
void uf__rt_raise(const char *cls, int32_t code, int32_t nargs,
                  const int32_t *kinds, const int64_t *words)
{
    size_t cap = sizeof raise_msg, at = 0;
    raise_code = code;
    put(raise_msg, cap, &at, "%s", cls);
    if (nargs <= 0)
        return;
    put(raise_msg, cap, &at, ": ");
    if (nargs == 1) {
        put_arg(raise_msg, cap, &at, kinds[0], words[0],
                strcmp(cls, "KeyError") == 0);
        return;
    }
    put(raise_msg, cap, &at, "(");
    for (int32_t i = 0; i < nargs; i++) {
        if (i > 0)
            put(raise_msg, cap, &at, ", ");
        put_arg(raise_msg, cap, &at, kinds[i], words[i], true);
    }
    put(raise_msg, cap, &at, ")");
}

void uf__rt_print(int32_t nargs, const int32_t *kinds, const int64_t *words)
{
    char line[1024] = "";
    size_t cap = sizeof line, at = 0;
    for (int32_t i = 0; i < nargs; i++) {
        if (i > 0)
            put(line, cap, &at, " ");
        put_arg(line, cap, &at, kinds[i], words[i], false);
    }
    fprintf(stdout, "%s\n", line);
    fflush(stdout);
}

/* The last shapes message of this thread, consumed by the status that
 * follows it (so cudasim's statuses, which record nothing, never show a
 * stale one). */
static _Thread_local char shape_msg[640];

/* A runtime helper's own error (UF__JIT_RUNTIME) on this thread. */
static _Thread_local char runtime_msg[512];
static _Thread_local int runtime_code;

static void keep(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int uf__jit_status_carry(int status, const uf_error *e)
{
    if (status == UF__JIT_INDEX || status == UF__JIT_AXIS ||
        status == UF__JIT_AXIS_VALUE) {
        keep(index_msg, sizeof index_msg, e->message);
        return status;
    }
    if (status == UF__JIT_BCAST_SHAPES || status == UF__JIT_SLICE_SHAPE) {
        keep(shape_msg, sizeof shape_msg, e->message);
        return status;
    }
    if (status == UF__JIT_RAISE) {
        keep(raise_msg, sizeof raise_msg, e->message);
        raise_code = e->code;
        return status;
    }
    if (status > 0)
        return status;
    runtime_code = e->code != UF_ERR_OK ? e->code : UF_ERR_INTERNAL;
    keep(runtime_msg, sizeof runtime_msg, e->message);
    return UF__JIT_RUNTIME;
}


/* "(3,)", "(2,3)", "()" into b at *at (sep between axes: NumPy's "," or
 * Python's ", " as Numba prints tuples), cut at the buffer's end. */
static void put_shape(char *b, size_t cap, size_t *at, int nd,
                      const int64_t *dims, const char *sep)
{
    size_t n = *at;
    n += (size_t)snprintf(b + n, n < cap ? cap - n : 0, "(");
    for (int k = 0; k < nd; k++)
        n += (size_t)snprintf(b + n, n < cap ? cap - n : 0, "%s%" PRId64,
                              k ? sep : "", dims[k]);
    n += (size_t)snprintf(b + n, n < cap ? cap - n : 0, nd == 1 ? ",)" : ")");
    *at = n < cap ? n : cap - 1;
}

/* The sink of UF__RT_BROADCAST_ERROR (lower_shape_error.c, common/loop.h's
 * kinds): NumPy's words for operands and for an augmented assignment's
 * output, Numba's for a slice store. */
void uf__rt_broadcast_error(int32_t kind, int32_t nshapes,
                            const int32_t *ndims, const int64_t *dims)
{
    static const char *const head[] = {
        "ValueError: operands could not be broadcast together with shapes ",
        "ValueError: cannot assign slice of shape ",
        "ValueError: non-broadcastable output operand with shape "};
    static const char *const between[] = {
        " ", " from input of shape ", " doesn't match the broadcast shape "};
    if (kind < 0 || kind > 2)
        kind = 0;
    const char *sep = kind == 1 ? ", " : ",";
    size_t cap = sizeof shape_msg, at = 0;
    at = (size_t)snprintf(shape_msg, cap, "%s", head[kind]);
    at = at < cap ? at : cap - 1;
    for (int32_t s = 0; s < nshapes; s++) {
        if (s > 0) {
            at += (size_t)snprintf(shape_msg + at, cap - at, "%s",
                                   between[kind]);
            at = at < cap ? at : cap - 1;
        }
        put_shape(shape_msg, cap, &at, ndims[s], dims, sep);
        dims += ndims[s];
    }
}

static int shape_error(const char *fixed, uf_error *err)
{
    if (!shape_msg[0])
        return uf__error_set(err, UF_ERR_VALUE, "%s", fixed);
    int rc = uf__error_set(err, UF_ERR_VALUE, "%s", shape_msg);
    shape_msg[0] = 0;
    return rc;
}

/* np.sum's AxisError: the same per-thread record as IndexError's (one
 * status is turned into its error right after the kernel returned). */
void uf__rt_axis_error(int64_t axis, int32_t ndim)
{
    snprintf(index_msg, sizeof index_msg, "AxisError: axis %" PRId64 " is "
             "out of bounds for array of dimension %d", axis, (int)ndim);
}

static const char *index_error_message(void)
{
    return index_msg[0] ? index_msg : "IndexError: index out of bounds";
}

int uf__jit_status_error(int status, uf_error *err)
{
    static const char *const msgs[] = {
        [UF__JIT_ZERODIV_INT] = "ZeroDivisionError: integer division by zero",
        [UF__JIT_ZEROMOD_INT] = "ZeroDivisionError: integer modulo by zero",
        [UF__JIT_ZERODIV] = "ZeroDivisionError: division by zero",
        [UF__JIT_ZEROMOD] = "ZeroDivisionError: modulo by zero",
        [UF__JIT_ZEROPOW] =
            "ZeroDivisionError: 0 cannot be raised to a negative power",
        [UF__JIT_ZERODIV_COMPLEX] =
            "ZeroDivisionError: complex division by zero",
        [UF__JIT_RANGE_STEP] = "ValueError: range() arg 3 must not be zero",
        [UF__JIT_SLICE_STEP] = "ValueError: slice step cannot be zero",
        [UF__JIT_SLICE_SHAPE] = "ValueError: cannot assign slice from input "
                                "of a shape that does not broadcast to it",
        [UF__JIT_EMPTY_MIN] = "ValueError: zero-size array to reduction "
                              "operation minimum which has no identity",
        [UF__JIT_EMPTY_MAX] = "ValueError: zero-size array to reduction "
                              "operation maximum which has no identity",
        [UF__JIT_EMPTY_NANMINMAX] = "ValueError: zero-size array to "
                                    "reduction operation not possible",
        [UF__JIT_EMPTY_ARGMIN] = "ValueError: attempt to get argmin of an "
                                 "empty sequence",
        [UF__JIT_EMPTY_ARGMAX] = "ValueError: attempt to get argmax of an "
                                 "empty sequence",
        [UF__JIT_DOT_SHAPE] = "ValueError: incompatible array sizes for "
                              "np.dot(a, b) (vector * vector)",
        [UF__JIT_BCAST_SHAPES] = "ValueError: operands could not be "
                                 "broadcast together (an array expression "
                                 "inside a kernel)",
        [UF__JIT_NEGATIVE_DIMS] = "ValueError: negative dimensions are not "
                                  "allowed",
        [UF__JIT_ARRAY_TOO_BIG] = "ValueError: array is too big; `arr.size "
                                  "* arr.dtype.itemsize` is larger than the "
                                  "maximum possible size.",
        [UF__JIT_ARANGE_STEP] = "ValueError: Maximum allowed size exceeded",
        [UF__JIT_DOT_SHAPE_MM] = "ValueError: incompatible array sizes for "
                                 "np.dot(a, b) (matrix * matrix)",
        [UF__JIT_DOT_SHAPE_MV] = "ValueError: incompatible array sizes for "
                                 "np.dot(a, b) (matrix * vector)",
        [UF__JIT_DOT_SHAPE_VM] = "ValueError: incompatible array sizes for "
                                 "np.dot(a, b) (vector * matrix)",
        [UF__JIT_ARG_AXIS] = "ValueError: axis is out of bounds",
        [UF__JIT_RESHAPE_NEGATIVE] = "ValueError: multiple negative shape "
                                     "values",
        [UF__JIT_RESHAPE_SIZE] = "ValueError: total size of new array must "
                                 "be unchanged",
        [UF__JIT_RESHAPE_COPY] = "NotImplementedError: incompatible shape "
                                 "for array",
        [UF__JIT_AXIS_DUP] = "ValueError: duplicate value in 'axis'",
        [UF__JIT_ROUND_SHAPE] = "ValueError: invalid output shape",
        [UF__JIT_STOP_ITERATION] = "StopIteration: min() or max() of an "
                                   "empty array",
        [UF__JIT_TRUTH_AMBIGUOUS] = "ValueError: The truth value of an "
                                    "array with more than one element is "
                                    "ambiguous. Use a.any() or a.all()",
        [UF__JIT_TRUTH_EMPTY] = "ValueError: The truth value of an empty "
                                "array is ambiguous. Use `array.size > 0` "
                                "to check that an array is not empty.",
        [UF__JIT_ALL_NAN] = "ValueError: All-NaN slice encountered",
        [UF__JIT_EMPTY_PTP] = "ValueError: zero-size array reduction not "
                              "possible",
        [UF__JIT_DIFF_ORDER] = "ValueError: diff(): order must be "
                               "non-negative",
        [UF__JIT_AVG_WEIGHTS_1D] = "TypeError: 1D weights expected when "
                                   "shapes of a and weights differ.",
        [UF__JIT_AVG_WEIGHTS_SUM] = "ZeroDivisionError: Weights sum to "
                                    "zero, can't be normalized.",
        [UF__JIT_AVG_BCAST] = "ValueError: unable to broadcast argument 1 "
                              "to output array",
        [UF__JIT_PERCENTILE_Q] = "ValueError: Percentiles must be in the "
                                 "range [0, 100]",
        [UF__JIT_QUANTILE_Q] = "ValueError: Quantiles must be in the range "
                               "[0, 1]",
        [UF__JIT_SELECT_EMPTY] = "AssertionError: a percentile strictly "
                                 "between 0 and 100 of an empty array",
        [UF__JIT_NOT_FINITE] = "ValueError: array must not contain infs "
                               "or NaNs",
        [UF__JIT_EXTRACT_EMPTY] = "ValueError: Cannot extract from an empty "
                                  "array",
        [UF__JIT_EXTRACT_SHAPE] = "ValueError: condition shape inconsistent "
                                  "with arr shape",
        [UF__JIT_DELETE_OBJ] = "IndexError: obj must be less than the "
                               "len(arr)",
        [UF__JIT_INSERT_INDEX] = "IndexError: index is out of bounds for "
                                 "the given array size",
        [UF__JIT_INSERT_VALUES] = "ValueError: shape mismatch: the number "
                                  "of values does not match the number of "
                                  "insertion indices",
        [UF__JIT_RANDOM_RANGE] = "ValueError: empty range for randrange()",
        [UF__JIT_RANDOM_SAMPLE] = "ValueError: Cannot take a larger sample "
                                  "than population when 'replace=False'",
        [UF__JIT_RANDOM_GAMMA] = "ValueError: gammavariate: alpha and beta "
                                 "must be > 0.0",
        [UF__JIT_RANDOM_POWER] = "ValueError: power(): a <= 0",
        [UF__JIT_RANDOM_RAYLEIGH] = "ValueError: rayleigh(): scale <= 0",
        [UF__JIT_RANDOM_WALD_MEAN] = "ValueError: wald(): mean <= 0",
        [UF__JIT_RANDOM_WALD_SCALE] = "ValueError: wald(): scale <= 0",
        [UF__JIT_RANDOM_POISSON] = "ValueError: poisson(): lambda < 0",
        [UF__JIT_RANDOM_BINOMIAL_N] = "ValueError: binomial(): n <= 0",
        [UF__JIT_RANDOM_BINOMIAL_P] = "ValueError: binomial(): p outside of "
                                      "[0, 1]",
        [UF__JIT_RANDOM_GEOMETRIC] = "ValueError: geometric(): p outside of "
                                     "(0, 1]",
        [UF__JIT_RANDOM_NEGBIN_N] = "ValueError: negative_binomial(): n <= 0",
        [UF__JIT_RANDOM_NEGBIN_P] = "ValueError: negative_binomial(): p "
                                    "outside of [0, 1]",
        [UF__JIT_RANDOM_LOGSERIES] = "ValueError: logseries(): p outside of "
                                     "(0, 1]",
        [UF__JIT_RANDOM_ZIPF] = "ValueError: zipf(): a <= 1",
        [UF__JIT_RANDOM_NC_DF] = "ValueError: df <= 0",
        [UF__JIT_RANDOM_NC_NONC] = "ValueError: nonc < 0",
        [UF__JIT_RANDOM_DIRICHLET] = "ValueError: dirichlet: alpha must be > "
                                     "0.0",
        [UF__JIT_INTERP_EMPTY] = "ValueError: array of sample points is "
                                 "empty",
        [UF__JIT_INTERP_SIZE] = "ValueError: fp and xp are not of the same "
                                "size.",
        [UF__JIT_DIGITIZE_MONO] = "ValueError: bins must be monotonically "
                                  "increasing or decreasing",
        [UF__JIT_BINCOUNT_WLEN] = "ValueError: bincount(): weights and list "
                                  "don't have the same length",
        [UF__JIT_BINCOUNT_MINLEN] = "ValueError: 'minlength' must not be "
                                    "negative",
        [UF__JIT_BINCOUNT_NEG] = "ValueError: bincount(): first argument "
                                 "must be non-negative",
        [UF__JIT_LINALG_SQUARE] = "LinAlgError: Last 2 dimensions of the "
                                  "array must be square.",
        [UF__JIT_LINALG_NONFINITE] = "LinAlgError: Array must not contain "
                                     "infs or NaNs.",
        [UF__JIT_LINALG_SINGULAR] = "LinAlgError: Matrix is singular to "
                                    "machine precision.",
        [UF__JIT_LINALG_SYSTEM] = "LinAlgError: Incompatible array sizes, "
                                  "system is not dimensionally valid.",
        [UF__JIT_NORM_ORD] = "ValueError: Invalid norm order for matrices.",
        [UF__JIT_NORM_SVD] = "NotImplementedError: np.linalg.norm of a "
                             "matrix with ord 2 or -2 needs an SVD, which "
                             "ufjit does not have",
        [UF__JIT_LINALG_NOT_PD] = "LinAlgError: Matrix is not positive "
                                  "definite.",
        [UF__JIT_LINALG_EMPTY] = "LinAlgError: Arrays cannot be empty",
        [UF__JIT_POWER_SQUARE] = "ValueError: input must be a square array",
        [UF__JIT_LINALG_CONVERGE] = "ValueError: Internal algorithm failed "
                                    "to converge.",
        [UF__JIT_EIG_DOMAIN] = "ValueError: eig() argument must not cause "
                               "a domain change.",
        [UF__JIT_EIGVALS_DOMAIN] = "ValueError: eigvals() argument must not "
                                   "cause a domain change.",
        [UF__JIT_VANDER_NDIM] = "ValueError: x must be a one-dimensional "
                                "array or sequence.",
        [UF__JIT_VANDER_NEG] = "ValueError: Negative dimensions are not "
                               "allowed",
        [UF__JIT_FILL_DIAG_DIMS] = "ValueError: All dimensions of input "
                                   "must be of equal length",
        [UF__JIT_FILL_DIAG_VAL] = "ValueError: Unable to safely conform val "
                                  "to a.dtype",
        [UF__JIT_EXPAND_AXIS] = "IndexError: np.expand_dims(): axis out "
                                "of bounds",
        [UF__JIT_SWAP_AXIS1] = "ValueError: np.swapaxes: Argument axis1 "
                               "out of bounds for dimensions of the array",
        [UF__JIT_SWAP_AXIS2] = "ValueError: np.swapaxes: Argument axis2 "
                               "out of bounds for dimensions of the array",
        [UF__JIT_MOVE_SOURCE] = "ValueError: np.moveaxis: Argument source "
                                "out of bounds for dimensions of the array",
        [UF__JIT_MOVE_DEST] = "ValueError: np.moveaxis: Argument "
                              "destination out of bounds for dimensions of "
                              "the array",
        [UF__JIT_TRANSPOSE_REPEAT] = "ValueError: repeated axis in "
                                     "transpose",
        [UF__JIT_TRANSPOSE_AXIS] = "ValueError: axis is out of bounds for "
                                   "array of given dimension",
        [UF__JIT_TAKE_INDEX] = "IndexError: Index out of bounds",
        [UF__JIT_REPEAT_NEG] = "ValueError: negative dimensions are not "
                               "allowed",
        [UF__JIT_REPEAT_SHAPE] = "ValueError: operands could not be "
                                 "broadcast together",
        [UF__JIT_RESIZE_NEG] = "ValueError: All elements of `new_shape` "
                               "must be non-negative",
        [UF__JIT_BCAST_TO_NDIM] = "ValueError: input operand has more "
                                  "dimensions than allowed by the axis "
                                  "remapping",
        [UF__JIT_BCAST_TO_NEG] = "ValueError: all elements of broadcast "
                                 "shape must be non-negative",
        [UF__JIT_BCAST_TO_SHAPE] = "ValueError: operands could not be "
                                   "broadcast together with remapped "
                                   "shapes",
        [UF__JIT_BCAST_ARRAYS] = "ValueError: shape mismatch: objects "
                                 "cannot be broadcast to a single shape",
        [UF__JIT_FANCY_MASK] = "IndexError: boolean index did not match "
                               "indexed array",
        [UF__JIT_SIGNAL_A_EMPTY] = "ValueError: 'a' cannot be empty",
        [UF__JIT_SIGNAL_V_EMPTY] = "ValueError: 'v' cannot be empty",
        [UF__JIT_SIGNAL_MODE] = "ValueError: Invalid 'mode', valid are "
                                "'full', 'same', 'valid'",
        [UF__JIT_HIST_BINS] = "ValueError: histogram(): `bins` should be a "
                              "positive integer",
        [UF__JIT_HIST_RANGE] = "ValueError: histogram(): max must be larger "
                               "than min in range parameter",
        [UF__JIT_HIST_EDGES] = "ValueError: histogram(): bins must increase "
                               "monotonically",
        [UF__JIT_COV_ONE_ROW] = "RuntimeError: 2D array containing a single "
                                "row is unsupported due to ambiguity in "
                                "type inference. To use numpy.cov in this "
                                "case simply pass the row as a 1D array, "
                                "i.e. m[0].",
        [UF__JIT_COV_DDOF_INF] = "ValueError: Cannot convert non-finite ddof "
                                 "to integer",
        [UF__JIT_COV_DDOF_FRAC] = "ValueError: ddof must be integral value",
        [UF__JIT_COV_DIMS] = "ValueError: m and y have incompatible "
                             "dimensions",
        [UF__JIT_NDITER_SHAPES] = "ValueError: nditer(): operands could not "
                                  "be broadcast together",
        [UF__JIT_ITEM_SIZE] = "ValueError: item(): can only convert an array "
                              "of size 1 to a Python scalar",
        [UF__JIT_KTH_BOUNDS] = "ValueError: kth out of bounds",
        [UF__JIT_KTH_DIMS] = "ValueError: kth must be scalar or 1-D",
        [UF__JIT_GEOMSPACE_ZERO] = "ValueError: Geometric sequence cannot "
                                   "include zero",
        [UF__JIT_VIEW_0D] = "ValueError: Changing the dtype of a 0d array "
                            "is only supported if the itemsize is "
                            "unchanged",
        [UF__JIT_VIEW_LAST_AXIS] = "ValueError: To change to a dtype of a "
                                   "different size, the last axis must be "
                                   "contiguous",
        [UF__JIT_VIEW_LARGER] = "ValueError: When changing to a larger "
                                "dtype, its size must be a divisor of the "
                                "total size in bytes of the last axis of "
                                "the array.",
        [UF__JIT_VIEW_LAYOUT] = "ValueError: new type not compatible with "
                                "array",
        [UF__JIT_FROMBUFFER_SIZE] = "ValueError: buffer size must be a "
                                    "multiple of element size",
        [UF__JIT_FROMBUFFER_OFFSET] = "ValueError: offset must be "
                                      "non-negative and no greater than "
                                      "buffer length",
        [UF__JIT_FROMBUFFER_COUNT] = "ValueError: buffer is smaller than "
                                     "requested size",
        [UF__JIT_CROSS_DIMS] = "ValueError: Incompatible dimensions for "
                               "cross product\n(dimension must be 2 or 3)",
        [UF__JIT_CROSS_2D] = "ValueError: Dimensions for both inputs is 2.\n"
                             "Please replace your numpy.cross(a, b) call "
                             "with a call to `cross2d(a, b)` from "
                             "`numba.np.extensions`.",
        [UF__JIT_CROSS_BCAST] = "ValueError: unable to broadcast argument 1 "
                                "to output array",
        [UF__JIT_UNWRAP_AXIS] = "ValueError: Value for argument \"axis\" is "
                                "not supported",
        [UF__JIT_SELECT_LEN] = "ValueError: list of cases must be same "
                               "length as list of conditions",
        [UF__JIT_SPLIT_EQUAL] = "ValueError: array split does not result "
                                "in an equal division",
        [UF__JIT_SPLIT_DIVMOD] = "ZeroDivisionError: integer divmod by zero",
        [UF__JIT_SPLIT_SHAPE] = "IndexError: tuple index out of range",
        [UF__JIT_SPLIT_AXIS] = "ValueError: np.split: Argument axis out of "
                               "bounds for dimensions of the array",
        [UF__JIT_CROSS2D_DIMS] = "ValueError: Incompatible dimensions for "
                                 "2D cross product\n(dimension must be 2 "
                                 "for both inputs)",
        [UF__JIT_CROSS2D_BCAST] = "ValueError: unable to broadcast argument "
                                  "2 to output array",
        /* Numba's words, not CPython's */
        [UF__JIT_LIST_INDEX] = "IndexError: getitem out of range",
        [UF__JIT_LIST_ASSIGN] = "IndexError: setitem out of range",
        [UF__JIT_LIST_POP_EMPTY] = "IndexError: pop from empty list",
        [UF__JIT_LIST_POP_INDEX] = "IndexError: pop index out of range",
        [UF__JIT_LIST_REMOVE] = "ValueError: list.remove(x): x not in list",
        [UF__JIT_LIST_VALUE] = "ValueError: value not in list",
        [UF__JIT_LIST_RESIZE] = "ValueError: cannot resize extended list "
                                "slice with step != 1",
        [UF__JIT_DICT_KEY] = "KeyError", /* Numba's d.pop(k), del d[k]:
                                            no argument */
        [UF__JIT_USTR_INDEX] = "IndexError: string index out of range",
        [UF__JIT_USTR_CHR] = "ValueError: chr() arg not in range(0x10ffff)",
        [UF__JIT_USTR_ORD] = "TypeError: ord() expected a character",
        [UF__JIT_USTR_STEP] = "ValueError: slice step cannot be zero",
        [UF__JIT_USTR_NOTFOUND] = "ValueError: substring not found",
        [UF__JIT_USTR_EMPTYSEP] = "ValueError: empty separator",
        [UF__JIT_USTR_FILL] = "ValueError: The fill character must be "
                              "exactly one character long",
        [UF__JIT_USTR_ASCII] = "NotImplementedError: ufjit's string "
                               "methods map case and classify letters and "
                               "digits of ASCII only, and this string holds "
                               "other characters (Numba uses Unicode's "
                               "tables)",
        [UF__JIT_DICT_POPITEM] = "KeyError: 'dictionary is empty'",
        [UF__JIT_SET_REMOVE] = "KeyError: set.remove(): key not in set",
        [UF__JIT_SET_POP] = "KeyError: set.pop(): empty set",
        [UF__JIT_LIST_RAGGED] = "ValueError: incompatible sequence shape",
        [UF__JIT_SET_MINMAX_STR] = "AssertionError: min() or max() of an "
                                   "empty set of strings",
        [UF__JIT_POLY_EMPTY] = "ValueError: Coefficient array is empty",
        [UF__JIT_POLY_ZERODIV] = "ZeroDivisionError: polydiv by a zero "
                                 "series",
        [UF__JIT_POLY_INDEX] = "IndexError: index out of bounds of an "
                               "empty coefficient array",
        [UF__JIT_POLY_BCAST] = "ValueError: unable to broadcast argument 1 "
                               "to output array",
    };
    if (status == UF__JIT_NOMEM)
        return uf__error_set(err, UF_ERR_NOMEM, "%s", "out of memory for a "
                             "temporary inside a kernel");
    if (status == UF__JIT_BCAST_SHAPES || status == UF__JIT_SLICE_SHAPE)
        return shape_error(msgs[status], err);
    if (status == UF__JIT_AXIS) /* recorded, or raised by CUDA code */
        return uf__error_set(err, UF_ERR_VALUE, "%s",
                             strncmp(index_msg, "AxisError", 9) == 0
                                 ? index_msg
                                 : "AxisError: axis is out of bounds");
    if (status == UF__JIT_AXIS_VALUE) /* the same record, as ValueError */
        return uf__error_set(err, UF_ERR_VALUE, "ValueError%s",
                             strncmp(index_msg, "AxisError", 9) == 0
                                 ? index_msg + 9
                             : strncmp(index_msg, "ValueError", 10) == 0
                                 ? index_msg + 10
                                 : ": axis is out of bounds");
    if (status == UF__JIT_INDEX)
        return uf__error_set(err, UF_ERR_INDEX, "%s",
                             index_error_message());
    if (status == UF__JIT_RAISE)
        return uf__error_set(err, raise_code ? raise_code : UF_ERR_VALUE,
                             "%s", raise_msg);
    if (status == UF__JIT_RUNTIME)
        return uf__error_set(err, runtime_code ? runtime_code
                                               : UF_ERR_INTERNAL,
                             "%s", runtime_msg);
    if (status == UF__JIT_CONCAT_AXIS || status == UF__JIT_STACK_AXIS)
        return uf__error_set(err, UF_ERR_INDEX, "IndexError: np.%s(): axis "
                             "out of bounds", status == UF__JIT_STACK_AXIS
                                                  ? "stack"
                                                  : "concatenate");
    if (status == UF__JIT_STACK_SHAPE)
        return uf__error_set(err, UF_ERR_VALUE, "%s", "ValueError: "
                             "np.stack(): all input arrays must have the "
                             "same shape");
    if (status >= UF__JIT_CONCAT_SIZES &&
        status < UF__JIT_CONCAT_SIZES + UF_MAXDIMS)
        return uf__error_set(err, UF_ERR_VALUE, "ValueError: "
                             "np.concatenate(): input sizes over dimension "
                             "%d do not match", status - UF__JIT_CONCAT_SIZES);
    if (status == UF__JIT_EXPAND_AXIS || status == UF__JIT_TAKE_INDEX ||
        status == UF__JIT_FANCY_MASK || status == UF__JIT_USTR_INDEX ||
        status == UF__JIT_DELETE_OBJ || status == UF__JIT_INSERT_INDEX)
        return uf__error_set(err, UF_ERR_INDEX, "%s", msgs[status]);
    if (status >= UF__JIT_ASSERT)
        return uf__error_set(err, UF_ERR_VALUE,
                             "AssertionError (assert on kernel line %d)",
                             status - UF__JIT_ASSERT);
    if (status > 0 && status < (int)(sizeof msgs / sizeof msgs[0]) &&
        msgs[status])
        return uf__error_set(err, UF_ERR_VALUE, "%s", msgs[status]);
    return uf__error_set(err, UF_ERR_INTERNAL,
                         "compiled kernel failed with status %d", status);
}
