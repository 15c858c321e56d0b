/* Non-ASCII identifiers (PEP 3131): which code points Python accepts, and
 * which ones NFKC normalisation may change. Python compares identifiers
 * after NFKC (`ﬁx` is `fix`); ufjit has no normalisation tables, so it
 * refuses an identifier holding a character NFKC may change instead of
 * comparing it differently. The tables are generated
 * (scripts/gen-unicode-tables.py -> unicode_ident.c). */
#ifndef UF_COMPILER_UNICODE_IDENT_H
#define UF_COMPILER_UNICODE_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct uf__cp_range {
    uint32_t lo, hi;
} uf__cp_range;

extern const uf__cp_range uf__xid_start[], uf__xid_continue[],
    uf__nfkc_may_change[];
extern const int uf__xid_start_n, uf__xid_continue_n, uf__nfkc_may_change_n;

/* Whether cp lies in one of the n sorted ranges r. */
bool uf__cp_in(const uf__cp_range *r, int n, uint32_t cp);


#endif
