/* Internals shared by the type inference files: infer.c (specialisations,
 * variables, statements and the fixed point), infer_expr.c (expressions),
 * infer_call.c (builtins and calls of other kernels) and infer_dump.c. */
#ifndef UF_COMPILER_INFER_INTERNAL_H
#define UF_COMPILER_INFER_INTERNAL_H

#include <stdbool.h>

#include "compiler/front/ast_visit.h"
#include "compiler/types/infer.h"

/* Passes over the body before giving up on reaching a fixed point (types
 * only widen, so real kernels settle in two or three). */
#define UF__INFER_MAX_PASSES 64

/* One specialisation being typed. Callees are typed with their own
 * context whose `caller` is this one (for the recursion check). */
typedef struct uf__ictx {
    uf__kmodule *km;
    uf__typectx *tc;
    uf__typed_func *tf;
    uf_error *err;
    struct uf__ictx *caller;
    uf__pos *def_pos;     /* per var: where its current type came from */
    int capvars;
    bool changed;         /* a variable's type widened in this pass */
    /* Passes before the fixed point skip statements that fail to type:
     * a variable may still widen further down and make them valid (as
     * x = False ... float(x) ... x = i in a loop). Only the last pass
     * reports errors. */
    bool lenient;
    bool incomplete;      /* a local was read before any typed assignment */
    uf__pos first_unknown; /* where, for the error when it stays so */
    const char *unknown_name;
    const uf__type *ret;  /* unified return type of this pass, or NULL */
    uf__pos ret_pos;
    /* The list literal being typed is np.array's / np.asarray's object
     * (Numba's reflected list): typed as a tuple (infer_expr.c). */
    bool list_as_tuple;
    /* The iterable of the for loop being typed: the one place np.ndindex,
     * np.ndenumerate and np.nditer are taken (infer_npiter.c). */
    const uf__expr *for_iter;
} uf__ictx;

/* The sentinel type of an expression that reads a local not typed yet
 * in this pass: the statement is skipped and the pass repeated. */
extern const uf__type uf__type_unknown;
#define UF__UNKNOWN (&uf__type_unknown)

/* Types `e` and records it in C->tf->info; NULL with C->err set, or
 * UF__UNKNOWN. */
const uf__type *uf__infer_expr(uf__ictx *C, const uf__expr *e);
/* Types `x in c` / `x not in c` (infer_contains.c). */
const uf__type *uf__infer_contains(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in, const uf__type *x,
                                   const uf__type *c);
/* Strings known at compile time (infer_str.c): 1 and *out the string
 * when x is a string literal or typed Literal[str] (x is typed), 0 when
 * x is something else, -1 with the error set. */
int uf__infer_strlit(uf__ictx *C, const uf__expr *x, const char **out);
/* The end of a "Cannot unify" message for two different strings: "" when
 * a or b is not one. */
const char *uf__str_join_hint(const uf__type *a, const uf__type *b);
/* Folded to constants: a comparison with a string operand, len(s), not s. */
const uf__type *uf__infer_str_compare(uf__ictx *C, const uf__expr *e,
                                      uf__expr_info *in, int op,
                                      const uf__type *a, const uf__type *b);
const uf__type *uf__infer_str_len(uf__ictx *C, const uf__expr *e,
                                  uf__expr_info *in, const uf__type *s);
const uf__type *uf__infer_str_not(uf__ictx *C, const uf__expr *e,
                                  uf__expr_info *in, const uf__type *s);
/* Types a raise statement and a call of print (infer_raise.c). */
int uf__infer_raise(uf__ictx *C, const uf__stmt *s);
const uf__type *uf__infer_print(uf__ictx *C, const uf__expr *e);
/* Types a CALL expression (infer_call.c). */
const uf__type *uf__infer_call(uf__ictx *C, const uf__expr *e);
/* Types a subscript of array `arr`: integers, slices, None, ellipsis
 * (infer_slice.c). */
const uf__type *uf__infer_array_index(uf__ictx *C, const uf__expr *e,
                                      const uf__type *arr);
/* A subscript of array `arr` with an integer or boolean array among its
 * indices, the others already typed (infer_fancy.c). */
const uf__type *uf__infer_fancy_index(uf__ictx *C, const uf__expr *e,
                                      const uf__type *arr);
