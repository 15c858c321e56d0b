/* Lowering typed kernels to LLVM IR (internal to compiler/lower*.c,
 * codegen*.c and jit*.c). The lowering is shared by every codegen target;
 * what differs per target it asks L->cg (codegen.h).
 *
 * A compilation owns one LLVM context and module (uf__lower). Every typed
 * specialisation becomes one internal function (uf__fn while it is being
 * built). Two calling conventions:
 *   - infallible: `T f(args...)`, the value returned directly (ufunc
 *     kernels: NumPy's error model cannot raise);
 *   - fallible: `i32 f(T *out, args...)`, 0 or a uf__jit_status, for
 *     njit specialisations (Python's error model: ZeroDivisionError) and
 *     kernels containing `assert`.
 * Scalars are SSA values of their LLVM type (bool is i1, in memory i8),
 * complex numbers {re, im} structs, tuples literal structs. */
#ifndef UF_COMPILER_LOWER_H
#define UF_COMPILER_LOWER_H

#include <stdbool.h>
#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>

#include "compiler/lower/codegen.h"
#include "compiler/host/jit.h"

typedef struct uf__fn uf__fn;

/* A specialisation already lowered in this module. */
typedef struct uf__lower_entry {
    const uf__typed_func *tf;
    LLVMValueRef fn;
    bool fallible;
    /* instructions once the kernels it calls are inlined (saturating) */
    long inline_size;
} uf__lower_entry;

/* Kernels called from kernels are inlined (alwaysinline) unless inlining
 * one would bring more instructions than this, counted before
 * optimisation: then its calls stay calls. Without a budget, each kernel
 * calling the previous one twice doubles the code at every level. */
#define UF__INLINE_BUDGET 5000

typedef struct uf__lower {
    /* what the code is for (codegen.h); set by uf__jit_begin */
    const uf__codegen_target *cg;
    /* the context's owner for the host JIT (jit.c), which gives the
     * module to ORC with it; lowering uses ctx only */
    LLVMOrcThreadSafeContextRef tsc;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    char prefix[32]; /* unique per compilation: symbol prefix "uf12" */
    uf__lower_entry *fns;
    int nfns, capfns;
    /* calls to runtime helpers that touch memory (complex cmath): the
     * contiguous loop must not be declared free of cross-iteration
     * dependences then */
    bool uses_runtime;
    int seq; /* for unique local names */
    /* the optimisation pipeline uf__jit_finish runs (LLVM 14 new pass
     * manager text, as for `opt -passes=`); NULL: "default<O3>". Each
     * kind of compilation (jit_*.c) may set its own after uf__jit_begin */
    const char *passes;
    /* after the pipeline, uf__jit_mark_nontemporal (jit_nontemporal.h);
     * how many stores it changed */
    bool nontemporal;
    int nontemporal_stores;
    /* NULL, or the contiguous loop's element strides per operand
     * (operand k at ptrs[k][i * contig_strides[k]]: jit_nontemporal.h) */
    const int64_t *contig_strides;
} uf__lower;

/* break/continue targets of the enclosing loops */
typedef struct uf__loop_targets {
    LLVMBasicBlockRef brk, cont;
} uf__loop_targets;

struct uf__fn {
    uf__lower *L;
    const uf__typed_func *tf; /* NULL for hand-built functions (tests) */
    LLVMValueRef fn;
    bool fallible;
    bool numpy_model;  /* NumPy's error model (x/0 -> inf, i//0 -> 0) */
    LLVMValueRef out;  /* fallible: where the result goes */
    LLVMBasicBlockRef entry; /* allocas go here */
    LLVMValueRef *vars;      /* tf->nvars allocas */
    uf__loop_targets *loops;
    int nloops, caploops;
    uf_error *err;
    /* the i8* slot heading the blocks this function owns (lower_alloc.c),
     * NULL until it allocates or calls a kernel returning arrays */
    LLVMValueRef nrt_frame;
    /* the outlined body of a prange loop (lower_prange.c): prange loops
     * nested in it run serially, as Numba's */
    bool in_prange;
    /* allocations and adoptions lowered so far, and the loops' sweep
     * points (lower_nrt_loop.c) */
    int nrt_sites;
    struct uf__nrt_loops *nrt_loops;
    /* the allocation sites whose arrays may live in stack buffers
     * (lower_scratch.c; by expression id - tf->first_id, NULL for none),
     * and the bytes of the buffers made so far */
    bool scratch_scanned;
    bool *scratch_calls;
    int scratch_bytes;
    /* np.array(l) of lists filled by one loop, lowered without the list
     * (lower_arraycall.c); NULL for none */
    struct uf__arraycalls *arraycalls;
};

/* ---- jit.c: one compilation ------------------------------------------- */

/* Creates the thread-safe context, module (triple, data layout) and
 * builder of a compilation, with a unique prefix. */
int uf__jit_begin(uf__jit *jit, uf__lower *L, uf_error *err);
/* Verifies, optimises (L->passes), fills `listing` (may be NULL), adds
 * the module to the JIT and looks up `n` symbols. Consumes L in all
 * cases. */
int uf__jit_finish(uf__jit *jit, uf__lower *L, const char *const *names,
                   void **addrs, int n, uf__jit_listing *listing,
                   uf_error *err);
/* Runs the pipeline `passes` on L's module now, with the JIT's target
 * machine (as uf__jit_finish will), for compilations that transform the
 * optimised module before finishing it (jit_gufunc_spec_prefetch.c). 0,
 * or UF_ERR_INTERNAL with LLVM's message. */
int uf__jit_run_passes(uf__jit *jit, uf__lower *L, const char *passes,
                       uf_error *err);
/* An LLVM diagnostic handler printing errors only (remarks and warnings
 * about missed vectorisation are expected; jit_reduce.c). */
void uf__jit_diag_errors_only(LLVMDiagnosticInfoRef info, void *ctx);
/* Releases a compilation that will not be finished. */
void uf__jit_abort(uf__lower *L);
/* For the disk cache (disk_cache.h), right after uf__jit_begin: names
 * the compilation's symbols by `stem` (hex of the content's hash) instead
 * of the unique "uf<seq>", so that object code another process loads
 * never clashes with its own ("ud<stem>"; made unique again after a
 * failed load). */
