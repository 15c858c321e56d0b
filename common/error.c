/* The error object: names and messages from UF_ERRNO_MAP, and setters. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"

void uf_error_clear(uf_error *err)
{
    if (err == NULL)
        return;
    err->code = UF_ERR_OK;
    err->line = 0;
    err->column = 0;
    err->file[0] = '\0';
    err->message[0] = '\0';
}

const char *uf_err_name(int code)
{
    switch (code) {
#define UF__ERR_NAME(name, value, msg) \
    case UF_ERR_##name:               \
        return "UF_ERR_" #name;
        UF_ERRNO_MAP(UF__ERR_NAME)
#undef UF__ERR_NAME
    }
    return "UF_ERR_UNKNOWN";
}

const char *uf_strerror(int code)
{
    switch (code) {
#define UF__ERR_MSG(name, value, msg) \
    case UF_ERR_##name:              \
        return msg;
        UF_ERRNO_MAP(UF__ERR_MSG)
#undef UF__ERR_MSG
    }
    return "unknown error";
}

static void set_message(uf_error *err, int code, const char *fmt, va_list ap)
{
    err->code = code;
    if (fmt == NULL || fmt[0] == '\0')
        snprintf(err->message, sizeof err->message, "%s", uf_strerror(code));
    else
        vsnprintf(err->message, sizeof err->message, fmt, ap);
}

int uf__error_set(uf_error *err, int code, const char *fmt, ...)
{
    if (err == NULL)
        return code;
    va_list ap;
    va_start(ap, fmt);
    set_message(err, code, fmt, ap);
    va_end(ap);
    err->file[0] = '\0';
    err->line = 0;
    err->column = 0;
    return code;
}

int uf__error_set_at(uf_error *err, int code, const char *file, int line,
                     int column, const char *fmt, ...)
{
    if (err == NULL)
        return code;
    va_list ap;
    va_start(ap, fmt);
    set_message(err, code, fmt, ap);
    va_end(ap);
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->column = column;
    return code;
}

int uf__error_nomem(uf_error *err)
{
    return uf__error_set(err, UF_ERR_NOMEM, "out of memory");
}
