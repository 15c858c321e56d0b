/* Lowering typed kernels to LLVM IR (LLVM-C, LLVM 14) and running them
 * through ORC LLJIT on the host. */
#ifndef UF_COMPILER_JIT_H
#define UF_COMPILER_JIT_H

#include "compiler/types/exceptions.h"
#include "compiler/types/infer.h"
#include "common/loop.h"

typedef struct uf__jit uf__jit;

/* One per uf_context: an LLJIT for the host CPU (name and features), with
 * process symbols (libm, libmvec) resolvable and the runtime's helpers
 * rt[0..nrt) defined (the host runtime's table, targets/cpu/cpu.h: the
 * compiler names them, the layer above hands it their addresses; the
 * table must outlive the JIT). */
uf__jit *uf__jit_new(const uf__runtime_symbol *rt, int nrt, uf_error *err);
void uf__jit_free(uf__jit *jit);

/* Optional listings of a compilation (free with uf__free). */
typedef struct uf__jit_listing {
    char *llvm_ir; /* optimised module text */
    char *asm_text; /* host assembly */
} uf__jit_listing;

/* Compiles the elementwise inner loop of a vectorize kernel: `tf` (with its
 * callees) inlined into a strided 1-D loop with a contiguous fast path,
 * following uf__strided_loop: data[0..nargs) are the inputs (of tf's
 * argument dtypes), then one output per returned value (tf->ret, or each
 * element of a returned tuple), each converted to out_types[k]. Optimised
 * with uf__passes_elementwise (jit_passes.h). `listing` may be NULL. */
int uf__jit_ufunc_loop(uf__jit *jit, const uf__typed_func *tf,
                       const uf_dtype *out_types, uf__strided_loop *fn,
                       uf__jit_listing *listing, uf_error *err);

/* The contiguous loops (uf__lower_loop_contig) of n vectorize
 * specialisations tfs[i] with output dtypes out_types[i], compiled in ONE
 * module: one optimisation and one code generation for all of them (each
 * costs about as much per module as per loop). contigs[i] receives
 * `int contig(int64_t n, char **ptrs)`, to run through uf__rt_ufunc_loop
 * with a uf__loop_desc, and symbols[i] its name (a blocked contig's ending
 * in "_blk", lower.h: uf__loop_is_blocked). `ir` (may be NULL)
 * receives the optimised module's text (free with uf__free). */
#define UF__JIT_SYMBOL_MAX 64
int uf__jit_ufunc_contigs(uf__jit *jit, int n,
                          const uf__typed_func *const *tfs,
                          const uf_dtype *const *out_types, void **contigs,
                          char (*symbols)[UF__JIT_SYMBOL_MAX], char **ir,
                          uf_error *err);

/* uf__jit_ufunc_contigs for the disk cache: the symbols are named
 * "ud<stem>_contig<i>" (stem: hex of the content's hash, 20 characters
 * used) so that object code another process loads never clashes with its
 * own, and *obj (free with uf__free) receives the object file the JIT runs
 * (*objlen bytes). */
int uf__jit_ufunc_contigs_obj(uf__jit *jit, int n,
                              const uf__typed_func *const *tfs,
                              const uf_dtype *const *out_types, void **contigs,
                              char (*symbols)[UF__JIT_SYMBOL_MAX], char **ir,
                              const char *stem, char **obj, size_t *objlen,
                              uf_error *err);

/* The optimised IR of the module uf__jit_ufunc_contigs would compile for
 * `tf` alone, into *ir (free with uf__free), its contig named `symbol`:
 * optimised only, nothing code-generated or added to the JIT. Compiles
 * keep no IR text (printing it cost a tenth of a signature's compile
 * time); listings (ufunc/inspect.c) make it again with this. */
int uf__jit_ufunc_contig_ir(uf__jit *jit, const uf__typed_func *tf,
                            const uf_dtype *out_types,
                            char symbol[UF__JIT_SYMBOL_MAX], char **ir,
                            uf_error *err);

/* Adds an object file from uf__jit_ufunc_contigs_obj (bytes copied; the
 * same bytes twice are added once) and looks up names[0..n) into
 * addrs[0..n). Nothing is optimised or compiled. A failed load leaves its
 * symbols unusable; later compilations pick other names. */