/* a.flat[k] of an F or strided array (infer_arrmeth.c). */
const uf__type *uf__infer_flat_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *flat);
/* NumPy's array constructors (np.empty ... np.linspace: UF__NPALLOC_MAP)
 * called as `e`, arguments and keywords read here (infer_alloc.c). */
const uf__type *uf__infer_alloc(uf__ictx *C, const uf__expr *e,
                                uf__builtin b);
/* The parameter names of constructor b in NumPy's order (*n of them),
 * the ones its typer accepts; NULL for another builtin. */
const char *const *uf__alloc_params(uf__builtin b, int *n);
/* Numba's dtype of np.arange over its bounds and step (NULL: absent). */
uf_dtype uf__arange_dtype(const uf__type *const *bounds, int n);
/* Checks `view = v` for a view target (a[1:] = v, a[i] = v of a 2-d a):
 * v a number or an array whose dtype converts; 0 or -1. */
int uf__infer_slice_store(uf__ictx *C, const uf__expr *t,
                          const uf__type *view, const uf__type *vt);

/* NumPy's reductions, np.dot/np.vdot/np.transpose (infer_npreduce.c):
 * builtin b called as `e` with args[0..n) (a method's receiver is read
 * from e's function). */
const uf__type *uf__infer_npreduce_call(uf__ictx *C, const uf__expr *e,
                                        uf__builtin b,
                                        const uf__type *const *args, int n);
/* np.nanargmin, np.nanargmax, np.count_nonzero, np.ptp
 * (infer_npextra.c); `name` as messages print it. */
const uf__type *uf__infer_npextra(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b, const char *name);
/* np.sum / a.sum with axis= and dtype= (infer_npaxis.c): `name` as
 * messages print it, a the array or number summed; and the dtype of a
 * dtype= argument as Numba's sum and cumsum read it (refusing a string
 * or float, which Numba fails on), as uf__infer_dtype_arg otherwise. */
const uf__type *uf__infer_npsum(uf__ictx *C, const uf__expr *e,
                                const char *name, bool method,
                                const uf__type *a);
const uf__type *uf__infer_np_dtype_param(uf__ictx *C, const char *name,
                                         const uf__expr *x, uf_dtype *dt);
/* The attribute b of array `base` among the reductions' (a.T,
 * a.itemsize, a.nbytes), found in array_members.c's table. */
const uf__type *uf__infer_npreduce_attr(uf__ictx *C, const uf__expr *e,
                                        const uf__type *base,
                                        uf__expr_info *in, uf__builtin b);
/* Attribute or method `e` of array `base` when array_members.c's table
 * has it (*handled; else NULL and the caller refuses the name), typed by
 * its builtin (infer_arrmember.c). */
const uf__type *uf__infer_array_attr(uf__ictx *C, const uf__expr *e,
                                     const uf__type *base, uf__expr_info *in,
                                     bool *handled);
/* x @ y with an array operand (np.dot's rules). */
const uf__type *uf__infer_matmul(uf__ictx *C, const uf__expr *e,
                                 const uf__type *x, const uf__type *y);
/* Whole-array expressions (infer_arrexpr.c). The ufunc bi applied to
 * operands of which one or more are arrays; np.where and np.clip; an
 * augmented assignment to an array view or array (0 or -1); the error
 * refusing array expression e `where` (no allocation inside kernels);
 * the pass refusing array expressions outside stores, after typing. */
bool uf__any_array(const uf__type *const *args, int n);
/* The ufunc bi called with its output arrays after the inputs (n of
 * them in all): np.add(x, y, out), whose value is out. */
const uf__type *uf__infer_ufunc_out(uf__ictx *C, const uf__expr *e,
                                    uf__builtin bi,
                                    const uf__type *const *args, int n);
const uf__type *uf__infer_array_ufunc(uf__ictx *C, const uf__expr *e,
                                      uf__builtin bi,
                                      const uf__type *const *args, int n);
const uf__type *uf__infer_array_where(uf__ictx *C, const uf__expr *e,
                                      const uf__type *const *args, int n);
const uf__type *uf__infer_array_clip(uf__ictx *C, const uf__expr *e,
                                     const uf__type *const *args, int n);
