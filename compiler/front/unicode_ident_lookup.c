/* Lookups over the generated tables of unicode_ident.c. */
#include <stddef.h>

#include "compiler/front/unicode_ident.h"

bool uf__cp_in(const uf__cp_range *r, int n, uint32_t cp)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (cp < r[mid].lo)
            hi = mid - 1;
        else if (cp > r[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}
