/* Reductions inside ufjit: the compiled operation of a binary kernel at
 * one accumulator dtype, and the engine that runs it over axes.
 *
 * Both NumPy's ufunc methods on vectorize kernels (uf_reduce,
 * uf_accumulate, uf_outer) and @reduce kernels come through here. */
#ifndef UF_REDUCE_REDUCE_H
#define UF_REDUCE_REDUCE_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/kernel.h>

#include "compiler/host/jit_reduce.h"
#include "compiler/module.h"
#include "targets/target.h"

/* What the kernel is, when it is one of the operations whose
 * reassociation is exact (integers) or accurate (a float sum, pairwise). */
typedef enum uf__reduce_kind {
    UF__RK_OTHER,
    UF__RK_ADD,
    UF__RK_MUL,
    UF__RK_MIN,
    UF__RK_MAX,
    UF__RK_BITWISE /* & | ^ */
} uf__reduce_kind;

typedef struct uf__reduce_op {
    struct uf__reduce_op *next; /* the function's list of compiled ops */
    const char *name;           /* the kernel's, for messages */
    uf_dtype type;              /* accumulator = output = loop dtype */
    uf__reduce_kind kind;
    /* NumPy's notion: several axes may be reduced at once (identity 0, 1,
     * 'reorderable' or a literal, and every @reduce kernel). */
    bool reorderable;
    /* Our loops may reassociate and commute: the pairwise tree, reduced
     * axes walked in memory order. Reorderable kernels, plus sums (the
     * pairwise order NumPy's own add uses) and exact integer ops. */
    bool reassociate;
    uf__jit_reduce_fns fns;
} uf__reduce_op;

/* The per-function cache (uf_func.reducer). */
struct uf__reducer {
    uf__reduce_op *ops;
};

/* The compiled op of `f` (a vectorize kernel with two inputs and one
 * output, or a reduce kernel) for input elements of dtype `in`; built on
 * first use under the context lock, then never changed. Vectorize kernels
 * pick their loop as a call with two inputs of dtype `in` would (Numba's
 * first safe signature, or a lazy compile); its output dtype is the
 * accumulator. A reduce kernel accumulates in `in` itself, results
 * converted back as Numba's cuda.reduce stores them. */
int uf__reduce_op_get(uf_func *f, uf_dtype in, const uf__reduce_op **op,
                      uf_error *err);

/* Recognises `return a + b` (either order, also * & | ^) and
 * `return min(a, b)` / max / np.minimum ... in the kernel's source. */
uf__reduce_kind uf__reduce_classify(const uf__kernel_decl *decl,
                                    const uf__typed_func *tf);

/* ---- the methods (reduce_method.c) ---------------------------------- */

/* uf_reduce with the default axes every axis (`dflt_all`, reduce
 * kernels) or axis 0. */
int uf__reduce_impl(uf_func *f, uf_array *in, uf_array **out,
                    const uf_call_options *opts, bool dflt_all,
                    uf_error *err);
/* The argument checks every method shares: non-NULL pointers, options
 * size, host memory, a target that runs reductions (*target, when not
 * NULL, gets it), no where=. */
int uf__reduce_check_call(uf_func *f, const uf_array *in, uf_array **out,
                          const uf_call_options *opts, const char *method,
                          const uf__target **target, uf_error *err);
/* `in` as the loops read it: dtype t and aligned (a retained reference
 * or a copy). */
uf_array *uf__reduce_input(uf_array *in, uf_dtype t, uf_error *err);

/* ---- the output of the methods (reduce_out.c) ----------------------- */

/* A caller's output the loops can reach: in host memory ("METHOD 'NAME':
 * the output is not in host memory") unless the call runs on a
 * `device_target` (cuda, cudasim), and writeable. */
int uf__reduce_out_usable(const uf__reduce_op *op, const uf_array *out,
                          const char *method, bool device_target,
                          uf_error *err);
/* The op's dtype casts to the output's under the options' casting rule
 * (same_kind by default), with NumPy's message; a device output must be
 * of the op's dtype itself (nothing casts on the device). */
int uf__reduce_out_cast(const uf__reduce_op *op, const uf_array *out,
                        const uf_call_options *opts, uf_error *err);
/* The array the loops write: the caller's output `given` itself when it
 * has dtype t, is aligned and does not overlap `in`, else a new C array
 * of that shape (NULL on failure). */
uf_array *uf__reduce_result(uf_array *given, const uf_array *in, uf_dtype t,
                            int ndim, const int64_t *shape, uf_error *err);
/* Hands res over: copied into the caller's output *out when there is one
 * (res released), else returned in *out. 0 or the error code. */
int uf__reduce_deliver(uf_array **out, uf_array *res, uf_error *err);

/* ---- axes (reduce_axes.c) ------------------------------------------- */

/* Marks the axes of an ndim-array named by the options in red[]: mode
 * DEFAULT gives `dflt_all` ? every axis : axis 0 (none for a 0-d array,
 * as NumPy reduces a 0-d array along axis 0). *nlisted: how many axes the
 * caller named (every axis for ALL), what NumPy's "at most one axis"
 * rule counts. Errors as NumPy's: "axis 3 is out of bounds for array of
 * dimension 2" (UF_ERR_INDEX), "duplicate value in 'axis'". */
int uf__reduce_axes(int ndim, const uf_call_options *opts, bool dflt_all,
                    bool *red, int *nlisted, uf_error *err);

/* ---- the engine (reduce_exec.c) ------------------------------------- */

