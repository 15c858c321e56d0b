/* Foreign device code in a kernel file: `cuda.declare_device(name, sig,
 * link=..., abi=...)` bindings and the `link=` lists of cuda.jit and
 * declare_device, as numba-cuda 0.30 takes them (decorators.py).
 *
 * Link paths: numba-cuda opens them as given, i.e. relative to the
 * Python process' working directory. ufjit loads kernel files from
 * anywhere (the CLI, a C program), so a relative path is taken relative
 * to the kernel file's folder instead, which is the working directory in
 * the usual `python kernels.py` case; an absolute path is kept. A file
 * not found is reported when the kernel is linked, not here: inspecting
 * the PTX needs no link files. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/kmodule.h"

static int refuse(uf__kmodule *km, uf__pos pos, uf_error *err,
                  const char *msg)
{
    return uf__source_error(err, UF_ERR_UNSUPPORTED, km->src, pos, "%s",
                            msg);
}

/* `path` relative to the kernel file's folder (see the top). */
static const char *resolve(uf__kmodule *km, const char *path, size_t len,
                           uf_error *err)
{
    const char *name = km->src->name;
    const char *slash = name ? strrchr(name, '/') : NULL;
    if (path[0] == '/' || slash == NULL || name[0] == '<')
        return uf__arena_strndup(km->arena, path, len, err);
    size_t dlen = (size_t)(slash - name) + 1;
    char *out = uf__arena_alloc(km->arena, dlen + len + 1, 1, err);
    if (out == NULL)
        return NULL;
    memcpy(out, name, dlen);
    memcpy(out + dlen, path, len);
    out[dlen + len] = '\0';
    return out;
}

int uf__kmodule_scan_link(uf__kmodule *km, const uf__expr *e,
                          const char ***out, int *n, uf_error *err)
{
    const uf__expr *const *items = &e;
    int count = 1;
    if (e->kind == UF__EX_LIST || e->kind == UF__EX_TUPLE) {
        items = (const uf__expr *const *)e->u.seq.elts;
        count = e->u.seq.n;
    } else if (e->kind == UF__EX_NONE) {
        count = 0;
    }
    const char **paths = NULL;
    if (count > 0 &&
        (paths = uf__arena_alloc(km->arena, (size_t)count, sizeof *paths,
                                 err)) == NULL)
        return err->code;
    for (int i = 0; i < count; i++) {
        const uf__expr *p = items[i];
        if (p->kind != UF__EX_STR || p->u.str.len == 0)
            return refuse(km, p->pos, err, "link= takes file paths as "
                          "strings (a list, a tuple or one path)");
        if ((paths[i] = resolve(km, p->u.str.s, p->u.str.len, err)) == NULL)
            return err->code;
    }
    *out = paths;
    *n = count;
    return 0;
}

static int add_link(uf__kmodule *km, const char **paths, int n,
                    uf_error *err)
{
    if (n == 0)
        return 0;
    int total = km->nextern_link + n;
    const char **all = uf__arena_alloc(km->arena, (size_t)total,
                                       sizeof *all, err);
    if (all == NULL)
        return err->code;
    if (km->nextern_link > 0)
        memcpy(all, km->extern_link, (size_t)km->nextern_link * sizeof *all);
    memcpy(all + km->nextern_link, paths, (size_t)n * sizeof *all);
    km->extern_link = all;
    km->nextern_link = total;
    return 0;
}

/* The scalar types a declared function passes by value in both ABIs:
 * numba-cuda's data model gives ints and floats their C types; booleans
 * and complex numbers have representations a .cu file cannot spell
 * the same way, so they are refused rather than guessed. */
static bool abi_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR &&
           (uf__type_is_int(t) || uf__type_is_float(t));
}

static int parse_sig(uf__kmodule *km, uf__extern_decl *x,
                     const uf__expr *sig, uf_error *err)
{
    uf__signature s;
    uf_error perr;
    uf_error_clear(&perr);
    if (uf__parse_signature(km->tc, km->arena, x->signature, &s, &perr) != 0)
        return uf__source_error(err, UF_ERR_UNSUPPORTED, km->src, sig->pos,
                                "cuda.declare_device: %s", perr.message);
    if (s.ret == NULL)
        return refuse(km, sig->pos, err, "cuda.declare_device: the "
                      "signature needs a return type, as in "
                      "'float32(float32, float32)'");
    if (s.ret->kind != UF__T_NONE && !abi_scalar(s.ret))
        return refuse(km, sig->pos, err, "cuda.declare_device: the return "
                      "type must be an integer or float scalar or void");
    for (int i = 0; i < s.nargs; i++)
        if (!abi_scalar(s.args[i]))
            return refuse(km, sig->pos, err, "cuda.declare_device: "
                          "arguments must be integer or float scalars "
                          "(arrays, booleans and complex numbers are not "
                          "supported)");
    x->ret = s.ret;
    x->args = (const uf__type *const *)s.args;
    x->nargs = s.nargs;
    return 0;
}