int uf__jit_load_object(uf__jit *jit, const void *obj, size_t len,
                        const char *const *names, void **addrs, int n,
                        uf_error *err);

/* Host assembly of a module's optimised IR text (a listing of what was
 * compiled: code generation only, nothing optimised or added to the
 * JIT). Free with uf__free; NULL with err set. */
char *uf__jit_asm_from_ir(uf__jit *jit, const char *ir, uf_error *err);

/* Modules optimised and compiled so far by this JIT (tests check that a
 * cache hit compiles nothing); listings (uf__jit_ufunc_contig_ir),
 * optimised only, do not count. A module whose object code came from the
 * codegen cache (jit_codegen_cache.h) counts: ufjit made it, LLVM did not
 * compile it; uf__jit_ncodegen_hits counts those. */
uint64_t uf__jit_ncompiles(const uf__jit *jit);
uint64_t uf__jit_ncodegen_hits(const uf__jit *jit);

/* The host's IndexError reporter (jit_status.c), an absolute symbol of
 * the JIT named UF__RT_INDEX_ERROR (common/loop.h) that bounds-checked
 * code calls before it returns UF__JIT_INDEX: records "IndexError: index
 * 5 is out of bounds for axis 0 with size 4 (in 'f' at k.py:7)" (axis -1:
 * a tuple index) for uf__jit_status_error on this thread. The JIT defines
 * it beside the runtime's helpers (uf__jit_new). */
void uf__rt_index_error(const char *kernel, const char *file, int32_t line,
                        int64_t index, int32_t axis, int64_t size,
                        int32_t is_unsigned);

/* Its record of shapes (UF__RT_BROADCAST_ERROR, common/loop.h): "ValueError:
 * operands could not be broadcast together with shapes (3,) (4,)" or
 * "ValueError: cannot assign slice of shape (3,) from input of shape
 * (4,)", for the UF__JIT_BCAST_SHAPES / UF__JIT_SLICE_SHAPE status that
 * follows on this thread. */
void uf__rt_broadcast_error(int32_t kind, int32_t nshapes,
                            const int32_t *ndims, const int64_t *dims);
/* np.sum's AxisError (lower_npaxis.c), an absolute symbol of the JIT
 * named UF__RT_AXIS_ERROR that code calls before it returns UF__JIT_AXIS:
 * records "AxisError: axis 3 is out of bounds for array of dimension 2"
 * for uf__jit_status_error on this thread. */
#define UF__RT_AXIS_ERROR "uf__rt_axis_error"
void uf__rt_axis_error(int64_t axis, int32_t ndim);

/* `raise Cls(args)` in a kernel (lower_raise.c): generated code calls
 * UF__RT_RAISE, which formats the message as Python's str() of the
 * exception ("ValueError: bad x", "KeyError: 'k'", "Exception: ('e', 1)")
 * and records it with `code` for uf__jit_status_error on this thread,
 * before it returns UF__JIT_RAISE. kinds[i] says what words[i] holds. */
#define UF__RT_RAISE "uf__rt_raise"
void uf__rt_raise(const char *cls, int32_t code, int32_t nargs,
                  const int32_t *kinds, const int64_t *words);

/* print(a, b, ...) in a kernel (lower_raise.c): str() of each value,
 * separated by spaces, then a newline, on stdout, flushed. */
#define UF__RT_PRINT "uf__rt_print"
void uf__rt_print(int32_t nargs, const int32_t *kinds, const int64_t *words);

/* "x86-64 skylake-avx512 +avx512f,..." for sysinfo and cache keys. */
const char *uf__jit_host_cpu(const uf__jit *jit);
const char *uf__jit_host_features(const uf__jit *jit);
/* Whether calls may use glibc's libmvec (UFJIT_ENABLE_LIBMVEC). */
bool uf__jit_have_mvec(const uf__jit *jit);
/* What math calls in vector loops use: "glibc libmvec, AVX-512 and AVX2
 * variants; SLEEF (libsleef.so.3) for sinf ... on AVX-512", or "scalar
 * libm (...)" and why. */
