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

#endif
