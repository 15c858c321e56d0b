/* libFuzzer target: the kernel front end through typing. Each input is a
 * kernels.py source: uf_module_from_string (lexer, parser, module scan of
 * decorators, imports and constants), then for every kernel
 * uf_func_inspect(UF_INSPECT_TYPES) -- type inference, branch pruning and
 * SSA versions, no LLVM -- for its declared signatures, or, for a lazy
 * kernel, for all-float64 and all-int64 arguments.
 *
 * Deep expression chains still overflow the stack of later passes (issue
 * 20, being fixed): run with -max_len=4096 until then. */
#include <stdio.h>

#include <ufjit/kernel.h>
#include <ufjit/ufjit.h>

#include "fuzz_util.h"

static uf_context *ctx;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    uf_error err;
    uf_error_clear(&err);
    ctx = uf_context_new(&err);
    if (ctx == NULL)
        abort();
    return 0;
}

/* A signature for a lazy kernel of kind `kind` with `n` arguments of
 * scalar type `t` (gufunc: 1-d arrays of t). */
static void lazy_signature(char *buf, size_t size, uf_func_kind kind, int n,
                           const char *t)
{
    int len = snprintf(buf, size, "%s(", kind == UF_FUNC_GUFUNC ? "void"
                                         : kind == UF_FUNC_PLAIN ? ""
                                                                 : t);
    for (int i = 0; i < n && len > 0 && (size_t)len < size; i++)
        len += snprintf(buf + len, size - (size_t)len, "%s%s%s",
                        i ? ", " : "", t,
                        kind == UF_FUNC_GUFUNC ? "[:]" : "");
    if (len > 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, ")");
}

static void inspect(uf_func *f, const char *sig)
{
    uf_error err;
    uf_error_clear(&err);
    char *s = uf_func_inspect(f, sig, UF_INSPECT_TYPES, &err);
    if (s == NULL)
        fz_check_error(&err);
    uf_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = fz_cstring(data, size);
    uf_error err;
    uf_error_clear(&err);
    uf_module *m = uf_module_from_string(ctx, "fuzz.py", src, &err);
    if (m == NULL) {
        fz_check_error(&err);
        free(src);
        return 0;
    }
    for (int i = 0; i < uf_module_nfuncs(m); i++) {
        uf_func *f = uf_module_get(m, uf_module_func_name(m, i), &err);
        FZ_CHECK(f != NULL);
        uf_func_kind kind = uf_func_get_kind(f);
        if (kind == UF_FUNC_DEVICE)
            continue;
        if (uf_func_nsignatures(f) > 0) {
            inspect(f, NULL);
            continue;
        }
        int n = uf_func_nin(f);
        if (kind == UF_FUNC_GUFUNC && uf_func_nout(f) > 0)
            n += uf_func_nout(f);
        if (n < 0 || n > 32)
            continue;
        char sig[512];
        lazy_signature(sig, sizeof sig, kind, n, "float64");
        inspect(f, sig);
        lazy_signature(sig, sizeof sig, kind, n, "int64");
        inspect(f, sig);
    }
    uf_module_free(m);
    free(src);
    return 0;
}