const char *uf__jit_vector_math(const uf__jit *jit);

/* Nonzero statuses a compiled loop returns. Only kernels in Python's error
 * model (njit) or containing `assert` can fail; ufunc kernels in NumPy's
 * model never do. */
typedef enum uf__jit_status {
    UF__JIT_OK = 0,
    UF__JIT_ZERODIV_INT = 1, /* ZeroDivisionError: integer division by zero */
    UF__JIT_ZEROMOD_INT,     /* ZeroDivisionError: integer modulo by zero */
    UF__JIT_ZERODIV,         /* ZeroDivisionError: division by zero */
    UF__JIT_ZEROMOD,         /* ZeroDivisionError: modulo by zero */
    UF__JIT_ZEROPOW,  /* ZeroDivisionError: 0 cannot be raised to a
                         negative power */
    UF__JIT_ZERODIV_COMPLEX, /* ZeroDivisionError: complex division by zero */
    UF__JIT_RANGE_STEP,      /* ValueError: range() arg 3 must not be zero */
    UF__JIT_INDEX, /* IndexError (bounds checking): the index, axis, size,
                      kernel and line recorded on the kernel's thread by
                      the target's error sink (uf__rt_index_error) */
    UF__JIT_SLICE_STEP,  /* ValueError: slice step cannot be zero */
    UF__JIT_SLICE_SHAPE, /* ValueError: a slice store's source does not
                            broadcast to the slice (lower_slice.c) */
    UF__JIT_NOMEM,       /* a kernel's temporary could not be allocated */
    /* ValueErrors of reductions of an empty array (lower_npreduce.c) */
    UF__JIT_EMPTY_MIN,    /* np.min: "zero-size array to reduction ..." */
    UF__JIT_EMPTY_MAX,
    UF__JIT_EMPTY_NANMINMAX, /* np.nanmin/nanmax, worded as Numba's */
    UF__JIT_EMPTY_ARGMIN, /* "attempt to get argmin of an empty sequence" */
    UF__JIT_EMPTY_ARGMAX,
    UF__JIT_DOT_SHAPE,    /* np.dot of 1-D arrays of different lengths */
    UF__JIT_BCAST_SHAPES, /* ValueError: an array expression's operands do
                             not broadcast together (lower_arrexpr.c) */
    UF__JIT_NEGATIVE_DIMS, /* ValueError: np.empty(-1) (lower_alloc.c) */
    UF__JIT_ARRAY_TOO_BIG, /* ValueError: an array past int64's bytes */
    UF__JIT_ARANGE_STEP,   /* ValueError: np.arange with a zero step */
    UF__JIT_RUNTIME,       /* a runtime helper's own error (the threading
                              layer of a prange loop), recorded on the
                              thread by uf__jit_status_carry */
    UF__JIT_DOT_SHAPE_MM,  /* np.dot of 2-D arrays (lower_matmul.c): */
    UF__JIT_DOT_SHAPE_MV,  /* the sizes worded as Numba's, matrix * */
    UF__JIT_DOT_SHAPE_VM,  /* matrix, matrix * vector, vector * matrix */
    UF__JIT_AXIS,          /* np.sum(a, axis=k): AxisError, the message
                              recorded by uf__rt_axis_error */
    UF__JIT_ARG_AXIS,      /* np.argmin(a, axis=k): ValueError */
    /* a.reshape (lower_arrmeth.c): Numba's errors */
    UF__JIT_RESHAPE_NEGATIVE, /* ValueError: two dimensions of -1 */
    UF__JIT_RESHAPE_SIZE,     /* ValueError: the size would change */
    UF__JIT_RESHAPE_COPY, /* NotImplementedError: an F array not in C order */
    /* axes (lower_npaxis.c, lower_npcumsum.c) and np.round(out=) */
    UF__JIT_AXIS_DUP,   /* ValueError: duplicate value in 'axis' */
    UF__JIT_AXIS_VALUE, /* np.cumsum(a, axis=k): ValueError, the message
                           recorded by uf__rt_axis_error */
    UF__JIT_ROUND_SHAPE, /* np.round(a, d, out): ValueError */
    UF__JIT_STOP_ITERATION, /* min(a) / max(a) of an empty array: Numba's
                               next() raises StopIteration (lower_arrattr.c) */
    /* min(a) / max(a) of an N-d array compares rows, whose truth value
     * Numba takes as NumPy does (lower_arrattr.c): ValueError */
    UF__JIT_TRUTH_AMBIGUOUS, /* rows of more than one element */
    UF__JIT_TRUTH_EMPTY,     /* rows of none */
    /* np.nanargmin/nanargmax, np.ptp (lower_npextra.c) */
    UF__JIT_ALL_NAN,   /* np.nanargmin/nanargmax of NaNs only: ValueError */
    UF__JIT_EMPTY_PTP, /* np.ptp of an empty array: ValueError */
    /* np.diff, np.average (lower_npcum.c): Numba's errors */
    UF__JIT_DIFF_ORDER,     /* ValueError: n < 0 */
    UF__JIT_AVG_WEIGHTS_1D, /* TypeError: shapes differ, weights not 1-D */
    UF__JIT_AVG_WEIGHTS_SUM, /* ZeroDivisionError: the weights sum to 0 */
    UF__JIT_AVG_BCAST,      /* ValueError: a and weights do not broadcast */
    /* np.percentile / np.quantile (lower_npselect.c) */
    UF__JIT_PERCENTILE_Q, /* ValueError: a q outside [0, 100] or NaN */
    UF__JIT_QUANTILE_Q,   /* ValueError: a q outside [0, 1] or NaN */
    UF__JIT_SELECT_EMPTY, /* AssertionError: 0 < q < 100 of an empty
                             array (Numba's _select_two asserts) */
    /* np.concatenate, np.stack ... (lower_npjoin.c): Numba's errors */
    UF__JIT_CONCAT_AXIS, /* IndexError: np.concatenate(): axis out of bounds */
    UF__JIT_STACK_AXIS,  /* IndexError: np.stack(): axis out of bounds */
    UF__JIT_STACK_SHAPE, /* ValueError: the arrays' shapes differ */
    /* np.asarray_chkfinite (lower_nppred.c) */
    UF__JIT_NOT_FINITE, /* ValueError: a NaN or an infinity */
    /* np.extract (lower_npfind.c): Numba's errors */
    UF__JIT_EXTRACT_EMPTY, /* ValueError: arr is empty */
    UF__JIT_EXTRACT_SHAPE, /* ValueError: a true condition past arr's end */
    UF__JIT_DELETE_OBJ,    /* IndexError: np.delete's integer obj past arr */
    /* np.random (lower_nprandom.c) */
    UF__JIT_RANDOM_RANGE,  /* ValueError: randint with low >= high */
    UF__JIT_RANDOM_SAMPLE, /* ValueError: choice(replace=False) larger
                              than the population */
    UF__JIT_RANDOM_GAMMA,       /* ValueError: gamma's shape/scale <= 0 */
    UF__JIT_RANDOM_POWER,       /* ValueError: power(a <= 0) */
    UF__JIT_RANDOM_RAYLEIGH,    /* ValueError: rayleigh(scale <= 0) */
    UF__JIT_RANDOM_WALD_MEAN,   /* ValueError: wald(mean <= 0) */
    UF__JIT_RANDOM_WALD_SCALE,  /* ValueError: wald(scale <= 0) */
    UF__JIT_RANDOM_POISSON,     /* ValueError: poisson(lam < 0) */
    UF__JIT_RANDOM_BINOMIAL_N,  /* ValueError: binomial(n < 0) */
    UF__JIT_RANDOM_BINOMIAL_P,  /* ValueError: binomial's p outside [0, 1] */
    UF__JIT_RANDOM_GEOMETRIC,   /* ValueError: geometric's p outside (0, 1] */
    UF__JIT_RANDOM_NEGBIN_N,    /* ValueError: negative_binomial(n <= 0) */
    UF__JIT_RANDOM_NEGBIN_P,    /* ValueError: its p outside [0, 1] */
    UF__JIT_RANDOM_LOGSERIES,   /* ValueError: logseries's p outside (0, 1] */
    UF__JIT_RANDOM_ZIPF,        /* ValueError: zipf(a <= 1) */
    UF__JIT_RANDOM_NC_DF,       /* ValueError: noncentral_chisquare df <= 0 */
    UF__JIT_RANDOM_NC_NONC,     /* ValueError: noncentral_chisquare nonc < 0 */
    UF__JIT_RANDOM_DIRICHLET,   /* ValueError: dirichlet's alpha <= 0 */
    /* np.interp ... (lower_npnum.c): Numba's ValueErrors */
    UF__JIT_INTERP_EMPTY, /* xp is empty */
    UF__JIT_INTERP_SIZE,  /* xp and fp differ in length */
    UF__JIT_DIGITIZE_MONO,   /* np.digitize: bins not monotonic */
    UF__JIT_BINCOUNT_WLEN,   /* np.bincount: weights of another length */
    UF__JIT_BINCOUNT_MINLEN, /* np.bincount: minlength < 0 */
    UF__JIT_BINCOUNT_NEG,    /* np.bincount: a negative element */
    /* np.linalg (lower_nplinalg.c, common/nplinalg.h) */
    UF__JIT_LINALG_SQUARE,    /* LinAlgError: not a square matrix */
    UF__JIT_LINALG_NONFINITE, /* LinAlgError: an inf or NaN */
    UF__JIT_LINALG_SINGULAR,  /* LinAlgError: a zero pivot */
    UF__JIT_LINALG_SYSTEM,    /* LinAlgError: solve's sizes differ */
    UF__JIT_NORM_ORD,         /* ValueError: no such matrix norm */
    UF__JIT_NORM_SVD,         /* NotImplementedError: ord 2 / -2 of a
                                 matrix (no SVD in ufjit) */
    UF__JIT_LINALG_NOT_PD,    /* LinAlgError: cholesky, not positive
                                 definite */
    UF__JIT_LINALG_EMPTY,     /* LinAlgError: qr of an empty matrix */
    UF__JIT_POWER_SQUARE,     /* ValueError: matrix_power, not square */
    UF__JIT_LINALG_CONVERGE,  /* ValueError: the SVD did not converge */
    UF__JIT_EIG_DOMAIN,       /* ValueError: eig, complex eigenvalues */
    UF__JIT_EIGVALS_DOMAIN,   /* ValueError: eigvals, the same */
    /* np.vander, np.fill_diagonal (lower_npmatrix.c): ValueError */
    UF__JIT_VANDER_NDIM, /* x not 1-D */
    UF__JIT_VANDER_NEG,  /* N < 0 */
    UF__JIT_FILL_DIAG_DIMS, /* N-d a whose dimensions differ */
    UF__JIT_FILL_DIAG_VAL,  /* val out of a's dtype's range */
    /* np.expand_dims, np.swapaxes, np.moveaxis, np.transpose(a, axes),
     * np.take (lower_npview.c): Numba's errors */
    UF__JIT_EXPAND_AXIS,    /* IndexError: axis out of bounds */
    UF__JIT_SWAP_AXIS1,     /* ValueError: axis1 out of bounds */
    UF__JIT_SWAP_AXIS2,     /* ValueError: axis2 out of bounds */
    UF__JIT_MOVE_SOURCE,    /* ValueError: source out of bounds */
    UF__JIT_MOVE_DEST,      /* ValueError: destination out of bounds */
    UF__JIT_TRANSPOSE_REPEAT, /* ValueError: repeated axis in transpose */
    UF__JIT_TRANSPOSE_AXIS, /* ValueError: axis out of bounds */
    UF__JIT_TAKE_INDEX,     /* np.take: IndexError: Index out of bounds */
    /* np.repeat, np.resize, np.broadcast_to, np.broadcast_arrays
     * (lower_npshape.c): Numba's ValueErrors */
    UF__JIT_REPEAT_NEG,     /* a negative repeat */
    UF__JIT_REPEAT_SHAPE,   /* repeats of another size than a */
    UF__JIT_RESIZE_NEG,     /* a negative new_shape */
    UF__JIT_BCAST_TO_NDIM,  /* a shape of fewer dimensions than array */
    UF__JIT_BCAST_TO_NEG,   /* a negative shape */
    UF__JIT_BCAST_TO_SHAPE, /* array does not broadcast to shape */
    UF__JIT_BCAST_ARRAYS,   /* arrays that do not broadcast together */
    UF__JIT_FANCY_MASK,     /* a[mask]: IndexError: the mask's length is
                               not its axis's (lower_fancy.c) */
    UF__JIT_RAISE, /* a raise statement: the exception recorded by
                      uf__rt_raise */
    /* np.convolve, np.correlate (lower_npsignal.c): Numba's errors */
    UF__JIT_SIGNAL_A_EMPTY, /* ValueError: 'a' cannot be empty */
    UF__JIT_SIGNAL_V_EMPTY, /* ValueError: 'v' cannot be empty */
    UF__JIT_SIGNAL_MODE,    /* ValueError: Invalid 'mode' */
    /* np.histogram (lower_npstats.c): ValueError */
    UF__JIT_HIST_BINS,      /* bins <= 0 */
    UF__JIT_HIST_RANGE,     /* range's max below its min, NaN */
    UF__JIT_HIST_EDGES,     /* edges not increasing, NaN */
    /* np.cov / np.corrcoef (lower_npstats.c) */
    UF__JIT_COV_ONE_ROW,    /* RuntimeError: a 2-D m of one row */
    UF__JIT_COV_DDOF_INF,   /* ValueError: a non-finite float ddof */
    UF__JIT_COV_DDOF_FRAC,  /* ValueError: a float ddof not integral */
    UF__JIT_COV_DIMS,       /* ValueError: m and y do not match */
    /* np.nditer (lower_npiter.c) */
    UF__JIT_NDITER_SHAPES,  /* ValueError: operands do not broadcast */
    UF__JIT_ITEM_SIZE,      /* a.item(): ValueError: a.size != 1 */
    /* np.partition / np.argpartition (lower_nppart.c): ValueError */
    UF__JIT_KTH_BOUNDS,     /* a |kth| >= the last axis's length */
    UF__JIT_KTH_DIMS,       /* kth an array of other than 1 dimension */
    /* np.geomspace (lower_npspace.c) */
    UF__JIT_GEOMSPACE_ZERO, /* ValueError: a zero start or stop */
    /* a.view(dtype), np.frombuffer (lower_arrview.c): ValueError */
    UF__JIT_VIEW_0D,        /* a 0-d array to another itemsize */
    UF__JIT_VIEW_LAST_AXIS, /* the last axis not contiguous */
    UF__JIT_VIEW_LARGER,    /* the last axis's bytes not a multiple */
    UF__JIT_VIEW_LAYOUT,    /* an 'A' array neither C- nor F-like */
    UF__JIT_FROMBUFFER_SIZE,   /* bytes not a multiple of the item */
    UF__JIT_FROMBUFFER_OFFSET, /* offset past the buffer's end */
    UF__JIT_FROMBUFFER_COUNT,  /* count past the buffer's end */
    /* np.cross, np.unwrap, np.select (lower_npcross.c): ValueError */
    UF__JIT_CROSS_DIMS,     /* a shape[-1] that is not 2 or 3 */
    UF__JIT_CROSS_2D,       /* both shape[-1] 2 (Numba's cross2d) */
    UF__JIT_CROSS_BCAST,    /* leading axes that do not broadcast */
    UF__JIT_UNWRAP_AXIS,    /* an axis other than -1 */
    UF__JIT_SELECT_LEN,     /* condlist and choicelist lengths differ */
    /* np.split, np.array_split, np.hsplit ... (lower_npsplit.c) */
    UF__JIT_SPLIT_EQUAL,    /* ValueError: np.split, sections do not divide */
    UF__JIT_SPLIT_DIVMOD,   /* ZeroDivisionError: 0 sections */
    UF__JIT_SPLIT_SHAPE,    /* IndexError: sections, axis out of range */
    UF__JIT_SPLIT_AXIS,     /* ValueError: indices, axis out of range */
    UF__JIT_CROSS2D_DIMS,   /* cross2d: a shape[-1] that is not 2 */
    UF__JIT_CROSS2D_BCAST,  /* cross2d: leading axes that do not broadcast */
    /* lists (lower_list.c): Numba's IndexErrors */
    UF__JIT_LIST_INDEX,     /* l[i] past either end */
    UF__JIT_LIST_ASSIGN,    /* l[i] = v past either end */
    UF__JIT_LIST_POP_EMPTY, /* l.pop() of an empty list */
    UF__JIT_LIST_POP_INDEX, /* l.pop(i) past either end */
    UF__JIT_LIST_REMOVE,    /* ValueError: l.remove(x), x not in l */
    UF__JIT_LIST_VALUE,     /* ValueError: l.index(x), x not in l */
    UF__JIT_LIST_RESIZE,    /* ValueError: l[a:b:c] = m, c != 1, lengths
                               differ */
    /* numpy.polynomial.polynomial (lower_nppoly.c) */
    UF__JIT_POLY_EMPTY,     /* ValueError: an empty coefficient array */
    UF__JIT_POLY_ZERODIV,   /* ZeroDivisionError: polydiv by zero */
    UF__JIT_POLY_INDEX,     /* IndexError: polyval/polyint of an empty c */
    UF__JIT_POLY_BCAST,     /* ValueError: polyval(tensor=False) shapes */
    /* dicts (lower_dict.c) */
    UF__JIT_DICT_KEY,       /* KeyError: d[k], d.pop(k), k not in d */
    UF__JIT_DICT_POPITEM,   /* KeyError: d.popitem() of an empty dict */
    /* run-time strings (lower_ustr.c) */
    UF__JIT_USTR_INDEX,     /* IndexError: s[i] past either end */
    UF__JIT_USTR_CHR,       /* ValueError: chr(c), c out of range */
    UF__JIT_USTR_ORD,       /* TypeError: ord(s), len(s) != 1 */
    UF__JIT_USTR_STEP,      /* ValueError: s[a:b:0] */
    UF__JIT_USTR_NOTFOUND,  /* ValueError: s.index(t), t not in s */
    UF__JIT_USTR_FILL,      /* ValueError: s.center(n, t), len(t) != 1 */
    UF__JIT_USTR_ASCII,     /* unused since Unicode tables (kept: numbering) */
    UF__JIT_USTR_EMPTYSEP,  /* ValueError: s.split('') */
    /* sets (lower_set.c) */
    UF__JIT_SET_REMOVE,     /* KeyError: s.remove(x), x not in s */
    UF__JIT_SET_POP,        /* KeyError: s.pop() of an empty set */
    /* lists of lists (lower_list_nest_array.c) */
    UF__JIT_LIST_RAGGED,    /* ValueError: np.array of a ragged list */
    /* sets (lower_set_from.c) */
    UF__JIT_SET_MINMAX_STR, /* AssertionError: min()/max() of an empty set
                               of strings (Numba's unicode compare) */
    /* np.insert (lower_npinsert.c): Numba's errors */
    UF__JIT_INSERT_INDEX,   /* IndexError: an index outside [-n, n] */
    UF__JIT_INSERT_VALUES,  /* ValueError: values match neither one nor
                               every index */
    UF__JIT_CONCAT_SIZES = 0x8000, /* + the dimension whose sizes differ
                                      (np.concatenate): ValueError */
    UF__JIT_ASSERT = 0x10000 /* + the assert's source line: AssertionError */
} uf__jit_status;

/* Sets err from a loop's nonzero status: UF_ERR_VALUE with Python's
 * exception and message ("ZeroDivisionError: integer division by zero").
 * Returns the code. */
int uf__jit_status_error(int status, uf_error *err);

/* For runtime helpers that run kernel code on other threads (a prange
 * loop's chunks, njit/njit_prange.c): records on the calling thread what
 * uf__jit_status_error needs to rebuild `e`, the error a worker made from
 * `status` (a status > 0) or the runtime's own (a uf_errcode < 0), and
 * returns the status the generated code should return. */
int uf__jit_status_carry(int status, const uf_error *e);

#endif
