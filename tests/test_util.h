/* Shared helpers for the CMocka tests: includes in the order CMocka needs,
 * and a location-carrying failure for table-driven tests. */
#ifndef UF_TESTS_TEST_UTIL_H
#define UF_TESTS_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ufjit/ufjit.h>

/* A table row records where it was written: LOC gives ".file, .line". */
#define LOC __FILE__, __LINE__

/* Fails the test, naming the table row's file:line and a message.
 * CMocka's _fail never returns (it jumps out of the test) but is not
 * declared noreturn: say so, or clang sees the caller go on with values
 * the failed check left unset. */
#define uf_fail_at(file, line, ...)                                         \
    do {                                                                    \
        print_error("%s:%d: ", (file), (line));                           \
        print_error(__VA_ARGS__);                                          \
        print_error("\n");                                                 \
        fail();                                                             \
        __builtin_unreachable();                                            \
    } while (0)

/* Asserts a call succeeded, printing the uf_error when it did not. */
#define uf_assert_ok(cond, err)                                             \
    do {                                                                    \
        if (!(cond)) {                                                      \
            print_error("%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                        #cond, (err)->message, uf_err_name((err)->code));  \
            fail();                                                         \
        }                                                                   \
    } while (0)

/* A fixed buffer that tests print into (tree dumps, token streams);
 * output past its end is cut, which the comparison then reports. */
typedef struct uf_test_buf {
    char s[16384];
    size_t n;
} uf_test_buf;

static inline void uf_test_put(uf_test_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void uf_test_put(uf_test_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (b->n < sizeof b->s) {
        int w = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
        b->n += w > 0 ? (size_t)w : 0;
        if (b->n >= sizeof b->s)
            b->n = sizeof b->s - 1;
    }
    va_end(ap);
}

/* Same dtype, shape and bytes, element by element in C order (NaNs
 * compared by their bits): parallel targets must match cpu exactly. */
static inline void uf_assert_same_bytes(const char *file, int line,
                                        const char *what,
                                        const uf_array *want,
                                        const uf_array *got)
{
    uf_error err;
    int nd = uf_array_ndim(want);

    if (uf_array_dtype(want) != uf_array_dtype(got) ||
        uf_array_ndim(got) != nd ||
        (nd > 0 && memcmp(uf_array_shape(want), uf_array_shape(got),
                          (size_t)nd * sizeof(int64_t)) != 0))
        uf_fail_at(file, line, "%s: dtype or shape differs", what);
    uf_array *a = uf_array_copy(want, UF_ORDER_C, &err);
    uf_array *b = uf_array_copy(got, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL && b != NULL, &err);
    size_t item = uf_array_itemsize(a);
    const char *pa = uf_array_data(a), *pb = uf_array_data(b);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        if (memcmp(pa + i * (int64_t)item, pb + i * (int64_t)item, item) != 0)
            uf_fail_at(file, line, "%s: element %lld differs", what,
                       (long long)i);
    uf_array_release(a);
    uf_array_release(b);
}

/* a and b hold the same elements, byte for byte, whatever their strides
 * (same dtype and shape; host arrays). */
static inline void assert_same_elements(const uf_array *a, const uf_array *b)
{
    uf_error err;
    assert_int_equal(uf_array_dtype(a), uf_array_dtype(b));
    assert_int_equal(uf_array_ndim(a), uf_array_ndim(b));
    uf_array *ca = uf_array_copy(a, UF_ORDER_C, &err);
    uf_array *cb = uf_array_copy(b, UF_ORDER_C, &err);
    assert_non_null(ca);
    assert_non_null(cb);
    assert_int_equal(uf_array_size(ca), uf_array_size(cb));
    assert_memory_equal(uf_array_data(ca), uf_array_data(cb),
                        (size_t)uf_array_nbytes(ca));
    uf_array_release(ca);
    uf_array_release(cb);
}

#endif
