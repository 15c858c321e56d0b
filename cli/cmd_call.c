/* ufjit call: runs one kernel of a kernel file on .npy files and scalar
 * literals and writes its outputs to .npy files (DESIGN.md section 4).
 *
 * Everything that can be checked without the kernel (options, scalar
 * literals, output names) is checked first; the outputs are computed
 * whole and only then written, each to a temporary file beside its final
 * name, and renamed into place once all are written: a failure leaves no
 * output file behind, new or half-written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_operands.h"
#include "cli/cli_outfiles.h"
#include "cli/cli_util.h"
#include "cli/cmd_call_batch.h"
#include "cli/commands.h"

static const char call_help[] =
    "usage: ufjit call KERNELS.py NAME ARG... -o OUT.npy [-o OUT2.npy ...]\n"
    "                  [--method reduce|accumulate|outer] [--axis A[,B...]]\n"
    "                  [--keepdims] [--initial VALUE] [--target T]\n"
    "                  [--threads N]\n"
    "       ufjit call --batch FILE\n"
    "\n"
    "Runs the kernel NAME of the kernel file KERNELS.py (a Python file\n"
    "written for Numba) once. By the kernel's kind:\n"
    "  @vectorize    as NumPy calls a ufunc: the inputs broadcast together\n"
    "                and the loop is the first declared signature that every\n"
    "                input can be cast to safely (a bare @vectorize compiles\n"
    "                one for the exact input types); with --method, one of\n"
    "                the ufunc's methods instead (binary kernels only):\n"
    "                  reduce      one input, combined along --axis (default\n"
    "                              0) with --keepdims and --initial\n"
    "                  accumulate  one input, running results along --axis\n"
    "                  outer       two inputs, f(a[i...], b[j...]) for every\n"
    "                              pair, shape a.shape + b.shape\n"
    "  @guvectorize  as NumPy calls a gufunc: one -o per output of the\n"
    "                layout (--axis and --keepdims are NumPy's axis= and\n"
    "                keepdims=)\n"
    "  @cuda.reduce  one input reduced to a 0-d array (default every axis;\n"
    "                --axis, --keepdims, --initial as Numba's init=); an\n"
    "                empty input needs --initial. Runs on target cuda\n"
    "                unless --target says otherwise (cudasim there with\n"
    "                UFJIT_ENABLE_CUDASIM=1)\n"
    "  @njit         called once; one -o per returned value (none for a\n"
    "                function returning None)\n"
    "  @cuda.jit     not here: a CUDA kernel runs over a grid, with\n"
    "                `ufjit launch`\n"
    "\n"
    "Each ARG is one input, in order:\n"
    "  FILE.npy        a NumPy .npy file\n"
    "  'FILE.npy[EXPR]'  the file indexed with NumPy basic indexing, e.g.\n"
    "                  'a.npy[::-1, 1:]': a strided view, not a copy\n"
    "  a scalar        typed as Numba types the Python literal: 3 is int64,\n"
    "                  2.5 float64, true bool, 1+2j complex128; or with an\n"
    "                  explicit type: float32:2.5, int32:7, u1:255,\n"
    "                  complex64:1-2j. A scalar is a 0-d array.\n"
    "  str:TEXT        the string TEXT (an njit function's unicode_type\n"
    "                  argument), e.g. str:hello, 'str:two words'\n"
    "\n"
    "Options:\n"
    "  -o, --output OUT.npy  where an output goes; give one per output of\n"
    "                        the kernel, in order (a kernel returning a\n"
    "                        tuple has one output per element, a nested\n"
    "                        tuple's elements depth first)\n"
    "  --method M            reduce, accumulate or outer (vectorize kernels)\n"
    "  --axis A[,B...]       the axes of a reduction (negative ones count\n"
    "                        from the end; '' for none); --axis none: every\n"
    "                        axis (NumPy's axis=None)\n"
    "  --keepdims            keep reduced axes with length 1\n"
    "  --initial VALUE       a reduction's start value, a scalar as above;\n"
    "                        without it the kernel's identity= is used, and\n"
    "                        an empty reduction without either is an error\n"
    "  --target T            a target of this build (`ufjit --help` lists\n"
    "                        them): cpu (the default but for\n"
    "                        @cuda.reduce: cuda), parallel, cuda, cudasim\n"
    "  --threads N           threads for the parallel target\n"
    "\n"
    "Examples, with the seeds' kernels:\n"
    "  ufjit call kernels.py gaussian_pdf x.npy float32:0 float32:1 \\\n"
    "             -o pdf.npy\n"
    "  ufjit call kernels.py sum_reduce a.npy --target cpu -o total.npy\n"
    "  ufjit call kernels.py add a.npy --method reduce --axis 0,2 \\\n"
    "             --keepdims -o sums.npy\n"
    "\n"
    "Outputs are written only when the whole call succeeded, each file\n"
    "whole or not at all. One line per output is printed on success.\n"
    "Errors in the kernel file are reported as FILE:LINE:COL with the\n"
    "source line and a caret.\n"
    "\n"
    "Many calls in one process: ufjit call --batch FILE\n"
    "  Each line of FILE ('-': standard input) is one call's arguments\n"
    "  (what follows 'ufjit call'), separated by tabs; empty lines and\n"
    "  lines starting with '#' are skipped. A kernel file is read on its\n"
    "  first call and kept, each kernel compiled once per signature for\n"
    "  the whole batch. After each call the line '#ufjit-batch N exit RC'\n"
    "  (N counting calls from 1, RC the call's exit status) goes to\n"
    "  standard output and to standard error. The batch's status is 1\n"
    "  when any call failed.\n"
    "\n"
    "Exit status: 0 done, 1 the kernel or an input failed (kernel errors,\n"
    "unreadable files, types with no matching signature, shapes that do\n"
    "not broadcast, bad axes), 2 bad arguments.\n";

/* NumPy's NPY_MAXARGS: inputs plus outputs of one ufunc. */
#define MAX_OPERANDS 64
#define MAX_ARGV (2 * MAX_OPERANDS + 16)

