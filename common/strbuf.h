/* A growing NUL-terminated string for listings and dumps. The first failure
 * is sticky: later appends do nothing and uf__strbuf_take returns NULL. */
#ifndef UF_COMMON_STRBUF_H
#define UF_COMMON_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <ufjit/error.h>

typedef struct uf__strbuf {
    char *s;
    size_t len, cap;
    uf_error *err;
    bool failed;
} uf__strbuf;

/* An empty buffer reporting failures through err. */
static inline uf__strbuf uf__strbuf_init(uf_error *err)
{
    return (uf__strbuf){NULL, 0, 0, err, false};
}

void uf__strbuf_printf(uf__strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The string (owned by the caller, free with uf__free; "" when nothing was
 * appended), or NULL when an append failed. Resets the buffer. */
char *uf__strbuf_take(uf__strbuf *b);

#endif
