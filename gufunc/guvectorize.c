/* Compiling guvectorize kernels into gufunc loops: the layout read with
 * Numba's checks then NumPy's grammar, each signature checked against it
 * argument by argument (Numba's messages), and the kernel typed twice --
 * every array argument 'C', then 'A' -- for the two variants of the loop
 * compiler/host/jit_gufunc.c generates. A signature's own layouts
 * (float64[:, ::1]) are not trusted: the loop checks the real strides.
 * Each loop is kept in the disk cache when one applies (cache=True,
 * UFJIT_CACHE_DIR). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/ast_visit.h"
#include "compiler/cache/disk_cache.h"
#include "compiler/types/infer.h"
#include "compiler/host/jit_gufunc.h"
#include "compiler/front/source.h"
#include "gufunc/guvectorize.h"

bool uf__guvectorize_arity(const uf__kernel_decl *decl, int *nin, int *nout)
{
    int np = decl->def->u.funcdef.nparams, n = 0;
    const char *arrow = decl->layout ? strstr(decl->layout, "->") : NULL;
    for (const char *p = arrow ? arrow + 2 : ""; *p; p++)
        n += *p == '(';
    if (n > np)
        return false;
    *nout = n;
    *nin = np - n;
    return true;
}

/* ---- the layout, as Numba reads it -------------------------------------- */

/* Where the layout string is written: the string argument of the
 * decorator, else the def. */
static uf__pos layout_pos(const uf__kernel_decl *decl)
{
    const uf__stmt *def = decl->def;
    size_t len = strlen(decl->layout);
    for (int d = 0; d < def->u.funcdef.ndecorators; d++) {
        const uf__expr *e = def->u.funcdef.decorators[d];
        if (e->kind != UF__EX_CALL)
            continue;
        int na = e->u.call.nargs, nk = e->u.call.nkw;
        for (int i = 0; i < na + nk; i++) {
            const uf__expr *a = i < na ? e->u.call.args[i]
                                       : e->u.call.kw[i - na].value;
            if (a->kind == UF__EX_STR && a->u.str.len == len &&
                memcmp(a->u.str.s, decl->layout, len) == 0)
                return a->pos;
        }
    }
    return def->pos;
}

/* Numba's tokenizer (Python's, on the text without whitespace), reduced to
 * what a layout can contain. */
enum { T_NAME, T_NUMBER, T_OP, T_NEWLINE, T_END, T_UNCLOSED };

typedef struct ntok {
    int kind;
    const char *s;
    int len;
} ntok;

typedef struct nlex {
    const char *s;
    int i, depth;
    bool newline_done;
} nlex;

static bool nalpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ndigit(char c)
{
    return c >= '0' && c <= '9';
}

static ntok next_tok(nlex *x)
{
    const char *s = x->s;
    int i = x->i;
    ntok t = {T_OP, s + i, 1};
    if (s[i] == '\0') {
        /* Python ends a non-empty line with NEWLINE "", and an open
         * bracket with a TokenError */
        if (x->depth > 0)
            t.kind = T_UNCLOSED;
        else if (i > 0 && !x->newline_done)
            t.kind = T_NEWLINE;
        else
            t.kind = T_END;
        x->newline_done = true;
        t.len = 0;
        return t;
    }
    if (nalpha(s[i])) {
        t.kind = T_NAME;
        while (nalpha(s[i]) || ndigit(s[i]))
            i++;
    } else if (ndigit(s[i])) {
        t.kind = T_NUMBER;
        while (ndigit(s[i]))
            i++;
    } else if (s[i] == '-' && s[i + 1] == '>') {
        i += 2;
    } else {
        x->depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        i++;
    }
    t.len = i - x->i;
    x->i = i;
    return t;
}

static bool is_op(ntok t, char c)
{
    return t.kind == T_OP && t.len == 1 && t.s[0] == c;
}

/* Names seen by the scan: pointers into the stripped text. */
typedef struct nsyms {
    const char **s;
    int *len;
    int n;
} nsyms;

static bool sym_in(const nsyms *y, const char *s, int len)
{
    for (int i = 0; i < y->n; i++)
        if (y->len[i] == len && memcmp(y->s[i], s, (size_t)len) == 0)
            return true;
    return false;
}

