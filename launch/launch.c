/* uf_launch: a cuda.jit kernel over a grid, as numba-cuda's
 * kernel[grid, block](args...). The arguments fix the kernel's types
 * (arrays: dtype, dimensions, layout of the array the kernel sees on the
 * device; 0-d arrays: scalars by value), or pick the first declared
 * signature they fit; each typed kernel is compiled and loaded once per
 * runtime (ufunc/cuda_kernels.h keys it by its typed function). Host
 * arrays are copied in before the launch and back after it (the kernel
 * may write any of them), device arrays are used in place. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <ufjit/launch.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/module.h"
#include "compiler/types/infer.h"
#include "launch/launch.h"
#include "ufunc/cuda_kernels.h"
#include "ufunc/cuda_stage.h"

#define MAXARGS 64

/* a uf_launch_options field, when the caller's struct has it */
#define LOPT(o, field, dflt)                                               \
    ((o) != NULL &&                                                        \
             (o)->size >= offsetof(uf_launch_options, field) +             \
                              sizeof(o)->field                             \
         ? (o)->field                                                      \
         : (dflt))

typedef struct launch {
    uf_func *f;
    int n;
    uf__cuda_site site;
    uf__cuda_operand ops[MAXARGS];
    const uf__type *types[MAXARGS]; /* what the kernel is typed for */
    uf_array *back[MAXARGS];        /* host arrays to copy back into */
    unsigned grid[3], block[3];
    uint64_t forall_n; /* uf_launch_forall: threads wanted; 0: uf_launch */
    uf_kernel_attributes *query; /* uf_kernel_attributes_get: no launch */
} launch;

/* ---- checks ---------------------------------------------------------- */

static int check_kind(uf_func *f, int n_args, uf_error *err)
{
    const char *name = f->decl->name;
    if (f->decl->kind == UF__K_DEVICE)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s' is a CUDA device function "
                             "(@cuda.jit(device=True)): it cannot be "
                             "launched, only called from kernels", name);
    if (f->decl->kind != UF__K_CUDA_KERNEL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s' is not a CUDA kernel (@cuda.jit): run it "
                             "with uf_call", name);
    int np = f->decl->def->u.funcdef.nparams;
    if (n_args != np)
        return uf__error_set(err, UF_ERR_INVALID,
                             "kernel '%s' takes %d argument%s, %d given",
                             name, np, np == 1 ? "" : "s", n_args);
    if (n_args > MAXARGS)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': more than %d arguments", name,
                             MAXARGS);
    return 0;
}

/* CUDA's limits on a launch's shape (every GPU since compute 3.0) */
static int check_dims(launch *c, uf_dim3 grid, uf_dim3 block, int max_block,
                      uf_error *err)
{
    const unsigned g[3] = {grid.x, grid.y ? grid.y : 1, grid.z ? grid.z : 1};
    const unsigned b[3] = {block.x, block.y ? block.y : 1,
                           block.z ? block.z : 1};
    static const unsigned gmax[3] = {0x7fffffffu, 65535, 65535};
    static const unsigned bmax[3] = {1024, 1024, 64};
    static const char axis[3] = {'x', 'y', 'z'};
    for (int d = 0; d < 3; d++) {
        if (g[d] == 0 || b[d] == 0)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "kernel '%s': grid (%u, %u, %u) and block "
                                 "(%u, %u, %u) must be at least 1 on every "
                                 "axis", c->f->decl->name, g[0], g[1], g[2],
                                 b[0], b[1], b[2]);
        if (g[d] > gmax[d] || b[d] > bmax[d])
            return uf__error_set(err, UF_ERR_INVALID,
                                 "kernel '%s': %s %c of %u is over CUDA's "
                                 "limit of %u", c->f->decl->name,
                                 g[d] > gmax[d] ? "grid" : "block", axis[d],
                                 g[d] > gmax[d] ? g[d] : b[d],
                                 g[d] > gmax[d] ? gmax[d] : bmax[d]);
    }
    uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
    if (threads > (uint64_t)max_block)
        return uf__error_set(err, UF_ERR_INVALID,
                             "kernel '%s': a block of (%u, %u, %u) is %llu "
                             "threads, the device runs at most %d per block",
                             c->f->decl->name, b[0], b[1], b[2],
                             (unsigned long long)threads, max_block);
    memcpy(c->grid, g, sizeof g);
    memcpy(c->block, b, sizeof b);
    return 0;
}

