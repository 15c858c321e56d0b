/* SLEEF (libsleef.so.3, Debian's libsleef3) in place of glibc's libmvec
 * for the functions and ISAs where it was measured faster within our
 * 4-ulp bound (bench/bench_vecmath.c, bench/VECMATH.md): loaded at run
 * time with dlopen, so ufjit builds and runs without it and then uses
 * libmvec alone, as before. The choices are per vector variant, picked
 * from the CPU the JIT compiles for (its AVX2 / AVX-512 features). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/host/codegen_host.h"

/* Measured on an AMD EPYC (Zen 4, AVX-512), bench/VECMATH.md: a SLEEF
 * entry point replaces libmvec's where it was >= 1.2x faster (best of 3
 * runs, 4096 elements in L1, one thread), within 3 ulp of glibc's scalar
 * libm on test_mvec_ulp's inputs and exact on special values. Kinds:
 * UF__MVEC_D64/D32 AVX2 (4 doubles, 8 floats), E64/E32 AVX-512. */
static const struct {
    const char *func;
    unsigned char kind;
    const char *symbol;
} sleef_choices[] = {
    {"sin", UF__MVEC_E32, "Sleef_sinf16_u35avx512f"},     /* 1.34x */
    {"cos", UF__MVEC_E32, "Sleef_cosf16_u35avx512f"},     /* 1.39x */
    {"tan", UF__MVEC_E32, "Sleef_tanf16_u35avx512f"},     /* 1.29x */
    {"asin", UF__MVEC_D64, "Sleef_asind4_u35avx2"},       /* 1.24x */
    {"asin", UF__MVEC_E64, "Sleef_asind8_u35avx512f"},    /* 1.45x */
    {"asin", UF__MVEC_D32, "Sleef_asinf8_u35avx2"},       /* 1.20x */
    {"asin", UF__MVEC_E32, "Sleef_asinf16_u35avx512f"},   /* 1.56x */
    {"acos", UF__MVEC_E32, "Sleef_acosf16_u35avx512f"},   /* 1.21x */
    {"atan", UF__MVEC_E32, "Sleef_atanf16_u35avx512f"},   /* 1.28x */
    {"exp", UF__MVEC_E32, "Sleef_expf16_u10avx512f"},     /* 1.20x */
    {"log", UF__MVEC_E64, "Sleef_logd8_u35avx512f"},      /* 1.82x */
    {"log", UF__MVEC_E32, "Sleef_logf16_u35avx512f"},     /* 1.50x */
    {"log2", UF__MVEC_E32, "Sleef_log2f16_u35avx512f"},   /* 1.28x */
    {"hypot", UF__MVEC_E32, "Sleef_hypotf16_u35avx512f"}, /* 1.25x */
    {"erfc", UF__MVEC_D32, "Sleef_erfcf8_u15avx2"},       /* 3.50x */
    {"erfc", UF__MVEC_E32, "Sleef_erfcf16_u15avx512f"},   /* 6.95x */
    {"exp2", UF__MVEC_E32, "Sleef_exp2f16_u10avx512f"},   /* 1.36x */
};
enum { NCHOICES = sizeof sleef_choices / sizeof sleef_choices[0] };

/* The kind's index in a row of uf__host_vmath.sleef (codegen_host.h). */
static int kind_index(unsigned char kind)
{
    return kind == UF__MVEC_D64 ? 0 : kind == UF__MVEC_E64 ? 1
         : kind == UF__MVEC_D32 ? 2 : 3;
}

int uf__host_sleef_probe(bool avx2, bool avx512, uf__host_vmath *vm)
{
    const char *env = getenv("UFJIT_ENABLE_SLEEF");
    if (env && strcmp(env, "0") == 0) {
        snprintf(vm->sleef_why, sizeof vm->sleef_why,
                 "off (UFJIT_ENABLE_SLEEF=0)");
        return 0;
    }
    /* RTLD_GLOBAL: the JIT's process symbol generator finds the entry
     * points by name, as libmvec's (the handle stays open) */
    void *lib = dlopen("libsleef.so.3", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        snprintf(vm->sleef_why, sizeof vm->sleef_why,
                 "not loaded (%s)", dlerror());
        return 0;
    }
    int n = 0;
    for (int c = 0; c < NCHOICES; c++) {
        unsigned char kind = sleef_choices[c].kind;
        bool wide = kind == UF__MVEC_E64 || kind == UF__MVEC_E32;
        int f = uf__host_mvec_index(sleef_choices[c].func);
        if (f < 0 || !(wide ? avx512 : avx2) ||
            !dlsym(lib, sleef_choices[c].symbol))
            continue;
        vm->sleef[f][kind_index(kind)] = sleef_choices[c].symbol;
        vm->mask[f] |= kind;
        n++;
    }
    snprintf(vm->sleef_why, sizeof vm->sleef_why, "%s",
             n ? "libsleef.so.3" : "libsleef.so.3 (nothing it is faster "
                                   "at on this CPU's ISA)");
    return n;
}

/* "sinf cosf on AVX-512, asin on AVX2": the SLEEF choices in use, the
 * AVX-512 ones (wide) or the AVX2 ones. */
static size_t list_sleef(const uf__host_vmath *vm, bool wide, char *buf,
                         size_t size)
{
    size_t n = 0;
    for (int f = 0; f < UF__MVEC_NFUNCS && uf__host_mvec_func(f); f++)
        for (int f32 = 0; f32 < 2; f32++) {
            int k = (f32 ? 2 : 0) + (wide ? 1 : 0);
            if (vm->sleef[f][k] && n < size)
                n += (size_t)snprintf(buf + n, size - n, "%s%s%s",
                                      n ? " " : "", uf__host_mvec_func(f),
                                      f32 ? "f" : "");
        }
    if (n && n < size)
        n += (size_t)snprintf(buf + n, size - n, " on %s",
                              wide ? "AVX-512" : "AVX2");
    return n;
}

void uf__host_vmath_describe(const uf__host_vmath *vm, char *buf,
                             size_t size)
{
    bool d = false, e = false;
    for (int f = 0; f < UF__MVEC_NFUNCS; f++) {
        d |= (vm->mask[f] & (UF__MVEC_D64 | UF__MVEC_D32)) != 0;
        e |= (vm->mask[f] & (UF__MVEC_E64 | UF__MVEC_E32)) != 0;
    }
    if (!d && !e) {
        snprintf(buf, size, "scalar libm (no libmvec variant for this "
                            "CPU's ISA)");
        return;
    }
    size_t n = (size_t)snprintf(buf, size, "glibc libmvec, %s variants",
                                d && e ? "AVX-512 and AVX2"
                                : e    ? "AVX-512" : "AVX2");
    char wide[256] = "", narrow[256] = "";
    list_sleef(vm, true, wide, sizeof wide);
    list_sleef(vm, false, narrow, sizeof narrow);
    if (n < size && (wide[0] || narrow[0]))
        n += (size_t)snprintf(buf + n, size - n, "; SLEEF (%s) for %s%s%s",
                              vm->sleef_why, wide,
                              wide[0] && narrow[0] ? ", " : "", narrow);
    else if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "; SLEEF: %s",
                              vm->sleef_why);
    if (n < size)
        uf__host_inline_describe(vm, buf + n, size - n);
}
