/* The module scan: what each top-level statement of a kernel file binds.
 *
 * Imports bind modules, builtins, dtypes and decorators; `NAME = expr`
 * binds a folded constant (consteval.c) or an array built from literals
 * (kmodule_array.c); decorated defs become kernels
 * with their validated decorator arguments. Later bindings of a name
 * replace earlier ones, as when Python runs the file, except that a
 * kernel may not be rebound. Anything else at module level is refused:
 * ufjit never runs module code. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/closures.h"
#include "compiler/front/desugar_for.h"
#include "compiler/front/generators.h"
#include "compiler/front/consteval.h"
#include "compiler/front/kmodule.h"
#include "compiler/front/kmodule_scan.h"
#include "compiler/front/ast_ids.h"
#include "compiler/front/iterbind.h"
#include "compiler/front/typed_containers.h"
#include "compiler/front/unroll.h"
#include "compiler/types/ssa_versions.h"

/* Short names within this file for kmodule_scan.h's. */
typedef uf__kscan scan;
#define unsupported uf__kscan_unsupported
#define grow uf__kscan_grow

int uf__kscan_unsupported(scan *S, uf__pos pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return uf__source_error(S->err, UF_ERR_UNSUPPORTED, S->km->src, pos, "%s",
                            msg);
}

/* (the old copy stays in the arena; the waste is bounded by the final
 * size) */
bool uf__kscan_grow(scan *S, void **items, int *cap, int n, size_t size)
{
    if (n < *cap)
        return true;
    int ncap = *cap ? 2 * *cap : 16;
    void *p = uf__arena_alloc(S->km->arena, (size_t)ncap, size, S->err);
    if (p == NULL)
        return false;
    if (n > 0)
        memcpy(p, *items, (size_t)n * size);
    *items = p;
    *cap = ncap;
    return true;
}

const uf__global *uf__kmodule_global(const uf__kmodule *km, const char *name)
{
    for (int i = 0; i < km->nglobals; i++)
        if (strcmp(km->globals[i].name, name) == 0)
            return &km->globals[i];
    return NULL;
}

const uf__kernel_decl *uf__kmodule_find(const uf__kmodule *km,
                                        const char *name)
{
    const uf__global *g = uf__kmodule_global(km, name);
    if (g == NULL || g->kind != UF__G_KERNEL || g->kernel < 0)
        return NULL;
    return &km->kernels[g->kernel];
}

/* Binds `name` (replacing an earlier binding) and returns the zeroed
 * entry; NULL with err set. A kernel is never rebound. */
static uf__global *bind(scan *S, const char *name, uf__pos pos,
                        uf__global_kind kind)
{
    uf__kmodule *km = S->km;
    uf__global *g = (uf__global *)uf__kmodule_global(km, name);
    if (g != NULL && g->kind == UF__G_KERNEL) {
        unsupported(S, pos, "'%s' is defined twice: ufjit does not support "
                    "rebinding a function's name", name);
        return NULL;
    }
    if (g == NULL) {
        int cap = S->capglobals;
        if (!grow(S, (void **)&km->globals, &S->capglobals, km->nglobals,
                  sizeof *km->globals))
            return NULL;
        int wcap = cap;
        if (!grow(S, (void **)&S->weak, &wcap, km->nglobals, sizeof *S->weak))
            return NULL;
        g = &km->globals[km->nglobals++];
    }
    memset(g, 0, sizeof *g);
    S->weak[g - km->globals] = false;
    g->name = name;
    g->kind = kind;
    g->kernel = -1;
    return g;
}

/* ---- imports --------------------------------------------------------- */

static const char *const known_modules[] = {
    "math", "cmath", "numpy", "numba", "numba.cuda", "numba.types",
    "numba.cuda.random", "numpy.random", "numpy.linalg",
    "numba.np.extensions", "numpy.polynomial", "numba.typed",
    "numpy.polynomial.polynomial", "numpy.polynomial.polyutils",
};

/* The Python package's names for numba's: a file whose imports were
 * switched to ufjit (`from ufjit import vectorize`) still loads here. */
static const struct {
    const char *name, *as;
} module_aliases[] = {
    {"ufjit", "numba"}, {"ufjit.cuda", "numba.cuda"},
    {"ufjit.types", "numba.types"}, {"numba.core.types", "numba.types"},
};

static const char *known_module(const char *name)
{
    for (size_t i = 0; i < sizeof known_modules / sizeof *known_modules; i++)
        if (strcmp(known_modules[i], name) == 0)
            return known_modules[i];
    for (size_t i = 0; i < sizeof module_aliases / sizeof *module_aliases;
         i++)
        if (strcmp(module_aliases[i].name, name) == 0)
            return module_aliases[i].as;
    return NULL;
}

