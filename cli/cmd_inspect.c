/* ufjit inspect: what ufjit made of a kernel, per signature: the source
 * annotated with the types inference gave each variable (like Numba's
 * inspect_types()), the optimised LLVM IR, the host assembly. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"

static const char inspect_help[] =
    "usage: ufjit inspect KERNELS.py NAME [--signature SIG] [--types]\n"
    "                     [--llvm] [--asm] [--ptx]\n"
    "\n"
    "Compiles the kernel NAME of KERNELS.py for each signature it declares\n"
    "(or only for SIG) and prints, for each:\n"
    "\n"
    "  --types   the source annotated with the type of every variable and\n"
    "            expression, as Numba's inspect_types() (the default)\n"
    "  --llvm    the optimised LLVM IR of the scalar kernel and its loop\n"
    "  --asm     the host assembly the JIT produced\n"
    "  --ptx     PTX for the cuda target, with ptxas -v's registers\n"
    "\n"
    "  --signature SIG  one signature as Numba writes them, e.g.\n"
    "                   'float32(float32, float32)'; required for a kernel\n"
    "                   declared without signatures (bare @vectorize)\n"
    "\n"
    "Kernels of every kind: vectorize (the loop of each signature, from\n"
    "the compile cache), guvectorize, njit and reduce (the whole module,\n"
    "compiled for the listing; a reduce kernel is listed for one\n"
    "accumulator type, e.g. 'float64(float64, float64)').\n"
    "\n"
    "Several of --types, --llvm and --asm may be given; they print in that\n"
    "order. Errors in the kernel file are reported as FILE:LINE:COL with\n"
    "the source line and a caret.\n"
    "\n"
    "Exit status: 0 shown, 1 the kernel failed to load or compile, 2 bad\n"
    "arguments.\n";

static int kernel_fail(const uf_error *err, const char *what)
{
    if (err->file[0] != '\0' && err->line > 0) {
        fprintf(stderr, "ufjit: %s:%d:%d: %s\n", err->file, err->line,
                err->column, err->message);
        return UF__CLI_ERROR;
    }
    return uf__cli_fail(err, what);
}

static int inspect(const char *path, const char *name, const char *sig,
                   unsigned what)
{
    uf_error err;
    uf_error_clear(&err);
    int rc = UF__CLI_ERROR;
    uf_context *ctx = uf_context_new(&err);
    if (ctx == NULL)
        return uf__cli_fail(&err, "cannot create a context");
    uf_module *m = uf_module_load(ctx, path, &err);
    if (m == NULL) {
        rc = kernel_fail(&err, NULL);
        goto done_ctx;
    }
    uf_func *f = uf_module_get(m, name, &err);
    if (f == NULL) {
        rc = kernel_fail(&err, NULL);
        goto done_module;
    }
    char *text = uf_func_inspect(f, sig, what, &err);
    if (text == NULL) {
        rc = kernel_fail(&err, NULL);
        goto done_module;
    }
    fputs(text, stdout);
    uf_free(text);
    rc = UF__CLI_OK;
done_module:
    uf_module_free(m);
done_ctx:
    uf_context_free(ctx);
    return rc;
}

int uf__cli_inspect(int argc, char **argv)
{
    const char *sig = NULL;
    bool types = false, llvm = false, asm_ = false, ptx = false;
    const uf__cli_opt opts[] = {
        {"--signature", &sig, NULL}, {"--types", NULL, &types},
        {"--llvm", NULL, &llvm},     {"--asm", NULL, &asm_},
        {"--ptx", NULL, &ptx},
    };
    const char *pos[2];
    int npos;
    int rc = uf__cli_parse("inspect", argc - 1, argv + 1, opts,
                           (int)(sizeof opts / sizeof opts[0]), pos, 2,
                           &npos);
    if (rc == UF__CLI_HELP) {
        fputs(inspect_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;
    if (npos < 1)
        return uf__cli_usage("inspect", "missing KERNELS.py");
    if (npos < 2)
        return uf__cli_usage("inspect", "missing the kernel NAME");
    if (sig != NULL && sig[0] == '\0')
        return uf__cli_usage("inspect", "empty --signature");
    unsigned what = (types ? UF_INSPECT_TYPES : 0u) |
                    (llvm ? UF_INSPECT_LLVM : 0u) |
                    (asm_ ? UF_INSPECT_ASM : 0u) |
                    (ptx ? UF_INSPECT_PTX : 0u);
    if (what == 0)
        what = UF_INSPECT_TYPES;
    return inspect(pos[0], pos[1], sig, what);
}