/* ---- types ------------------------------------------------------------ */

/* The type of argument array a as the kernel sees it (on the device):
 * readonly when the argument is not writeable (Numba's typeof), so that
 * a kernel storing into it is a typing error, not a silent write. */
static const uf__type *array_type(uf__typectx *tc, const uf_array *a,
                                  const uf_array *arg, uf_error *err)
{
    int nd = uf_array_ndim(a);
    int fl = uf_array_flags(a);
    char layout = (fl & UF_ARRAY_C_CONTIGUOUS)                ? 'C'
                  : (nd > 1 && (fl & UF_ARRAY_F_CONTIGUOUS)) ? 'F'
                                                             : 'A';
    return uf__type_array_ro(tc, uf_array_dtype(a), nd, layout,
                             !(uf_array_flags(arg) & UF_ARRAY_WRITEABLE),
                             err);
}

/* Whether argument type `t` fits declared `want`: arrays of the same
 * dtype and dimensions into the same layout or 'A'; scalars cast safely. */
static bool fits(const uf__type *t, const uf__type *want)
{
    if (t->kind == UF__T_ARRAY)
        return want->kind == UF__T_ARRAY && want->dtype == t->dtype &&
               want->ndim == t->ndim &&
               (want->layout == 'A' || want->layout == t->layout);
    return want->kind == UF__T_SCALAR &&
           uf_can_cast(t->dtype, want->dtype, UF_CASTING_SAFE);
}

/* The argument types to compile for: the arguments' own, or the first
 * declared signature they fit. */
static int pick_types(launch *c, const uf__type **in, uf_error *err)
{
    uf_func *f = c->f;
    uf__kmodule *km = f->module->km;
    int nsig = f->decl->nsignatures;
    if (nsig == 0) {
        memcpy(c->types, in, (size_t)c->n * sizeof *in);
        return 0;
    }
    for (int s = 0; s < nsig; s++) {
        uf__signature sig;
        if (uf__parse_signature(km->tc, km->arena, f->decl->signatures[s],
                                &sig, err) < 0) {
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            return uf__source_error(err, err->code, km->src,
                                    f->decl->signature_pos[s], "%s", msg);
        }
        bool ok = sig.nargs == c->n;
        for (int i = 0; i < c->n && ok; i++)
            ok = fits(in[i], sig.args[i]);
        if (ok) {
            /* a declared array type takes a readonly argument as readonly */
            for (int i = 0; i < c->n; i++)
                c->types[i] = in[i]->readonly && !sig.args[i]->readonly
                                  ? uf__type_array_ro(
                                        km->tc, sig.args[i]->dtype,
                                        sig.args[i]->ndim,
                                        sig.args[i]->layout, true, err)
                                  : sig.args[i];
            for (int i = 0; i < c->n; i++)
                if (c->types[i] == NULL)
                    return err->code;
            return 0;
        }
    }
    char have[512] = "";
    size_t used = 0;
    for (int i = 0; i < c->n && used < sizeof have; i++) {
        char t[64];
        uf__type_str(in[i], t, sizeof t);
        used += (size_t)snprintf(have + used, sizeof have - used, "%s%s",
                                 i ? ", " : "", t);
    }
    return uf__error_set(err, UF_ERR_TYPE,
                         "kernel '%s': no declared signature takes "
                         "arguments of types (%s)", f->decl->name, have);
}

/* ---- the launch --------------------------------------------------------- */

static bool is_scalar(const uf_array *a)
{
    return uf_array_ndim(a) == 0;
}

/* Array argument k on the device (host ones copied in and kept for the
 * copy back). */
static int stage_array(launch *c, int k, uf_array *a, uf_error *err)
{
    int rc = uf__cuda_stage_input(&c->site, k, a, uf_array_dtype(a), false,
                                  &c->ops[k], err);
    if (rc == 0 && c->ops[k].dev != a && !uf__cuda_on_device(a) &&
        (uf_array_flags(a) & UF_ARRAY_WRITEABLE))
        c->back[k] = uf_array_retain(a);
    return rc;
}

