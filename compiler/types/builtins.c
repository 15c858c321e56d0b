/* Name <-> enum for the builtins table of builtins.h. */
#include "compiler/types/builtins.h"
#include "compiler/types/infer_npufunc.h"

#include <string.h>

static const char *const builtin_names[UF__BI_COUNT] = {
#define UF__BUILTIN_NAME(e, name) [UF__BI_##e] = name,
    UF__BUILTIN_MAP(UF__BUILTIN_NAME)
#undef UF__BUILTIN_NAME
};

/* A linear scan over ~130 short strings: lookups happen once per name
 * in a kernel, not in a hot loop. UF__BI_NONE's "" never matches, so an
 * empty name is unknown like any other. */
uf__builtin uf__builtin_lookup(const char *qualified_name)
{
    if (!qualified_name || !*qualified_name)
        return UF__BI_NONE;
    for (int b = 1; b < UF__BI_COUNT; b++) {
        if (strcmp(builtin_names[b], qualified_name) == 0)
            return (uf__builtin)b;
    }
    const char *canonical = uf__npufunc_alias(qualified_name);
    return canonical ? uf__builtin_lookup(canonical) : UF__BI_NONE;
}

const char *uf__builtin_name(uf__builtin b)
{
    if ((int)b < 0 || b >= UF__BI_COUNT)
        return "";
    return builtin_names[b];
}
