/* Setting errors from inside the library. */
#ifndef UF_COMMON_ERROR_INTERNAL_H
#define UF_COMMON_ERROR_INTERNAL_H

#include <ufjit/error.h>

/* Fills `err` (may be NULL) and returns `code`, so callers can write
 * `return uf__error_set(err, UF_ERR_VALUE, "...", ...);`. */
int uf__error_set(uf_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same with a position in kernel source. */
int uf__error_set_at(uf_error *err, int code, const char *file, int line,
                     int column, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* UF_ERR_NOMEM with the standard message; never allocates. */
int uf__error_nomem(uf_error *err);

#endif