void uf__jit_disk_prefix(uf__jit *jit, uf__lower *L, const char *stem);
/* uf__jit_finish (no listing) that also returns the object file the JIT
 * runs: *obj (free with uf__free), *objlen bytes. */
int uf__jit_finish_obj(uf__jit *jit, uf__lower *L, const char *const *names,
                       void **addrs, int n, char **obj, size_t *objlen,
                       uf_error *err);
/* Both, and the optimised module's text into *ir when `ir` is not NULL
 * (free with uf__free); n == 0: optimised only, nothing compiled. */
int uf__jit_finish_all(uf__jit *jit, uf__lower *L, const char *const *names,
                       void **addrs, int n, uf__jit_listing *listing,
                       char **ir, char **obj, size_t *objlen, uf_error *err);

/* ---- types ------------------------------------------------------------ */

/* SSA type of a dtype (bool -> i1) and its in-memory type (bool -> i8). */
LLVMTypeRef uf__lower_dtype(uf__lower *L, uf_dtype dt);
LLVMTypeRef uf__lower_mem_dtype(uf__lower *L, uf_dtype dt);
/* Scalars, tuples (literal structs) and none (void). NULL with err set for
 * types the lowering does not support (arrays, ranges...). */
LLVMTypeRef uf__lower_type(uf__lower *L, const uf__type *t, uf_error *err);
bool uf__dtype_is_int(uf_dtype dt);    /* signed or unsigned ints */
bool uf__dtype_is_signed(uf_dtype dt); /* signed ints */
bool uf__dtype_is_float(uf_dtype dt);
bool uf__dtype_is_complex(uf_dtype dt);
/* float32 for float32/complex64, else float64 */
uf_dtype uf__dtype_part(uf_dtype complex_or_float);

/* ---- functions (lower.c) ---------------------------------------------- */

/* Starts a function body: entry block, builder at its end. */
int uf__fn_begin(uf__fn *F, uf__lower *L, LLVMValueRef fn, bool fallible,
                 bool numpy_model, uf_error *err);
void uf__fn_end(uf__fn *F);
/* An alloca in the entry block (so mem2reg/SROA promote it). */
LLVMValueRef uf__fn_alloca(uf__fn *F, LLVMTypeRef ty, const char *name);
/* Appends a new block to the function. */
LLVMBasicBlockRef uf__fn_block(uf__fn *F, const char *name);
/* In a fallible function: when `cond` holds, return `status` -- except
 * the ZeroDivisionError statuses under NumPy's error model, which never
 * raise. Nothing in an infallible function. */
void uf__fn_raise_if(uf__fn *F, LLVMValueRef cond, int status);
/* uf__fn_raise_if whose error names shapes (lower_shape_error.c): on host
 * targets the raising block first records nshapes shapes of ndims[s]
 * axes, axis k of shape s being dims(F, s, k, ud) built there, with
 * UF__RT_BROADCAST_ERROR (kind: UF__SHAPES_OPERANDS or UF__SHAPES_SLICE of
 * common/loop.h); elsewhere the status alone. */
typedef LLVMValueRef (*uf__shape_dims_fn)(uf__fn *F, int s, int k, void *ud);
void uf__fn_raise_shapes_if(uf__fn *F, LLVMValueRef cond, int status,
                            int kind, int nshapes, const int *ndims,
                            uf__shape_dims_fn dims, void *ud);
/* Returns a callee's nonzero i32 status from this (fallible) function. */
void uf__fn_raise_status(uf__fn *F, LLVMValueRef status);
/* The statements of a block, and a loop's break/continue targets pushed
 * (pop with F->nloops--), for lowerings of loops outside lower.c. */
int uf__lower_block(uf__fn *F, const uf__block *b);
int uf__lower_push_loop(uf__fn *F, LLVMBasicBlockRef brk,
                        LLVMBasicBlockRef cont);
/* prange loops (lower_prange.c): whether a prange in F runs on the
 * threads (an njit(parallel=True) function on the host, not inside
 * another prange's body), and that loop, for v = start + k * step over
 * k < cnt (i64 values, start and step of dtype rt; vi the variable). */
bool uf__prange_parallel(uf__fn *F);
int uf__lower_prange(uf__fn *F, const uf__stmt *s, LLVMValueRef cnt,
                     LLVMValueRef start, LLVMValueRef step, uf_dtype rt,
                     int vi);
/* Runs `body` (common/loop.h: uf__prange_body) over [0, cnt) in the
 * blocks of a prange loop, raising its status; returns the number of
 * blocks (lower_prange.c; lower_arrexpr.c's parallel nests). */
LLVMValueRef uf__lower_prange_call(uf__fn *F, LLVMValueRef cnt,
                                   LLVMValueRef body, LLVMValueRef ctx);
/* for T in np.ndindex(...) / np.ndenumerate(...) / np.nditer(...)
 * (lower_npiter.c): a nest of counted loops. */
int uf__lower_for_npiter(uf__fn *F, const uf__stmt *s);
/* a.item() (lower_npiter.c): ValueError unless a has one element. */
LLVMValueRef uf__lower_array_item(uf__fn *F, const uf__expr *e);
/* Whether a specialisation needs the fallible convention. */
bool uf__lower_fallible(const uf__typed_func *tf);
/* The LLVM function of a specialisation (lowered on first use, with its
 * callees). */
LLVMValueRef uf__lower_func(uf__lower *L, const uf__typed_func *tf,
                            bool *fallible, uf_error *err);
/* A call of kernel fn from another kernel is about to be made: fn stays
 * alwaysinline within UF__INLINE_BUDGET, else becomes noinline. */
void uf__lower_inline_budget(uf__lower *L, LLVMValueRef fn);
/* Marks a function internal + alwaysinline + the target attributes. */
void uf__lower_kernel_attrs(uf__lower *L, LLVMValueRef fn);
/* The codegen target's attributes only (codegen.h: function_attrs). */
void uf__lower_target_attrs(uf__lower *L, LLVMValueRef fn);
void uf__lower_add_attr(uf__lower *L, LLVMValueRef fn, int idx,
                        const char *name);
/* A C function of the module (libm, libdevice, a runtime helper),
 * declared once: nounwind, willreturn, and readnone when `pure` (the NVVM
 * clean-up strips the attributes libnvvm refuses). */
LLVMValueRef uf__lower_declare(uf__lower *L, const char *name,
                               LLVMTypeRef fty, bool pure);

