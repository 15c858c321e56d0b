/* The context's compile cache of vectorize loops (cache.h): keys, the
 * 128-bit content hash, and the entries with their loop descriptors. A
 * linear list: a context holds tens of loops, and a lookup is nothing next
 * to the milliseconds a compilation costs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm/Config/llvm-config.h>
#include <ufjit/ufjit.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/cache/build_id.h"
#include "compiler/cache/cache.h"
#include "compiler/lower/lower.h"

/* ---- hashing ------------------------------------------------------------ */

void uf__hash128_init(uf__hash128 *h)
{
    h->a = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
    h->b = 0x84222325cbf29ce4ull;
}

void uf__hash128_add(uf__hash128 *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t a = h->a, b = h->b;
    for (size_t i = 0; i < n; i++) {
        a = (a ^ s[i]) * 0x100000001b3ull;        /* FNV-1a */
        b = (b + s[i] + 1) * 0x9e3779b97f4a7c15ull; /* golden-ratio lane */
        b ^= b >> 29;
    }
    h->a = a;
    h->b = b;
}

void uf__hash128_hex(const uf__hash128 *h, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->a,
             (unsigned long long)h->b);
}

/* ---- keys --------------------------------------------------------------- */

/* key->opts: the decorator's flags, the environment switches read while
 * compiling, and the host and toolchain the code is for. */
static int key_opts(uf__loop_key *key, const uf__kernel_decl *decl,
                    const uf__jit *jit, uf_error *err)
{
    /* environment switches read while compiling: bounds checks
     * (UFJIT_DEBUG) and glibc's vector math (read by the JIT) */
    const char *dbg = getenv("UFJIT_DEBUG");
    bool debug = dbg && *dbg && strcmp(dbg, "0") != 0;
    /* the feature list is long: its hash stands for it, and for the
     * vector math libraries the code calls (SLEEF's symbols are missing
     * in a process without it) */
    const char *feat = uf__jit_host_features(jit);
    const char *vmath = uf__jit_vector_math(jit);
    uf__hash128 fh;
    char fhex[33];
    uf__hash128_init(&fh);
    uf__hash128_add(&fh, feat, strlen(feat));
    uf__hash128_add(&fh, vmath, strlen(vmath));
    uf__hash128_hex(&fh, fhex);
    /* The code depends on the code generator the call's target uses, not
     * on the target the decorator declares: `cpu` and `parallel` calls
     * run the very same host loops (the threads split the iteration
     * space outside them), so both key on "host". */
    int n = snprintf(key->opts, sizeof key->opts,
                     "codegen=%s;kind=%d;fastmath=%d;boundscheck=%d;parallel=%d;"
                     "debug=%d;mvec=%d;llvm=%s;ufjit=%s;build=%s;cpu=%s;"
                     "features=%s",
                     "host", (int)decl->kind,
                     decl->fastmath, decl->boundscheck, decl->parallel, debug,
                     uf__jit_have_mvec(jit), LLVM_VERSION_STRING,
                     uf_version(), uf__build_id(), uf__jit_host_cpu(jit),
                     fhex);
    if (n < 0 || (size_t)n >= sizeof key->opts)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "cache key options too long");
    return 0;
}

int uf__loop_key_make(uf__loop_key *key, const char *text, size_t len,
                      const uf__kernel_decl *decl, const uf__type *const *in,
                      int nin, const uf__type *ret, const uf__jit *jit,
                      uf_error *err)
{
    key->text = text;
    key->len = len;
    key->kernel = decl->name;
    key->kind = UF__OBJ_VECTORIZE;
    size_t used = 0;
    char t[128];
    for (int i = 0; i < nin; i++) {
        uf__type_str(in[i], t, sizeof t);
        used += (size_t)snprintf(key->sig + used,
                                 used < sizeof key->sig ? sizeof key->sig - used
                                                        : 0,
                                 "%s%s", i ? "," : "", t);
    }
    if (ret)
        uf__type_str(ret, t, sizeof t);
    used += (size_t)snprintf(key->sig + (used < sizeof key->sig ? used : 0),
                             used < sizeof key->sig ? sizeof key->sig - used
                                                    : 0,
                             "->%s", ret ? t : "?");
    if (used >= sizeof key->sig)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s': signature too long to cache",
                             decl->name);
    return key_opts(key, decl, jit, err);
}

int uf__obj_key_make(uf__loop_key *key, uf__obj_kind kind, const char *text,
                     size_t len, const uf__kernel_decl *decl,
                     const char *sig, const uf__jit *jit, uf_error *err)
{
    key->text = text;
    key->len = len;
    key->kernel = decl->name;
    key->kind = kind;
    if (strlen(sig) >= sizeof key->sig)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s': signature too long to cache",
                             decl->name);
    memcpy(key->sig, sig, strlen(sig) + 1);
    return key_opts(key, decl, jit, err);
}

