/* The module scan's state and the pieces of it that kmodule.c and
 * kmodule_sig.c share (internal to compiler/front/). */
#ifndef UF_COMPILER_FRONT_KMODULE_SCAN_H
#define UF_COMPILER_FRONT_KMODULE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/front/kmodule.h"

/* A module-level list of signatures, SIGS = ['f8(f8)', 'f4(f4)'], that
 * decorators may name (Numba's decorators get the list's value). */
typedef struct uf__siglist {
    const char *name;
    const uf__expr *list;
} uf__siglist;

typedef struct uf__kscan {
    uf__kmodule *km;
    uf_error *err;
    bool *weak; /* per global: a Python scalar constant */
    int capglobals, capkernels;
    uf__siglist *siglists; /* in binding order */
    int nsiglists, capsiglists;
} uf__kscan;

/* A refusal at pos (UF_ERR_UNSUPPORTED, file:line:col); its code. */
int uf__kscan_unsupported(uf__kscan *S, uf__pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Grows an arena array to hold n + 1 elements; false when out of memory. */
bool uf__kscan_grow(uf__kscan *S, void **items, int *cap, int n, size_t size);

/* kmodule_sig.c: the latest module-level signature list bound to name
 * (NULL: none, or the name rebound to something else); the dotted
 * meaning of a decorator expression ("numba.cuda.jit") into buf, false
 * when it is not a known one; the signatures of a decorator's first
 * positional argument added to d (0 or the error's code). */
const uf__siglist *uf__kscan_siglist(const uf__kscan *S, const char *name);
bool uf__kscan_qualify(uf__kscan *S, const uf__expr *e, char *buf,
                       size_t size);
int uf__kscan_signatures(uf__kscan *S, uf__kernel_decl *d,
                         const uf__expr *e);

#endif
