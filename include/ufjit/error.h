/* The error object every fallible ufjit call takes as its last argument. */
#ifndef UFJIT_ERROR_H
#define UFJIT_ERROR_H

#include <ufjit/export.h>

UF_BEGIN_DECLS

/* Codes, names and messages come from this one table. */
#define UF_ERRNO_MAP(X)                                                     \
    X(OK, 0, "success")                                                     \
    X(NOMEM, -1, "out of memory")                                           \
    X(INVALID, -2, "invalid argument")                                      \
    X(VALUE, -3, "invalid value")                                           \
    X(TYPE, -4, "unsupported or mismatched type")                          \
    X(SHAPE, -5, "shape mismatch")                                          \
    X(INDEX, -6, "index out of range")                                      \
    X(OVERFLOW, -7, "size overflow")                                        \
    X(CAST, -8, "cast not allowed under the casting rule")                  \
    X(IO, -9, "input/output error")                                         \
    X(FORMAT, -10, "malformed or unsupported file")                         \
    X(SYNTAX, -11, "syntax error")                                          \
    X(TYPING, -12, "typing error")                                          \
    X(UNSUPPORTED, -13, "unsupported construct")                           \
    X(NOT_FOUND, -14, "not found")                                          \
    X(READONLY, -15, "array is read-only")                                  \
    X(NO_DEVICE, -16, "no CUDA device available")                           \
    X(INTERNAL, -17, "internal error")                                      \
    X(LIMIT, -18, "a documented limit was exceeded")

typedef enum uf_errcode {
#define UF__ERR_ENUM(name, value, msg) UF_ERR_##name = value,
    UF_ERRNO_MAP(UF__ERR_ENUM)
#undef UF__ERR_ENUM
} uf_errcode;

/* Filled in by a failing call. The buffers are fixed so that reporting an
 * out-of-memory error never needs to allocate. `file` is empty and `line`,
 * `column` are 0 unless the error points into kernel source. */
typedef struct uf_error {
    int code;
    int line;
    int column;
    char file[256];
    char message[1024];
} uf_error;

/* Resets `err` to UF_ERR_OK with empty strings. */
UF_EXPORT void uf_error_clear(uf_error *err);

/* "UF_ERR_NOMEM" style name of a code; "UF_ERR_UNKNOWN" for other values. */
UF_EXPORT const char *uf_err_name(int code);

/* The generic message of a code ("out of memory"). */
UF_EXPORT const char *uf_strerror(int code);

UF_END_DECLS

#endif