static int str_arg(uf__kmodule *km, const uf__expr *v, const char *what,
                   const char **out, uf_error *err)
{
    if (v->kind != UF__EX_STR || v->u.str.len == 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "cuda.declare_device: %s must be a "
                 "string", what);
        return refuse(km, v->pos, err, msg);
    }
    *out = uf__arena_strndup(km->arena, v->u.str.s, v->u.str.len, err);
    return *out ? 0 : err->code;
}

/* A C identifier: what the symbol must be to be linked by name. */
static bool c_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == '$'))
            return false;
    return true;
}

int uf__kmodule_scan_declare(uf__kmodule *km, const uf__expr *call,
                             uf_error *err)
{
    uf__extern_decl x = {.pos = call->pos};
    const uf__expr *name = NULL, *sig = NULL;
    if (call->u.call.nargs > 2)
        return refuse(km, call->u.call.args[2]->pos, err,
                      "cuda.declare_device takes the name and the signature "
                      "as positional arguments; link=, abi= and "
                      "use_cooperative= by keyword");
    if (call->u.call.nargs > 0)
        name = call->u.call.args[0];
    if (call->u.call.nargs > 1)
        sig = call->u.call.args[1];
    const char **link = NULL;
    int nlink = 0;
    for (int i = 0; i < call->u.call.nkw; i++) {
        const uf__keyword *kw = &call->u.call.kw[i];
        const uf__expr *v = kw->value;
        if (strcmp(kw->name, "name") == 0) {
            name = v;
        } else if (strcmp(kw->name, "sig") == 0) {
            sig = v;
        } else if (strcmp(kw->name, "link") == 0) {
            if (uf__kmodule_scan_link(km, v, &link, &nlink, err) != 0)
                return err->code;
        } else if (strcmp(kw->name, "abi") == 0) {
            if (v->kind != UF__EX_STR || (strcmp(v->u.str.s, "numba") != 0 &&
                                          strcmp(v->u.str.s, "c") != 0))
                return refuse(km, v->pos, err, "cuda.declare_device: abi= "
                              "must be 'numba' or 'c'");
            x.c_abi = strcmp(v->u.str.s, "c") == 0;
        } else if (strcmp(kw->name, "use_cooperative") == 0) {
            if (v->kind != UF__EX_BOOL || v->u.b)
                return refuse(km, v->pos, err, "cuda.declare_device: "
                              "use_cooperative=True (cooperative launches) "
                              "is not supported");
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "cuda.declare_device: unknown "
                     "argument '%s'", kw->name);
            return refuse(km, kw->pos, err, msg);
        }
    }
    if (name == NULL || sig == NULL)
        return refuse(km, call->pos, err, "cuda.declare_device needs the "
                      "function's name and its signature, as in "
                      "cuda.declare_device('mul', 'float32(float32, "
                      "float32)')");
    if (str_arg(km, name, "the name", &x.symbol, err) != 0 ||
        str_arg(km, sig, "the signature (a string such as 'float32("
                "float32)')", &x.signature, err) != 0)
        return err->code;
    if (!c_identifier(x.symbol))
        return refuse(km, name->pos, err, "cuda.declare_device: the name "
                      "must be the function's symbol, a C identifier "
                      "(declare it extern \"C\" in the .cu file)");
    if (parse_sig(km, &x, sig, err) != 0 || add_link(km, link, nlink, err))
        return err->code;
    uf__extern_decl *all = uf__arena_alloc(km->arena,
                                           (size_t)km->nexterns + 1,
                                           sizeof *all, err);
    if (all == NULL)
        return err->code;
    if (km->nexterns > 0)
        memcpy(all, km->externs, (size_t)km->nexterns * sizeof *all);
    all[km->nexterns] = x;
    km->externs = all;
    return km->nexterns++;
}

static int add_unique(const char **out, int n, int max, const char *path)
{
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], path) == 0)
            return n;
    if (n < max)
        out[n++] = path;
    return n;
}

int uf__kmodule_link_files(const uf__kmodule *km, const uf__kernel_decl *d,
                           const char **out, int max)
{
    int n = 0;
    for (int i = 0; i < d->nlink; i++)
        n = add_unique(out, n, max, d->link[i]);
    for (int i = 0; i < km->nextern_link; i++)
        n = add_unique(out, n, max, km->extern_link[i]);
    for (int k = 0; k < km->nkernels; k++)
        if (km->kernels[k].kind == UF__K_DEVICE)
            for (int i = 0; i < km->kernels[k].nlink; i++)
                n = add_unique(out, n, max, km->kernels[k].link[i]);
    return n;
}