/* Numba's sigparse.parse over one side of '->': counts the groups and
 * records the names. Beyond Numba, a number (fixed size) and a '?' after
 * a dimension are accepted. 1 done, 0 an unclosed bracket (NumPy's parser
 * reports it), -1 a bad token (*bad). */
static int numba_groups(const char *side, nsyms *names, int *ngroups,
                        ntok *bad)
{
    nlex x = {.s = side};
    *ngroups = 0;
    for (;;) {
        ntok t = next_tok(&x);
        if (t.kind == T_UNCLOSED)
            return 0;
        if (t.kind == T_END)
            return 1;
        if (!is_op(t, '(')) {
            *bad = t;
            return -1;
        }
        int prev = T_OP;
        for (;;) {
            t = next_tok(&x);
            if (t.kind == T_UNCLOSED)
                return 0;
            if (is_op(t, ')'))
                break;
            if (t.kind == T_NAME) {
                names->s[names->n] = t.s;
                names->len[names->n++] = t.len;
            } else if (!(t.kind == T_NUMBER || is_op(t, ',') ||
                         (is_op(t, '?') &&
                          (prev == T_NAME || prev == T_NUMBER)))) {
                *bad = t;
                return -1;
            }
            prev = t.kind;
        }
        (*ngroups)++;
        t = next_tok(&x);
        if (t.kind == T_UNCLOSED)
            return 0;
        if (is_op(t, ','))
            continue;
        if (t.kind == T_END)
            return 1;
        /* Numba reads the next token at the top of its loop: whatever
         * came here is skipped */
    }
}

