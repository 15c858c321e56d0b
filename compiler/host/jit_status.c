/* Turning the status a compiled host kernel returned into an error
 * (jit.h: uf__jit_status_error), and the runtime side of the host's error
 * sink: the IndexError record its generated code writes. */
#include <inttypes.h>
#include <stdio.h>

#include "common/error_internal.h"
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
        [UF__JIT_RESHAPE_NEGATIVE] = "ValueError: multiple negative shape "
                                     "values",
        [UF__JIT_RESHAPE_SIZE] = "ValueError: total size of new array must "
                                 "be unchanged",
        [UF__JIT_RESHAPE_COPY] = "NotImplementedError: incompatible shape "
                                 "for array",
    };
    if (status == UF__JIT_NOMEM)
        return uf__error_set(err, UF_ERR_NOMEM, "%s", "out of memory for a "
                             "temporary inside a kernel");
    if (status == UF__JIT_INDEX)
        return uf__error_set(err, UF_ERR_INDEX, "%s",
                             index_error_message());
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