typedef struct call_cmd {
    const char *kernels, *name;
    const char *args[MAX_OPERANDS];
    int nargs;
    const char *outs[MAX_OPERANDS];
    int nouts;
    const char *target, *threads;
    const char *method, *axis, *initial;
    bool keepdims;
    int nthreads;
    /* --axis: none given (default), "none" (every axis) or a list */
    uf_axes_mode axes_mode;
    int axes[UF_MAXDIMS];
    int naxes;
    uf__cli_scalar init; /* --initial */
    uf__cli_input inputs[MAX_OPERANDS];
} call_cmd;

static const char *const methods[] = {"reduce", "accumulate", "outer"};

/* A kernel error is "FILE:LINE:COL: message" followed by the source line
 * and the caret the library put in the message. */

/* ---- the command line ----------------------------------------------------
 * -o may be repeated, which uf__cli_parse does not allow for an option; so
 * the -o pairs are taken out first and the rest is parsed as usual. */

static int take_outputs(call_cmd *c, int argc, char **argv, char **rest,
                        int *nrest)
{
    *nrest = 0;
    bool done = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *out = NULL;
        if (*nrest >= MAX_ARGV - 1)
            return uf__cli_usage("call", "too many arguments");
        if (!done && strcmp(a, "--") == 0) {
            done = true;
        } else if (!done && (strcmp(a, "-o") == 0 ||
                             strcmp(a, "--output") == 0)) {
            if (i + 1 >= argc)
                return uf__cli_usage("call", "option %s needs a file name",
                                     a);
            out = argv[++i];
        } else if (!done && strncmp(a, "--output=", 9) == 0) {
            out = a + 9;
        } else if (!done && (strcmp(a, "--target") == 0 ||
                             strcmp(a, "--threads") == 0 ||
                             strcmp(a, "--method") == 0 ||
                             strcmp(a, "--axis") == 0 ||
                             strcmp(a, "--initial") == 0) && i + 1 < argc) {
            /* the value is copied as is, even if it reads "-o" */
            rest[(*nrest)++] = argv[i++];
            a = argv[i];
        }
        if (out == NULL) {
            rest[(*nrest)++] = (char *)a;
            continue;
        }
        if (out[0] == '\0')
            return uf__cli_usage("call", "empty output file name");
        if (c->nouts >= MAX_OPERANDS)
            return uf__cli_usage("call", "more than %d outputs",
                                 MAX_OPERANDS);
        for (int k = 0; k < c->nouts; k++)
            if (strcmp(c->outs[k], out) == 0)
                return uf__cli_usage("call", "output '%s' given twice", out);
        c->outs[c->nouts++] = out;
    }
    return 0;
}

