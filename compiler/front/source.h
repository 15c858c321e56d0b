/* A kernel source text and the error format that points into it:
 *
 *   kernels.py:12:9: error: Cannot unify float32 and int64 for 'x'
 *       x = 1 if c else y
 *           ^
 */
#ifndef UF_COMPILER_SOURCE_H
#define UF_COMPILER_SOURCE_H

#include <stddef.h>
#include <ufjit/error.h>

typedef struct uf__source {
    const char *name; /* file name as given, for messages */
    const char *text; /* NUL-terminated */
    size_t len;
} uf__source;

/* 1-based line and column (columns count bytes, like Python's). */
typedef struct uf__pos {
    int line;
    int col;
} uf__pos;

/* Sets err (code, file, line, column) with the message followed by the
 * source line and a caret under `pos`. Returns `code`. */
int uf__source_error(uf_error *err, int code, const uf__source *src,
                     uf__pos pos, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
