/* The host's codegen target (codegen.h): code for the CPU this process
 * runs on, compiled by the ORC JIT of a uf__jit (jit.c), which owns one
 * instance. Internal to compiler/codegen_host*.c and jit*.c. */
#ifndef UF_COMPILER_CODEGEN_HOST_H
#define UF_COMPILER_CODEGEN_HOST_H

#include "compiler/lower/lower.h"

typedef struct uf__codegen_host {
    uf__codegen_target base; /* first: the hooks find the rest from L->cg */
    const char *cpu, *features; /* LLVM's names for the host CPU */
    /* the CPU's tuning prefers 256-bit vectors; with AVX-512 loops are
     * told to prefer 512 */
    bool prefer512;
    /* vector math variants the host has (uf__host_mvec_probe,
     * uf__host_sleef_probe), NULL for none: math calls get
     * vector-function-abi-variant attributes */
    const struct uf__host_vmath *mvec;
} uf__codegen_host;

/* Fills `h`; the strings and `mvec` stay the caller's (the uf__jit's) and
 * must outlive it. */
void uf__codegen_host_init(uf__codegen_host *h, const char *triple,
                           const char *data_layout, const char *cpu,
                           const char *features, bool prefer512,
                           const struct uf__host_vmath *mvec);

/* ---- glibc libmvec (codegen_host_mvec.c) -------------------------------
 * Vector variants of math functions: for each entry of the table in
 * codegen_host_mvec.c, bits of UF__MVEC_* for the variants found (with
 * dlsym, libmvec already loaded) and usable on the host CPU. */
enum {
    UF__MVEC_D64 = 1,  /* _ZGVdN4v_sin: AVX2, 4 doubles */
    UF__MVEC_E64 = 2,  /* _ZGVeN8v_sin: AVX-512, 8 doubles */
    UF__MVEC_D32 = 4,  /* _ZGVdN8v_sinf */
    UF__MVEC_E32 = 8,  /* _ZGVeN16v_sinf */
    UF__MVEC_NFUNCS = 32
};
void uf__host_mvec_probe(bool avx2, bool avx512, unsigned char *mask);
/* The index of libm function `name` ("sin") in that table, -1 if absent;
 * and the name at index f. */
int uf__host_mvec_index(const char *name);
const char *uf__host_mvec_func(int f);

/* What vector calls may use: libmvec's variants and, where SLEEF was
 * measured faster (codegen_host_sleef.c), SLEEF's entry point instead. */
typedef struct uf__host_vmath {
    unsigned char mask[UF__MVEC_NFUNCS]; /* UF__MVEC_* bits usable */
    /* SLEEF's symbol for [function][D64, E64, D32, E32], NULL: libmvec's */
    const char *sleef[UF__MVEC_NFUNCS][4];
    char sleef_why[192]; /* "libsleef.so.3", or why SLEEF is not used */
    /* UF__MVEC_* kinds computed by ufjit's own inline code instead
     * (codegen_host_inline.c), and why none are, "" when some are */
    unsigned char inl[UF__MVEC_NFUNCS];
    char inline_why[64];
} uf__host_vmath;
/* Loads SLEEF (unless UFJIT_ENABLE_SLEEF=0) and fills vm->sleef (and
 * mask) with the measured choices usable on the CPU; returns how many. */
int uf__host_sleef_probe(bool avx2, bool avx512, uf__host_vmath *vm);
/* Fills vm->inl with the measured inline choices (unless
 * UFJIT_INLINE_VECMATH=0) usable on a CPU with these features; returns
 * how many functions have one. */
int uf__host_inline_probe(bool avx2, bool avx512, bool fma,
                          uf__host_vmath *vm);
/* Whether h computes libm function `name` on dt inline, and the value of
 * that (args: n of them), NULL when h calls a function for it. */
bool uf__host_inline_picked(const uf__codegen_host *h, const char *name,
                            uf_dtype dt);
LLVMValueRef uf__host_inline_math(uf__fn *F, const char *name, uf_dtype dt,
                                  LLVMValueRef *args, int n);
/* "; inline (ufjit's IR) for exp expf on AVX-512, ..." or "; inline: why
 * not", appended to buf by uf__host_vmath_describe; returns its length. */
size_t uf__host_inline_describe(const uf__host_vmath *vm, char *buf,
                                size_t size);
/* "glibc libmvec, AVX-512 and AVX2 variants; SLEEF (libsleef.so.3) for
 * sinf ... on AVX-512": for sysinfo and the disk cache's key. */
void uf__host_vmath_describe(const uf__host_vmath *vm, char *buf,
                             size_t size);
/* Tells the loop vectoriser which libmvec functions compute `call` (a
 * scalar call of libm function `base`, or of its LLVM intrinsic, on dtype
 * dt): nothing when the host has none. */
void uf__host_mvec_annotate(uf__fn *F, LLVMValueRef call, const char *base,
                            uf_dtype dt);
/* Adds @llvm.compiler.used holding the module's _ZGV* and Sleef_* ones, so
 * that they survive until the vectoriser wants them. */
int uf__host_mvec_finish(uf__lower *L, uf_error *err);

#endif
