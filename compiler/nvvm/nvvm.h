/* The CUDA code generator: vectorize and guvectorize kernels as CUDA
 * kernels, in NVVM IR compiled to PTX by libnvvm (nvvm_lib.c) or, without
 * it, by LLVM 14's
 * NVPTX backend (nvvm_fallback.c); and the very same kernels compiled for
 * the host for cudasim (nvvm_sim.c, common/sim_abi.h).
 *
 * Kernel bodies are lowered by the shared lowering (compiler/lower/)
 * through the NVVM codegen target (codegen_nvvm.c: libdevice math, the
 * status word as the error sink); this layer adds the CUDA entry around
 * them (nvvm_kernel.c; nvvm_gukernel.c for guvectorize): a grid-stride
 * loop over the iteration space.
 *
 * ---- The kernel parameter ABI (what the launcher passes) --------------
 * A kernel `void NAME(...)` for one signature (nin inputs, nout outputs)
 * and one variant (uf__nvvm_variant) takes, in order, with IDX = int64_t
 * (int32_t when variant.index32):
 *   1. IDX n                    the number of elements (all variants);
 *   2. IDX shape[ndim]          ND only: the broadcast shape, C order;
 *   3. per operand k = 0 .. nin+nout-1, inputs first:
 *        - an input in variant.scalar_in (bit k): its value, by value, of
 *          its dtype's in-memory type (bool: one byte, 0 or 1; every
 *          other dtype its C type; complex: {re, im}, 8/16 bytes);
 *        - otherwise: char *p (a device pointer to element 0), then
 *            CONTIG:  nothing more (element i at p + i * itemsize);
 *            STRIDED: IDX stride, in bytes (0 broadcasts the element);
 *            ND:      IDX strides[ndim], in bytes (0 broadcasts);
 *   4. uf__nvvm_status *status  only when uf__nvvm_kernel.has_status:
 *      a zeroed status word in device memory (see below).
 * Element i (0 <= i < n) of an ND launch is at the C-order multi-index of
 * i in `shape`. Every thread handles i = blockIdx.x * blockDim.x +
 * threadIdx.x, then steps by gridDim.x * blockDim.x: any grid runs any n
 * (1-D grids and blocks; y and z ignored). uf__nvvm_kernel.param_sizes
 * lists each parameter's size in bytes as cuLaunchKernel reads them.
 *
 * index32: all index and offset arithmetic in 32 bits. The launcher may
 * pick it only when n + gridDim.x * blockDim.x <= INT32_MAX and every
 * byte offset an operand reaches (|stride| * (extent - 1) summed over
 * axes, plus the itemsize) is <= INT32_MAX.
 *
 * Error model: NumPy's, as the CPU ufunc kernels (x / 0.0 is inf or nan,
 * integer division by zero gives 0; nothing raises). Kernels that can
 * fail (bounds checks under UFJIT_DEBUG=1 / boundscheck=True, assert)
 * get the status parameter: the first failing thread of a launch writes
 * it (every failing thread draws a ticket from `nfail` by an atomic add;
 * ticket 0 writes code and details), every failing thread stops. The host reads it back after the launch
 * and turns it into the error the CPU gives (code: uf__jit_status;
 * UF__JIT_INDEX with site/line/index/axis/size, site indexing
 * uf__nvvm_ptx.sites for the kernel and file names; a shape ValueError
 * with the shapes, as the host's UF__RT_BROADCAST_ERROR records them). The kernel keeps
 * the status pointer in a module global for the functions it calls:
 * concurrent launches of ONE loaded module must share one status word
 * (allocate it per module, not per launch).
 *
 * ---- The guvectorize kernel ABI (uf__nvvm_spec.layout set) ------------
 * One thread per element of the loop space (the broadcast loop
 * dimensions), the core dimensions as the kernel's own loops: element i
 * calls the kernel body with each operand's core view, as the host gufunc
 * loop does (compiler/lower/lower_gufunc_loop.c). Variants: STRIDED (one
 * loop axis) or ND (CONTIG is refused); index32 as above, for the loop
 * index and the loop offsets. Parameters, in order:
 *   1. IDX n                    loop iterations;
 *   2. IDX shape[ndim]          ND only: the loop shape, C order;
 *   3. per operand k (inputs, then outputs):
 *        - a "()" input passed as a plain value (args[k].kind SCALAR)
 *          in variant.scalar_in: its value, as for vectorize;
 *        - otherwise char *p (its first core element of loop element 0),
 *          then STRIDED: IDX stride / ND: IDX strides[ndim], the byte
 *          steps between loop elements (0 broadcasts);
 *   4. int64_t dims[]           the size of each layout dimension that
 *                               the layout does not fix (a named or '?'
 *                               one), in layout order; a missing '?'
 *                               dimension has size 1;
 *   5. int64_t core_strides[]   per operand not passed by value, its byte
 *                               stride along each of its core dimensions
 *                               (layout order; 0 for a missing '?' one);
 *   6. uf__nvvm_status *status  when has_status, as above.
 * dims and core strides are always 64-bit (the kernel's array values
 * are). With variant.core_c the launcher promises that every ARRAY
 * operand is C-contiguous over its core dimensions and spec.tf types
 * them 'C' (unit inner strides known to the compiler); else spec.tf
 * types them 'A'. The loop space never exceeds what one launch covers:
 * any n runs, grid-stride.
 *
 * ---- The cuda.jit kernel ABI (uf__nvvm_spec.kernel set) ---------------
 * Every thread of the launch calls the kernel body once (the grid is the
 * caller's: no loop). Parameters, per argument of spec.tf in order:
 *   - a scalar: its value, as for vectorize's by-value inputs;
 *   - an array of ndim d: char *data, int64_t shape[d], int64_t
 *     strides[d] (bytes); typed 'C' only when the launcher checked it;
 * then uint32_t dynamic_shared_bytes (the launch's, which
 * cuda.shared.array(0, dtype) spans), then uf__nvvm_status *status when
 * has_status, as above. Variants do not apply (spec.v is ignored).
 *
 * ---- The reduction kernel ABI (uf__nvvm_spec.reduce set) --------------
 * spec.tf: a binary kernel typed on (T, T), its result converted to T,
 * the accumulator (nvvm_reduce.c). One entry, three modes; parameters:
 *   int32 mode; char *src, *dst, *init; int64_t *dims; int32 nk, nr;
 *   int64 count, n, stride, rowstep; int32 flag.
 * dims holds triples (length, input byte stride, output byte stride);
 * an index walks dims[0..nk) in C order (the last fastest).
 * - mode UF__NVVM_REDUCE_TREE (blockDim.x must be UF__NVVM_REDUCE_THREADS,
 *   any grid; no dynamic shared memory): `count` rows of n elements, row
 *   r at src + r * rowstep + (r's offset over dims[0..nk)), element i at
 *   byte i * stride from it. flag != 0: elements (chunks of
 *   UF__NVVM_REDUCE_LEAF_CHUNK, the CPU's leaves and lanes); flag 0:
 *   partials of an earlier pass (chunks of UF__NVVM_REDUCE_THREADS).
 *   Chunk ch of row r writes its partial to dst[r * nchunks + ch] (T,
 *   contiguous), nchunks = ceil(n / chunk). Reducing a row's partials
 *   until one is left gives the CPU target's pairwise tree of the row
 *   (compiler/host/jit_reduce.h) bit for bit, whatever the grid.
 * - mode UF__NVVM_REDUCE_FOLD (any grid and block): for each of `count`
 *   outputs m (grid-stride), with (oi, oo) m's offsets over dims[0..nk)
 *   and base = src + oi + m * rowstep: acc = init[0] (flag 0), the
 *   output's own value dst[oo] (flag 1) or base[0] (flag 2); then for
 *   q in [0, n): acc = f(acc, base[q's offset over dims[nk..nk+nr)]);
 *   dst[oo] = acc.
 * - mode UF__NVVM_REDUCE_SCAN (any grid and block; uf_accumulate): for
 *   each of `count` lines m (grid-stride), (oi, oo) m's offsets over
 *   dims[0..nk): acc = src[oi]; dst[oo] = acc; then for q in [1, n):
 *   acc = f(acc, src[oi + q * stride]); dst[oo + q * rowstep] = acc
 *   (NumPy's accumulate along one axis, in order; stride and rowstep the
 *   axis' input and output byte strides).
 * No status word: fallible kernels are refused.
 * With spec.v.layout UF__NVVM_CONTIG the kernel is TREE only, for rows
 * whose elements are contiguous and not walked by dims: mode, nk, nr
 * and stride are still passed but read as TREE, 0, 0 and the itemsize
 * (the launcher uses it only so; the general kernel does the rest). */