/* ---- the text a kernel's code depends on -------------------------------- */

/* The first line of a module-level statement (a def's first decorator). */
static int first_line(const uf__stmt *st)
{
    int line = st->pos.line;
    if (st->kind == UF__ST_FUNCDEF)
        for (int d = 0; d < st->u.funcdef.ndecorators; d++)
            if (st->u.funcdef.decorators[d]->pos.line < line)
                line = st->u.funcdef.decorators[d]->pos.line;
    return line;
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

char *uf__kernel_source(const uf__kmodule *km, const uf__kernel_decl *decl,
                        size_t *len, uf_error *err)
{
    const char *text = km->src->text;
    size_t tlen = km->src->len;
    const uf__block *body = &km->ast->body;
    int n = body->n;
    /* statement i covers text [from[i], from[i + 1]) */
    size_t *from = uf__calloc((size_t)n + 1, sizeof *from, err);
    int *lines = uf__calloc((size_t)n + 1, sizeof *lines, err);
    bool *keep = uf__calloc((size_t)n + 1, sizeof *keep, err);
    int *work = uf__calloc((size_t)n + 1, sizeof *work, err);
    char *out = NULL;
    if (!from || !lines || !keep || !work)
        goto done;
    size_t off = 0;
    int line = 1;
    for (int i = 0; i < n; i++) {
        lines[i] = first_line(body->stmts[i]);
        while (line < lines[i] && off < tlen)
            line += text[off++] == '\n';
        from[i] = off;
    }
    from[n] = tlen;
    int nwork = 0;
    for (int i = 0; i < n; i++) {
        keep[i] = body->stmts[i]->kind != UF__ST_FUNCDEF;
        if (body->stmts[i] == decl->def) {
            keep[i] = true;
            work[nwork++] = i;
        }
    }
    if (nwork == 0) /* not a module-level def: all of the text */
        for (int i = 0; i < n; i++)
            keep[i] = true;
    while (nwork > 0) { /* the defs a kept def names */
        int i = work[--nwork];
        for (size_t p = from[i]; p < from[i + 1]; p++) {
            if (!ident_char(text[p]) ||
                (p > from[i] && ident_char(text[p - 1])))
                continue;
            size_t q = p;
            while (q < from[i + 1] && ident_char(text[q]))
                q++;
            for (int j = 0; j < n; j++) {
                const uf__stmt *st = body->stmts[j];
                if (keep[j] || st->kind != UF__ST_FUNCDEF)
                    continue;
                const char *name = st->u.funcdef.name;
                if (strlen(name) == q - p &&
                    memcmp(name, text + p, q - p) == 0) {
                    keep[j] = true;
                    work[nwork++] = j;
                }
            }
            p = q;
        }
    }
    size_t total = 0;
    for (int i = 0; i < n; i++)
        if (keep[i])
            total += 16 + (from[i + 1] - from[i]);
    if (!(out = uf__malloc(total + 1, 1, err)))
        goto done;
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        used += (size_t)snprintf(out + used, total + 1 - used, "@%d\n",
                                 lines[i]);
        memcpy(out + used, text + from[i], from[i + 1] - from[i]);
        used += from[i + 1] - from[i];
    }
    out[used] = '\0';
    *len = used;
done:
    uf__free(from);
    uf__free(lines);
    uf__free(keep);
    uf__free(work);
    return out;
}

/* ---- the cache ---------------------------------------------------------- */

typedef struct entry {
    uint64_t hash;
    int text; /* index into texts */
    char *kernel, *sig, *opts;
    uf__cached_loop v;
    uf__loop_desc *desc;
    char *symbol;
} entry;

typedef struct text {
    uint64_t hash;
    char *s;
    size_t len;
} text;

struct uf__loop_cache {
    entry **entries;
    int n, cap;
    text *texts; /* module texts and module IR, interned */
    int ntexts, captexts;
};

static uint64_t hash_bytes(const void *p, size_t n)
{
    uf__hash128 h;
    uf__hash128_init(&h);
    uf__hash128_add(&h, p, n);
    return h.a ^ (h.b * 31);
}

static uint64_t key_hash(const uf__loop_key *k, uint64_t text_hash)
{
    uf__hash128 h;
    uf__hash128_init(&h);
    uf__hash128_add(&h, &text_hash, sizeof text_hash);
    uf__hash128_add(&h, k->kernel, strlen(k->kernel) + 1);
    uf__hash128_add(&h, k->sig, strlen(k->sig) + 1);
    uf__hash128_add(&h, k->opts, strlen(k->opts) + 1);
    return h.a ^ (h.b * 31);
}

uf__loop_cache *uf__loop_cache_new(uf_error *err)
{
    return uf__calloc(1, sizeof(uf__loop_cache), err);
}