int uf__infer_array_augassign(uf__ictx *C, uf__pos pos, uf__binop op,
                              const uf__expr *value, const uf__type *a,
                              const uf__type *b);
int uf__refuse_arrexpr(uf__ictx *C, const uf__expr *e, const char *where);
/* Whether array expressions must be stored into existing arrays here
 * (CUDA kernels and device functions cannot allocate). */
bool uf__arrexpr_no_alloc(uf__ictx *C);
int uf__check_array_exprs(uf__ictx *C);

/* numba.cuda's attributes and calls (infer_cuda.c). The attribute `e`
 * of module `mod`: *handled says whether it is CUDA's (a submodule such
 * as cuda.threadIdx, or an int32 value such as cuda.threadIdx.x, whose
 * builtin goes into in->builtin). */
const uf__type *uf__infer_cuda_attr(uf__ictx *C, const uf__expr *e,
                                    const char *mod, uf__expr_info *in,
                                    bool *handled);
/* The result type of CUDA builtin b called as `e` with args[0..n). */
const uf__type *uf__infer_cuda_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b, const uf__type *const *args,
                                    int n);

/* cuda.atomic.*, the fences and syncthreads_count/and/or
 * (infer_cuda_atomic.c), as uf__infer_cuda_call. */
const uf__type *uf__infer_cuda_atomic(uf__ictx *C, const uf__expr *e,
                                      uf__builtin b,
                                      const uf__type *const *args, int n);
/* numba.cuda.random's builtin b called as `e` (infer_cuda_random.c). */
const uf__type *uf__infer_cuda_random_call(uf__ictx *C, const uf__expr *e,
                                           uf__builtin b,
                                           const uf__type *const *args,
                                           int n);
/* A warp-level function's result type (infer_cuda_warp.c). */
/* cuda.const.array_like(ARR): ARR's readonly type (infer_cuda_const.c) */
const uf__type *uf__infer_cuda_const(uf__ictx *C, const uf__expr *e,
                                     const uf__type *const *args, int n);
const uf__type *uf__infer_cuda_warp(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b, const uf__type *const *args,
                                    int n);

/* The compile-time shape of cuda.shared.array / cuda.local.array call `e`
 * (its shape= argument): 0 and shape[0..*ndim), or -1 with *where the
 * argument's position. Also for the lowering. */
int uf__cuda_array_shape(const uf__kmodule *km, const uf__expr *e,
                         int64_t *shape, int *ndim, uf__pos *where);

/* Specialises `decl` for `args` (infer.c); reuses km->typed. */
uf__typed_func *uf__infer_spec(uf__kmodule *km, const uf__kernel_decl *decl,
                               const uf__type *const *args, int nargs,
                               const uf__type *ret, bool numpy_model,
                               uf__ictx *caller, uf_error *err);

/* The info entry of `e` in the specialisation being typed. */
static inline uf__expr_info *uf__iinfo(uf__ictx *C, const uf__expr *e)
{
    return uf__tf_info(C->tf, e);
}

/* Records `t` as the type of `e` and returns it. */
static inline const uf__type *uf__iset(uf__ictx *C, const uf__expr *e,
                                       const uf__type *t)
{
    uf__tf_info(C->tf, e)->type = t;
    return t;
}

/* A call of a cuda.declare_device function with arguments of types
 * args[0..n) (infer_extern.c). */
const uf__type *uf__infer_extern_call(uf__ictx *C, const uf__expr *e,
                                      const uf__extern_decl *x,
                                      const uf__type *const *args, int n);

/* Binds call e's arguments to names[0..n) (positional, then keywords)
 * into x[] (NULL where absent); the first nreq are required. False with
 * Python's TypeError wording as a TypingError (infer_npfunc.c). */
bool uf__infer_bind(uf__ictx *C, const uf__expr *e, const char *fn,
                    const char *const *names, int n, int nreq,
                    const uf__expr **x);