/* The kernel typed for in[] (or the signature they fit), compiled and
 * loaded on first use. Context lock held. */
static const uf__cuda_kernel *kernel_of(launch *c, const uf__type **in,
                                        uf_error *err)
{
    uf_func *f = c->f;
    uf__kmodule *km = f->module->km;
    if (pick_types(c, in, err) != 0)
        return NULL;
    const uf__typed_func *tf = uf__infer(km, f->decl, c->types, c->n,
                                         NULL, err);
    if (tf == NULL)
        return NULL;
    uf_dtype dts[MAXARGS];
    for (int i = 0; i < c->n; i++)
        dts[i] = c->types[i]->dtype;
    uf__cuda_kernels *ck = uf__cuda_kernels_of(f, err);
    if (ck == NULL)
        return NULL;
    const uf__nvvm_variant v = {0};
    uint64_t tag = (uint64_t)(uintptr_t)tf;
    const uf__cuda_kernel *k =
        uf__cuda_kernel_find(ck, c->site.rt, dts, c->n, 0, &v, tag);
    if (k != NULL)
        return k;
    uf__nvvm_spec spec = {.tf = tf, .kernel = true};
    return uf__cuda_kernel_add(f, c->site.rt, &spec, dts, c->n, 0, tag, err);
}

/* uf_launch_forall's shape: the block the driver's occupancy calculator
 * gives k for `shared` dynamic bytes (numba-cuda's forall), and enough
 * blocks for forall_n threads. */
static int size_forall(launch *c, const uf__cuda_kernel *k, unsigned shared,
                       uf_error *err)
{
    const uf__cuda_rt *rt = c->site.rt;
    int min_grid = 0, block = k->block;
    if (shared > 0 &&
        rt->drv->occupancy_max_block(&min_grid, &block, k->fn, shared,
                                     rt->max_threads_per_block) !=
            UF__CU_SUCCESS)
        block = k->block;
    if (block < 1 || block > rt->max_threads_per_block)
        block = block < 1 ? 1 : rt->max_threads_per_block;
    uint64_t grid = (c->forall_n + (uint64_t)block - 1) / (uint64_t)block;
    if (grid > 0x7fffffffu)
        return uf__error_set(err, UF_ERR_INVALID,
                             "kernel '%s': forall(%llu) needs %llu blocks of "
                             "%d, over CUDA's limit of 2147483647",
                             c->f->decl->name,
                             (unsigned long long)c->forall_n,
                             (unsigned long long)grid, block);
    return check_dims(c, (uf_dim3){(unsigned)grid, 1, 1},
                      (uf_dim3){(unsigned)block, 1, 1},
                      rt->max_threads_per_block, err);
}

/* CUDA's shared memory per block without the opt-in attribute */
#define SHARED_PER_BLOCK 49152

/* The kernel's static shared memory and the launch's dynamic bytes fit
 * in a block (the driver's own refusal says only "invalid argument"). */
static int check_shared(launch *c, const uf__cuda_kernel *k, unsigned shared,
                        uf_error *err)
{
    if (shared == 0) /* static shared memory alone: checked at load */
        return 0;
    int st = 0;
    const uf__cuda_rt *rt = c->site.rt;
    if (uf__cuda_check(rt,
                       rt->drv->func_get_attribute(
                           &st, UF__CU_FUNC_ATTR_SHARED_SIZE_BYTES, k->fn),
                       "cuFuncGetAttribute", err) != 0)
        return err->code;
    if ((uint64_t)st + shared <= SHARED_PER_BLOCK)
        return 0;
    return uf__error_set(err, UF_ERR_INVALID,
                         "kernel '%s': %d bytes of static and %u of dynamic "
                         "shared memory per block, over the %d a block has",
                         c->f->decl->name, st, shared, SHARED_PER_BLOCK);
}

