/* Matrix products inside kernels (common/matmul.h): our own blocked loop,
 * as BLIS and GotoBLAS arrange it (b packed in panels of NR columns, a in
 * panels of MR rows, an MR x NR register tile of vector accumulators),
 * compiled once per x86 vector width (AVX-512, AVX2 with FMA, SSE2) and
 * chosen at run time by what the CPU has; small products pack into
 * buffers on the stack. A matrix times a vector skips the packing: dot
 * products of contiguous rows, or sums of contiguous columns.
 * One thread; complex products are four real ones (MM_COMPLEX). */
#include <stdbool.h>
#include <string.h>

#include "common/alloc.h"
#include "common/matmul.h"

/* The register tile is MM_MR rows by 2 vectors; the blocks keep a
 * KC x NR panel of b in L1 and an MC x KC block of a in L2. */
#define MM_MR 6 /* the kernel names its accumulators: keep 6 */
#define MM_KC 256
#define MM_MC 120
#define MM_NC 4096
/* packing buffers of up to this many elements live on the stack */
#define MM_STACK 4096

#define MM_T double
#define MM_W 2
#define MM_ATTR
#define MM_FN(x) f64_sse_##x
#include "common/matmul_kernel.inc"
#undef MM_T
#undef MM_W
#undef MM_ATTR
#undef MM_FN

#define MM_T float
#define MM_W 4
#define MM_ATTR
#define MM_FN(x) f32_sse_##x
#include "common/matmul_kernel.inc"
#undef MM_T
#undef MM_W
#undef MM_ATTR
#undef MM_FN

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MM_X86 1

#define MM_T double
#define MM_W 4
#define MM_ATTR __attribute__((target("avx2,fma")))
#define MM_FN(x) f64_avx2_##x
#include "common/matmul_kernel.inc"
#undef MM_T
#undef MM_W
#undef MM_ATTR
#undef MM_FN

#define MM_T float
#define MM_W 8
#define MM_ATTR __attribute__((target("avx2,fma")))
#define MM_FN(x) f32_avx2_##x
#include "common/matmul_kernel.inc"
#undef MM_T
#undef MM_W
#undef MM_ATTR
#undef MM_FN

#define MM_T double
#define MM_W 8
#define MM_ATTR __attribute__((target("avx512f")))
#define MM_FN(x) f64_avx512_##x
#include "common/matmul_kernel.inc"
#undef MM_T
#undef MM_W
#undef MM_ATTR
#undef MM_FN

#define MM_T float
#define MM_W 16
#define MM_ATTR __attribute__((target("avx512f")))
#define MM_FN(x) f32_avx512_##x
#include "common/matmul_kernel.inc"
#undef MM_T
#undef MM_W
#undef MM_ATTR
#undef MM_FN
#endif

/* 2: AVX-512, 1: AVX2 with FMA, 0: SSE2 */
static int vector_level(void)
{
#ifdef MM_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return 1;
#endif
    return 0;
}

/* The cases every variant shares: nothing to compute, or zeros. */
static bool trivial(int64_t m, int64_t n, int64_t k, void *c, size_t isz)
{
    if (m <= 0 || n <= 0)
        return true;
    if (k <= 0) {
        memset(c, 0, (size_t)m * (size_t)n * isz);
        return true;
    }
    return false;
}

int32_t uf__rt_matmul_f64(UF__MATMUL_PARAMS)
{
    if (trivial(m, n, k, c, sizeof(double)))
        return 0;
#ifdef MM_X86
    switch (vector_level()) {
    case 2:
        return f64_avx512_matmul(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c);
    case 1:
        return f64_avx2_matmul(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c);
    default:
        break;
    }
#endif
    return f64_sse_matmul(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c);
}

int32_t uf__rt_matmul_f32(UF__MATMUL_PARAMS)
{
    if (trivial(m, n, k, c, sizeof(float)))
        return 0;
#ifdef MM_X86
    switch (vector_level()) {
    case 2:
        return f32_avx512_matmul(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c);
    case 1:
        return f32_avx2_matmul(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c);
    default:
        break;
    }
#endif
    return f32_sse_matmul(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c);
}

/* Complex products. Small ones: (re, im) pairs multiplied as BLAS does,
 * without C's Annex G special cases for infinities. Larger ones (past
 * MM_CSMALL multiply-adds): the parts of a and b are real matrices of
 * a's and b's strides (the imaginary one a part's size further on), so
 * c = (ar br - ai bi) + i (ar bi + ai br) is four products of the real
 * blocked kernels above, two at a time into m * n scratch (-1 when it
 * cannot be allocated). */
#define MM_CSMALL 32768
#define MM_COMPLEX(NAME, T, REAL)                                             \
    int32_t NAME(UF__MATMUL_PARAMS)                                           \
    {                                                                         \
        if (trivial(m, n, k, c, 2 * sizeof(T)))                               \
            return 0;                                                         \
        T *cp = c;                                                            \
        if ((double)m * (double)n * (double)k > MM_CSMALL) {                  \
            T *p = uf__malloc((size_t)m * (size_t)n, 2 * sizeof(T), NULL);    \
            if (p == NULL)                                                    \
                return -1;                                                    \
            T *q = p + m * n;                                                 \
            const char *ar = a, *ai = ar + sizeof(T), *br = b,                \
                       *bi = br + sizeof(T);                                  \
            int32_t st = REAL(m, n, k, ar, a_rs, a_cs, br, b_rs, b_cs, p);    \
            if (st == 0)                                                      \
                st = REAL(m, n, k, ai, a_rs, a_cs, bi, b_rs, b_cs, q);        \
            for (int64_t i = 0; st == 0 && i < m * n; i++)                    \
                cp[2 * i] = p[i] - q[i];                                      \
            if (st == 0)                                                      \
                st = REAL(m, n, k, ar, a_rs, a_cs, bi, b_rs, b_cs, p);        \
            if (st == 0)                                                      \
                st = REAL(m, n, k, ai, a_rs, a_cs, br, b_rs, b_cs, q);        \
            for (int64_t i = 0; st == 0 && i < m * n; i++)                    \
                cp[2 * i + 1] = p[i] + q[i];                                  \
            uf__free(p);                                                      \
            return st;                                                        \
        }                                                                     \
        for (int64_t i = 0; i < m; i++)                                       \
            for (int64_t j = 0; j < n; j++) {                                 \
                T re = 0, im = 0;                                             \
                for (int64_t p = 0; p < k; p++) {                             \
                    const T *x = (const T *)((const char *)a + i * a_rs +     \
                                             p * a_cs);                       \
                    const T *y = (const T *)((const char *)b + p * b_rs +     \
                                             j * b_cs);                       \
                    re += x[0] * y[0] - x[1] * y[1];                          \
                    im += x[0] * y[1] + x[1] * y[0];                          \
                }                                                             \
                cp[2 * (i * n + j)] = re;                                     \
                cp[2 * (i * n + j) + 1] = im;                                 \
            }                                                                 \
        return 0;                                                             \
    }

MM_COMPLEX(uf__rt_matmul_c64, float, uf__rt_matmul_f32)
MM_COMPLEX(uf__rt_matmul_c128, double, uf__rt_matmul_f64)
