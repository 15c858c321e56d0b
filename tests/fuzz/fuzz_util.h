/* Shared by the libFuzzer targets of tests/fuzz: the input as a C string,
 * and the checks every target makes of a failed call. A broken invariant
 * traps, so libFuzzer records the input as a crash. */
#ifndef UF_TESTS_FUZZ_UTIL_H
#define UF_TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ufjit/error.h>

/* The input up to its first NUL, NUL-terminated, in its own allocation so
 * that ASan sees a read past its end. Free with free(). */
static inline char *fz_cstring(const uint8_t *data, size_t size)
{
    const uint8_t *z = memchr(data, 0, size);
    size_t n = z ? (size_t)(z - data) : size;
    char *s = malloc(n + 1);
    if (s == NULL)
        abort(); /* libFuzzer's malloc limit: report it as such */
    memcpy(s, data, n);
    s[n] = '\0';
    return s;
}

/* A failed call must say why: a code and a non-empty message. */
static inline void fz_check_error(const uf_error *err)
{
    if (err->code == UF_ERR_OK || err->message[0] == '\0' ||
        memchr(err->message, '\0', sizeof err->message) == NULL)
        __builtin_trap();
}

#define FZ_CHECK(cond)                                                      \
    do {                                                                    \
        if (!(cond))                                                        \
            __builtin_trap();                                               \
    } while (0)

#endif