static int check_target_threads(call_cmd *c)
{
    /* a name no target has is a usage error; a target that cannot run
     * this kernel (guvectorize on cuda) is the library's to refuse */
    if (c->target != NULL && !uf_target_defined(c->target)) {
        char names[128];
        return uf__cli_usage("call", "unknown target '%s' (targets: %s)",
                             c->target, uf_target_names(names, sizeof names));
    }
    if (c->threads != NULL) {
        char *end;
        errno = 0;
        long n = strtol(c->threads, &end, 10);
        if (end == c->threads || *end != '\0' || n < 1)
            return uf__cli_usage("call", "--threads takes a positive "
                                 "integer, not '%s'", c->threads);
        if (errno == ERANGE || n > 65536)
            return uf__cli_usage("call", "--threads %s is more than the "
                                 "65536 threads ufjit can use",
                                 c->threads);
        c->nthreads = (int)n;
    }
    return 0;
}

/* --method, --axis, --initial */
static int check_reduction_opts(call_cmd *c)
{
    if (c->method != NULL) {
        bool known = false;
        for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
            known = known || strcmp(c->method, methods[i]) == 0;
        if (!known)
            return uf__cli_usage("call", "unknown method '%s' (methods: "
                                 "reduce, accumulate, outer)", c->method);
    }
    c->axes_mode = UF_AXES_DEFAULT;
    if (c->axis != NULL) {
        uf_error err;
        uf_error_clear(&err);
        if (strcmp(c->axis, "none") == 0 || strcmp(c->axis, "None") == 0) {
            c->axes_mode = UF_AXES_ALL;
        } else if (uf__cli_parse_int_list(c->axis, c->axes, UF_MAXDIMS,
                                          &c->naxes, &err) == 0) {
            c->axes_mode = UF_AXES_LIST;
        } else {
            return uf__cli_usage("call", "--axis: %s (give axes such as "
                                 "0,-1, or none)", err.message);
        }
    }
    if (c->initial != NULL) {
        uf_error err;
        uf_error_clear(&err);
        if (uf__cli_parse_scalar(c->initial, &c->init, &err) != 0)
            return uf__cli_usage("call", "--initial '%s' is not a scalar: "
                                 "%s", c->initial, err.message);
    }
    return 0;
}

static int parse_args(call_cmd *c, int argc, char **argv)
{
    char *rest[MAX_ARGV];
    int nrest;
    int rc = take_outputs(c, argc - 1, argv + 1, rest, &nrest);
    if (rc != 0)
        return rc;
    const uf__cli_opt opts[] = {{"--target", &c->target, NULL},
                                {"--threads", &c->threads, NULL},
                                {"--method", &c->method, NULL},
                                {"--axis", &c->axis, NULL},
                                {"--initial", &c->initial, NULL},
                                {"--keepdims", NULL, &c->keepdims}};
    const char *pos[MAX_OPERANDS + 2];
    int npos;
    rc = uf__cli_parse("call", nrest, rest, opts, 6, pos,
                       MAX_OPERANDS + 2, &npos);
    if (rc != 0)
        return rc;
    if (npos < 1)
        return uf__cli_usage("call", "missing KERNELS.py");
    if (npos < 2)
        return uf__cli_usage("call", "missing the kernel NAME");
    c->kernels = pos[0];
    c->name = pos[1];
    c->nargs = npos - 2;
    if (c->nargs + c->nouts > MAX_OPERANDS)
        return uf__cli_usage("call", "more than %d inputs and outputs",
                             MAX_OPERANDS);
    for (int i = 0; i < c->nargs; i++) {
        c->args[i] = pos[i + 2];
        uf_error err;
        uf_error_clear(&err);
        if (uf__cli_input_parse(c->args[i], &c->inputs[i], &err) != 0)
            return uf__cli_usage("call", "argument %d '%s' is neither a "
                                 ".npy file nor a scalar: %s", i + 1,
                                 c->args[i], err.message);
    }
    rc = check_target_threads(c);
    return rc != 0 ? rc : check_reduction_opts(c);
}


static void print_written(const call_cmd *c, uf_array *const *outs,
                          const uf__cli_outfiles *files)
{
    for (int i = 0; i < c->nouts; i++) {
        char shape[256];
        if (files->str[i]) { /* a string's code points */
            printf("%s: str, %lld characters\n", c->outs[i],
                   (long long)uf_array_shape(outs[i])[0]);
            continue;
        }
        printf("%s: %s, shape %s\n", c->outs[i],
               uf_dtype_name(uf_array_dtype(outs[i])),
               uf__cli_tuple(uf_array_ndim(outs[i]), uf_array_shape(outs[i]),
                             shape, sizeof shape));
    }
}