/* ---- operators and conversions (lower_ops.c) -------------------------- */

LLVMValueRef uf__emit_const_int(uf__fn *F, uf_dtype dt, int64_t v);
LLVMValueRef uf__emit_const_float(uf__fn *F, uf_dtype dt, double v);
LLVMValueRef uf__emit_complex(uf__fn *F, uf_dtype cdt, LLVMValueRef re,
                              LLVMValueRef im);
LLVMValueRef uf__emit_real(uf__fn *F, LLVMValueRef z);
LLVMValueRef uf__emit_imag(uf__fn *F, LLVMValueRef z);
/* Scalar conversion with Numba's semantics: float -> int truncates
 * (fptosi/fptoui, frozen so out-of-range values are unspecified but never
 * undefined behaviour), -> bool compares with zero (NaN is true), complex
 * -> real drops the imaginary part. */
LLVMValueRef uf__emit_cast(uf__fn *F, LLVMValueRef v, uf_dtype from,
                           uf_dtype to);
/* Any value: scalars, tuples element-wise. */
LLVMValueRef uf__emit_convert(uf__fn *F, LLVMValueRef v, const uf__type *from,
                              const uf__type *to);
/* Python truth value as i1. */
LLVMValueRef uf__emit_truth(uf__fn *F, LLVMValueRef v, uf_dtype dt);
/* a op b, both already of dtype `dt` (the operator's optype); the result
 * has dtype `dt` too, except DIV of ints/bools which gives float64. POW
 * here is dt ** dt (ints by squaring, floats through llvm.pow). */
LLVMValueRef uf__emit_binop(uf__fn *F, uf__binop op, uf_dtype dt,
                            LLVMValueRef a, LLVMValueRef b);
/* base ** n for an integer exponent n (any int dtype `ndt`) as Numba: by
 * repeated squaring; negative exponents: 1/r for floats, for ints 0 unless
 * base is +-1; 0 ** -n is INT_MIN (NumPy model) or ZeroDivisionError. */
LLVMValueRef uf__emit_pow_int(uf__fn *F, uf_dtype dt, LLVMValueRef base,
                              uf_dtype ndt, LLVMValueRef n);
/* base ** k for a literal k (|k| <= 65536): unrolled multiplications. */
LLVMValueRef uf__emit_pow_const(uf__fn *F, uf_dtype dt, LLVMValueRef base,
                                int64_t k);
LLVMValueRef uf__emit_unop(uf__fn *F, uf__unop op, uf_dtype dt,
                           LLVMValueRef v);
/* a op b as i1 for ==, !=, <, <=, >, >= on dtype `dt`. */
LLVMValueRef uf__emit_cmp(uf__fn *F, uf__cmpop op, uf_dtype dt,
                          LLVMValueRef a, LLVMValueRef b);

/* `x in c` / `x not in c` (lower_contains.c). */
LLVMValueRef uf__lower_contains(uf__fn *F, const uf__expr *e);
/* A raise statement, a print() call (lower_raise.c); 0 or F->err's code,
 * None's value or NULL. */
int uf__lower_raise(uf__fn *F, const uf__stmt *s);
/* try/except (lower_try.c): an IF with is_try. */
int uf__lower_try(uf__fn *F, const uf__stmt *s);
LLVMValueRef uf__lower_print(uf__fn *F, const uf__expr *e);
/* Where cond holds, Python's `raise KeyError(v)` for the missing key v of
 * type t (d[k]: "KeyError: 5", "KeyError: 'abc'", "KeyError: (1, 2)");
 * `status` (a plain KeyError) for a key str() is not formatted for here
 * (lower_raise.c). */
void uf__lower_raise_key_if(uf__fn *F, LLVMValueRef cond, LLVMValueRef v,
                            const uf__type *t, int status);

/* ---- typed expressions (lower_expr.c) ---------------------------------- */

/* Expressions of the typed function F->tf; NULL with F->err set. */
LLVMValueRef uf__lower_expr(uf__fn *F, const uf__expr *e);
const uf__expr_info *uf__lower_info(uf__fn *F, const uf__expr *e);
/* left op right with the operands converted to `od` (an integer exponent
 * of ** stays integral), the result converted to `rd`. */
LLVMValueRef uf__lower_binop(uf__fn *F, uf__binop op, const uf__expr *left,
                             const uf__expr *right, uf_dtype od, uf_dtype rd);
/* A folded constant as a value of its type. */
LLVMValueRef uf__lower_constant(uf__fn *F, const uf__constant *c);
/* Strings known at compile time (lower_str.c): whether `e` is one or a
 * constant folded from them, its value (an i8 nothing reads, or the
 * constant), and the characters of a string-typed `x` (NULL if not). */