#ifndef UF_COMPILER_NVVM_H
#define UF_COMPILER_NVVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sim_abi.h"
#include "compiler/front/layout.h"
#include "compiler/host/jit.h"
#include "compiler/host/jit_gufunc.h"
#include "compiler/types/infer.h"

#define UF__NVVM_MAXDIM 8
/* guvectorize: dims plus core strides passed at most */
#define UF__NVVM_MAXCORE 64
/* reductions: threads per block of the TREE mode, elements per leaf
 * chunk (a power of two of the CPU tree's blocks), the modes */
#define UF__NVVM_REDUCE_THREADS 256
#define UF__NVVM_REDUCE_LEAF_CHUNK 4096
#define UF__NVVM_REDUCE_TREE 0
#define UF__NVVM_REDUCE_FOLD 1
#define UF__NVVM_REDUCE_SCAN 2

typedef enum uf__nvvm_layout {
    UF__NVVM_CONTIG = 0, /* a pointer per operand, unit strides */
    UF__NVVM_STRIDED,    /* 1-D: pointer + byte stride per operand */
    UF__NVVM_ND          /* shape + per-operand byte strides: any
                            broadcast or view in one launch */
} uf__nvvm_layout;

typedef struct uf__nvvm_variant {
    uf__nvvm_layout layout;
    int ndim;           /* ND: 1..UF__NVVM_MAXDIM; else ignored */
    bool index32;       /* 32-bit index arithmetic (see above) */
    uint32_t scalar_in; /* bit k: input k passed by value */
    bool core_c;        /* guvectorize: core views C-contiguous */
} uf__nvvm_variant;

