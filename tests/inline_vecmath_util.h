/* Reading the JIT's vector-math line (uf_jit_vector_math, `ufjit sysinfo`)
 * for ufjit's inline functions (compiler/host/codegen_host_inline.c):
 * "...; inline (ufjit's IR) for exp expf on AVX-512, exp expf on AVX2".
 * Shared by the vector-math tests. */
#ifndef UF_TESTS_INLINE_VECMATH_UTIL_H
#define UF_TESTS_INLINE_VECMATH_UTIL_H

#include <stdbool.h>
#include <string.h>

/* Whether the line lists libm function `fname` ("exp", "expf") as inline
 * on ISA `isa` ("AVX-512", "AVX2"). */
static inline bool uf_test_inline_listed(const char *vm, const char *fname,
                                         const char *isa)
{
    static const char key[] = "inline (ufjit's IR) for ";
    const char *p = strstr(vm, key);
    if (!p)
        return false;
    p += sizeof key - 1;
    size_t seg = strcspn(p, ";");
    size_t nlen = strlen(fname), ilen = strlen(isa);
    /* groups "exp expf on AVX-512" separated by ", " */
    while (seg > 0) {
        size_t g = 0;
        while (g < seg && !(p[g] == ',' && g + 1 < seg && p[g + 1] == ' '))
            g++;
        const char *on = NULL;
        for (size_t i = 0; i + 4 <= g; i++)
            if (strncmp(p + i, " on ", 4) == 0)
                on = p + i;
        if (on && (size_t)(p + g - (on + 4)) == ilen &&
            strncmp(on + 4, isa, ilen) == 0)
            for (const char *t = p; t < on;) {
                size_t tl = strcspn(t, " ");
                if (tl == nlen && strncmp(t, fname, nlen) == 0)
                    return true;
                t += tl + 1;
            }
        if (g >= seg)
            break;
        p += g + 2;
        seg -= g + 2;
    }
    return false;
}

#endif