bool uf__lower_is_str_value(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_str_value(uf__fn *F, const uf__expr *e);
const char *uf__lower_strlit(uf__fn *F, const uf__expr *x, size_t *len);

/* ---- math and builtins (lower_math.c) --------------------------------- */

/* Calls the intrinsic "llvm.<name>" overloaded on the type of args[0]. */
LLVMValueRef uf__emit_intrinsic(uf__fn *F, const char *name,
                                LLVMValueRef *args, int nargs);
/* The math function `name` (C's double-precision name: "sin", "atan2",
 * "fabs") on float32 or float64 values args[0..nargs) of one type, as the
 * codegen target computes it (codegen.h: math). */
/* C's fmod of two floats of one type: frem, but the math hook's "fmod"
 * on a target whose backend expands frem inexactly (codegen.h; NVVM:
 * libdevice's __nv_fmod[f]; divmod(1e10, 3.0) in float32 gave 256 for 1
 * on an H200 through frem). */
LLVMValueRef uf__emit_fmod(uf__fn *F, LLVMValueRef a, LLVMValueRef b);

LLVMValueRef uf__emit_mathfn(uf__fn *F, const char *name, LLVMValueRef *args,
                             int nargs);
/* A math builtin on args already converted to the float dtype `dt`;
 * returns a value of `dt` (bool for isnan/isinf/isfinite). */
LLVMValueRef uf__emit_math(uf__fn *F, uf__builtin bi, uf_dtype dt,
                           LLVMValueRef *args, int nargs);
/* Complex arithmetic on values of complex dtype `dt`. */
LLVMValueRef uf__emit_cmul(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                           LLVMValueRef b);
LLVMValueRef uf__emit_cdiv(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                           LLVMValueRef b);
LLVMValueRef uf__emit_cpow(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                           LLVMValueRef b);
LLVMValueRef uf__emit_cabs(uf__fn *F, uf_dtype dt, LLVMValueRef z);
/* A call of a builtin (CALL or ATTR expression typed as one). */
LLVMValueRef uf__lower_builtin(uf__fn *F, const uf__expr *e);
/* A NumPy ufunc of UF__NPUFUNC_MAP on scalars (lower_npufunc.c). */
LLVMValueRef uf__lower_npufunc(uf__fn *F, const uf__expr *e);
/* NumPy's reductions, np.dot/np.vdot/`@`, np.transpose/a.T, a.itemsize,
 * a.nbytes (lower_npreduce.c): a CALL, ATTR or BINARY expression whose
 * builtin is one of UF__NPREDUCE_MAP's. */
LLVMValueRef uf__lower_npreduce(uf__fn *F, const uf__expr *e);
/* Whether expression e is one of them that may raise (an empty array's
 * min/argmin..., dot of different lengths). */
bool uf__npreduce_fallible(const uf__typed_func *tf, const uf__expr *e);
/* A numba.cuda builtin (lower_cuda.c): an attribute or a call. */
LLVMValueRef uf__lower_cuda(uf__fn *F, const uf__expr *e);
/* cuda.atomic.*, the fences, syncthreads_count/and/or
 * (lower_cuda_atomic.c); called by uf__lower_cuda on a CUDA target. */
LLVMValueRef uf__lower_cuda_atomic(uf__fn *F, const uf__expr *e);
/* A call of a cuda.declare_device function (lower_extern.c). */
LLVMValueRef uf__lower_extern_call(uf__fn *F, const uf__expr *e,
                                   const struct uf__extern_decl *x);
/* A numba.cuda.random call (lower_cuda_random.c). */
LLVMValueRef uf__lower_cuda_random(uf__fn *F, const uf__expr *e);
/* A warp-level function call (lower_cuda_warp.c), the target checked. */
LLVMValueRef uf__lower_cuda_warp(uf__fn *F, const uf__expr *e, uf__builtin b);

/* (the runtime helpers lowering calls by name, UF__RT_CSQRT and
 * friends: common/loop.h) */

/* ---- arrays (lower_array.c, lower_index.c) ----------------------------
 * Values of array type follow compiler/lower/lower_array.h. */

/* Whether `tf` checks every index: its decorator's boundscheck=True, or
 * UFJIT_DEBUG set (and not "0") in the environment when compiling. Such
 * functions are fallible when they index arrays: an index out of range is
 * reported to the codegen target's error sink (codegen.h: index_error)
 * and returns UF__JIT_INDEX. */
bool uf__lower_boundscheck(const uf__typed_func *tf);

/* Fields of an array value: the data pointer (i8*), shape[k] (i64) and
 * strides[k] in bytes (i64; the itemsize as a constant where the layout of
 * `t` fixes it). */
LLVMValueRef uf__emit_array_data(uf__fn *F, LLVMValueRef a);
LLVMValueRef uf__emit_array_dim(uf__fn *F, LLVMValueRef a, int k);
LLVMValueRef uf__emit_array_stride(uf__fn *F, LLVMValueRef a,
                                   const uf__type *t, int k);
/* Loads/stores one element of dtype `dt` at the byte address `p` (i8*). */
LLVMValueRef uf__emit_elem_load(uf__fn *F, LLVMValueRef p, uf_dtype dt);
void uf__emit_elem_store(uf__fn *F, LLVMValueRef p, uf_dtype dt,
                         LLVMValueRef v);
/* a[k] along the first axis for 0 <= k < shape[0] (no wrapping, no
 * check): an element of a 1-D array, else the view of type `item`. */
LLVMValueRef uf__emit_array_item(uf__fn *F, LLVMValueRef a,
                                 const uf__type *t, LLVMValueRef k);
/* The type `for x in a` gives x (an element, or a view one dimension
 * down), as infer_expr.c types a[i]. */
const uf__type *uf__array_item_type(uf__typectx *tc, const uf__type *t,
                                    uf_error *err);

/* Index v (of integer dtype dt) on axis k of array a as i64, as a[v]
 * takes it: negative values of signed dtypes wrap, then it is checked
 * when the function checks bounds (an IndexError at pos). */
LLVMValueRef uf__emit_axis_index(uf__fn *F, uf__pos pos, LLVMValueRef a,
                                 int k, LLVMValueRef v, uf_dtype dt);
/* The value of integer index x (UF__IX_INT): x itself, or the element of
 * a 0-d integer array (Numba takes it as that integer); *dt its dtype. */
LLVMValueRef uf__lower_int_index(uf__fn *F, const uf__expr *x, uf_dtype *dt);
/* a[i, j], a[(i, j)], a[i] of a 2-D array (a view), t[k] of a homogeneous
 * tuple with a run-time k. */
LLVMValueRef uf__lower_index(uf__fn *F, const uf__expr *e);
/* The byte address (i8*) of element idx[0..ndim) (dtypes dt) of array
 * `arr` of type t, wrapped and checked as a[i, j] is (at pos). */
LLVMValueRef uf__lower_element_address(uf__fn *F, uf__pos pos,
                                       LLVMValueRef arr, const uf__type *t,
                                       LLVMValueRef *idx, const uf_dtype *dt);
/* a[i, j] = v, v of type vt. */
int uf__lower_index_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                          const uf__type *vt);
/* A loop ID promising the vectoriser that no iteration depends on
 * another (llvm.loop.parallel_accesses) for the memory accesses tagged
 * with *group ("llvm.access.group"); NULL when it cannot be made, and the
 * loop stays as it is (lower_loop.c). */
LLVMValueRef uf__parallel_loop_md(uf__lower *L, LLVMValueRef *group);
/* a op b on values of dtypes ad, bd, as `a op b` on numbers computes it
 * (operands converted to od, Numba's operand type; the result to rd):
 * the element operation of an array expression (lower_expr.c). */
LLVMValueRef uf__emit_binop_values(uf__fn *F, uf__binop op, uf_dtype ad,
                                   LLVMValueRef a, uf_dtype bd,
                                   LLVMValueRef b, uf_dtype od, uf_dtype rd);
