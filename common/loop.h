/* The loop contract: what the compiler generates and every target's
 * runtime runs. It sits below compiler/, targets/ and the call machinery
 * (ufunc/, gufunc/, reduce/), so that none of them has to include another
 * to agree on it.
 *
 * The one inner-loop signature every compiled or hand-written elementwise
 * loop has, in the style of NumPy's PyArrayMethod_StridedLoop: it runs over
 * one 1-D strip and returns 0, or a nonzero status that the caller turns
 * into a uf_error. */
#ifndef UF_COMMON_LOOP_H
#define UF_COMMON_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/dtype.h>
#include <ufjit/error.h>

/* The most operands of a loop: NumPy's NPY_MAXARGS of NumPy 2. */
#define UF__LOOP_MAXARGS 64

/* data: nin + nout pointers to the strip's first elements;
 * dims[0]: the strip length; strides: nin + nout byte strides (0 for a
 * broadcast operand); aux: the loop's own data (NULL for JIT loops). */
typedef int (*uf__strided_loop)(void *ctx, char *const *data,
                                const int64_t *dims, const int64_t *strides,
                                void *aux);

/* What the caller passes as a loop's `ctx`: a loop that returns nonzero
 * may first describe the failure in *err (uf__error_set); the call path
 * adds the ufunc's name. */
typedef struct uf__loop_ctx {
    uf_error *err;
    /* An output of the call has UF__STREAM_BYTES or more: a loop that
     * copies results out of a buffer may write them with non-temporal
     * stores (targets/cpu/loop_rt.c), which spares the write-allocate
     * reads of lines no cache will hold until they are read again. */
    bool stream;
    /* The caller checked that every output is either the very same view as
     * an operand or shares no memory with any (ufunc_call.c's simple
     * calls): the loop need not check it again. */
    bool independent;
} uf__loop_ctx;

#define UF__STREAM_BYTES ((int64_t)8 << 20)
/* Streaming (non-temporal) loops store whole vectors from outputs aligned
 * to this many bytes (compiler/host/jit_nontemporal.h). */
#define UF__NT_ALIGN 64

/* A loop with the dtypes it was made for. */
typedef struct uf__ufunc_loop {
    uf_dtype types[UF__LOOP_MAXARGS]; /* nin inputs, then nout outputs */
    uf__strided_loop fn;
    void *aux;
    /* Turns a nonzero status the loop returned without a message into an
     * error (JIT loops report Python exceptions as codes); may be NULL. */
    int (*status_error)(int status, uf_error *err);
    /* Timings that decide whether its large calls stream (common/
     * stream_pick.h): two, for calls on one thread and on several; NULL:
     * they always do. */
    struct uf__stream_pick *pick;
} uf__ufunc_loop;

/* ---- what the JIT generates for a vectorize signature -------------------
 * `int contig(int64_t n, char **ptrs)`: n elements at ptrs[k] (unit
 * strides, independent iterations); `int strided(n, ptrs, strides)`: n
 * elements at ptrs[k] + i * strides[k], in order. */
typedef int (*uf__loop_contig_fn)(int64_t n, char **ptrs);
typedef int (*uf__loop_strided_fn)(int64_t n, char **ptrs,
                                   const int64_t *strides);

/* The descriptor a generated ufunc loop (compiler/lower/lower_loop.c) hands to
 * the runtime's dispatcher UF__RT_LOOP (targets/cpu/loop_rt.c): its loops
 * and its operands. The generated constant has this layout:
 * { i8*, i8*, i64, i64, i64, [nargs x i64] }. */
typedef struct uf__loop_desc {
    uf__loop_contig_fn contig; /* unit strides, independent */
    /* any strides, in order; NULL: contig element by element instead */
    uf__loop_strided_fn strided;
    int64_t nin, nargs;
    /* 0, or contig is a blocked loop (below): n a nonzero multiple of
     * `block` only, the runtime runs it on any n through padded blocks */
    int64_t block;
    int64_t itemsize[]; /* nargs entries */
} uf__loop_desc;

/* Blocked contiguous loops: for kernels calling vector math, contig's loop
 * runs only over whole blocks (uf__loop_block elements), so that neither a
 * vector epilogue nor a scalar remainder (with scalar libm calls) is
 * compiled; the runtime runs it on any strip, the few elements left over
 * on copies padded to a whole block. Such a contig is named "..._blk"
 * (the JIT's callers give its descriptor the block from that). */
#define UF__LOOP_BLOCK 16 /* the most */
/* One 512-bit vector of the narrowest operand (types[0..nargs)): 8 when
 * every operand has 8 bytes or more, else UF__LOOP_BLOCK. */
int64_t uf__loop_block(const uf_dtype *types, int nargs);
/* Whether `symbol` names a blocked contig. */
bool uf__loop_is_blocked(const char *symbol);