static int scan_import(scan *S, const uf__stmt *s)
{
    for (int i = 0; i < s->u.import.n; i++) {
        const uf__alias *a = &s->u.import.names[i];
        const char *mod = known_module(a->name);
        if (mod == NULL)
            return unsupported(S, a->pos, "module '%s' is not supported "
                               "(kernel files may import math, cmath, numpy, "
                               "numba and ufjit)", a->name);
        const char *bound = a->asname;
        if (bound == NULL) {
            /* `import numba.cuda` binds `numba`, `import ufjit.cuda`
             * binds `ufjit` (the same module here) */
            const char *dot = strchr(a->name, '.');
            if (dot != NULL) {
                bound = strncmp(a->name, "ufjit.", 6) == 0 ? "ufjit"
                        : strncmp(a->name, "numpy.", 6) == 0 ? "numpy"
                                                             : "numba";
                mod = bound[0] == 'u' ? "numba" : bound;
            } else {
                bound = a->name;
            }
        }
        uf__global *g = bind(S, bound, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = mod;
    }
    return 0;
}

/* Decorator names as importable from numba / numba.cuda. */
static const char *decorator_name(const char *module, const char *name)
{
    static const char *const numba_decos[] = {"vectorize", "guvectorize",
                                              "njit", "jit", "reduce"};
    static const char *const cuda_decos[] = {"jit", "reduce"};
    if (strcmp(module, "numba") == 0) {
        for (size_t i = 0; i < sizeof numba_decos / sizeof *numba_decos; i++)
            if (strcmp(numba_decos[i], name) == 0)
                return numba_decos[i];
    } else if (strcmp(module, "numba.cuda") == 0) {
        for (size_t i = 0; i < sizeof cuda_decos / sizeof *cuda_decos; i++)
            if (strcmp(cuda_decos[i], name) == 0)
                return cuda_decos[i];
    }
    return NULL;
}

static int bind_from(scan *S, const char *module, const uf__alias *a)
{
    uf__kmodule *km = S->km;
    const char *name = a->name;
    const char *as = a->asname ? a->asname : a->name;
    uf_dtype dt;
    char q[96];
    if (strcmp(name, "*") == 0)
        return unsupported(S, a->pos, "'from %s import *' is not supported: "
                           "import the names you use", module);
    if (strcmp(module, "numba") == 0 &&
        (strcmp(name, "cuda") == 0 || strcmp(name, "types") == 0)) {
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = name[0] == 'c' ? "numba.cuda" : "numba.types";
        return 0;
    }
    if (strcmp(module, "numba") == 0 && strcmp(name, "literal_unroll") == 0) {
        /* its calls are rewritten by unroll.c; what is left (a bare
         * reference) is refused when typed, as a module would be */
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = "numba.literal_unroll";
        return 0;
    }
    if ((strcmp(module, "numba") == 0 && strcmp(name, "typed") == 0) ||
        strcmp(module, "numba.typed") == 0) { /* typed_containers.c */
        if (module[5] == '.' && strcmp(name, "List") != 0 &&
            strcmp(name, "Dict") != 0)
            return unsupported(S, a->pos, "cannot import '%s' from "
                               "'numba.typed': kernels use List and Dict",
                               name);
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = module[5] != '.' ? "numba.typed"
                    : name[0] == 'L' ? "numba.typed.List"
                                     : "numba.typed.Dict";
        return 0;
    }
    if (strcmp(module, "numpy") == 0 && strcmp(name, "linalg") == 0) {
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = "numpy.linalg";
        return 0;
    }
    if ((strcmp(module, "numba.cuda") == 0 || strcmp(module, "numpy") == 0)
        && strcmp(name, "random") == 0) {
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = strcmp(module, "numpy") == 0 ? "numpy.random"
                                                   : "numba.cuda.random";
        return 0;
    }
    if (strcmp(module, "numba.types") == 0 &&
        (strcmp(name, "unicode_type") == 0 || strcmp(name, "string") == 0)) {
        /* a type only: typed containers' item types and signatures
         * (typed_containers.c, kmodule_sig.c) take it by this module */
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = "numba.types.unicode_type";
        return 0;
    }
    if ((strcmp(module, "numba") == 0 || strcmp(module, "numba.types") == 0) &&
        strcmp(name, "void") == 0) {
        /* only meaningful inside signatures: a dtype without a dtype */
        uf__global *g = bind(S, as, a->pos, UF__G_DTYPE);
        if (g == NULL)
            return S->err->code;
        g->dtype = UF_NTYPES;
        return 0;
    }
    snprintf(q, sizeof q, "%s.%s", module, name);
    const char *sub = strncmp(q, "numpy.polynomial", 16) == 0
                          ? known_module(q) : NULL;
    if (sub != NULL) { /* from numpy.polynomial import polynomial as P */
        uf__global *g = bind(S, as, a->pos, UF__G_MODULE);
        if (g == NULL)
            return S->err->code;
        g->module = sub;
        return 0;
    }
    if (strncmp(module, "numpy.polynomial", 16) == 0 &&
        strcmp(name, "polyutils") != 0 && name[0] >= 'A' && name[0] <= 'Z')
        return unsupported(S, a->pos, "cannot import '%s' from '%s': "
                           "NumPy's polynomial classes are not supported "
                           "in kernels (the functions of "
                           "numpy.polynomial.polynomial are)", name, module);
    const char *deco = decorator_name(module, name);
    if (deco != NULL) {
        uf__global *g = bind(S, as, a->pos, UF__G_DECORATOR);
        if (g == NULL)
            return S->err->code;
        snprintf(q, sizeof q, "%s.%s", module, deco);
        g->module = uf__arena_strndup(km->arena, q, strlen(q), S->err);
        return g->module ? 0 : S->err->code;
    }
    if (uf__const_dtype_name(module, name, &dt)) {
        uf__global *g = bind(S, as, a->pos, UF__G_DTYPE);
        if (g == NULL)
            return S->err->code;
        g->dtype = dt;
        return 0;
    }
    uf__constant c;
    if (uf__const_module_attr(km->tc, module, name, &c)) {
        uf__global *g = bind(S, as, a->pos, UF__G_CONSTANT);
        if (g == NULL)
            return S->err->code;
        g->constant = c;
        S->weak[g - km->globals] = true;
        return 0;
    }
    if (strcmp(module, "math") == 0 || strcmp(module, "cmath") == 0 ||
        strcmp(module, "numpy") == 0 || strcmp(module, "numpy.linalg") == 0 ||
        strcmp(module, "numba.cuda.random") == 0 ||
        strcmp(module, "numpy.random") == 0 ||
        strcmp(module, "numba.np.extensions") == 0 ||
        strncmp(module, "numpy.polynomial.", 17) == 0 ||
        (strcmp(module, "numba") == 0 && strcmp(name, "prange") == 0)) {
        snprintf(q, sizeof q, "%s.%s", module, name);
        uf__builtin b = uf__builtin_lookup(q);
        if (b == UF__BI_NONE && strcmp(q, "numpy.conjugate") == 0)
            b = UF__BI_NP_CONJ;
        if (b != UF__BI_NONE) {
            uf__global *g = bind(S, as, a->pos, UF__G_BUILTIN);
            if (g == NULL)
                return S->err->code;
            g->builtin = b;
            return 0;
        }
    }
    return unsupported(S, a->pos, "cannot import '%s' from '%s': not "
                       "supported in kernel files", name, module);
}

static int scan_importfrom(scan *S, const uf__stmt *s)
{
    if (s->u.importfrom.level > 0)
        return unsupported(S, s->pos, "%s", "relative imports are not "
                           "supported in kernel files");
    const char *mod = known_module(s->u.importfrom.module);
    if (mod == NULL)
        return unsupported(S, s->pos, "module '%s' is not supported (kernel "
                           "files may import math, cmath, numpy, numba and "
                           "ufjit)",
                           s->u.importfrom.module);
    for (int i = 0; i < s->u.importfrom.n; i++)
        if (bind_from(S, mod, &s->u.importfrom.names[i]) < 0)
            return S->err->code;
    return 0;
}

/* ---- constants ------------------------------------------------------- */

/* Whether `e` is a list or tuple of signature strings (or signature
 * expressions such as float64(float64) after a first string). */
static bool is_siglist(const uf__expr *e)
{
    if ((e->kind != UF__EX_LIST && e->kind != UF__EX_TUPLE) ||
        e->u.seq.n == 0 || e->u.seq.elts[0]->kind != UF__EX_STR)
        return false;
    for (int i = 0; i < e->u.seq.n; i++)
        if (e->u.seq.elts[i]->kind != UF__EX_STR &&
            e->u.seq.elts[i]->kind != UF__EX_CALL)
            return false;
    return true;
}

/* SHAPE = (3, 4), W = (0.25, 0.5, 0.25): Numba freezes a global tuple
 * into the kernel as a constant; here each element must fold to a
 * number (nested tuples and other values are refused at theirs). */
static int scan_tuple(scan *S, const uf__stmt *s, const uf__const_env *env)
{
    const uf__expr *rhs = s->u.assign.value;
    int n = rhs->u.seq.n;
    uf__constant *elts =
        n ? uf__arena_alloc(S->km->arena, (size_t)n, sizeof *elts, S->err)
          : NULL;
    if (n && elts == NULL)
        return S->err->code;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = rhs->u.seq.elts[i];
        uf__cval v;
        if (x->kind == UF__EX_TUPLE || x->kind == UF__EX_LIST)
            return unsupported(S, x->pos, "%s", "nested tuples as module "
                               "constants are not supported (a tuple of "
                               "numbers is)");
        if (uf__consteval(env, x, &v, S->err) < 0)
            return S->err->code;
        elts[i] = v.c;
    }
    for (int i = 0; i < s->u.assign.ntargets; i++) {
        const uf__expr *t = s->u.assign.targets[i];
        uf__global *g = bind(S, t->u.name.id, t->pos, UF__G_TUPLE);
        if (g == NULL)
            return S->err->code;
        g->elts = elts;
        g->n = n;
    }
    return 0;
}