/* The scalar computations behind kernel calls, on values already
 * evaluated (for the element loops of array expressions, lower_arrexpr.c):
 * builtin call `e` (its info's builtin) on n arguments a[] of dtypes ad[]
 * giving rt (lower_math.c), and a ufunc of UF__NPUFUNC_MAP on its loop
 * NumPy selects for ad[], the result converted to rd (lower_npufunc.c). */
LLVMValueRef uf__emit_builtin(uf__fn *F, const uf__expr *e, int n,
                              uf_dtype *ad, LLVMValueRef *a,
                              const uf__type *rt);
LLVMValueRef uf__emit_npufunc(uf__fn *F, const uf__expr *e, uf__builtin bi,
                              const uf_dtype *ad, LLVMValueRef *a,
                              uf_dtype rd);
/* Stores array expression `value` (infer_arrexpr.c) into the array
 * `dst` of type dt, fused into one loop over dst (lower_arrexpr.c);
 * augop >= 0: dst = dst augop value (an augmented assignment). 0 or the
 * error code. */
int uf__lower_arrexpr_into(uf__fn *F, uf__pos pos, LLVMValueRef dst,
                           const uf__type *dt, const uf__expr *value,
                           int augop);
/* A NumPy ufunc given its output arrays (np.add(x, y, out),
 * np.divmod(x, y, q, r)): the inputs broadcast into each output by the
 * same fused loop, NumPy's "non-broadcastable output operand" when they
 * do not fit; the value is the output (a tuple of both for two). */
LLVMValueRef uf__lower_ufunc_out(uf__fn *F, const uf__expr *e);
/* Array expression e as a value: a new C-contiguous array of the
 * operands' broadcast shape (lower_alloc.c's, owned by F's frame), filled
 * by the same fused loop. Host targets only; NULL with F->err set. */
LLVMValueRef uf__lower_arrexpr_value(uf__fn *F, const uf__expr *e);

/* Arrays allocated in kernels (lower_alloc.c): np.empty ... np.linspace
 * (uf__builtin_is_alloc); the adoption of what a kernel called from here
 * returned; and, once the body is lowered, the frame's release before
 * every `ret` (0 or err's code). */
LLVMValueRef uf__lower_alloc(uf__fn *F, const uf__expr *e);
void uf__lower_alloc_adopt(uf__fn *F);
int uf__lower_alloc_finish(uf__fn *F);
bool uf__type_holds_array(const uf__type *t);
/* The data pointers of every array inside value v of type t, at most cap
 * into out (*n counts them). */
void uf__lower_array_pointers(uf__fn *F, LLVMValueRef v, const uf__type *t,
                              LLVMValueRef *out, int *n, int cap);
/* The frees at the end of loop iterations (lower_nrt_loop.c): enter
 * before a loop's first block (loop: its statement; iter: the array a
 * `for` iterates over, or NULL), latch with the block every iteration ends in (before anything is
 * built there), leave after the loop; finish (from uf__lower_alloc_finish)
 * puts a sweep of the frame (uf__nrt_sweep) at the start of each latch of
 * a loop that allocated, keeping the blocks that array variables and
 * iterated arrays point into. */
int uf__nrt_loop_enter(uf__fn *F, const uf__stmt *loop, LLVMValueRef iter,
                       const uf__type *at);
void uf__nrt_loop_latch(uf__fn *F, LLVMBasicBlockRef latch);
void uf__nrt_loop_leave(uf__fn *F);
int uf__nrt_loops_finish(uf__fn *F);
void uf__nrt_loops_free(uf__fn *F);
/* A new C-contiguous array of `dt` and shape[0..nd) (i64 values), owned
 * by F's frame: negative dimensions and sizes past int64 raise their
 * ValueErrors, out of memory UF__JIT_NOMEM (F must be fallible: see
 * lower_fallible.c); *nitems gets the element count. Host targets only. */
LLVMValueRef uf__lower_new_array(uf__fn *F, uf_dtype dt, int nd,
                                 LLVMValueRef *shape, LLVMValueRef *nitems);
/* The frame slot of F (made on first use): what uf__nrt_alloc links new
 * blocks into. */
LLVMValueRef uf__lower_frame_slot(uf__fn *F);
/* Lists (lower_list.c, typed by types/infer_list.c): a literal `[a, b]`;
 * l[i]; l[i] = v; a method call (UF__LIST_MAP); the length of list value
 * l; l as a 1-D array viewing its items (valid until the next append);
 * a new array copying them as dtype `to` (np.array(l)); list(A) -> list(B)
 * (a converted copy; list(undefined) is passed through); whether e may
 * raise (lower_fallible.c). */