/* The shapes a status word carries for a ValueError that names them
 * (operands that do not broadcast, a slice store): at most this many
 * shapes of this many dimensions together (two of rank 32); more give
 * nshapes 0 and the message without them. */
#define UF__NVVM_STATUS_SHAPES 8
#define UF__NVVM_STATUS_DIMS 64

/* The status word a failing kernel writes (device memory, zeroed before
 * the launch; 592 bytes). */
typedef struct uf__nvvm_status {
    uint32_t code;        /* 0, or a uf__jit_status */
    int32_t site;         /* UF__JIT_INDEX: index into the sites */
    int32_t line;         /* source line of the failed check */
    int32_t axis;         /* -1: an index into a tuple */
    int64_t index;        /* as written (before wrapping) */
    int64_t size;         /* the axis' length */
    uint32_t is_unsigned; /* print index as unsigned */
    uint32_t nfail;       /* failing threads (the first writes the rest) */
    /* UF__JIT_BCAST_SHAPES, UF__JIT_SLICE_SHAPE (nvvm_shape_error.c):
     * common/loop.h's UF__SHAPES_* kind, the shapes' dimension counts
     * and their dimensions one shape after another */
    int32_t shape_kind;
    int32_t nshapes;
    int32_t shape_ndim[UF__NVVM_STATUS_SHAPES];
    int64_t shape_dims[UF__NVVM_STATUS_DIMS];
} uf__nvvm_status;