static int scan_assign(scan *S, const uf__stmt *s)
{
    uf__kmodule *km = S->km;
    for (int i = 0; i < s->u.assign.ntargets; i++) {
        const uf__expr *t = s->u.assign.targets[i];
        if (t->kind != UF__EX_NAME)
            return unsupported(S, t->pos, "%s", "module-level assignments "
                               "must bind one name to a constant number or "
                               "array");
    }
    /* a later binding of the name hides an earlier list (list NULL) */
    bool sigs = is_siglist(s->u.assign.value);
    for (int i = 0; i < s->u.assign.ntargets; i++) {
        const uf__expr *t = s->u.assign.targets[i];
        if (!sigs && !uf__kscan_siglist(S, t->u.name.id))
            continue;
        if (!grow(S, (void **)&S->siglists, &S->capsiglists, S->nsiglists,
                  sizeof *S->siglists))
            return S->err->code;
        S->siglists[S->nsiglists++] =
            (uf__siglist){t->u.name.id, sigs ? s->u.assign.value : NULL};
    }
    if (sigs)
        return 0;
    const uf__expr *rhs = s->u.assign.value;
    char q[128];
    if (rhs->kind == UF__EX_CALL
        && uf__kscan_qualify(S, rhs->u.call.func, q, sizeof q)
        && strcmp(q, "numba.cuda.declare_device") == 0) {
        int ext = uf__kmodule_scan_declare(km, rhs, S->err);
        if (ext < 0)
            return S->err->code;
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            const uf__expr *t = s->u.assign.targets[i];
            uf__global *g = bind(S, t->u.name.id, t->pos, UF__G_EXTERN);
            if (g == NULL)
                return S->err->code;
            g->ext = ext;
        }
        return 0;
    }
    if (uf__typed_is_type_call(S, rhs)) { /* LT = types.ListType(T) */
        /* a refused type fails the kernels that use it, as Numba's */
        uf_error *why = uf__arena_alloc(km->arena, 1, sizeof *why, S->err);
        if (why == NULL)
            return S->err->code;
        uf_error_clear(why);
        uf_error *outer = S->err;
        S->err = why;
        const uf__type *ty = uf__typed_module_type(S, rhs);
        S->err = outer;
        if (ty == NULL && why->code == UF_ERR_NOMEM)
            return uf__error_nomem(outer);
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            const uf__expr *t = s->u.assign.targets[i];
            uf__global *g = bind(S, t->u.name.id, t->pos, UF__G_TYPE);
            if (g == NULL)
                return S->err->code;
            g->type = ty;
            g->type_error = ty == NULL ? why : NULL;
        }
        return 0;
    }
    if (uf__kmodule_is_array_expr(km, rhs)) {
        uf__garray *ga = uf__arena_alloc(km->arena, 1, sizeof *ga, S->err);
        if (ga == NULL ||
            uf__kmodule_scan_array(km, S->weak, rhs, ga, S->err) < 0)
            return S->err->code;
        ga->name = s->u.assign.targets[0]->u.name.id;
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            const uf__expr *t = s->u.assign.targets[i];
            uf__global *g = bind(S, t->u.name.id, t->pos, UF__G_ARRAY);
            if (g == NULL)
                return S->err->code;
            g->array = ga;
        }
        return 0;
    }
    uf__const_env env = {km, S->weak};
    if (rhs->kind == UF__EX_TUPLE)
        return scan_tuple(S, s, &env);
    uf__cval v;
    if (rhs->kind == UF__EX_STR) { /* MODE = 'fast': Numba's Literal[str] */
        memset(&v, 0, sizeof v);
        v.c.type = uf__type_strlit(km->tc, rhs->u.str.s, rhs->u.str.len,
                                   S->err);
        if (v.c.type == NULL)
            return S->err->code;
    } else if (uf__consteval(&env, s->u.assign.value, &v, S->err) < 0) {
        return S->err->code;
    }
    for (int i = 0; i < s->u.assign.ntargets; i++) {
        const uf__expr *t = s->u.assign.targets[i];
        uf__global *g = bind(S, t->u.name.id, t->pos, UF__G_CONSTANT);
        if (g == NULL)
            return S->err->code;
        g->constant = v.c;
        S->weak[g - km->globals] = v.weak;
    }
    return 0;
}

