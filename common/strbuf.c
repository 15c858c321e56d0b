#include <stdarg.h>
#include <stdio.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/strbuf.h"

void uf__strbuf_printf(uf__strbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t need;
    if (w < 0 || !uf__add_size(b->len, (size_t)w + 1, &need)) {
        uf__error_set(b->err, UF_ERR_INTERNAL, "formatting failed");
        b->failed = true;
        return;
    }
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < need)
            cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
        char *s = uf__realloc(b->s, cap, 1, b->err);
        if (s == NULL) {
            b->failed = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)w;
}

char *uf__strbuf_take(uf__strbuf *b)
{
    char *s = b->s;
    bool failed = b->failed;
    *b = uf__strbuf_init(b->err);
    if (failed) {
        uf__free(s);
        return NULL;
    }
    return s != NULL ? s : uf__strdup("", b->err);
}