/* Who turns NVVM IR into PTX. */
typedef enum uf__nvvm_backend {
    UF__NVVM_AUTO = 0, /* UFJIT_CUDA_BACKEND ("libnvvm" | "nvptx"), else
                          libnvvm when it loads, else NVPTX */
    UF__NVVM_LIBNVVM,
    UF__NVVM_NVPTX
} uf__nvvm_backend;

typedef struct uf__nvvm_options {
    /* "compute_80" (libnvvm's spelling; sm_XY accepted too); NULL:
     * UFJIT_CUDA_ARCH, else compute_80 */
    const char *arch;
    bool fastmath; /* -ftz=1 -prec-div=0 -prec-sqrt=0 -fma=1 */
    /* more libnvvm options, space separated (may be NULL) */
    const char *extra;
    uf__nvvm_backend backend;
    /* registers per thread at most (cuda.jit max_registers=); 0: no
     * cap. The kernels' "maxnreg" annotation, which libnvvm and NVPTX
     * both print as .maxnreg N for ptxas (libnvvm's -maxreg=N leaves no
     * trace in the PTX: ptxas then allocates as it likes). */
    int max_registers;
} uf__nvvm_options;

/* (kernel, file) of a bounds check, for the IndexError message */
typedef struct uf__nvvm_site {
    char *kernel, *file;
} uf__nvvm_site;

/* The bounds-check sites of a module (uf__nvvm_status.site indexes v). */
typedef struct uf__nvvm_sites {
    uf__nvvm_site *v;
    int n;
} uf__nvvm_sites;
void uf__nvvm_sites_clear(uf__nvvm_sites *s);

/* One compiled kernel's interface. */
typedef struct uf__nvvm_kernel {
    char name[64]; /* the .entry (cuModuleGetFunction) */
    int nparams;
    uint32_t param_sizes[2 + UF__NVVM_MAXDIM +
                         UF__LOOP_MAXARGS * (1 + UF__NVVM_MAXDIM) +
                         UF__NVVM_MAXCORE];
    bool has_status;
    /* cudasim: the static shared memory per block, in bytes (on a GPU
     * ptxas lays it out and the driver knows it) */
    uint32_t shared_bytes;
} uf__nvvm_kernel;

/* What to compile: a vectorize specialisation `tf` (scalar arguments, a
 * scalar or tuple-of-scalars result) with its outputs converted to
 * out_types, as a kernel of variant v; or, with `layout`, a guvectorize
 * kernel: tf typed for operands reaching it as args[0..layout->nargs)
 * say (out_types unused), its entry the guvectorize ABI above. */
typedef struct uf__nvvm_spec {
    const uf__typed_func *tf;
    const uf_dtype *out_types;
    uf__nvvm_variant v;
    const uf__gufunc_layout *layout; /* NULL: vectorize */
    const uf__guvec_arg *args;
    bool kernel; /* a cuda.jit kernel: tf typed for its arguments */
    bool reduce; /* a reduction around tf typed on (T, T) (see above) */
} uf__nvvm_spec;

/* A PTX module holding n kernels. Free with uf__nvvm_ptx_free. */
typedef struct uf__nvvm_ptx {
    char *ptx; /* NUL-terminated */
    size_t len;
    uf__nvvm_kernel *kernels; /* one per spec, in order */
    int nkernels;
    uf__nvvm_sites sites;
    uf__nvvm_backend backend; /* which one compiled it */
    char arch[24];            /* "compute_80" */
} uf__nvvm_ptx;

/* Compiles specs[0..n) as the kernels of ONE PTX module (one libnvvm
 * program: libdevice is read once for all). `opts` may be NULL. Errors:
 * UF_ERR_UNSUPPORTED naming the kernel and what the CUDA target refuses
 * (complex cmath helpers, array arguments); UF_ERR_NOT_FOUND naming what
 * was searched when libnvvm is asked for and absent; UF_ERR_INTERNAL
 * with libnvvm's program log when it refuses the module.
 * UFJIT_DUMP_PTX=1 prints the PTX to stderr. */
int uf__nvvm_ufuncs_ptx(const uf__nvvm_spec *specs, int n,
                        const uf__nvvm_options *opts, uf__nvvm_ptx *out,
                        uf_error *err);