/* ---- the call ----------------------------------------------------------- */

/* uf_call's operand-count message speaks of the ufunc; on the command line
 * the outputs are the -o files. */
static int count_fail(const call_cmd *c, uf_func *f, const uf_error *err)
{
    int nout = uf_func_nout(f);
    if (err->code == UF_ERR_INVALID && nout >= 0 && nout != c->nouts)
        return uf__cli_error("'%s' has %d output%s but %d -o file%s %s "
                             "given", c->name, nout, nout == 1 ? "" : "s",
                             c->nouts, c->nouts == 1 ? "" : "s",
                             c->nouts == 1 ? "was" : "were");
    return uf__cli_kernel_fail(err, NULL);
}

static const char *kind_name(uf_func_kind k)
{
    switch (k) {
    case UF_FUNC_UFUNC: return "vectorize";
    case UF_FUNC_GUFUNC: return "guvectorize";
    case UF_FUNC_REDUCE: return "reduce";
    case UF_FUNC_PLAIN: return "njit";
    case UF_FUNC_KERNEL: return "CUDA kernel";
    case UF_FUNC_DEVICE: break;
    }
    return "CUDA device";
}

/* What the options ask of this kind of kernel, and how many inputs it
 * takes then. Mistakes are usage errors (exit 2), found once the kernel's
 * kind is known. */
static int check_kind(const call_cmd *c, uf_func *f, int *nin)
{
    uf_func_kind kind = uf_func_get_kind(f);
    bool reduce_opts = c->axis != NULL || c->keepdims || c->initial != NULL;
    *nin = uf_func_nin(f);
    if (kind == UF_FUNC_KERNEL)
        return uf__cli_usage("call", "'%s' is a CUDA kernel (@cuda.jit): "
                             "it runs over a grid; use 'ufjit launch %s %s "
                             "--grid G --block B ARG... --out K:FILE.npy'",
                             c->name, c->kernels, c->name);
    if (c->nouts == 0 && kind != UF_FUNC_PLAIN &&
        !(kind == UF_FUNC_GUFUNC && uf_func_nout(f) == 0))
        return uf__cli_usage("call", "no output file: give -o OUT.npy for "
                             "each output of the kernel");
    if (c->method != NULL) {
        if (kind != UF_FUNC_UFUNC)
            return uf__cli_usage("call", "--method %s is for vectorize "
                                 "kernels; '%s' is a %s kernel", c->method,
                                 c->name, kind_name(kind));
        bool outer = strcmp(c->method, "outer") == 0;
        if (outer && reduce_opts)
            return uf__cli_usage("call", "--axis, --keepdims and --initial "
                                 "do not apply to --method outer");
        if (strcmp(c->method, "accumulate") == 0 &&
            (c->keepdims || c->initial != NULL))
            return uf__cli_usage("call", "--keepdims and --initial do not "
                                 "apply to --method accumulate");
        *nin = outer ? 2 : 1;
    } else if (reduce_opts && kind != UF_FUNC_REDUCE &&
               !(kind == UF_FUNC_GUFUNC && c->initial == NULL)) {
        return uf__cli_usage("call", "--axis, --keepdims and --initial are "
                             "for reductions: give --method reduce (or "
                             "accumulate) for a vectorize kernel");
    }
    /* a gufunc's count is checked by the call, after its layout and
     * signatures compiled: their errors come first */
    int nout = c->method != NULL ? 1 : uf_func_nout(f);
    if ((c->method != NULL || kind == UF_FUNC_REDUCE) && nout >= 0 &&
        nout != c->nouts)
        return uf__cli_error("'%s'%s has %d output%s but %d -o file%s %s "
                             "given", c->name,
                             c->method != NULL ? " (a method)" : "", nout,
                             nout == 1 ? "" : "s", c->nouts,
                             c->nouts == 1 ? "" : "s",
                             c->nouts == 1 ? "was" : "were");
    return 0;
}

static int call_kernel(const call_cmd *c, uf_func *f, uf_array **in,
                       uf_array **out, const uf_call_options *opts,
                       uf_error *err)
{
    if (c->method == NULL)
        return uf_call(f, in, c->nargs, out, c->nouts, opts, err);
    if (strcmp(c->method, "reduce") == 0)
        return uf_reduce(f, in[0], &out[0], opts, err);
    if (strcmp(c->method, "accumulate") == 0)
        return uf_accumulate(f, in[0], &out[0], opts, err);
    return uf_outer(f, in[0], in[1], &out[0], opts, err);
}