void uf__loop_cache_free(uf__loop_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        entry *e = c->entries[i];
        uf__free(e->kernel);
        uf__free(e->sig);
        uf__free(e->opts);
        uf__free(e->desc);
        uf__free(e->symbol);
        uf__free(e);
    }
    for (int i = 0; i < c->ntexts; i++)
        uf__free(c->texts[i].s);
    uf__free(c->entries);
    uf__free(c->texts);
    uf__free(c);
}

static int find_text(const uf__loop_cache *c, const char *s, size_t len,
                     uint64_t h)
{
    for (int i = 0; i < c->ntexts; i++)
        if (c->texts[i].hash == h && c->texts[i].len == len &&
            memcmp(c->texts[i].s, s, len) == 0)
            return i;
    return -1;
}

/* The interned copy of s[0..len), -1 when out of memory. */
static int intern(uf__loop_cache *c, const char *s, size_t len, uf_error *err)
{
    uint64_t h = hash_bytes(s, len);
    int i = find_text(c, s, len, h);
    if (i >= 0)
        return i;
    if (c->ntexts == c->captexts) {
        int cap = c->captexts ? 2 * c->captexts : 8;
        text *t = uf__realloc(c->texts, (size_t)cap, sizeof *t, err);
        if (!t)
            return -1;
        c->texts = t;
        c->captexts = cap;
    }
    char *copy = uf__malloc(len + 1, 1, err);
    if (!copy)
        return -1;
    memcpy(copy, s, len);
    copy[len] = '\0';
    c->texts[c->ntexts] = (text){h, copy, len};
    return c->ntexts++;
}

const uf__cached_loop *uf__loop_cache_find(const uf__loop_cache *c,
                                           const uf__loop_key *key)
{
    if (!c)
        return NULL;
    uint64_t th = hash_bytes(key->text, key->len);
    int t = find_text(c, key->text, key->len, th);
    if (t < 0)
        return NULL;
    uint64_t h = key_hash(key, th);
    for (int i = 0; i < c->n; i++) {
        const entry *e = c->entries[i];
        if (e->hash == h && e->text == t &&
            strcmp(e->kernel, key->kernel) == 0 &&
            strcmp(e->sig, key->sig) == 0 && strcmp(e->opts, key->opts) == 0)
            return &e->v;
    }
    return NULL;
}

const uf__cached_loop *uf__loop_cache_add(uf__loop_cache *c,
                                          const uf__loop_key *key,
                                          void *contig, const uf_dtype *types,
                                          int nin, int nout,
                                          const char *symbol,
                                          const char *module_ir,
                                          uf_error *err)
{
    int nargs = nin + nout;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        entry **es = uf__realloc(c->entries, (size_t)cap, sizeof *es, err);
        if (!es)
            return NULL;
        c->entries = es;
        c->cap = cap;
    }
    int t = intern(c, key->text, key->len, err);
    int ir = module_ir ? intern(c, module_ir, strlen(module_ir), err) : -2;
    entry *e = t < 0 || ir == -1 ? NULL : uf__calloc(1, sizeof *e, err);
    if (!e)
        return NULL;
    e->text = t;
    e->hash = key_hash(key, c->texts[t].hash);
    e->kernel = uf__strdup(key->kernel, err);
    e->sig = uf__strdup(key->sig, err);
    e->opts = uf__strdup(key->opts, err);
    e->symbol = uf__strdup(symbol ? symbol : "", err);
    e->desc = uf__malloc(sizeof *e->desc + (size_t)nargs * sizeof(int64_t),
                         1, err);
    if (!e->kernel || !e->sig || !e->opts || !e->symbol || !e->desc) {
        uf__free(e->kernel);
        uf__free(e->sig);
        uf__free(e->opts);
        uf__free(e->symbol);
        uf__free(e->desc);
        uf__free(e);
        return NULL;
    }
    e->desc->contig = (int (*)(int64_t, char **))(uintptr_t)contig;
    e->desc->strided = NULL;
    e->desc->nin = nin;
    e->desc->nargs = nargs;
    e->desc->block = uf__loop_is_blocked(e->symbol)
                         ? uf__loop_block(types, nargs)
                         : 0;
    for (int k = 0; k < nargs; k++) {
        e->desc->itemsize[k] = (int64_t)uf_dtype_itemsize(types[k]);
        e->v.loop.types[k] = types[k];
    }
    e->v.loop.fn = NULL; /* the runtime's, set by the caller */
    e->v.loop.aux = e->desc;
    e->v.loop.status_error = uf__jit_status_error;
    e->v.nout = nout;
    e->v.symbol = e->symbol;
    e->v.module_ir = ir >= 0 ? c->texts[ir].s : NULL;
    c->entries[c->n++] = e;
    return &e->v;
}
