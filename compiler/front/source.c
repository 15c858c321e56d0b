/* Kernel-source errors: the message, then the offending source line and a
 * caret under the column. Never allocates, so it also works when reporting
 * after an out-of-memory failure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/source.h"

/* Finds line `line` (1-based) of src; a line past the end gives the last
 * line. Sets *start and *len (without the line terminator). */
static void find_line(const uf__source *src, int line, const char **start,
                      size_t *len)
{
    const char *t = src->text ? src->text : "";
    size_t n = src->text ? src->len : 0;
    size_t i = 0, begin = 0;
    int cur = 1;
    while (cur < line && i < n) {
        if (t[i] == '\n' || t[i] == '\r') {
            if (t[i] == '\r' && i + 1 < n && t[i + 1] == '\n')
                i++;
            i++;
            if (i >= n)
                break; /* the file ends with a newline: stay on the last */
            begin = i;
            cur++;
            continue;
        }
        i++;
    }
    size_t end = begin;
    while (end < n && t[end] != '\n' && t[end] != '\r')
        end++;
    *start = t + begin;
    *len = end - begin;
}

int uf__source_error(uf_error *err, int code, const uf__source *src,
                     uf__pos pos, const char *fmt, ...)
{
    if (err == NULL)
        return code;
    char buf[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t used = w < 0 ? 0 : (size_t)w;
    if (used >= sizeof buf)
        used = sizeof buf - 1;

    const char *line = "";
    size_t len = 0;
    if (src != NULL)
        find_line(src, pos.line, &line, &len);
    /* Caret under column col (1-based), at most one past the line end;
     * tabs in the line are copied so the caret lines up on any tab width. */
    size_t col = pos.col < 1 ? 0 : (size_t)pos.col - 1;
    if (col > len)
        col = len;
    size_t room = sizeof buf - 1 - used;
    /* Needed: "\n" line "\n" indent "^"; a too-long line is cut. */
    if (room >= 4) {
        buf[used++] = '\n';
        room--;
        size_t avail = room - 2; /* line + indent: less '\n' and '^' */
        size_t mid = (avail - 1) / 2;
        if (col > mid) {
            /* A very long line: start the excerpt so that the character
             * under the caret is still shown. */
            size_t from = col - mid;
            line += from;
            len -= from;
            col -= from;
        }
        size_t keep = len;
        if (keep > avail - col)
            keep = avail - col;
        /* A NUL byte in the line would end the message early. */
        for (size_t i = 0; i < keep; i++)
            buf[used++] = line[i] == '\0' ? '?' : line[i];
        buf[used++] = '\n';
        for (size_t i = 0; i < col; i++)
            buf[used++] = (i < len && line[i] == '\t') ? '\t' : ' ';
        buf[used++] = '^';
        buf[used] = '\0';
    }
    const char *name = src && src->name ? src->name : "";
    return uf__error_set_at(err, code, name, pos.line, pos.col, "%s", buf);
}