/* The call on the module of c->kernels. */
static int run_in(const call_cmd *c, uf_module *m)
{
    uf_error err;
    uf_error_clear(&err);
    uf_array *in[MAX_OPERANDS] = {NULL};
    uf_array *out[MAX_OPERANDS] = {NULL};
    uf_array *init = NULL;
    /* 512 KiB of names: static, one call runs at a time in a process */
    static uf__cli_outfiles files_storage;
    uf__cli_outfiles *files = &files_storage;
    int rc = UF__CLI_ERROR;

    uf_func *f = uf_module_get(m, c->name, &err);
    if (f == NULL)
        return uf__cli_kernel_fail(&err, NULL);
    int nin = 0;
    if ((rc = check_kind(c, f, &nin)) != 0)
        return rc;
    if (nin != c->nargs)
        return uf__cli_error("'%s' takes %d input%s, %d given", c->name,
                             nin, nin == 1 ? "" : "s", c->nargs);
    for (int i = 0; i < c->nargs; i++) {
        in[i] = uf__cli_input_load(&c->inputs[i], &err);
        if (in[i] == NULL) {
            char what[4200];
            snprintf(what, sizeof what, "input %d '%s'", i + 1, c->args[i]);
            rc = uf__cli_fail(&err, what);
            goto done_inputs;
        }
    }
    if (uf__cli_outfiles_reserve(files, c->outs, c->nouts) != 0) {
        rc = UF__CLI_ERROR;
        goto done_inputs;
    }

    uf_call_options opts;
    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    opts.target = c->target;
    opts.num_threads = c->nthreads;
    opts.axes_mode = c->axes_mode;
    opts.naxes = c->naxes;
    opts.axes = c->axes;
    opts.keepdims = c->keepdims;
    if (c->initial != NULL &&
        !(init = uf_full(c->init.dtype, 0, NULL, &c->init.v, c->init.dtype,
                         UF_ORDER_C, &err))) {
        rc = uf__cli_fail(&err, "--initial");
        uf__cli_outfiles_discard(files);
        goto done_inputs;
    }
    opts.initial = init;
    if (call_kernel(c, f, in, out, &opts, &err) != 0) {
        rc = c->method != NULL ? uf__cli_kernel_fail(&err, NULL)
                               : count_fail(c, f, &err);
        uf__cli_outfiles_discard(files);
        goto done_inputs;
    }
    /* a returned string: its output is a NumPy str (cli_outfiles.c) */
    const char *tree = uf_func_result_tree(f);
    for (int i = 0; i < c->nouts; i++) {
        char leaf[32];
        snprintf(leaf, sizeof leaf, "str(%d)", i);
        files->str[i] = tree != NULL && strstr(tree, leaf) != NULL;
    }
    rc = uf__cli_outfiles_write(files, c->outs, c->nouts, out, &err);
    if (rc == 0)
        print_written(c, out, files);

done_inputs:
    uf_array_release(init);
    for (int i = 0; i < c->nouts; i++)
        uf_array_release(out[i]);
    for (int i = 0; i < c->nargs; i++)
        uf_array_release(in[i]);
    return rc;
}

/* One call in a process of its own: a context and the module for it. */
static int run(const call_cmd *c)
{
    uf_error err;
    uf_error_clear(&err);
    uf_context *ctx = uf_context_new(&err);
    if (ctx == NULL)
        return uf__cli_fail(&err, "cannot create a context");
    int rc;
    uf_module *m = uf_module_load(ctx, c->kernels, &err);
    if (m == NULL) {
        rc = uf__cli_kernel_fail(&err, NULL);
    } else {
        rc = run_in(c, m);
        uf_module_free(m);
    }
    uf_context_free(ctx);
    return rc;
}

int uf__cli_call_with(int argc, char **argv, uf__cli_call_batch *batch)
{
    call_cmd c;
    memset(&c, 0, sizeof c);
    int rc = parse_args(&c, argc, argv);
    if (rc == UF__CLI_HELP) {
        fputs(call_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;
    if (batch == NULL)
        return run(&c);
    uf_error err;
    uf_error_clear(&err);
    uf_module *m = uf__cli_call_batch_module(batch, c.kernels, &err);
    return m != NULL ? run_in(&c, m) : uf__cli_kernel_fail(&err, NULL);
}

int uf__cli_call(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--batch") == 0)
        return uf__cli_call_batch_run(argc, argv);
    return uf__cli_call_with(argc, argv, NULL);
}