/* ---- decorators ------------------------------------------------------ */

static int bool_kw(scan *S, const uf__keyword *kw, bool *out)
{
    if (kw->value->kind != UF__EX_BOOL)
        return unsupported(S, kw->value->pos, "%s= must be True or False",
                           kw->name);
    *out = kw->value->u.b;
    return 0;
}

static int str_kw(scan *S, const uf__keyword *kw, const char **out)
{
    if (kw->value->kind != UF__EX_STR)
        return unsupported(S, kw->value->pos, "%s= must be a string",
                           kw->name);
    *out = uf__arena_strndup(S->km->arena, kw->value->u.str.s,
                             kw->value->u.str.len, S->err);
    return *out ? 0 : S->err->code;
}

/* Keyword arguments each decorator accepts. */
static bool kw_allowed(uf__kernel_kind kind, const char *name)
{
    static const char *const vec_kw[] = {"target", "identity", "nopython",
                                         "fastmath", "cache", "boundscheck",
                                         NULL};
    static const char *const guvec_kw[] = {"target", "identity", "nopython",
                                           "fastmath", "cache",
                                           "boundscheck", "layout",
                                           "writable_args", NULL};
    static const char *const njit_kw[] = {"nopython", "fastmath", "cache",
                                          "boundscheck", "nogil", "parallel",
                                          NULL};
    static const char *const device_kw[] = {"device", "fastmath", "cache",
                                            "inline", "link", NULL};
    /* debug=True: bounds checks, as boundscheck= elsewhere */
    static const char *const kernel_kw[] = {"device", "fastmath", "cache",
                                            "debug", "max_registers", "link",
                                            NULL};
    const char *const *list = kind == UF__K_DEVICE        ? device_kw
                              : kind == UF__K_CUDA_KERNEL ? kernel_kw
                              : kind == UF__K_NJIT        ? njit_kw
                              : kind == UF__K_GUVECTORIZE ? guvec_kw
                                                          : vec_kw;
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

/* writable_args=(0, 'x', ...): argument indices or parameter names, as
 * Numba takes them. Whether each index is an input is checked once the
 * layout is known (guvectorize_func.c). */
static int scan_writable_args(scan *S, uf__kernel_decl *d,
                              const uf__expr *v)
{
    const uf__stmt *def = d->def;
    d->writable_args_pos = v->pos;
    if (v->kind != UF__EX_TUPLE && v->kind != UF__EX_LIST)
        return unsupported(S, v->pos, "%s", "writable_args= must be a tuple "
                           "of argument indices or names");
    for (int i = 0; i < v->u.seq.n; i++) {
        const uf__expr *e = v->u.seq.elts[i];
        long long ix = -1;
        const uf__expr *neg = e->kind == UF__EX_UNARY &&
                                      e->u.unary.op == UF__OP_NEG
                                  ? e->u.unary.operand
                                  : NULL;
        if (e->kind == UF__EX_INT && !e->u.i.too_big) {
            ix = e->u.i.value;
        } else if (neg != NULL && neg->kind == UF__EX_INT) {
            ix = neg->u.i.too_big ? -1 : -(long long)neg->u.i.value;
        } else if (e->kind == UF__EX_STR) {
            for (int k = 0; k < def->u.funcdef.nparams; k++)
                if (strcmp(def->u.funcdef.params[k].name, e->u.str.s) == 0)
                    ix = k;
            if (ix < 0)
                return uf__source_error(S->err, UF_ERR_VALUE, S->km->src,
                                        e->pos, "writable_args=: '%s' "
                                        "has no argument '%s'", d->name,
                                        e->u.str.s);
        } else {
            return unsupported(S, e->pos, "%s", "writable_args= holds "
                               "argument indices (ints) or names (strings)");
        }
        if (ix < 0 || ix >= def->u.funcdef.nparams || ix >= 64)
            return uf__source_error(S->err, UF_ERR_VALUE, S->km->src, e->pos,
                                    "writable_args=: index %lld is not an "
                                    "argument of '%s' (it takes %d)", ix,
                                    d->name, def->u.funcdef.nparams);
        d->writable_args |= (uint64_t)1 << ix;
    }
    return 0;
}

static int scan_keyword(scan *S, uf__kernel_decl *d, const uf__keyword *kw,
                        const char *deco)
{
    const char *n = kw->name;
    bool b = false;
    if (strcmp(n, "target") == 0) {
        if (str_kw(S, kw, &d->target) < 0)
            return S->err->code;
        if (strcmp(d->target, "cpu") != 0 &&
            strcmp(d->target, "parallel") != 0 &&
            strcmp(d->target, "cuda") != 0)
            return unsupported(S, kw->value->pos, "target '%s' is not "
                               "supported (use 'cpu', 'parallel' or 'cuda')",
                               d->target);
        return 0;
    }
    if (strcmp(n, "layout") == 0)
        return str_kw(S, kw, &d->layout);
    if (strcmp(n, "writable_args") == 0)
        return scan_writable_args(S, d, kw->value);
    if (strcmp(n, "identity") == 0) {
        const uf__expr *v = kw->value;
        if (v->kind == UF__EX_INT && !v->u.i.too_big && v->u.i.value <= 1)
            d->identity = v->u.i.value ? "1" : "0";
        else if (v->kind == UF__EX_NONE)
            d->identity = "None";
        else if (v->kind == UF__EX_STR && strcmp(v->u.str.s, "reorderable") == 0)
            d->identity = "reorderable";
        else
            return unsupported(S, v->pos, "%s", "identity= must be 0, 1, "
                               "None or 'reorderable'");
        return 0;
    }
    if (strcmp(n, "max_registers") == 0) {
        /* numba-cuda's cap on registers per thread (ptxas -maxrregcount) */
        const uf__expr *v = kw->value;
        if (v->kind == UF__EX_NONE)
            return 0;
        if (v->kind != UF__EX_INT || v->u.i.too_big || v->u.i.value < 1 ||
            v->u.i.value > 255)
            return unsupported(S, v->pos, "%s", "max_registers= must be an "
                               "integer from 1 to 255 (or None)");
        d->max_registers = (int)v->u.i.value;
        return 0;
    }
    if (strcmp(n, "link") == 0) /* kmodule_extern.c */
        return uf__kmodule_scan_link(S->km, kw->value, &d->link, &d->nlink,
                                     S->err);
    if (strcmp(n, "inline") == 0) {
        if (kw->value->kind == UF__EX_STR)
            return 0; /* 'always' / 'never': a hint only */
        return bool_kw(S, kw, &b);
    }
    if (bool_kw(S, kw, &b) < 0)
        return S->err->code;
    if (strcmp(n, "fastmath") == 0)
        d->fastmath = b;
    else if (strcmp(n, "cache") == 0)
        d->cache = b;
    else if (strcmp(n, "boundscheck") == 0 || strcmp(n, "debug") == 0)
        d->boundscheck = b;
    else if (strcmp(n, "parallel") == 0)
        d->parallel = b;
    else if (strcmp(n, "nopython") == 0 && !b)
        return unsupported(S, kw->value->pos, "@%s(nopython=False): object "
                           "mode is not supported", deco);
    else if (strcmp(n, "device") == 0)
        d->kind = b ? UF__K_DEVICE : UF__K_CUDA_KERNEL;
    return 0;
}

static int scan_decorator(scan *S, uf__kernel_decl *d, const uf__expr *e)
{
    const uf__expr *f = e->kind == UF__EX_CALL ? e->u.call.func : e;
    char q[128];
    if (!uf__kscan_qualify(S, f, q, sizeof q))
        return unsupported(S, e->pos, "%s", "unknown decorator: kernels are "
                           "decorated with vectorize, guvectorize, "
                           "cuda.reduce, njit/jit or cuda.jit");
    /* q has no dot when a module itself decorates (import numpy as njit) */
    const char *dot = strrchr(q, '.'), *deco = dot ? dot + 1 : q;
    if (strcmp(q, "numba.vectorize") == 0)
        d->kind = UF__K_VECTORIZE;
    else if (strcmp(q, "numba.guvectorize") == 0)
        d->kind = UF__K_GUVECTORIZE;
    else if (strcmp(q, "numba.njit") == 0)
        d->kind = UF__K_NJIT;
    else if (strcmp(q, "numba.jit") == 0)
        d->kind = UF__K_NJIT;
    else if (strcmp(q, "numba.cuda.jit") == 0)
        d->kind = UF__K_DEVICE;
    else if (strcmp(q, "numba.cuda.reduce") == 0 ||
             strcmp(q, "numba.reduce") == 0) {
        d->kind = UF__K_REDUCE;
        /* numba-cuda's cuda.reduce always runs on the GPU: the cuda target
         * (cudasim under UFJIT_ENABLE_CUDASIM=1) unless a call names
         * another */
        if (q[6] == 'c')
            d->target = "cuda";
    }
    else
        return unsupported(S, e->pos, "unknown decorator '%s'", q);

    if (d->kind == UF__K_DEVICE) /* device=True makes it a device function */
        d->kind = UF__K_CUDA_KERNEL;
    if (e->kind != UF__EX_CALL) {
        if (d->kind == UF__K_GUVECTORIZE)
            return unsupported(S, e->pos, "%s", "@guvectorize needs a "
                               "layout such as '(n),()->(n)'");
        return 0;
    }
    if (d->kind == UF__K_REDUCE)
        return unsupported(S, e->pos, "@%s takes no arguments", q + 6);

    int maxpos = d->kind == UF__K_GUVECTORIZE ? 2 : 1;
    if (e->u.call.nargs > maxpos)
        return unsupported(S, e->u.call.args[maxpos]->pos, "@%s takes at "
                           "most %d positional argument%s", deco, maxpos,
                           maxpos == 1 ? "" : "s");
    for (int i = 0; i < e->u.call.nargs; i++) {
        const uf__expr *a = e->u.call.args[i];
        if (d->kind == UF__K_GUVECTORIZE &&
            (i == 1 || (e->u.call.nargs == 1 && a->kind == UF__EX_STR &&
                        strstr(a->u.str.s, "->") != NULL))) {
            if (a->kind != UF__EX_STR)
                return unsupported(S, a->pos, "%s", "the guvectorize layout "
                                   "must be a string such as '(n),()->(n)'");
            d->layout = uf__arena_strndup(S->km->arena, a->u.str.s,
                                          a->u.str.len, S->err);
            if (d->layout == NULL)
                return S->err->code;
            continue;
        }
        if (uf__kscan_signatures(S, d, a) < 0)
            return S->err->code;
    }
    /* device= first: it decides which other arguments are allowed */
    for (int i = 0; i < e->u.call.nkw; i++)
        if (d->kind == UF__K_CUDA_KERNEL &&
            strcmp(e->u.call.kw[i].name, "device") == 0 &&
            scan_keyword(S, d, &e->u.call.kw[i], deco) < 0)
            return S->err->code;
    for (int i = 0; i < e->u.call.nkw; i++) {
        const uf__keyword *kw = &e->u.call.kw[i];
        if (!kw_allowed(d->kind, kw->name))
            return unsupported(S, kw->pos, "@%s: unknown or unsupported "
                               "argument '%s'", deco, kw->name);
        if (scan_keyword(S, d, kw, deco) < 0)
            return S->err->code;
    }
    if (d->kind == UF__K_GUVECTORIZE && d->layout == NULL)
        return unsupported(S, e->pos, "%s", "@guvectorize needs a layout such "
                           "as '(n),()->(n)'");
    return 0;
}

/* A def nested in a kernel, lifted (closures.c): an njit function with
 * its kernel's fastmath and boundscheck, or a plain function when it was
 * written in one. */
static int scan_lifted(scan *S, const uf__stmt *s)
{
    uf__kmodule *km = S->km;
    const uf__kernel_decl *root = NULL;
    for (int i = 0; i < km->nkernels; i++)
        if (km->kernels[i].def == s->u.funcdef.closure_of)
            root = &km->kernels[i];
    uf__global *g = bind(S, s->u.funcdef.name, s->u.funcdef.name_pos,
                         UF__G_KERNEL);
    if (g == NULL)
        return S->err->code;
    if (root == NULL)
        return 0;
    if (root->kind == UF__K_DEVICE || root->kind == UF__K_CUDA_KERNEL)
        return unsupported(S, s->pos, "%s", "nested functions in CUDA "
                           "kernels are not supported");
    uf__kernel_decl d;
    memset(&d, 0, sizeof d);
    d.name = s->u.funcdef.name;
    d.def = s;
    d.kind = UF__K_NJIT;
    d.target = "cpu";
    d.fastmath = root->fastmath;
    d.boundscheck = root->boundscheck;
    if (!grow(S, (void **)&km->kernels, &S->capkernels, km->nkernels,
              sizeof *km->kernels))
        return S->err->code;
    g->kernel = km->nkernels;
    km->kernels[km->nkernels++] = d;
    return 0;
}

static int scan_def(scan *S, const uf__stmt *s)
{
    uf__kmodule *km = S->km;
    const char *name = s->u.funcdef.name;
    for (int i = 0; i < s->u.funcdef.nparams; i++)
        if (s->u.funcdef.params[i].default_value != NULL)
            return unsupported(S, s->u.funcdef.params[i].pos, "%s",
                               "default argument values are not supported "
                               "in kernels");
    if (s->u.funcdef.closure_of != NULL)
        return scan_lifted(S, s);
    if (s->u.funcdef.ndecorators == 0) {
        /* a plain Python function: known, but not callable from kernels */
        uf__global *g = bind(S, name, s->u.funcdef.name_pos, UF__G_KERNEL);
        return g ? 0 : S->err->code;
    }
    if (s->u.funcdef.ndecorators > 1)
        return unsupported(S, s->u.funcdef.decorators[1]->pos, "%s",
                           "a kernel takes exactly one decorator");
    uf__kernel_decl d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.def = s;
    d.target = "cpu";
    if (scan_decorator(S, &d, s->u.funcdef.decorators[0]) < 0)
        return S->err->code;
    if (d.kind == UF__K_CUDA_KERNEL)
        d.target = "cuda";
    if (d.writable_args != 0 && strcmp(d.target, "cuda") == 0)
        return uf__source_error(S->err, UF_ERR_TYPE, km->src,
                                d.writable_args_pos, "writable_args= is not "
                                "supported for target='cuda' (as in Numba): "
                                "a device array's writes always reach it");
    if ((d.kind == UF__K_NJIT || d.kind == UF__K_DEVICE ||
         d.kind == UF__K_CUDA_KERNEL || d.kind == UF__K_REDUCE) &&
        d.identity != NULL)
        return unsupported(S, s->pos, "%s", "identity= is only for "
                           "vectorize and guvectorize");
    if (d.kind == UF__K_REDUCE && s->u.funcdef.nparams != 2)
        return unsupported(S, s->u.funcdef.name_pos, "a reduce kernel takes "
                           "two arguments, '%s' takes %d", name,
                           s->u.funcdef.nparams);
    uf__global *g = bind(S, name, s->u.funcdef.name_pos, UF__G_KERNEL);
    if (g == NULL)
        return S->err->code;
    if (!grow(S, (void **)&km->kernels, &S->capkernels, km->nkernels,
              sizeof *km->kernels))
        return S->err->code;
    g->kernel = km->nkernels;
    km->kernels[km->nkernels++] = d;
    return 0;
}

/* if __name__ == '__main__': (skipped: it only runs as a script) */
static bool is_main_guard(const uf__stmt *s)
{
    const uf__expr *c = s->u.if_.cond;
    if (c == NULL || c->kind != UF__EX_COMPARE || c->u.compare.nops != 1 ||
        c->u.compare.ops[0] != UF__CMP_EQ)
        return false;
    const uf__expr *a = c->u.compare.operands[0];
    const uf__expr *b = c->u.compare.operands[1];
    if (a->kind == UF__EX_STR) {
        const uf__expr *t = a;
        a = b;
        b = t;
    }
    return a->kind == UF__EX_NAME && strcmp(a->u.name.id, "__name__") == 0 &&
           b->kind == UF__EX_STR && strcmp(b->u.str.s, "__main__") == 0;
}

static const char *stmt_name(uf__stmt_kind k)
{
    switch (k) {
    case UF__ST_EXPR: return "an expression statement";
    case UF__ST_AUGASSIGN: return "an augmented assignment";
    case UF__ST_IF: return "an if statement";
    case UF__ST_FOR: return "a for loop";
    case UF__ST_WHILE: return "a while loop";
    case UF__ST_BREAK: return "break";
    case UF__ST_CONTINUE: return "continue";
    case UF__ST_RETURN: return "return";
    case UF__ST_ASSERT: return "assert";
    case UF__ST_RAISE: return "raise";
    default: return "this statement";
    }
}

static int scan_stmt(scan *S, const uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_IMPORT:
        return scan_import(S, s);
    case UF__ST_IMPORTFROM:
        return scan_importfrom(S, s);
    case UF__ST_ASSIGN:
        return scan_assign(S, s);
    case UF__ST_FUNCDEF:
        return scan_def(S, s);
    case UF__ST_PASS:
        return 0;
    case UF__ST_EXPR:
        if (s->u.expr.value->kind == UF__EX_STR)
            return 0; /* docstring */
        break;
    case UF__ST_IF:
        if (is_main_guard(s))
            return 0;
        break;
    default:
        break;
    }
    return unsupported(S, s->pos, "%s at module level is not supported "
                       "(kernel files hold imports, constants and function "
                       "definitions)", s->kind == UF__ST_IF &&
                       s->u.if_.is_try ? "a try statement"
                                       : stmt_name(s->kind));
}