/* Errors at a position of the kernel source; return -1 / NULL. */
int uf__ierr(uf__ictx *C, int code, uf__pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const uf__type *uf__ierr_t(uf__ictx *C, int code, uf__pos pos,
                           const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Numba's spelling of a type, in one of a few rotating static buffers
 * per thread (enough for the three types of one message). */
const char *uf__tname(const uf__type *t);

/* Values a variable can hold (numbers, tuples of them, arrays, None);
 * not modules, functions, dtypes or ranges. */
bool uf__is_value_type(const uf__type *t);
/* Python truth testing is supported on numbers (bool included). */
int uf__check_truth(uf__ictx *C, const uf__expr *e, const uf__type *t);

/* Decisions of branch pruning as infer_reach.c reads them: from the typed
 * function's info, or (info NULL) from the arrays of a pruning round. */
typedef struct uf__dview {
    /* a round's decisions per expression of tf's function (indexed as
     * uf__tf_info is), or NULL: the final ones in tf's info */
    const signed char *top, *end;
    const uf__typed_func *tf;
} uf__dview;

/* The index of e in tables per expression of tf's function: as
 * uf__tf_info, with one past the function for any other expression. */
static inline int uf__tf_index(const uf__typed_func *tf, const uf__expr *e)
{
    unsigned k = (unsigned)(e->id - tf->first_id);
    return k < (unsigned)tf->nids ? (int)k : tf->nids;
}
signed char uf__dv_top(const uf__dview *D, const uf__expr *e);
signed char uf__dv_end(const uf__dview *D, const uf__expr *e);
bool uf__dv_stmt_falls(const uf__dview *D, const uf__stmt *s);
bool uf__dv_block_falls(const uf__dview *D, const uf__block *b);
/* The else block of a while loop can run. */
bool uf__dv_else_live(const uf__dview *D, const uf__stmt *s);
/* A live break or continue (`kind`) of the loop whose body is `b`. */
bool uf__dv_has_jump(const uf__dview *D, const uf__block *b,
                     uf__stmt_kind kind);

/* Branch pruning (infer_prune.c): decides the branches whose condition
 * is a compile-time constant, as Numba does before typing, into
 * C->tf->info[].truth / truth_end. Runs after the locals are collected
 * and before anything is typed; -1 only when out of memory. */
int uf__infer_prune(uf__ictx *C);
/* The typing of the body with failing statements skipped, the types it
 * gives the variables into types[0 .. nvars) and the locals untyped
 * again (infer.c), for the pruning of isinstance on locals. */
int uf__infer_partial(uf__ictx *C, const uf__type **types);

/* Reads before assignment (infer_defscan.c): refuses a read of a local
 * that no assignment reaches along a path not going round a loop, as
 * Numba's "Variable 'z' is not defined". Runs after branch pruning. */
int uf__infer_check_reads(uf__ictx *C);

/* Call arguments (infer_alloc.c; a call's argument by position or
 * keyword is ast_visit.h's uf__call_arg): a check refusing positional
 * arguments past `npos` and keywords not in names[0..npos) (0 or -1);
 * the dtype a dtype= argument x names (np.float32, 'f4', float,
 * arr.dtype) into *dt, UF_NTYPES for None or absent (NULL or
 * UF__UNKNOWN as uf__infer_expr, else a non-NULL marker). */
int uf__call_check_params(uf__ictx *C, const uf__expr *e, const char *fn,
                          const char *const *names, int npos);
const uf__type *uf__infer_dtype_arg(uf__ictx *C, const char *fn,
                                    const uf__expr *x, uf_dtype *dt);

/* Copies, reshapes, sorts and rounding of arrays (infer_arrmeth.c):
 * the attribute b of array type `base` among UF__ARRMETH_MAP's (a.flat),
 * found in array_members.c's table; and the type of call `e` of one of
 * them. */
const uf__type *uf__infer_arrmeth_attr(uf__ictx *C, const uf__expr *e,
                                       const uf__type *base,
                                       uf__expr_info *in, uf__builtin b);
const uf__type *uf__infer_arrmeth(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);
/* np.nancumsum, np.nancumprod, np.diff, np.average (UF__NPCUM_MAP) called
 * as `e`, arguments and keywords read here (infer_npcum.c). */
const uf__type *uf__infer_npcum(uf__ictx *C, const uf__expr *e,
                                uf__builtin b);
/* np.ndindex, np.ndenumerate, np.nditer (UF__NPITER_MAP) called as `e`,
 * the iterable C->for_iter of a for loop: the type of what each iteration
 * yields, also recorded as e's optype (infer_npiter.c). */
const uf__type *uf__infer_npiter(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);
/* a.item() called as `e`: a's dtype (infer_npiter.c). */
const uf__type *uf__infer_array_item(uf__ictx *C, const uf__expr *e);
/* a.view(dtype), np.frombuffer(buf, dtype, count, offset) called as `e`
 * (UF__ARRVIEW_MAP); isinstance(x, classinfo): a bool whose value is
 * known here, recorded as e's constant (infer_arrview.c). */
const uf__type *uf__infer_arrview(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);
const uf__type *uf__infer_isinstance(uf__ictx *C, const uf__expr *e);
/* What isinstance(x, classinfo) gives for x of type xt: 1 true, 0
 * false; -1 with the TypingError in C->err where Numba refuses the call
 * (classinfo typed through C; infer_prune.c calls it with a scratch). */
int uf__isinstance_value(uf__ictx *C, const uf__expr *e,
                         const uf__type *xt);
/* np.eye, np.diag, np.tril, np.outer ... (UF__NPMATRIX_MAP) called as
 * `e` (infer_npmatrix.c). */
const uf__type *uf__infer_npmatrix(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b);

/* np.median, np.percentile, np.quantile and their nan* forms
 * (infer_npselect.c): the type of call `e` of builtin b. */
const uf__type *uf__infer_npselect(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b);
/* np.partition, np.argpartition (infer_nppart.c): the type of call `e`
 * of builtin b. */
const uf__type *uf__infer_nppart(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);
/* np.histogram, np.cov, np.corrcoef (infer_npstats.c): the type of call
 * `e` of builtin b. */
const uf__type *uf__infer_npstats(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);
/* np.linalg.norm, det, slogdet, inv, solve (infer_nplinalg.c). */
const uf__type *uf__infer_nplinalg(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b);

/* np.concatenate, np.stack, np.hstack ... np.append (UF__NPJOIN_MAP)
 * called as `e`, arguments and keywords read here (infer_npjoin.c). */
const uf__type *uf__infer_npjoin(uf__ictx *C, const uf__expr *e,
                                uf__builtin b);

/* np.shape ... np.angle (UF__NPPRED_MAP) called as `e`, arguments and
 * keywords read here (infer_nppred.c). */
const uf__type *uf__infer_nppred(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);

/* np.nonzero, a.nonzero(), np.where(cond), np.flatnonzero, np.argwhere,
 * np.extract, np.unique (infer_npfind.c): the type of call `e` of
 * builtin b (NP_WHERE for np.where of one argument). */
const uf__type *uf__infer_npfind(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);
/* polyutils.as_series(alist, trim=True) (infer_npseries.c); fn its name
 * in messages. */
const uf__type *uf__infer_as_series(uf__ictx *C, const uf__expr *e,
                                    const char *fn);
/* np.insert(arr, obj, values) (infer_npinsert.c). */
const uf__type *uf__infer_npinsert(uf__ictx *C, const uf__expr *e);
/* np.random.seed, random, normal, randint, shuffle, choice ...
 * (infer_nprandom.c): the type of call `e` of builtin b. */
const uf__type *uf__infer_nprandom(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b);

/* np.interp ... (infer_npnum.c): the type of call `e` of builtin b. */
const uf__type *uf__infer_npnum(uf__ictx *C, const uf__expr *e,
                                uf__builtin b);

/* np.flip ... np.atleast_3d (UF__NPVIEW_MAP), and np.transpose /
 * a.transpose with axes (b UF__BI_NP_TRANSPOSE), called as `e`
 * (infer_npview.c). */
const uf__type *uf__infer_npview(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);

/* np.repeat ... np.broadcast_arrays (UF__NPSHAPE_MAP) called as `e`
 * (infer_npshape.c). */
const uf__type *uf__infer_npshape(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);

/* np.ediff1d, np.trapezoid ... (infer_npfunc.c): the type of call `e`
 * of builtin b. */
const uf__type *uf__infer_npfunc(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);
/* np.convolve, np.correlate (infer_npsignal.c): the type of call `e`
 * of builtin b. */
const uf__type *uf__infer_npsignal(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b);
/* np.logspace, np.geomspace (infer_npspace.c): the type of call `e`. */
const uf__type *uf__infer_npspace(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);

/* numpy.polynomial.polynomial.polyadd ... polyutils.trimseq
 * (infer_nppoly.c): the type of call `e` of builtin b. */
const uf__type *uf__infer_nppoly(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b);
/* np.cross, np.unwrap, np.select (infer_npcross.c): the type of call
 * `e` of builtin b. */
const uf__type *uf__infer_npcross(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);
/* np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit
 * (infer_npsplit.c): the type of call `e` of builtin b. */
const uf__type *uf__infer_npsplit(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b);

/* Lists (infer_list.c): a list literal `[a, b]` (not np.array's); the
 * attribute `e` (l.append) of list type `base`; a call of a method of
 * UF__LIST_MAP; l[i] of list type `lt`; whether t may be a list's item;
 * the refusal of lists whose item type is still undefined at the fixed
 * point (0 or -1). */
const uf__type *uf__infer_list_literal(uf__ictx *C, const uf__expr *e);
const uf__type *uf__infer_list_attr(uf__ictx *C, const uf__expr *e,
                                    const uf__type *base, uf__expr_info *in);
const uf__type *uf__infer_list_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b);
const uf__type *uf__infer_list_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *lt);
bool uf__list_elt_ok(const uf__type *t);
/* The type an item of type t is stored as in a list: a literal string (a
 * tuple's field too) as unicode_type, as Numba's list(unicode_type);
 * NULL when out of memory. */
