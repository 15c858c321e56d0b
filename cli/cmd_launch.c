/* ufjit launch: runs a CUDA kernel (@cuda.jit) of a kernel file over a
 * grid, on .npy files and scalar literals, and writes the arrays it was
 * given back to .npy files (numba-cuda's kernel[grid, block](args...)).
 *
 * As `ufjit call`: everything that can be checked without the kernel is
 * checked first, and the outputs are written only when the launch
 * succeeded, each whole or not at all (cli_outfiles.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ufjit/launch.h>

#include "cli/cli_operands.h"
#include "cli/cli_outfiles.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

static const char launch_help[] =
    "usage: ufjit launch KERNELS.py NAME --grid G --block B ARG...\n"
    "                    [--out K:FILE.npy ...] [--target cuda|cudasim]\n"
    "                    [--shared BYTES]\n"
    "\n"
    "Launches the CUDA kernel NAME (@cuda.jit) of the kernel file\n"
    "KERNELS.py once over a grid of G blocks of B threads each, as\n"
    "numba-cuda's NAME[G, B](ARG...), then writes the arrays it was given\n"
    "to .npy files: a kernel returns nothing, its results are what it\n"
    "wrote into its array arguments.\n"
    "\n"
    "Each ARG is one argument of the kernel, in order, as `ufjit call`\n"
    "takes them:\n"
    "  FILE.npy          a NumPy .npy file (an array argument)\n"
    "  'FILE.npy[EXPR]'  the file indexed with NumPy basic indexing, e.g.\n"
    "                    'a.npy[::2]': the kernel writes into that view\n"
    "  a scalar          3 (int64), 2.5 (float64), true, or typed:\n"
    "                    float32:2.5, int32:7 (passed by value)\n"
    "The kernel is compiled for the arguments' types (dtype, dimensions,\n"
    "layout), or for the first signature it declares that they fit.\n"
    "\n"
    "Options:\n"
    "  --grid G         blocks in the grid: n, or x,y or x,y,z\n"
    "  --block B        threads per block: n, or x,y or x,y,z\n"
    "  --out K:FILE     after the launch, write array argument K (counted\n"
    "                   from 0) to FILE; may be repeated\n"
    "  --target T       cuda (a GPU; the simulator with\n"
    "                   UFJIT_ENABLE_CUDASIM=1; the default) or cudasim\n"
    "  --shared BYTES   dynamic shared memory per block, read by\n"
    "                   cuda.shared.array(0, dtype)\n"
    "\n"
    "The arrays are copied to the device before the launch and back after\n"
    "it, as numba-cuda does with host arrays.\n"
    "\n"
    "Example, with tests/kernels/cuda/basics.py:\n"
    "  ufjit launch basics.py hypot_kernel --grid 4 --block 256 \\\n"
    "               x.npy y.npy out.npy --out 2:out.npy --target cudasim\n"
    "\n"
    "Exit status: 0 done, 1 the kernel or an input failed (kernel errors,\n"
    "unreadable files, no signature for the arguments, a block over the\n"
    "device's limit, an IndexError under debug=True), 2 bad arguments.\n";

#define MAX_ARGS 64
#define MAX_ARGV (3 * MAX_ARGS + 16)

typedef struct launch_cmd {
    const char *kernels, *name;
    const char *target, *grid_text, *block_text, *shared_text;
    uf_dim3 grid, block;
    size_t shared;
    uf__cli_input args[MAX_ARGS];
    int nargs;
    /* --out K:FILE */
    const char *outs[UF__CLI_MAX_OUTFILES];
    int out_arg[UF__CLI_MAX_OUTFILES];
    int nouts;
} launch_cmd;

/* ---- the command line ----------------------------------------------------
 * --out may be repeated, which uf__cli_parse does not allow for an option;
 * so the --out pairs are taken out first and the rest is parsed as usual.
 * The K of each is checked once the arguments are known. */

static int take_out(launch_cmd *c, const char *spec)
{
    const char *colon = strchr(spec, ':');
    if (colon == NULL || colon == spec || colon[1] == '\0')
        return uf__cli_usage("launch", "--out takes K:FILE.npy (K the "
                             "argument's index from 0), not '%s'", spec);
    char *end;
    errno = 0;
    long k = strtol(spec, &end, 10);
    if (end != colon || k < 0 || errno == ERANGE || k >= MAX_ARGS)
        return uf__cli_usage("launch", "--out '%s': K must be an argument "
                             "index from 0", spec);
    if (c->nouts >= UF__CLI_MAX_OUTFILES)
        return uf__cli_usage("launch", "more than %d --out files",
                             UF__CLI_MAX_OUTFILES);
    for (int i = 0; i < c->nouts; i++)
        if (strcmp(c->outs[i], colon + 1) == 0)
            return uf__cli_usage("launch", "output '%s' given twice",
                                 colon + 1);
    c->out_arg[c->nouts] = (int)k;
    c->outs[c->nouts++] = colon + 1;
    return 0;
}