/* One reduction: `in` (elements of op->type, any strides) combined along
 * the axes with red[k] into `out`, given with in's rank: stride 0 (and
 * any shape entry) on reduced axes. `have_start`: out already holds the
 * start value of every reduction; else each starts from the first
 * element. Reduced axes of length 0 leave out as it is. */
typedef struct uf__reduce_args {
    const uf__reduce_op *op;
    int ndim;
    const int64_t *shape;
    const char *in;
    const int64_t *in_strides;
    char *out;
    const int64_t *out_strides;
    const bool *red;
    bool have_start;
    /* The target (targets/target.h); one with threads runs on nthreads
     * of them (0: its default), the result the serial one bit for bit
     * (reduce_parallel.c). */
    const uf__target *target;
    int nthreads;
} uf__reduce_args;

int uf__reduce_exec(const uf__reduce_args *a, uf_error *err);

/* The engine's unit of work, for running it in pieces (threads): one
 * reduction with its axes normalised (length-1 axes dropped, reduced axes
 * walked in memory order when the op reassociates, axes sorted by stride
 * and merged where memory allows). Outer iterations are the kept axes
 * other than the innermost: each writes its own outputs, so any split of
 * [0, nouter) between threads gives the same result as one thread. For a
 * full reduction nouter is 1; split the pairwise tree instead
 * (jit_reduce.h). */
typedef struct uf__reduce_dim {
    int64_t n, si, so; /* length, input and output byte strides */
    bool red;
} uf__reduce_dim;

typedef struct uf__reduce_plan {
    const uf__reduce_op *op;
    const char *in;
    char *out;
    int nk, nr; /* outer kept axes, outer reduced axes (outermost first) */
    uf__reduce_dim k[UF_MAXDIMS], r[UF_MAXDIMS];
    uf__reduce_dim inner; /* the innermost axis: a run (red) or a row */
    int64_t nouter;       /* product of k[].n */
} uf__reduce_plan;

/* Sorts the dims d[0..nd) by input stride, largest first (stable), and
 * merges neighbours of the same kind that memory lets through as one
 * (d[k] spans exactly d[k+1]'s extent in both operands). Returns the new
 * count. */
int uf__reduce_sort_merge(uf__reduce_dim *d, int nd);

/* The engine's own steps, for a target that runs its plans elsewhere
 * (reduce_cuda.c): drops length-1 axes, flips negative strides where
 * allowed (kept axes negative in both operands, reduced ones when the op
 * reassociates; *in and *out moved), sorts and merges
 * (uf__reduce_sort_merge); returns the new count. Then pick_inner puts a
 * long axis innermost when the innermost one is short and of the other
 * kind. */
int uf__reduce_normalize(uf__reduce_dim *d, int nd, const char **in,
                         char **out, bool reassoc);
void uf__reduce_pick_inner(uf__reduce_dim *d, int nd);

/* Calls fn(ud, in, out) at every position of the dims d[0..nd)
 * (outermost first; once when nd is 0), in and out moved by the dims'
 * strides; stops at the first nonzero return and returns it. */
typedef int (*uf__reduce_visit_fn)(void *ud, const char *in, char *out);
int uf__reduce_walk(const uf__reduce_dim *d, int nd, const char *in,
                    char *out, uf__reduce_visit_fn fn, void *ud);

/* out = in, elements of dtype t, over the dims d[0..nd) (one element
 * when nd is 0): the innermost dim a row per call. */
void uf__reduce_copy(uf_dtype t, const uf__reduce_dim *d, int nd,
                     const char *in, char *out);

/* Runs outer iterations [begin, end) of a plan that uf__reduce_exec
 * built; out must hold the start values. */
int uf__reduce_plan_run(const uf__reduce_plan *p, int64_t begin, int64_t end,
                        uf_error *err);

/* ---- threads (reduce_parallel.c) ----------------------------------- */

/* Runs a whole plan (every outer iteration; out holds the start values)
 * on nthreads threads of target t (0: its default), with the serial
 * result bit for
 * bit: outer iterations are shared out (each writes its own outputs); a
 * kept innermost row is cut into parts (each output element still sees
 * its inputs in order); runs reduced by the pairwise tree with too few
 * outer iterations are cut along the tree's own splits, the subtrees
 * computed by threads and merged as the tree merges them, and the runs'
 * results folded into the output in order. Non-reassociating reductions
 * with one outer iteration, outputs written through stride 0 and small
 * plans run on the caller's thread. */
int uf__reduce_plan_run_parallel(const uf__reduce_plan *p,
                                 const uf__target *t, int nthreads,
                                 uf_error *err);

/* *res = the pairwise tree (jit_reduce.h) of x[0..n), n >= 1, any
 * stride: the same value for the same elements whatever the stride. */
int uf__reduce_tree(const uf__reduce_op *op, void *res, const char *x,
                    int64_t n, int64_t stride);

/* Turns a nonzero status of a compiled op into "ufunc 'NAME': ...". */
int uf__reduce_status(const uf__reduce_op *op, int status, uf_error *err);
/* The same for an elementwise loop of the op, whose own error (loop_err,
 * from its uf__loop_ctx) comes first when it set one. */
int uf__reduce_loop_failed(const uf__reduce_op *op, int status,
                           const uf_error *loop_err, uf_error *err);

/* The reduce kind (compiler/module.h), and the release of the reduction
 * loops any kernel's ufunc methods built (f->reducer; NULL-safe). */
extern const uf__kind_ops uf__reduce_kernel_kind;
void uf__reduce_func_release(uf_func *f);

#endif