/* uf_kernel_attributes_get's figures, from the driver. */
static int attributes(launch *c, const uf__cuda_kernel *k, unsigned shared,
                      uf_error *err)
{
    const uf__cuda_rt *rt = c->site.rt;
    uf_kernel_attributes *a = c->query;
    static const struct {
        int attr;
        size_t off;
    } fields[] = {
        {UF__CU_FUNC_ATTR_NUM_REGS, offsetof(uf_kernel_attributes, registers)},
        {UF__CU_FUNC_ATTR_LOCAL_SIZE_BYTES,
         offsetof(uf_kernel_attributes, local_bytes)},
        {UF__CU_FUNC_ATTR_SHARED_SIZE_BYTES,
         offsetof(uf_kernel_attributes, shared_bytes)},
        {UF__CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK,
         offsetof(uf_kernel_attributes, max_threads_per_block)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (uf__cuda_check(rt,
                           rt->drv->func_get_attribute(
                               (int *)((char *)a + fields[i].off),
                               fields[i].attr, k->fn),
                           "cuFuncGetAttribute", err) != 0)
            return err->code;
    return uf__cuda_check(rt,
                          rt->drv->occupancy_max_block(
                              &a->occupancy_grid, &a->occupancy_block, k->fn,
                              shared, rt->max_threads_per_block),
                          "cuOccupancyMaxPotentialBlockSize", err);
}

/* The parameters of the cuda.jit kernel ABI (nvvm.h). */
static void pack(const launch *c, uint32_t shared, uf__cuda_params *pp)
{
    memset(pp, 0, sizeof *pp);
    for (int i = 0; i < c->n; i++) {
        const uf__cuda_operand *op = &c->ops[i];
        if (op->scalar) {
            uf__cuda_put(pp, op->value, uf_dtype_itemsize(c->types[i]->dtype));
            continue;
        }
        uf__cuda_put(pp, &op->ptr, sizeof op->ptr);
        int nd = uf_array_ndim(op->dev);
        const int64_t *shape = uf_array_shape(op->dev);
        const int64_t *strides = uf_array_strides(op->dev);
        for (int d = 0; d < nd; d++)
            uf__cuda_put(pp, &shape[d], sizeof shape[d]);
        for (int d = 0; d < nd; d++)
            uf__cuda_put(pp, &strides[d], sizeof strides[d]);
    }
    uf__cuda_put(pp, &shared, sizeof shared);
}

/* Host arrays get the device's contents back (after the stream). */
static int copy_back(launch *c, uf_error *err)
{
    if (uf__cuda_call_wait(&c->site, err) != 0)
        return err->code;
    for (int i = 0; i < c->n; i++) {
        if (c->back[i] == NULL)
            continue;
        c->ops[i].host_out = c->back[i];
        c->back[i] = NULL;
        if (uf__cuda_finish_output(&c->site, &c->ops[i], NULL, err) != 0)
            return err->code;
    }
    return 0;
}

static int run(launch *c, uf_array *const *args, unsigned shared,
               uf_error *err)
{
    uf__kmodule *km = c->f->module->km;
    const uf__type *in[MAXARGS];
    for (int i = 0; i < c->n; i++) {
        int rc = is_scalar(args[i]) ? 0 : stage_array(c, i, args[i], err);
        if (rc != 0)
            return rc;
        in[i] = is_scalar(args[i])
                    ? uf__type_scalar(km->tc, uf_array_dtype(args[i]))
                    : array_type(km->tc, c->ops[i].dev, args[i], err);
        if (in[i] == NULL)
            return err->code;
    }
    uf_context *ctx = c->f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    const uf__cuda_kernel *k = kernel_of(c, in, err);
    pthread_mutex_unlock(&ctx->lock);
    if (k == NULL)
        return err->code;
    if (c->query)
        return attributes(c, k, shared, err);
    int rc0 = check_shared(c, k, shared, err);
    if (rc0 != 0)
        return rc0;
    if (c->forall_n > 0) {
        int rc = size_forall(c, k, shared, err);
        if (rc != 0)
            return rc;
    }
    /* scalars as the chosen signature takes them */
    for (int i = 0; i < c->n; i++)
        if (is_scalar(args[i])) {
            if (uf__cuda_on_device(args[i]))
                return uf__error_set(err, UF_ERR_INVALID,
                                     "kernel '%s': argument %d is a 0-d "
                                     "device array: scalars are passed as "
                                     "0-d host arrays", c->f->decl->name,
                                     i + 1);
            int rc = uf__cuda_stage_input(&c->site, i, args[i],
                                          c->types[i]->dtype, true,
                                          &c->ops[i], err);
            if (rc != 0)
                return rc;
        }
    uf__cuda_params pp;
    pack(c, shared, &pp);
    int rc = uf__cuda_launch_dims(&c->site, k, c->grid, c->block, shared,
                                  &pp, err);
    return rc != 0 ? rc : copy_back(c, err);
}

static int launch_over(uf_func *f, uf_dim3 grid, uf_dim3 block,
                       uint64_t forall_n, uf_kernel_attributes *query,
                       uf_array *const *args, int n_args,
                       const uf_launch_options *opts, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (f == NULL || (n_args > 0 && args == NULL))
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_launch: NULL kernel or arguments");
    int rc = check_kind(f, n_args, err);
    if (rc != 0)
        return rc;
    for (int i = 0; i < n_args; i++)
        if (args[i] == NULL)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "kernel '%s': argument %d is NULL",
                                 f->decl->name, i + 1);
    launch *c = uf__calloc(1, sizeof *c, err);
    if (c == NULL)
        return err->code;
    c->f = f;
    c->n = n_args;
    c->forall_n = forall_n;
    c->query = query;
    uf_call_options co = {.size = sizeof co};
    const char *target = "cuda";
    size_t shared = 0;
    if (LOPT(opts, target, NULL) != NULL)
        target = opts->target;
    co.stream = LOPT(opts, stream, NULL);
    shared = LOPT(opts, shared_bytes, 0);
    if ((rc = uf__cuda_call_begin(&c->site, target, "kernel",
                                  f->decl->name, &co, err)) == 0 &&
        (forall_n > 0 || query ||
         (rc = check_dims(c, grid, block, c->site.rt->max_threads_per_block,
                          err)) == 0)) {
        if (shared > 0xffffffffu)
            rc = uf__error_set(err, UF_ERR_INVALID,
                               "kernel '%s': %zu bytes of dynamic shared "
                               "memory", f->decl->name, shared);
        else
            rc = run(c, args, (unsigned)shared, err);
    }
    for (int i = 0; i < c->n; i++) {
        uf_array_release(c->back[i]);
        uf__cuda_operand_release(&c->ops[i]);
    }
    uf__free(c);
    return rc;
}

int uf_launch(uf_func *f, uf_dim3 grid, uf_dim3 block, uf_array *const *args,
              int n_args, const uf_launch_options *opts, uf_error *err)
{
    return launch_over(f, grid, block, 0, NULL, args, n_args, opts, err);
}

int uf_launch_forall(uf_func *f, uint64_t n, uf_array *const *args,
                     int n_args, const uf_launch_options *opts,
                     uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (n > 0)
        return launch_over(f, (uf_dim3){0}, (uf_dim3){0}, n, NULL, args,
                           n_args, opts, err);
    /* nothing to run (numba-cuda returns at once), but a wrong kernel is
     * still an error */
    if (f == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_launch_forall: NULL kernel");
    return check_kind(f, n_args, err);
}

int uf_kernel_attributes_get(uf_func *f, uf_array *const *args, int n_args,
                             const uf_launch_options *opts,
                             uf_kernel_attributes *out, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_kernel_attributes_get: NULL result");
    memset(out, 0, sizeof *out);
    return launch_over(f, (uf_dim3){0}, (uf_dim3){0}, 0, out, args, n_args,
                       opts, err);
}

/* uf_call of a kernel: it runs over a grid, which a call does not give */
static int kernel_call(uf_func *f, uf_array *const *inputs, int n_in,
                       uf_array **outputs, int n_out,
                       const uf_call_options *opts, uf_error *err)
{
    (void)inputs, (void)n_in, (void)outputs, (void)n_out, (void)opts;
    return uf__error_set(err, UF_ERR_INVALID,
                         "'%s' is a CUDA kernel (@cuda.jit): launch it over "
                         "a grid with uf_launch (numba-cuda: "
                         "%s[grid, block](...))", f->decl->name,
                         f->decl->name);
}

const uf__kind_ops uf__cuda_kernel_kind = {
    .call = kernel_call,
    .inspect = uf__cuda_kernel_inspect,
    .example_signature = "'void(float64[:])'",
    .release = uf__cuda_kernels_free,
};