/* The broadcast path's chunk length and the most inputs it takes (its
 * buffers are on the stack: 8 * 256 * 16 bytes at most). */
#define UF__BCAST_CHUNK 256
#define UF__BCAST_MAXIN 8

/* ---- the runtime helpers generated code calls by name -------------------
 * A target's runtime provides them; the JIT defines each name as the
 * address the runtime gives (targets/cpu/cpu_runtime.c). */
typedef struct uf__runtime_symbol {
    const char *name;
    void *addr;
} uf__runtime_symbol;

/* The dispatcher every generated ufunc loop tail-calls:
 * int uf__rt_loop(const uf__loop_desc *d, void *ctx, char *const *data,
 *                 const int64_t *dims, const int64_t *strides)
 * contiguous, buffered or element by element, from the strides. */
#define UF__RT_LOOP "uf__rt_loop"
/* The complex helpers lowering calls (through the codegen target's helper
 * hook, so every target must provide them under these names):
 * `void f(double *z)` or `void f(double *z, const double *w)` on
 * complex128 values in memory, the result in z. */
#define UF__RT_CSQRT "uf__rt_csqrt" /* cmath.sqrt(z) */
#define UF__RT_CEXP "uf__rt_cexp"   /* cmath.exp(z) */
#define UF__RT_CPOW "uf__rt_cpow"   /* z ** w */
#define UF__RT_CRECT "uf__rt_crect" /* cmath.rect(z.real, z.imag) */
/* The broadcast path's chunked driver (targets/cpu/cpu_runtime.c) */
#define UF__RT_BROADCAST "uf__rt_broadcast"
/* The host code generator's IndexError reporter (compiler/host/jit_status.c,
 * defined by the JIT itself: the record it writes is the compiler's) */
#define UF__RT_INDEX_ERROR "uf__rt_index_error"
/* A prange loop of an njit(parallel=True) function (lowered by
 * compiler/lower/lower_prange.c, run by njit/njit_prange.c):
 *   int32_t uf__rt_prange(int64_t n, int64_t nblocks, int64_t block,
 *                         uf__prange_body body, void *ctx)
 * runs body(ctx, begin, end, b) for every block b < nblocks, [begin, end)
 * = [b * block, min(n, (b + 1) * block)), on the threads of the parallel
 * target; returns 0 or the first failing block's status (compiler/host/
 * jit.h). The blocks depend on n alone (lower_prange.c), so reductions
 * combined block by block give the same bits on any number of threads. */
#define UF__RT_PRANGE "uf__rt_prange"
typedef int32_t (*uf__prange_body)(void *ctx, int64_t begin, int64_t end,
                                   int64_t block);
/* At most this many blocks per loop (the partials of a reduction). */
#define UF__PRANGE_MAX_BLOCKS 256
/* Array reductions in prange loops (njit/njit_prange_array.c): the
 * identity-filled partials of nblocks blocks (NULL: out of memory)
 *   void *uf__rt_prange_partials(i64 nblocks, i64 items, i32 dtype,
 *                                i32 one)
 * and their release (void uf__rt_prange_partials_free(void *)); a block's
 * s stored into its partial when s was rebound, 0 or a status
 *   i32 uf__rt_prange_store(i32 dtype, i32 nd, const i64 *want_shape,
 *                           const i64 *dst_strides, i8 *dst,
 *                           const i64 *shape, const i64 *strides,
 *                           const i8 *src)
 * the partials combined into s in block order (mul: * else +)
 *   void uf__rt_prange_combine(i32 mul, i32 dtype, i32 nd,
 *        const i64 *shape, const i64 *strides, i8 *data,
 *        const i64 *partial_strides, const i8 *buf, i64 nblocks,
 *        i64 block_bytes) */
#define UF__RT_PRANGE_PARTIALS "uf__rt_prange_partials"
#define UF__RT_PRANGE_PARTIALS_FREE "uf__rt_prange_partials_free"
#define UF__RT_PRANGE_STORE "uf__rt_prange_store"
#define UF__RT_PRANGE_COMBINE "uf__rt_prange_combine"
#define UF__PRANGE_MAX_NDIM 32
/* and its record of shapes that do not broadcast (the same file): `void
 * f(i32 kind, i32 nshapes, const i32 *ndims, const i64 *dims)`, kind
 * UF__SHAPES_OPERANDS (the operands' shapes), UF__SHAPES_SLICE (the
 * slice's shape, then the source's) or UF__SHAPES_OUTPUT (an augmented
 * assignment's target, then the operands' broadcast shape) */
#define UF__RT_BROADCAST_ERROR "uf__rt_broadcast_error"
enum { UF__SHAPES_OPERANDS = 0, UF__SHAPES_SLICE = 1, UF__SHAPES_OUTPUT = 2 };

#endif
