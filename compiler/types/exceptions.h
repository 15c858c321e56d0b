/* The exception classes a kernel may raise (`raise ValueError("...")`):
 * Python's built-in ones that Numba compiles, each with the uf_errcode its
 * run-time error carries (compiler/types/infer_raise.c types the
 * statement, compiler/lower/lower_raise.c lowers it). */
#ifndef UF_COMPILER_EXCEPTIONS_H
#define UF_COMPILER_EXCEPTIONS_H

#include <string.h>

#include "ufjit/error.h"

#define UF__EXCEPTION_MAP(X)                                                \
    X(Exception, UF_ERR_VALUE)                                              \
    X(ArithmeticError, UF_ERR_VALUE)                                        \
    X(AssertionError, UF_ERR_VALUE)                                         \
    X(AttributeError, UF_ERR_VALUE)                                         \
    X(FloatingPointError, UF_ERR_VALUE)                                     \
    X(IndexError, UF_ERR_INDEX)                                             \
    X(KeyError, UF_ERR_VALUE)                                               \
    X(LookupError, UF_ERR_VALUE)                                            \
    X(MemoryError, UF_ERR_NOMEM)                                            \
    X(NameError, UF_ERR_VALUE)                                              \
    X(NotImplementedError, UF_ERR_VALUE)                                    \
    X(OSError, UF_ERR_VALUE)                                                \
    X(OverflowError, UF_ERR_VALUE)                                          \
    X(RuntimeError, UF_ERR_VALUE)                                           \
    X(StopIteration, UF_ERR_VALUE)                                          \
    X(TypeError, UF_ERR_VALUE)                                              \
    X(UnicodeError, UF_ERR_VALUE)                                           \
    X(ValueError, UF_ERR_VALUE)                                             \
    X(ZeroDivisionError, UF_ERR_VALUE)

/* What the words of an exception's or print's arguments hold (the
 * runtime's uf__rt_raise / uf__rt_print, compiler/host/jit.h). */
enum {
    UF__RAISE_STR,   /* a const char * (a string literal of the kernel) */
    UF__RAISE_INT,   /* an int64_t */
    UF__RAISE_UINT,  /* a uint64_t */
    UF__RAISE_FLOAT, /* a double's bits (a float32 widened) */
    UF__RAISE_BOOL,  /* 0 or 1 */
    UF__RAISE_USTR,  /* a run-time string's uf__ustr * (common/ustr.h) */
    UF__RAISE_COMPLEX, /* the address of a complex number's two doubles */
    UF__RAISE_MAXARGS = 16
};

/* The error code of built-in exception class `name`; UF_ERR_OK (0) for a
 * name that is not one. */
static inline int uf__exception_code(const char *name)
{
#define UF__EXC_CODE(n, code)                                               \
    if (strcmp(name, #n) == 0)                                              \
        return code;
    UF__EXCEPTION_MAP(UF__EXC_CODE)
#undef UF__EXC_CODE
    return UF_ERR_OK;
}

#endif