LLVMValueRef uf__lower_list_literal(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_list_index(uf__fn *F, const uf__expr *e);
int uf__lower_list_store(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                         const uf__type *vt);
LLVMValueRef uf__lower_list_call(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__emit_list_len(uf__fn *F, LLVMValueRef l);
/* The list header's items pointer; its size set to n (lower_list.c). */
LLVMValueRef uf__emit_list_items(uf__fn *F, LLVMValueRef l);
void uf__emit_list_set_len(uf__fn *F, LLVMValueRef l, LLVMValueRef n);
LLVMValueRef uf__lower_list_as_array(uf__fn *F, LLVMValueRef l,
                                     const uf__type *lt);
LLVMValueRef uf__lower_list_to_array(uf__fn *F, LLVMValueRef l,
                                     const uf__type *lt, uf_dtype to);
LLVMValueRef uf__lower_list_convert(uf__fn *F, LLVMValueRef l,
                                    const uf__type *from, const uf__type *to);
bool uf__list_fallible(const uf__typed_func *tf, const uf__expr *e);
/* Run-time strings (lower_ustr.c, typed by types/infer_ustr.c): an
 * expression whose entry is one of UF__USTR_MAP; the string value of e
 * (a literal made a constant uf__ustr); the constant of `n` bytes of
 * UTF-8 s; len(s) of value s; s[k] for k in range (a new one-character
 * string); `s += t` / `s *= n` into variable slot `var`; whether e may
 * raise (lower_fallible.c). */
LLVMValueRef uf__lower_ustr(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_ustr_operand(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_ustr_literal(uf__fn *F, const char *s, size_t n);
LLVMValueRef uf__emit_ustr_len(uf__fn *F, LLVMValueRef s);
LLVMValueRef uf__lower_ustr_char_at(uf__fn *F, LLVMValueRef s,
                                    LLVMValueRef k);
int uf__lower_ustr_augassign(uf__fn *F, const uf__stmt *s, LLVMValueRef var);
bool uf__ustr_fallible(const uf__typed_func *tf, const uf__expr *e);
/* A tuple of strings some of them literals (`for s in ('a', 'bc')`) as
 * Numba iterates it, UniTuple(unicode_type x n): *tt replaced; other
 * tuples returned as they are. NULL with F->err set when out of memory. */
LLVMValueRef uf__lower_ustr_tuple(uf__fn *F, LLVMValueRef tv,
                                  const uf__type **tt);
/* list(x) of call e's first argument into e's list type (lower_list.c);
 * l.sort() and sorted(x) (lower_list_ops.c). */
LLVMValueRef uf__lower_list_of(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_list_sort(uf__fn *F, const uf__expr *e);
/* l[a:b:c]; l + m, l * n; l += m, l *= n; l == m ... (lower_list_ops.c) */
LLVMValueRef uf__lower_list_slice(uf__fn *F, const uf__expr *e);
/* l[a:b:c] = v (v a list of type vt): 0, or the error code. */
int uf__lower_list_slice_store(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                               const uf__type *vt);
/* `del l[a:b:c]` (call e: l.__delitem__(slice), l of type lt lowered):
 * 0, or the error code. */
int uf__lower_list_delslice(uf__fn *F, const uf__expr *e, LLVMValueRef l,
                            const uf__type *lt);
LLVMValueRef uf__lower_list_binop(uf__fn *F, const uf__expr *e);
int uf__lower_list_augassign(uf__fn *F, const uf__stmt *s);
LLVMValueRef uf__lower_list_compare(uf__fn *F, const uf__expr *e);
/* Items that are arrays (lower_list_items.c): whether list type lt holds
 * arrays; the bytes of one item; an item loaded from / stored at address
 * p; the pointers handed to the frame's sweeps and returns for list
 * value l (marked when it holds arrays: common/list_items.h) and for the
 * function's list-of-arrays arguments, appended to out[] (*n counts, at
 * most cap); whether a callee takes such a list (its caller adopts what
 * the callee appended). */
bool uf__list_holds_arrays(const uf__type *lt);
/* For a dict type whose keys or values are strings (or values arrays,
 * whose data pointer comes first as a string's does), the `what` of its
 * UF__DICT_ROOT_MARK (common/list_items.h; uf__list_push_root marks it
 * as it marks a list of arrays), else 0. */
int uf__dict_root_what(const uf__type *dt);
/* Item i (i64, in range) of list value l; a new list of n items (not
 * yet stored: out of memory raises); item i stored (lower_list.c). */
LLVMValueRef uf__lower_list_new(uf__fn *F, const uf__type *lt,
                                LLVMValueRef n);
void uf__lower_list_set(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                        LLVMValueRef i, LLVMValueRef v);
LLVMValueRef uf__lower_list_item(uf__fn *F, LLVMValueRef l,
                                 const uf__type *lt, LLVMValueRef i);
int64_t uf__list_itemsize(const uf__type *lt);
/* The byte offset of field k of a tuple item of type t in a list. */
int64_t uf__list_field_offset(const uf__type *t, int k);
LLVMValueRef uf__list_item_load(uf__fn *F, LLVMValueRef p,
                                const uf__type *lt);
void uf__list_item_store(uf__fn *F, LLVMValueRef p, const uf__type *lt,
                         LLVMValueRef v);
void uf__list_push_root(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                        LLVMValueRef *out, int *n, int cap);
/* Lists whose items are lists or tuples holding strings (lower_list_
 * nest.c): whether lt is one; its three keep pointers (UF__LIST_DESC_MARK,
 * its items' descriptor, the header: common/list_items.h) appended to
 * out[]; how many pointers a value of list type lt takes in a keep
 * array (1, or 2 for a marked list, 3 for a described one). */
bool uf__list_described(const uf__type *lt);
/* np.array(l) of a list of lists of numbers: a new C array of dtype
 * `to`, one dimension per level (lower_list_nest_array.c). */
LLVMValueRef uf__lower_list_nested_array(uf__fn *F, LLVMValueRef l,
                                         const uf__type *lt, uf_dtype to);
void uf__list_push_described(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                             LLVMValueRef *out, int *n, int cap);
int uf__list_root_slots(const uf__type *lt);
void uf__list_arg_roots(uf__fn *F, LLVMValueRef *out, int *n, int cap);
bool uf__call_takes_list_arrays(const uf__typed_func *callee);
/* np.array(l) of a list of k-tuples: a new (n, k) C array of dtype `to`
 * (an empty list raises Numba's IndexError, from its read of l[0]). */
LLVMValueRef uf__lower_list_tuples_array(uf__fn *F, LLVMValueRef l,
                                         const uf__type *lt, uf_dtype to);
/* Dicts (lower_dict.c, typed by types/infer_dict.c): d[k]; d[k] = v; a
 * call of UF__DICT_MAP (dict() and `{k: v}` too); `k in d`; the loop
 * over a dict or its views into variable vi; whether e may raise
 * (lower_fallible.c). The length is uf__emit_list_len's (both headers
 * start with their size). */
LLVMValueRef uf__lower_dict_index(uf__fn *F, const uf__expr *e);
int uf__lower_dict_store(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                         const uf__type *vt);
LLVMValueRef uf__lower_dict_call(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_dict_contains(uf__fn *F, const uf__expr *e);
int uf__lower_dict_for(uf__fn *F, const uf__stmt *s, int vi);
int uf__lower_dict_augassign(uf__fn *F, const uf__stmt *s);
/* d == e, d != e (lower_dict.c). */
LLVMValueRef uf__lower_dict_compare(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_dict_convert(uf__fn *F, LLVMValueRef d,
                                    const uf__type *from, const uf__type *to);
bool uf__dict_fallible(const uf__typed_func *tf, const uf__expr *e);
/* Sets (lower_set.c, typed by types/infer_set.c): a call of UF__SET_MAP
 * (set() and `{a, b}` too); `x in s`; s | t ...; s == t ...; s |= t ...
 * (variable vi); the loop over a set; a set of one type seen as another
 * (set() refined, integers widened to floats); whether e may raise
 * (lower_fallible.c). */
LLVMValueRef uf__lower_set_call(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_set_contains(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_set_binop(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_set_compare(uf__fn *F, const uf__expr *e);
int uf__lower_set_augassign(uf__fn *F, const uf__stmt *s, int vi);
int uf__lower_set_for(uf__fn *F, const uf__stmt *s, int vi);
LLVMValueRef uf__lower_set_convert(uf__fn *F, LLVMValueRef s,
                                   const uf__type *from, const uf__type *to);
bool uf__set_fallible(const uf__typed_func *tf, const uf__expr *e);
/* The items of set s (type st) stored at dst, one per itemsize bytes, as
 * dtype `to` (list(s), sorted(s): lower_list.c). */
/* The keys, values or (key, value) tuples (as dict or view type dt says)
 * of dict d in order, converted to list type lt's items, into items (a
 * list's buffer of len(d) items): list(d), list(d.items()), sorted(d)...
 * (lower_dict.c). */
void uf__lower_dict_to_items(uf__fn *F, LLVMValueRef d, const uf__type *dt,
                             LLVMValueRef items, const uf__type *lt);
/* fn(x) for each key, value or (key, value) tuple x (of type xt: the
 * key's, the value's, or the tuple of both) of dict d, as dict or view
 * type dt says, in order (lower_dict.c). */
typedef void (*uf__dict_visit_fn)(uf__fn *F, LLVMValueRef x,
                                  const uf__type *xt, void *ud);
void uf__lower_dict_visit(uf__fn *F, LLVMValueRef d, const uf__type *dt,
                          uf__dict_visit_fn fn, void *ud);
void uf__lower_set_items(uf__fn *F, LLVMValueRef s, const uf__type *st,
                         LLVMValueRef dst, int64_t itemsize, uf_dtype to);
/* a.copy(), a.reshape(), np.sort, np.round ... (UF__ARRMETH_MAP;
 * lower_arrmeth.c, lower_arrsort.c). Host targets only, but np.round of
 * a number. */
LLVMValueRef uf__lower_arrmeth(uf__fn *F, const uf__expr *e);
/* np.shape ... np.angle (UF__NPPRED_MAP; lower_nppred.c) called on
 * numbers, np.allclose / np.array_equal, and the forms known at compile
 * time; their array forms are array expressions (lower_arrexpr.c). */
LLVMValueRef uf__lower_nppred(uf__fn *F, const uf__expr *e);
/* The element function of call e of UF__NPPRED_MAP's bi on element
 * values a[] of dtypes ad[] (a[i] NULL: parameter i absent or None), in
 * Numba's number form; *rd gets its dtype. */
LLVMValueRef uf__emit_nppred_elem(uf__fn *F, const uf__expr *e,
                                  uf__builtin bi, const uf_dtype *ad,
                                  LLVMValueRef *a, uf_dtype *rd);
/* The element function of call e (np.allclose, np.array_equal) computed
 * into a new C array of dtype dt and nd dimensions by the fused loop, the
 * operands pre_e[i] taken as the values pre_v[i] already lowered; the
 * element count in *nitems. NULL with F->err set. */
LLVMValueRef uf__lower_arrexpr_elems(uf__fn *F, const uf__expr *e,
                                     uf_dtype dt, int nd,
                                     const uf__expr *const *pre_e,
                                     const LLVMValueRef *pre_v, int npre,
                                     LLVMValueRef *nitems);
/* np.nancumsum, np.nancumprod, np.diff, np.average (UF__NPCUM_MAP;
 * lower_npcum.c). Host targets only. */
LLVMValueRef uf__lower_npcum(uf__fn *F, const uf__expr *e);
/* np.eye, np.diag, np.tril, np.outer ... (UF__NPMATRIX_MAP;
 * lower_npmatrix.c). Host targets only. */
LLVMValueRef uf__lower_npmatrix(uf__fn *F, const uf__expr *e);
/* np.ediff1d, np.trapezoid ... (UF__NPFUNC_MAP; lower_npfunc.c). Host
 * targets only. */
LLVMValueRef uf__lower_npfunc(uf__fn *F, const uf__expr *e);
/* np.convolve, np.correlate (UF__NPSIGNAL_MAP; lower_npsignal.c). Host
 * targets only. */
LLVMValueRef uf__lower_npsignal(uf__fn *F, const uf__expr *e);
/* np.logspace, np.geomspace (lower_npspace.c). */
LLVMValueRef uf__lower_npspace(uf__fn *F, const uf__expr *e);
/* numpy.polynomial.polynomial.polyadd ... polyutils.trimseq
 * (UF__NPPOLY_MAP; lower_nppoly.c). Host targets only. */
LLVMValueRef uf__lower_nppoly(uf__fn *F, const uf__expr *e);
/* np.cross, np.unwrap, np.select (UF__NPCROSS_MAP; lower_npcross.c).
 * Host targets only. */
LLVMValueRef uf__lower_npcross(uf__fn *F, const uf__expr *e);
/* np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit
 * (UF__NPSPLIT_MAP; lower_npsplit.c): a tuple of views. */
LLVMValueRef uf__lower_npsplit(uf__fn *F, const uf__expr *e);
/* np.flip, np.rot90, np.expand_dims, np.swapaxes, np.transpose(a, axes)
 * ... (UF__NPVIEW_MAP; lower_npview.c): views, no allocation; and
 * whether builtin b among them checks axes at run time. */
LLVMValueRef uf__lower_npview(uf__fn *F, const uf__expr *e);
bool uf__npview_fallible(uf__builtin b);
/* a.view(dtype), np.frombuffer(buf, ...) (views, ValueErrors at run
 * time) and isinstance (a constant) of UF__ARRVIEW_MAP; lower_arrview.c. */
LLVMValueRef uf__lower_arrview(uf__fn *F, const uf__expr *e);
/* np.repeat, np.resize, np.broadcast_to, np.broadcast_arrays
 * (UF__NPSHAPE_MAP; lower_npshape.c): every one may raise. */
LLVMValueRef uf__lower_npshape(uf__fn *F, const uf__expr *e);
/* np.median, np.percentile, np.quantile and the nan* ones
 * (lower_npselect.c). Host targets only. */
LLVMValueRef uf__lower_npselect(uf__fn *F, const uf__expr *e);
/* np.partition, np.argpartition (lower_nppart.c). Host targets only. */
LLVMValueRef uf__lower_nppart(uf__fn *F, const uf__expr *e);
/* np.histogram, np.cov, np.corrcoef (UF__NPSTATS_MAP; lower_npstats.c).
 * Host targets only. */
LLVMValueRef uf__lower_npstats(uf__fn *F, const uf__expr *e);
/* np.concatenate, np.stack, np.hstack ... np.append (UF__NPJOIN_MAP;
 * lower_npjoin.c). Host targets only. */
LLVMValueRef uf__lower_npjoin(uf__fn *F, const uf__expr *e);
/* np.nonzero, np.where(cond), np.flatnonzero, np.argwhere, np.extract,
 * np.unique, the set routines, np.isin (UF__NPFIND_MAP; lower_npfind.c).
 * Host targets only. */
LLVMValueRef uf__lower_npfind(uf__fn *F, const uf__expr *e);
/* polyutils.as_series (lower_npseries.c). Host targets only. */
LLVMValueRef uf__lower_as_series(uf__fn *F, const uf__expr *e);
/* np.insert (lower_npinsert.c). Host targets only. */
LLVMValueRef uf__lower_npinsert(uf__fn *F, const uf__expr *e);
/* np.random.seed, random, normal, randint, shuffle, choice ...
 * (UF__NPRANDOM_MAP; lower_nprandom.c). Host targets only. */
LLVMValueRef uf__lower_nprandom(uf__fn *F, const uf__expr *e);
/* Whether np.random's builtin b with result type t can fail: a new
 * array (size=, permutation), randint's empty range, choice's. */
bool uf__nprandom_fallible(uf__builtin b, const uf__type *t);
/* np.interp ... (UF__NPNUM_MAP; lower_npnum.c). Host targets only. */
LLVMValueRef uf__lower_npnum(uf__fn *F, const uf__expr *e);
/* np.linalg.norm, det, slogdet, inv, solve (lower_nplinalg.c). Host
 * targets only. */
LLVMValueRef uf__lower_nplinalg(uf__fn *F, const uf__expr *e);
/* Basic slicing (lower_slice.c): the view or element a[1:, None, i]
 * of subscript e (uf__subscript_is_slicing), and view[...] = v for a
 * target whose type is an array (v a number or an array that broadcasts). */
LLVMValueRef uf__lower_slice(uf__fn *F, const uf__expr *e);
int uf__lower_slice_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                          const uf__type *vt);
/* lower:upper:step (slice x) over an axis of length len: the first
 * index, the length and the step of the view (lower_slice.c). */
int uf__lower_slice_axis(uf__fn *F, const uf__expr *x, LLVMValueRef len,
                         LLVMValueRef *start, LLVMValueRef *length,
                         LLVMValueRef *step);
/* Advanced indexing (lower_fancy.c): the new array a[idx], a[mask], a[:,
 * idx] ... of subscript e (uf__subscript_is_fancy), and a[idx] = v. */
LLVMValueRef uf__lower_fancy(uf__fn *F, const uf__expr *e);
int uf__lower_fancy_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                          const uf__type *vt);
/* a[idx] op= v (at: a[idx]'s type), a and idx evaluated once. */
int uf__lower_fancy_augassign(uf__fn *F, const uf__stmt *s,
                              const uf__type *at);
/* Whether slicing expression e may raise (a step not a nonzero literal),
 * and whether `t = value` is a store of an array into a view. */
bool uf__slice_expr_fallible(const uf__typed_func *tf, const uf__expr *e);
bool uf__slice_store_fallible(const uf__typed_func *tf, const uf__expr *t,
                              const uf__expr *value);
/* a[i, j] op= value: the element read and written once. */
int uf__lower_index_augassign(uf__fn *F, const uf__stmt *s);
/* .shape, .strides, .size, .ndim (bi: UF__BI_ATTR_*) and len() (UF__BI_LEN) of the
 * array expression `arr`, as a value of e's type. */
LLVMValueRef uf__lower_array_attr(uf__fn *F, const uf__expr *e,
                                  uf__builtin bi, const uf__expr *arr);
/* len(range(...)) of the range() call `range`, an i64 (lower_range_len.c);
 * a zero step raises ValueError. */
LLVMValueRef uf__lower_range_len(uf__fn *F, const uf__expr *range);
/* Calls fn with each value of the range() call `range` in order, in the
 * range's dtype (int32, int64, uint64), after raising empty_status (when
 * not 0) for an empty range; -1 with F->err set. */
int uf__lower_range_visit(uf__fn *F, const uf__expr *range,
                          void (*fn)(uf__fn *F, LLVMValueRef x, void *ud),
                          void *ud, int empty_status);
/* a.flat of an F or strided N-d array (UF__T_FLATITER, lower_flat.c):
 * len(flat); the element address of the subscript a.flat[k] (*dt its
 * dtype; IndexError out of range), its load and its store. */
LLVMValueRef uf__lower_flat_len(uf__fn *F, const uf__expr *flat);
/* Whether e is a.flat[k], k one integer (of any array's .flat). */
bool uf__is_flat_subscript(uf__fn *F, const uf__expr *e);
LLVMValueRef uf__lower_flat_address(uf__fn *F, const uf__expr *e,
                                    uf_dtype *dt);
LLVMValueRef uf__lower_flat_load(uf__fn *F, const uf__expr *e);
int uf__lower_flat_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                         const uf__type *vt);

/* x op= value (lower.c): `x` of scalar type `xt`, Numba's typing of the
 * operator; the result converted back to xt. */
LLVMValueRef uf__lower_augop(uf__fn *F, const uf__stmt *s, LLVMValueRef x,
                             const uf__type *xt);

/* ---- the ufunc loop (lower_loop.c) ------------------------------------ */

/* (the loop contract: common/loop.h) */

/* Emits `int name(void *ctx, char *const *data, const int64_t *dims,
 * const int64_t *strides, void *aux)` calling `kernel` per element:
 * nin inputs of dtypes `in`, nout results of dtypes `res` (a struct when
 * nout > 1 or `tuple_ret`), converted to `out`. */
LLVMValueRef uf__lower_loop(uf__lower *L, LLVMValueRef kernel, bool fallible,
                            const uf_dtype *in, int nin, const uf_dtype *res,
                            int nout, bool tuple_ret, const uf_dtype *out,
                            const char *name, uf_error *err);

#endif