void uf__nvvm_ptx_free(uf__nvvm_ptx *p);

/* What decides a PTX module besides its kernels, for cache keys:
 * "arch=compute_80;backend=libnvvm;nvvm=2.0;ir=2.0;fastmath=0;extra=",
 * then ";maxreg=N" under a register cap,
 * the choices uf__nvvm_ufuncs_ptx would make for `opts` (may be NULL)
 * now. Returns buf. */
const char *uf__nvvm_cache_tag(const uf__nvvm_options *opts, char *buf,
                               size_t size);
/* PTX modules uf__nvvm_ufuncs_ptx compiled in this process (tests). */
uint64_t uf__nvvm_ncompiles(void);

/* The NVVM IR module text of those kernels as libnvvm gets it (for
 * listings and tests). Free with uf__free. */
char *uf__nvvm_ufuncs_ir(const uf__nvvm_spec *specs, int n, uf_error *err);

/* ---- cudasim (nvvm_sim.c) --------------------------------------------
 * The same kernel compiled for the host by `jit` (which must define
 * UF__SIM_SELF, and libm is found in the process): special registers read
 * from uf__sim_self(), host libm for math, and a host entry
 * `void NAME__sim(void **params)` unpacking params as cuLaunchKernel
 * passes them (the ABI above). out->fn/name/nparams/param_sizes are
 * filled (name and param_sizes point into `kernel`, which must outlive
 * out; the code lives as long as the JIT); *sites receives the bounds
 * checks' sites (clear with uf__nvvm_sites_clear). */
int uf__nvvm_ufunc_sim(uf__jit *jit, const uf__nvvm_spec *spec,
                       uf__nvvm_kernel *kernel, uf__nvvm_sites *sites,
                       uf__sim_kernel *out, uf_error *err);

/* ---- the toolkit (nvvm_lib.c) ---------------------------------------- */

/* What was found of the CUDA toolkit, for sysinfo; strings are static or
 * owned by the process (found once). A NULL path comes with `why`. */
typedef struct uf__nvvm_toolkit {
    const char *libnvvm_path, *libnvvm_why;
    int nvvm_major, nvvm_minor;       /* nvvmVersion */
    int nvvm_ir_major, nvvm_ir_minor; /* nvvmIRVersion */
    const char *libdevice_path, *libdevice_why;
    const char *ptxas_path, *ptxas_why;
    const char *ptxas_version; /* "12.8.93" ("" when unknown) */
} uf__nvvm_toolkit;
const uf__nvvm_toolkit *uf__nvvm_toolkit_get(void);

/* Runs `ptxas -arch=<sm> -v` on ptx (sm: "sm_80"; with -c, compiling
 * relocatable code, when ptx calls `.extern` functions); *log receives its
 * output (free with uf__free). 0 when ptxas accepts it; UF_ERR_UNSUPPORTED
 * when ptxas is absent; UF_ERR_INTERNAL with the log when it refuses. */
int uf__nvvm_ptxas(const char *ptx, const char *sm, char **log,
                   uf_error *err);

/* ---- link files (nvvm_nvcc.c) --------------------------------------- */

/* The CUDA C file `cu` compiled to PTX by the toolkit's nvcc (CUDA_HOME,
 * CUDA_PATH or /usr/local/cuda: bin/nvcc) as relocatable device code for
 * `arch` ("compute_90", "sm_90"; NULL: compute_80); *ptx to free with
 * uf__free. UF_ERR_UNSUPPORTED naming where nvcc was looked for when it
 * is absent; UF_ERR_FORMAT with nvcc's diagnostics when it refuses. */
int uf__nvvm_nvcc_ptx(const char *cu, const char *arch, char **ptx,
                      uf_error *err);
/* The file at `path` as NUL-terminated text (free with uf__free); NULL
 * with UF_ERR_IO when it cannot be read. */
char *uf__nvvm_read_text(const char *path, uf_error *err);

#endif