uf__kmodule *uf__kmodule_new(const uf__source *src, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    uf__kmodule *km = uf__calloc(1, sizeof *km, err);
    if (km == NULL)
        return NULL;
    km->src = src;
    km->arena = uf__arena_new(err);
    if (km->arena == NULL)
        goto fail;
    km->tc = uf__typectx_new(err);
    if (km->tc == NULL)
        goto fail;
    km->ast = uf__parse(src, km->arena, err);
    if (km->ast == NULL || uf__lift_closures(km->ast, km->arena, err) != 0 ||
        uf__inline_generators(km->ast, km->arena, err) != 0 ||
        uf__iterbind(km->ast, km->arena, err) != 0 ||
        uf__unroll_literal(km->ast, km->arena, err) != 0 ||
        uf__desugar_for(km->ast, km->arena, err) != 0 ||
        uf__ssa_versions(km->ast, km->arena, err) != 0)
        goto fail;
    uf__ast_number_functions(km->ast);
    scan S = {km, err, NULL, 0, 0, NULL, 0, 0};
    for (int i = 0; i < km->ast->body.n; i++)
        if (scan_stmt(&S, km->ast->body.stmts[i]) < 0)
            goto fail;
    if (uf__typed_containers(&S) != 0)
        goto fail;
    return km;
fail:
    uf__kmodule_free(km);
    return NULL;
}

void uf__kmodule_free(uf__kmodule *km)
{
    if (km == NULL)
        return;
    uf__free(km->typed);
    uf__typectx_free(km->tc);
    uf__arena_free(km->arena);
    uf__free(km);
}