const uf__type *uf__list_stored_type(uf__ictx *C, const uf__type *t);
/* The items of list(x) / sorted(x) of dict x (type dt, or a view of it):
 * uf__dict_items_type's, and (key, value) tuples holding strings too
 * (lists of them: infer_list.c). */
const uf__type *uf__list_dict_items_type(uf__ictx *C, const uf__expr *x,
                                         const uf__type *dt);
int uf__infer_list_check(uf__ictx *C);
/* l.sort() and sorted(x) (infer_list_ops.c; b UF__BI_LIST_SORT or
 * UF__BI_LIST_SORTED). */
const uf__type *uf__infer_list_sort(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b);
/* l[a:b:c] of list type lt; l + m, l * n, n * l; l += m, l *= n (the
 * type l keeps, NULL with the error); l == m ... (op a uf__cmpop)
 * (infer_list_ops.c). */
const uf__type *uf__infer_list_slice(uf__ictx *C, const uf__expr *e,
                                     const uf__type *lt);
/* The items list(x) makes of dict or dict view x of type dt: its keys,
 * its values, or (key, value) tuples of numbers; NULL with the error
 * (infer_dict.c). */
const uf__type *uf__dict_items_type(uf__ictx *C, const uf__expr *x,
                                    const uf__type *dt);