static int cmp_sym(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    size_t lx = strcspn(*x, ",()?->"), ly = strcspn(*y, ",()?->");
    int c = memcmp(*x, *y, lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

/* Numba's checks; sets the group counts of each side. */
static int numba_check(const char *layout, int *nin, int *nout,
                       uf_error *err)
{
    size_t len = strlen(layout);
    char *s = uf__malloc(len + 1, 1, err);
    nsyms in = {0}, out = {0};
    if (s == NULL)
        return UF_ERR_NOMEM;
    in.s = uf__calloc(len + 1, sizeof *in.s, err);
    in.len = uf__calloc(len + 1, sizeof *in.len, err);
    out.s = uf__calloc(len + 1, sizeof *out.s, err);
    out.len = uf__calloc(len + 1, sizeof *out.len, err);
    int rc = 0;
    if (!in.s || !in.len || !out.s || !out.len) {
        rc = UF_ERR_NOMEM;
        goto done;
    }
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (layout[i] != ' ' && layout[i] != '\t' && layout[i] != '\n' &&
            layout[i] != '\r' && layout[i] != '\f' && layout[i] != '\v')
            s[n++] = layout[i];
    s[n] = '\0';
    char *arrow = strstr(s, "->");
    const char *outs = "";
    if (arrow) {
        *arrow = '\0';
        outs = arrow + 2;
    }
    ntok bad = {0};
    int a = numba_groups(s, &in, nin, &bad);
    int b = a < 0 ? a : numba_groups(outs, &out, nout, &bad);
    if (a < 0 || b < 0) {
        rc = uf__error_set(err, UF_ERR_SYNTAX,
                           "bad token in signature \"%.*s\"", bad.len,
                           bad.s);
        goto done;
    }
    if (a == 0 || b == 0) {
        *nin = *nout = -1; /* left to NumPy's parser */
        goto done;
    }
    /* output names no input defines, sorted and without repeats */
    const char **undef = in.s + in.n; /* the unused tail of in.s */
    int nundef = 0;
    for (int i = 0; i < out.n; i++) {
        if (sym_in(&in, out.s[i], out.len[i]))
            continue;
        bool seen = false;
        for (int j = 0; j < nundef && !seen; j++)
            seen = cmp_sym(&undef[j], &out.s[i]) == 0;
        if (!seen)
            undef[nundef++] = out.s[i];
    }
    if (nundef > 0) {
        qsort(undef, (size_t)nundef, sizeof *undef, cmp_sym);
        char msg[512];
        size_t m = 0;
        for (int j = 0; j < nundef && m < sizeof msg - 1; j++) {
            int l = (int)strcspn(undef[j], ",()?->");
            int w = snprintf(msg + m, sizeof msg - m, "%s%.*s",
                             j ? "," : "", l, undef[j]);
            m += w > 0 ? (size_t)w : 0;
        }
        rc = uf__error_set(err, UF_ERR_SYNTAX,
                           "undefined output symbols: %s", msg);
    }
done:
    uf__free(in.s);
    uf__free(in.len);
    uf__free(out.s);
    uf__free(out.len);
    uf__free(s);
    return rc;
}

/* An error without a position gets the one of `pos`. */
static int at_pos(uf_error *err, const uf__kmodule *km, uf__pos pos)
{
    if (err->line > 0 || err->code == UF_ERR_NOMEM)
        return err->code;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    return uf__source_error(err, err->code, km->src, pos, "%s", msg);
}

uf__gufunc_layout *uf__guvectorize_layout(const uf__kmodule *km,
                                          const uf__kernel_decl *decl,
                                          uf_error *err)
{
    int nin = -1, nout = -1;
    int np = decl->def->u.funcdef.nparams;
    if (numba_check(decl->layout, &nin, &nout, err) != 0) {
        at_pos(err, km, layout_pos(decl));
        return NULL;
    }
    if (nin < 0) { /* unclosed: NumPy's parser says where */
        nout = 0;
        uf__guvectorize_arity(decl, &nin, &nout);
    }
    uf__gufunc_layout *lay = uf__gufunc_layout_parse(decl->layout, nin, nout,
                                                     err);
    if (lay == NULL) {
        at_pos(err, km, layout_pos(decl));
        return NULL;
    }
    if (uf__gufunc_layout_check_arity(lay, np, -1, err) != 0) {
        uf__gufunc_layout_free(lay);
        uf__source_error(err, UF_ERR_TYPE, km->src, decl->def->pos,
                         "guvectorize kernel '%s' takes %d arguments but its "
                         "layout \"%s\" has %d inputs and %d outputs",
                         decl->name, np, decl->layout, nin, nout);
        return NULL;
    }
    return lay;
}

/* ---- compiling one set of argument types -------------------------------- */

static const uf__type *arg_type(uf__typectx *tc, const uf__gufunc_layout *lay,
                                int k, const uf__guvec_arg *a, char layout,
                                uf_error *err)
{
    switch (a->kind) {
    case UF__GUVEC_SCALAR:
        return uf__type_scalar(tc, a->dtype);
    case UF__GUVEC_ELEM:
        return uf__type_array(tc, a->dtype, 1, 'C', err);
    case UF__GUVEC_ARRAY:
        break;
    }
    return uf__type_array(tc, a->dtype, lay->core_ndim[k], layout, err);
}

uf__typed_func *uf__guvectorize_type(uf__kmodule *km,
                                   const uf__kernel_decl *decl,
                                   const uf__gufunc_layout *lay,
                                   const uf__guvec_arg *args, char layout,
                                   uf_error *err)
{
    const uf__type *types[UF__LOOP_MAXARGS];
    for (int k = 0; k < lay->nargs; k++)
        if (!(types[k] = arg_type(km->tc, lay, k, &args[k], layout, err)))
            return NULL;
    uf__typed_func *tf = uf__infer(km, decl, types, lay->nargs, NULL, err);
    if (tf == NULL)
        return NULL;
    if (tf->ret->kind != UF__T_NONE) {
        char buf[128];
        uf__type_str(tf->ret, buf, sizeof buf);
        uf__source_error(err, UF_ERR_TYPING, km->src, decl->def->pos,
                         "guvectorized functions cannot return values: "
                         "'%s' returns %s; write the results into its "
                         "output arguments", decl->name, buf);
        return NULL;
    }
    return tf;
}

/* What decides a loop's code besides the module and the kernel's flags
 * (the disk cache's key): the layout and how each operand reaches the
 * kernel. False when it does not fit. */
static bool loop_sig(const uf__kernel_decl *decl,
                     const uf__gufunc_layout *lay, const uf__guvec_arg *args,
                     char *out, size_t cap)
{
    static const char kinds[] = {[UF__GUVEC_ARRAY] = 'A',
                                 [UF__GUVEC_ELEM] = 'E',
                                 [UF__GUVEC_SCALAR] = 'S'};
    size_t used = 0;
    int n = snprintf(out, cap, "%s|", decl->layout);
    for (int k = 0; n >= 0 && (used += (size_t)n) < cap && k < lay->nargs;
         k++)
        n = snprintf(out + used, cap - used, "%s%c:%s", k ? "," : "",
                     kinds[args[k].kind], uf_dtype_name(args[k].dtype));
    return n >= 0 && used < cap;
}

/* The loop of one set of operands: loaded from the disk cache when it is
 * there (nothing typed or compiled), else typed, compiled and stored. */
static int compile_args(uf__kmodule *km, const uf__kernel_decl *decl,
                        const uf__gufunc_layout *lay, uf__jit *jit,
                        const uf__guvec_arg *args, uf__ufunc_loop *loop,
                        uf__jit_listing *listing, uf_error *err)
{
    memset(loop, 0, sizeof *loop);
    for (int k = 0; k < lay->nargs; k++)
        loop->types[k] = args[k].dtype;
    loop->status_error = uf__jit_status_error;
    /* a listing needs the compilation itself */
    uf__disk_use use = {.on = false};
    char sig[1024];
    if (!listing && loop_sig(decl, lay, args, sig, sizeof sig))
        uf__disk_use_init(&use, UF__OBJ_GUFUNC, km, decl, sig, jit);
    void *addr = NULL;
    int rc = 0;
    if (use.on && uf__disk_use_fetch(&use, jit, 1, &addr, NULL, 0)) {
        loop->fn = (uf__strided_loop)(uintptr_t)addr;
        goto done;
    }

    bool any_array = false;
    for (int k = 0; k < lay->nargs; k++)
        any_array |= args[k].kind == UF__GUVEC_ARRAY;
    uf__typed_func *ta = uf__guvectorize_type(km, decl, lay, args, 'A', err);
    uf__typed_func *tc = NULL;
    if (ta == NULL ||
        (any_array && !(tc = uf__guvectorize_type(km, decl, lay, args, 'C', err)))) {
        rc = err->code;
        goto done;
    }
    if (!use.on) {
        rc = uf__jit_gufunc_loop(jit, tc, ta, lay, args, &loop->fn, listing,
                                 err);
        goto done;
    }
    char symbol[UF__JIT_SYMBOL_MAX];
    char *obj = NULL;
    size_t objlen = 0;
    if (uf__jit_gufunc_loop_obj(jit, tc, ta, lay, args, use.stem, &loop->fn,
                                symbol, sizeof symbol, &obj, &objlen,
                                err) != 0) {
        rc = err->code;
        if (rc == UF_ERR_INTERNAL) {
            /* the JIT refused the object (its symbols clash with code
             * this context loaded before): compile as without a cache */
            uf_error_clear(err);
            rc = uf__jit_gufunc_loop(jit, tc, ta, lay, args, &loop->fn,
                                     NULL, err);
        }
        goto done;
    }
    const char *names[1] = {symbol};
    uf__disk_use_store(&use, names, 1, NULL, 0, obj, objlen);
    uf__free(obj);
done:
    uf__disk_use_release(&use);
    return rc;
}

static bool too_many(const uf__kernel_decl *decl,
                     const uf__gufunc_layout *lay, uf_error *err)
{
    if (lay->nargs <= UF__LOOP_MAXARGS)
        return false;
    uf__error_set(err, UF_ERR_UNSUPPORTED,
                  "'%s' has %d operands: at most %d are supported",
                  decl->name, lay->nargs, UF__LOOP_MAXARGS);
    return true;
}

int uf__guvectorize_sig_args(const uf__kernel_decl *decl,
                             const uf__gufunc_layout *lay,
                             const uf__signature *sig, uf__guvec_arg *args,
                             uf_error *err)
{
    char buf[128];
    if (too_many(decl, lay, err))
        return err->code;
    if (sig->nargs != lay->nargs)
        return uf__error_set(err, UF_ERR_TYPE,
                             "Signature mismatch: %d argument types given, "
                             "but function takes %d arguments",
                             sig->nargs, lay->nargs);
    if (sig->ret != NULL && sig->ret->kind != UF__T_NONE) {
        uf__type_str(sig->ret, buf, sizeof buf);
        return uf__error_set(err, UF_ERR_TYPE,
                             "guvectorized functions cannot return values: "
                             "the signature's return type is %s (write "
                             "void or none)", buf);
    }
    for (int k = 0; k < lay->nargs; k++) {
        const uf__type *t = sig->args[k];
        uf__type_str(t, buf, sizeof buf);
        if (t->kind == UF__T_ARRAY) {
            if (uf__gufunc_layout_check_arg(lay, k, t->ndim, err) != 0)
                return err->code;
            args[k].kind = lay->core_ndim[k] == 0 ? UF__GUVEC_ELEM
                                                  : UF__GUVEC_ARRAY;
        } else if (t->kind == UF__T_SCALAR) {
            if (lay->core_ndim[k] != 0)
                return uf__error_set(err, UF_ERR_TYPE,
                                     "scalar type %s given for non scalar "
                                     "argument #%d", buf, k + 1);
            if (k >= lay->nin)
                return uf__error_set(
                    err, UF_ERR_TYPE,
                    "scalar type %s given for output argument #%d: the "
                    "kernel could not write it; use a one-element array "
                    "(%s[:]) and write x[0]", buf, k + 1, buf);
            args[k].kind = UF__GUVEC_SCALAR;
        } else {
            return uf__error_set(err, UF_ERR_TYPE,
                                 "argument #%d has type %s: a guvectorize "
                                 "argument is an array or a scalar",
                                 k + 1, buf);
        }
        args[k].dtype = t->dtype;
    }
    return 0;
}

int uf__guvectorize_compile(uf__kmodule *km, const uf__kernel_decl *decl,
                            const uf__gufunc_layout *lay, uf__jit *jit,
                            const uf__signature *sig, uf__ufunc_loop *loop,
                            uf__jit_listing *listing, uf_error *err)
{
    uf__guvec_arg args[UF__LOOP_MAXARGS];
    if (uf__guvectorize_sig_args(decl, lay, sig, args, err) != 0)
        return err->code;
    return compile_args(km, decl, lay, jit, args, loop, listing, err);
}

/* ---- kernels without signatures ----------------------------------------- */

typedef struct store_scan {
    const uf__typed_func *tf;
    uf__typectx *tc;
    const char *param; /* the output argument's name */
    int arg;
    const uf__type *t; /* stored values unified so far */
    const uf__type *lit; /* stored literals (out[0] = 0), which take any
                            dtype: they count only when nothing else is
                            stored */
    bool clash;        /* values that do not unify */
} store_scan;

static bool is_literal(const uf__expr *e)
{
    if (e->kind == UF__EX_UNARY)
        e = e->u.unary.operand;
    return e->kind == UF__EX_INT || e->kind == UF__EX_FLOAT ||
           e->kind == UF__EX_BOOL;
}

static bool is_param(const store_scan *s, const uf__expr *e)
{
    if (e->kind != UF__EX_NAME || strcmp(e->u.name.id, s->param) != 0)
        return false;
    for (int v = 0; v < s->tf->nvars; v++)
        if (strcmp(s->tf->vars[v].name, s->param) == 0)
            return s->tf->vars[v].arg == s->arg;
    return false;
}

static void add_stored(store_scan *s, const uf__type *t, bool literal)
{
    const uf__type **acc = literal ? &s->lit : &s->t;
    if (t == NULL || t->kind != UF__T_SCALAR || s->clash)
        return;
    const uf__type *u = *acc ? uf__type_unify(s->tc, *acc, t) : t;
    if (u == NULL || u->kind != UF__T_SCALAR)
        s->clash = true;
    else
        *acc = u;
}

static void scan_target(store_scan *s, const uf__expr *tgt,
                        const uf__type *vt, const uf__expr *value)
{
    if (tgt->kind == UF__EX_SUBSCRIPT && is_param(s, tgt->u.subscript.value)) {
        add_stored(s, vt, value != NULL && is_literal(value));
    } else if ((tgt->kind == UF__EX_TUPLE || tgt->kind == UF__EX_LIST) &&
               vt && vt->kind == UF__T_TUPLE && vt->n == tgt->u.seq.n) {
        bool lits = value && (value->kind == UF__EX_TUPLE ||
                              value->kind == UF__EX_LIST) &&
                    value->u.seq.n == tgt->u.seq.n;
        for (int i = 0; i < tgt->u.seq.n; i++)
            scan_target(s, tgt->u.seq.elts[i], vt->elts[i],
                        lits ? value->u.seq.elts[i] : NULL);
    }
}

static int scan_stmt(uf__stmt *st, void *ud)
{
    store_scan *s = ud;
    const uf__typed_func *tf = s->tf;
    if (st->kind == UF__ST_ASSIGN) {
        for (int j = 0; j < st->u.assign.ntargets; j++)
            scan_target(s, st->u.assign.targets[j],
                        uf__tf_info(tf, st->u.assign.value)->type,
                        st->u.assign.value);
    } else if (st->kind == UF__ST_AUGASSIGN) {
        const uf__expr *t = st->u.augassign.target;
        const uf__type *vt = uf__tf_info(tf, st->u.augassign.value)->type;
        if (t->kind == UF__EX_SUBSCRIPT && is_param(s, t->u.subscript.value) &&
            uf__tf_info(tf, t)->type && vt)
            add_stored(s, uf__type_binop(s->tc, st->u.augassign.op,
                                         uf__tf_info(tf, t)->type, vt, NULL),
                       false);
    }
    return 0;
}

/* The dtypes of the outputs nobody gave: the first guess (the inputs'
 * promoted dtype) refined by what the kernel typed with it stores there,
 * until the guess holds (a stored value may depend on the output's dtype:
 * out[i] += x). */
static int infer_outputs(uf__kmodule *km, const uf__kernel_decl *decl,
                         const uf__gufunc_layout *lay, uf__guvec_arg *args,
                         const bool *open, uf_error *err)
{
    uf_dtype guess = lay->nin > 0 ? args[0].dtype : UF_FLOAT64;
    for (int k = 1; k < lay->nin; k++)
        guess = uf_promote_types(guess, args[k].dtype);
    for (int k = lay->nin; k < lay->nargs; k++)
        if (open[k])
            args[k].dtype = guess;
    for (int round = 0; round < 4; round++) {
        uf__typed_func *tf = uf__guvectorize_type(km, decl, lay, args, 'A', err);
        if (tf == NULL)
            return err->code;
        bool changed = false;
        for (int k = lay->nin; k < lay->nargs; k++) {
            if (!open[k])
                continue;
            store_scan s = {.tf = tf, .tc = km->tc, .arg = k,
                            .param = decl->def->u.funcdef.params[k].name};
            uf__ast_walk_stmts(&decl->def->u.funcdef.body, scan_stmt, &s);
            const uf__type *t = s.t ? s.t : s.lit;
            if (t && !s.clash && t->dtype != args[k].dtype) {
                args[k].dtype = t->dtype;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    return 0;
}

int uf__guvectorize_lazy_args(uf__kmodule *km, const uf__kernel_decl *decl,
                              const uf__gufunc_layout *lay, const int *types,
                              uf__guvec_arg *args, uf_error *err)
{
    if (too_many(decl, lay, err))
        return err->code;
    bool open[UF__LOOP_MAXARGS] = {false};
    bool has_scalar = false;
    for (int k = 0; k < lay->nargs; k++) {
        bool core0 = lay->core_ndim[k] == 0;
        args[k].kind = !core0 ? UF__GUVEC_ARRAY
                              : k < lay->nin ? UF__GUVEC_SCALAR
                                             : UF__GUVEC_ELEM;
        has_scalar |= args[k].kind == UF__GUVEC_SCALAR;
        open[k] = types[k] < 0;
        if (open[k] && k < lay->nin)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "'%s': input %d has no dtype", decl->name,
                                 k + 1);
        args[k].dtype = open[k] ? UF_FLOAT64 : (uf_dtype)types[k];
    }
    if (infer_outputs(km, decl, lay, args, open, err) == 0)
        return 0;
    if (!has_scalar || err->code == UF_ERR_NOMEM)
        return err->code;
    /* a kernel written for Numba's convention reads a "()" input as x[0] */
    uf_error first = *err;
    for (int k = 0; k < lay->nin; k++)
        if (args[k].kind == UF__GUVEC_SCALAR)
            args[k].kind = UF__GUVEC_ELEM;
    if (infer_outputs(km, decl, lay, args, open, err) == 0)
        return 0;
    if (err->code == UF_ERR_NOMEM)
        return err->code;
    *err = first;
    return err->code;
}

int uf__guvectorize_compile_lazy(uf__kmodule *km, const uf__kernel_decl *decl,
                                 const uf__gufunc_layout *lay,
                                 uf__jit *jit, const int *types,
                                 uf__ufunc_loop *loop,
                                 uf__jit_listing *listing, uf_error *err)
{
    uf__guvec_arg args[UF__LOOP_MAXARGS];
    if (uf__guvectorize_lazy_args(km, decl, lay, types, args, err) != 0)
        return err->code;
    return compile_args(km, decl, lay, jit, args, loop, listing, err);
}