static int take_outs(launch_cmd *c, int argc, char **argv, char **rest,
                     int *nrest)
{
    static const char *const valued[] = {"--grid", "--block", "--target",
                                         "--shared"};
    *nrest = 0;
    bool done = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *spec = NULL;
        if (*nrest >= MAX_ARGV - 1)
            return uf__cli_usage("launch", "too many arguments");
        if (!done && strcmp(a, "--") == 0) {
            done = true;
        } else if (!done && strcmp(a, "--out") == 0) {
            if (i + 1 >= argc)
                return uf__cli_usage("launch", "option --out needs K:FILE");
            spec = argv[++i];
        } else if (!done && strncmp(a, "--out=", 6) == 0) {
            spec = a + 6;
        } else if (!done && i + 1 < argc) {
            for (size_t v = 0; v < sizeof valued / sizeof valued[0]; v++)
                if (strcmp(a, valued[v]) == 0) {
                    /* the value is copied as is, even if it reads --out */
                    rest[(*nrest)++] = argv[i++];
                    a = argv[i];
                    break;
                }
        }
        if (spec == NULL) {
            rest[(*nrest)++] = (char *)a;
            continue;
        }
        int rc = take_out(c, spec);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* "n", "x,y" or "x,y,z", each at least 1 (uf_dim3's 0 would mean 1) */
static int parse_dim3(const char *opt, const char *text, uf_dim3 *d)
{
    int v[4] = {0}, n = 0;
    uf_error err;
    uf_error_clear(&err);
    if (uf__cli_parse_int_list(text, v, 4, &n, &err) != 0 || n < 1 ||
        n > 3)
        return uf__cli_usage("launch", "%s takes n, x,y or x,y,z (positive "
                             "integers), not '%s'", opt, text);
    for (int i = 0; i < n; i++)
        if (v[i] < 1)
            return uf__cli_usage("launch", "%s %s: every extent must be at "
                                 "least 1", opt, text);
    *d = (uf_dim3){(unsigned)v[0], n > 1 ? (unsigned)v[1] : 1,
                   n > 2 ? (unsigned)v[2] : 1};
    return 0;
}

static int check_options(launch_cmd *c)
{
    if (c->grid_text == NULL)
        return uf__cli_usage("launch", "missing --grid");
    if (c->block_text == NULL)
        return uf__cli_usage("launch", "missing --block");
    int rc = parse_dim3("--grid", c->grid_text, &c->grid);
    if (rc == 0)
        rc = parse_dim3("--block", c->block_text, &c->block);
    if (rc != 0)
        return rc;
    if (c->target != NULL && strcmp(c->target, "cuda") != 0 &&
        strcmp(c->target, "cudasim") != 0)
        return uf__cli_usage("launch", "unknown target '%s' (kernels run "
                             "on cuda or cudasim)", c->target);
    if (c->shared_text != NULL) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(c->shared_text, &end, 10);
        if (end == c->shared_text || *end != '\0' ||
            c->shared_text[0] == '-' || errno == ERANGE)
            return uf__cli_usage("launch", "--shared takes a number of "
                                 "bytes, not '%s'", c->shared_text);
        c->shared = (size_t)s;
    }
    for (int i = 0; i < c->nouts; i++) {
        int k = c->out_arg[i];
        if (k >= c->nargs)
            return uf__cli_usage("launch", "--out %d:%s: there %s only %d "
                                 "argument%s (K counts from 0)", k,
                                 c->outs[i], c->nargs == 1 ? "is" : "are",
                                 c->nargs, c->nargs == 1 ? "" : "s");
        if (c->args[k].is_scalar)
            return uf__cli_usage("launch", "--out %d:%s: argument %d is the "
                                 "scalar '%s', passed by value: only array "
                                 "arguments come back", k, c->outs[i], k,
                                 c->args[k].text);
    }
    return 0;
}

static int parse_args(launch_cmd *c, int argc, char **argv)
{
    char *rest[MAX_ARGV];
    int nrest;
    int rc = take_outs(c, argc - 1, argv + 1, rest, &nrest);
    if (rc != 0)
        return rc;
    const uf__cli_opt opts[] = {{"--grid", &c->grid_text, NULL},
                                {"--block", &c->block_text, NULL},
                                {"--target", &c->target, NULL},
                                {"--shared", &c->shared_text, NULL}};
    const char *pos[MAX_ARGS + 2];
    int npos;
    rc = uf__cli_parse("launch", nrest, rest, opts, 4, pos, MAX_ARGS + 2,
                       &npos);
    if (rc != 0)
        return rc;
    if (npos < 1)
        return uf__cli_usage("launch", "missing KERNELS.py");
    if (npos < 2)
        return uf__cli_usage("launch", "missing the kernel NAME");
    c->kernels = pos[0];
    c->name = pos[1];
    c->nargs = npos - 2;
    for (int i = 0; i < c->nargs; i++) {
        uf_error err;
        uf_error_clear(&err);
        if (uf__cli_input_parse(pos[i + 2], &c->args[i], &err) != 0)
            return uf__cli_usage("launch", "argument %d '%s' is neither a "
                                 ".npy file nor a scalar: %s", i,
                                 pos[i + 2], err.message);
        if (c->args[i].is_str) /* Numba's CUDA target has no strings */
            return uf__cli_usage("launch", "argument %d '%s': a CUDA "
                                 "kernel takes no string (str: is for njit "
                                 "functions)", i, pos[i + 2]);
    }
    return check_options(c);
}

/* ---- the launch --------------------------------------------------------- */

static int check_kind(const launch_cmd *c, uf_func *f)
{
    uf_func_kind kind = uf_func_get_kind(f);
    if (kind == UF_FUNC_DEVICE)
        return uf__cli_usage("launch", "'%s' is a CUDA device function "
                             "(device=True): it is called from kernels, "
                             "not launched", c->name);
    if (kind != UF_FUNC_KERNEL)
        return uf__cli_usage("launch", "'%s' is not a CUDA kernel "
                             "(@cuda.jit): run it with 'ufjit call'",
                             c->name);
    int nin = uf_func_nin(f);
    if (nin != c->nargs)
        return uf__cli_error("'%s' takes %d argument%s, %d given", c->name,
                             nin, nin == 1 ? "" : "s", c->nargs);
    return 0;
}

static void print_written(const launch_cmd *c, uf_array *const *outs)
{
    for (int i = 0; i < c->nouts; i++) {
        char shape[256];
        printf("%s: %s, shape %s\n", c->outs[i],
               uf_dtype_name(uf_array_dtype(outs[i])),
               uf__cli_tuple(uf_array_ndim(outs[i]), uf_array_shape(outs[i]),
                             shape, sizeof shape));
    }
}

static int launch_loaded(const launch_cmd *c, uf_func *f, uf_array **in)
{
    /* 512 KiB of names: static, the command runs once per process */
    static uf__cli_outfiles files;
    uf_error err;
    uf_error_clear(&err);
    if (uf__cli_outfiles_reserve(&files, c->outs, c->nouts) != 0)
        return UF__CLI_ERROR;
    uf_launch_options opts = {.size = sizeof opts,
                              .target = c->target,
                              .shared_bytes = c->shared};
    if (uf_launch(f, c->grid, c->block, in, c->nargs, &opts, &err) != 0) {
        uf__cli_outfiles_discard(&files);
        return uf__cli_kernel_fail(&err, NULL);
    }
    uf_array *outs[UF__CLI_MAX_OUTFILES];
    for (int i = 0; i < c->nouts; i++)
        outs[i] = in[c->out_arg[i]];
    int rc = uf__cli_outfiles_write(&files, c->outs, c->nouts, outs, &err);
    if (rc == 0)
        print_written(c, outs);
    return rc;
}

static int run(const launch_cmd *c)
{
    uf_error err;
    uf_error_clear(&err);
    uf_array *in[MAX_ARGS] = {NULL};
    int rc = UF__CLI_ERROR;
    uf_context *ctx = uf_context_new(&err);
    if (ctx == NULL)
        return uf__cli_fail(&err, "cannot create a context");
    uf_module *m = uf_module_load(ctx, c->kernels, &err);
    uf_func *f = m ? uf_module_get(m, c->name, &err) : NULL;
    if (f == NULL) {
        rc = uf__cli_kernel_fail(&err, NULL);
        goto done;
    }
    if ((rc = check_kind(c, f)) != 0)
        goto done;
    for (int i = 0; i < c->nargs; i++) {
        in[i] = uf__cli_input_load(&c->args[i], &err);
        if (in[i] == NULL) {
            char what[4200];
            snprintf(what, sizeof what, "argument %d '%s'", i,
                     c->args[i].text);
            rc = uf__cli_fail(&err, what);
            goto done;
        }
    }
    rc = launch_loaded(c, f, in);
done:
    for (int i = 0; i < c->nargs; i++)
        uf_array_release(in[i]);
    uf_module_free(m);
    uf_context_free(ctx);
    return rc;
}

int uf__cli_launch(int argc, char **argv)
{
    launch_cmd c;
    memset(&c, 0, sizeof c);
    int rc = parse_args(&c, argc, argv);
    if (rc == UF__CLI_HELP) {
        fputs(launch_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;
    return run(&c);
}
