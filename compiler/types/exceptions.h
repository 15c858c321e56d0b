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
