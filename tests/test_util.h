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

/* Fails the test, naming the table row's file:line and a message. */
#define uf_fail_at(file, line, ...)                                         \
    do {                                                                    \
        print_error("%s:%d: ", (file), (line));                           \
        print_error(__VA_ARGS__);                                          \
        print_error("\n");                                                 \
        fail();                                                             \
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

#endif