/* `del l[i]` / `del l[a:b:c]` (the call l.__delitem__(x) of
 * compiler/front/parser_del.c) of list type lt (infer_list_ops.c). */
const uf__type *uf__infer_list_delitem(uf__ictx *C, const uf__expr *e,
                                       const uf__type *lt);
/* l[a:b:c] = m, m of type vt into list type lt: 0, -1 with the error. */
int uf__infer_list_slice_store(uf__ictx *C, const uf__expr *t,
                               const uf__type *lt, const uf__type *vt);
const uf__type *uf__infer_list_binop(uf__ictx *C, const uf__expr *e,
                                     const uf__type *a, const uf__type *b);
const uf__type *uf__infer_list_augassign(uf__ictx *C, const uf__stmt *s,
                                         const uf__type *a,
                                         const uf__type *b);
const uf__type *uf__infer_list_compare(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, int op,
                                       const uf__type *a, const uf__type *b);
/* Dicts (infer_dict.c): the attribute `e` (d.get) of dict type `base`;
 * a call of UF__DICT_MAP (dict() and `{k: v}` too); d[k] of dict type
 * `dt`; the store d[k] = v (refining `{}`); the item a loop over dt (a
 * dict or its keys/values/items view) gives; `k in d`; the refusal of
 * dicts still undefined at the fixed point (0 or -1). */
const uf__type *uf__infer_dict_attr(uf__ictx *C, const uf__expr *e,
                                    const uf__type *base, uf__expr_info *in);
const uf__type *uf__infer_dict_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b);
const uf__type *uf__infer_dict_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *dt);
int uf__infer_dict_store(uf__ictx *C, const uf__expr *t, const uf__type *dt,
                         const uf__type *vt);
const uf__type *uf__infer_dict_item(uf__ictx *C, const uf__expr *it,
                                    const uf__type *dt);
const uf__type *uf__infer_dict_contains(uf__ictx *C, const uf__expr *e,
                                        uf__expr_info *in, const uf__type *x,
                                        const uf__type *dt);
int uf__infer_dict_check(uf__ictx *C);
/* d == e, d != e of two dicts (infer_dict.c). */
const uf__type *uf__infer_dict_compare(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, int op,
                                       const uf__type *a, const uf__type *b);
/* Sets (infer_set.c): the attribute `e` (s.add) of set type `base`; a
 * call of UF__SET_MAP (set() and `{a, b}` too); the item a loop over
 * set type st gives; `x in s`; s | t ... and s == t ...; s |= t ...;
 * the refusal of sets still undefined at the fixed point (0 or -1). */
const uf__type *uf__infer_set_attr(uf__ictx *C, const uf__expr *e,
                                   const uf__type *base, uf__expr_info *in);
const uf__type *uf__infer_set_call(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b);
const uf__type *uf__infer_set_item(uf__ictx *C, const uf__expr *it,
                                   const uf__type *st);
const uf__type *uf__infer_set_contains(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, const uf__type *x,
                                       const uf__type *st);
const uf__type *uf__infer_set_binop(uf__ictx *C, const uf__expr *e,
                                    const uf__type *a, const uf__type *b);
const uf__type *uf__infer_set_compare(uf__ictx *C, const uf__expr *e,
                                      uf__expr_info *in, int op,
                                      const uf__type *a, const uf__type *b);
const uf__type *uf__infer_set_augassign(uf__ictx *C, const uf__stmt *s,
                                        const uf__type *a,
                                        const uf__type *b);
int uf__infer_set_check(uf__ictx *C);
/* Unifies t into variable v as an assignment at pos does (infer.c): for
 * an append refining the list a variable holds. */
int uf__infer_refine_var(uf__ictx *C, int v, const uf__type *t, uf__pos pos);
/* a[i, j] = v (infer_store_item.c): v stored into an item of a dict, list
 * or array; indices checked by the getitem typing (infer_expr.c types the
 * SUBSCRIPT as a load). 0, or -1 with the error. */
int uf__infer_store_item(uf__ictx *C, const uf__expr *t, const uf__type *vt);

/* Run-time strings (infer_ustr.c): whether t is a string (a literal or
 * unicode_type); `a op b` with a string operand; a comparison of two
 * strings that does not fold (one of them unicode_type, or `in`); s[i] or
 * s[a:b:c] of string type st; `not s` of a unicode_type; str(), ord(),
 * chr() of argument types a[0..n). */
bool uf__is_string(const uf__type *t);
/* Whether tuple type t holds a run-time string. */
bool uf__tuple_has_ustr(const uf__type *t);
const uf__type *uf__infer_ustr_binop(uf__ictx *C, const uf__expr *e,
                                     uf__expr_info *in, const uf__type *a,
                                     const uf__type *b);
const uf__type *uf__infer_ustr_compare(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, int op,
                                       const uf__type *a, const uf__type *b);
const uf__type *uf__infer_ustr_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *st);
const uf__type *uf__infer_ustr_augassign(uf__ictx *C, const uf__stmt *s,
                                         const uf__type *a,
                                         const uf__type *b);
const uf__type *uf__infer_ustr_attr(uf__ictx *C, const uf__expr *e,
                                    const uf__type *base, uf__expr_info *in);
int uf__infer_ustr_check(uf__ictx *C);
const uf__type *uf__infer_ustr_not(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in);
const uf__type *uf__infer_ustr_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b, const uf__type *const *a,
                                    int n);

/* Decides the truth of a test that compiler/front/unroll.c put in a loop
 * over literal_unroll(), from the type of the iterable
 * (infer_unroll.c); refuses what Numba's literal_unroll refuses. */
int uf__infer_unroll_test(uf__ictx *C, const uf__stmt *s);

/* Out of memory inside the type context (uf__type_* without uf_error). */
const uf__type *uf__ioom(uf__ictx *C);

#endif
