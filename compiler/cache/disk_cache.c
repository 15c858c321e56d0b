/* The disk cache of object code (disk_cache.h): file names, the file
 * format, verified loads and atomic stores, and the fetch/store steps
 * every kind of compilation shares.
 *
 * A file is a header, then the body the header's checksum covers:
 *   header: magic "UFJITOB\0", u32 format version, u32 kind of object
 *           (uf__obj_kind), u32 number of symbols, u32 number of words,
 *           u64 key length, u64 object length, u64[2] 128-bit hash of the
 *           body (56 bytes);
 *   body:   the full key (which names the kind again), the kind's int32
 *           words (vectorize: nargs, nout, the operand dtypes), the
 *           symbols (each NUL-terminated), the object file.
 * Version 1 (vectorize only: one symbol, its dtypes) files are stale: a
 * miss, rewritten. The full key is stored and compared, so a hash
 * collision of two keys is a miss, not wrong code. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "compiler/cache/disk_cache.h"

#define MAGIC "UFJITOB"
#define VERSION 2u

typedef struct header {
    char magic[8];
    uint32_t version, kind, nsyms, nmeta;
    uint64_t keylen, objlen;
    uint64_t sum[2];
} header;

bool uf__disk_cache_dir(bool cache_flag, char *out, size_t cap)
{
    const char *d = getenv("UFJIT_CACHE_DIR");
    int n = -1;
    if (d && *d)
        n = snprintf(out, cap, "%s", d);
    else if (cache_flag) {
        const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
        if (x && *x == '/')
            n = snprintf(out, cap, "%s/ufjit", x);
        else if (h && *h)
            n = snprintf(out, cap, "%s/.cache/ufjit", h);
    }
    return n > 0 && (size_t)n < cap;
}

/* The key's parts in the order they are hashed and stored. */
static void key_parts(const uf__loop_key *k, const void *p[5], size_t n[5])
{
    static const char *const tags[UF__OBJ_NKINDS] = {
        [UF__OBJ_VECTORIZE] = "ufjit-vectorize-object",
        [UF__OBJ_GUFUNC] = "ufjit-gufunc-object",
        [UF__OBJ_REDUCE] = "ufjit-reduce-object",
        [UF__OBJ_PLAIN] = "ufjit-plain-object",
        [UF__OBJ_PTX] = "ufjit-cuda-ptx",
        [UF__OBJ_CODEGEN] = "ufjit-codegen-object",
    };
    const char *tag = (unsigned)k->kind < UF__OBJ_NKINDS ? tags[k->kind]
                                                         : "ufjit-object";
    p[0] = tag;
    n[0] = strlen(tag) + 1;
    p[1] = k->kernel;
    n[1] = strlen(k->kernel) + 1;
    p[2] = k->sig;
    n[2] = strlen(k->sig) + 1;
    p[3] = k->opts;
    n[3] = strlen(k->opts) + 1;
    p[4] = k->text;
    n[4] = k->len;
}

void uf__disk_key_hash(const uf__loop_key *key, uf__hash128 *h)
{
    const void *p[5];
    size_t n[5];
    key_parts(key, p, n);
    uf__hash128_init(h);
    for (int i = 0; i < 5; i++)
        uf__hash128_add(h, p[i], n[i]);
}

void uf__disk_cache_path(const char *dir, const uf__loop_key *key,
                         char *out, size_t cap)
{
    uf__hash128 h;
    char hex[33];
    uf__disk_key_hash(key, &h);
    uf__hash128_hex(&h, hex);
    snprintf(out, cap, "%s/%s.ufo", dir, hex);
}

/* Whether the stored key bytes equal the key's parts. */
static bool same_key(const char *s, size_t len, const uf__loop_key *key)
{
    const void *p[5];
    size_t n[5];
    key_parts(key, p, n);
    for (int i = 0; i < 5; i++) {
        if (n[i] > len || memcmp(s, p[i], n[i]) != 0)
            return false;
        s += n[i];
        len -= n[i];
    }
    return len == 0;
}

static size_t key_len(const uf__loop_key *key)
{
    const void *p[5];
    size_t n[5], t = 0;
    key_parts(key, p, n);
    for (int i = 0; i < 5; i++)
        t += n[i];
    return t;
}

/* The whole file at `path` (*len bytes), or NULL: a regular file only,
 * opened without blocking (a FIFO in its place must not hang the call). */
static char *read_all(const char *path, size_t *len, bool *nomem)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size < sizeof(header) ||
        (uint64_t)st.st_size > ((uint64_t)1 << 31))
        goto out;
    size_t n = (size_t)st.st_size, got = 0;
    if (!(buf = uf__malloc(n, 1, NULL))) {
        *nomem = true;
        goto out;
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            uf__free(buf);
            buf = NULL;
            goto out;
        }
        got += (size_t)r;
    }
    *len = n;
out:
    close(fd);
    return buf;
}

int uf__disk_file_load(const char *dir, const uf__loop_key *key,
                       uf__disk_file *f)
{
    bool nomem = false;
    return uf__disk_file_load_ex(dir, key, f, &nomem);
}

int uf__disk_file_load_ex(const char *dir, const uf__loop_key *key,
                          uf__disk_file *f, bool *nomem)
{
    char path[UF__DISK_CACHE_PATH_MAX];
    size_t len = 0;
    memset(f, 0, sizeof *f);
    *nomem = false;
    uf__disk_cache_path(dir, key, path, sizeof path);
    char *buf = read_all(path, &len, nomem);
    if (!buf)
        return 0;
    header h;
    memcpy(&h, buf, sizeof h);
    size_t body = len - sizeof h;
    /* every size checked against the file before it is used */
    if (memcmp(h.magic, MAGIC, 8) != 0 || h.version != VERSION ||
        h.kind != (uint32_t)key->kind || h.nsyms < 1 ||
        h.nsyms > UF__DISK_MAXSYMS || h.nmeta > UF__DISK_MAXMETA ||
        h.keylen != key_len(key) || h.objlen == 0 || h.keylen > body ||
        h.objlen > body || 4u * h.nmeta > body - h.keylen ||
        h.keylen + 4u * h.nmeta + h.objlen >= body)
        goto miss;
    uf__hash128 sum;
    uf__hash128_init(&sum);
    uf__hash128_add(&sum, buf + sizeof h, body);
    if (sum.a != h.sum[0] || sum.b != h.sum[1])
        goto miss;
    const char *p = buf + sizeof h;
    if (!same_key(p, h.keylen, key))
        goto miss;
    p += h.keylen;
    memcpy(f->meta, p, 4u * h.nmeta);
    p += 4u * h.nmeta;
    /* the symbols: exactly nsyms non-empty NUL-terminated names */
    size_t symlen = body - h.keylen - 4u * h.nmeta - h.objlen;
    const char *end = p + symlen;
    for (uint32_t i = 0; i < h.nsyms; i++) {
        const char *z = memchr(p, '\0', (size_t)(end - p));
        if (!z || z == p || z - p >= UF__JIT_SYMBOL_MAX)
            goto miss;
        f->syms[i] = p;
        p = z + 1;
    }
    if (p != end)
        goto miss;
    f->file = buf;
    f->nsyms = (int)h.nsyms;
    f->nmeta = (int)h.nmeta;
    f->obj = p;
    f->objlen = (size_t)h.objlen;
    return 1;
miss:
    uf__free(buf);
    memset(f, 0, sizeof *f);
    return 0;
}

void uf__disk_file_release(uf__disk_file *f)
{
    uf__free(f->file);
    f->file = NULL;
}

/* mkdir -p, 0755; whether `dir` is a directory afterwards. */
static bool make_dirs(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode);
    char p[UF__DISK_CACHE_PATH_MAX];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
        return false;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return false;
        *s = '/';
    }
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return false;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

int uf__disk_file_store(const char *dir, const uf__loop_key *key,
                        const char *const *syms, int nsyms,
                        const int32_t *meta, int nmeta, const void *obj,
                        size_t objlen, bool durable)
{
    if (nsyms < 1 || nsyms > UF__DISK_MAXSYMS || nmeta < 0 ||
        nmeta > UF__DISK_MAXMETA || objlen == 0)
        return -1;
    for (int i = 0; i < nsyms; i++) {
        size_t l = strlen(syms[i]);
        if (l == 0 || l >= UF__JIT_SYMBOL_MAX)
            return -1;
    }
    if (!make_dirs(dir))
        return -1;
    const void *kp[5];
    size_t kn[5];
    key_parts(key, kp, kn);
    header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, 8);
    h.version = VERSION;
    h.kind = (uint32_t)key->kind;
    h.nsyms = (uint32_t)nsyms;
    h.nmeta = (uint32_t)nmeta;
    h.keylen = key_len(key);
    h.objlen = objlen;
    uf__hash128 sum;
    uf__hash128_init(&sum);
    for (int i = 0; i < 5; i++)
        uf__hash128_add(&sum, kp[i], kn[i]);
    uf__hash128_add(&sum, meta, 4u * (size_t)nmeta);
    for (int i = 0; i < nsyms; i++)
        uf__hash128_add(&sum, syms[i], strlen(syms[i]) + 1);
    uf__hash128_add(&sum, obj, objlen);
    h.sum[0] = sum.a;
    h.sum[1] = sum.b;

    char path[UF__DISK_CACHE_PATH_MAX], tmp[UF__DISK_CACHE_PATH_MAX + 64];
    uf__disk_cache_path(dir, key, path, sizeof path);
    static _Atomic unsigned seq;
    unsigned s = seq++;
    /* the temporary beside the file: rename() is atomic within one file
     * system, so readers see the old file, none, or the whole new one */
    snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", path, (long)getpid(), s);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    bool ok = write_all(fd, &h, sizeof h);
    for (int i = 0; ok && i < 5; i++)
        ok = write_all(fd, kp[i], kn[i]);
    ok = ok && write_all(fd, meta, 4u * (size_t)nmeta);
    for (int i = 0; ok && i < nsyms; i++)
        ok = write_all(fd, syms[i], strlen(syms[i]) + 1);
    ok = ok && write_all(fd, obj, objlen) && (!durable || fsync(fd) == 0);
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- vectorize loops ---------------------------------------------------- */

int uf__disk_cache_load(const char *dir, const uf__loop_key *key, int nin,
                        uf__disk_entry *e)
{
    uf__disk_file f;
    memset(e, 0, sizeof *e);
    if (!uf__disk_file_load(dir, key, &f))
        return 0;
    int32_t nargs = f.nmeta >= 2 ? f.meta[0] : -1, nout = f.meta[1];
    if (f.nsyms != 1 || nargs < 1 || nargs > UF__LOOP_MAXARGS ||
        f.nmeta != 2 + nargs || nout < 1 || nout > nargs ||
        nargs - nout != nin)
        goto miss;
    for (int32_t i = 0; i < nargs; i++) {
        if (f.meta[2 + i] < 0 || f.meta[2 + i] >= UF_NTYPES)
            goto miss;
        e->types[i] = (uf_dtype)f.meta[2 + i];
    }
    snprintf(e->symbol, sizeof e->symbol, "%s", f.syms[0]);
    e->file = f.file;
    e->nargs = nargs;
    e->nout = nout;
    e->obj = f.obj;
    e->objlen = f.objlen;
    return 1;
miss:
    uf__disk_file_release(&f);
    memset(e, 0, sizeof *e);
    return 0;
}

void uf__disk_entry_release(uf__disk_entry *e)
{
    uf__free(e->file);
    e->file = NULL;
}

int uf__disk_cache_store(const char *dir, const uf__loop_key *key,
                         const char *symbol, const uf_dtype *types, int nargs,
                         int nout, const void *obj, size_t objlen)
{
    int32_t meta[UF__DISK_MAXMETA];
    if (nargs < 1 || nargs > UF__LOOP_MAXARGS)
        return -1;
    meta[0] = nargs;
    meta[1] = nout;
    for (int i = 0; i < nargs; i++)
        meta[2 + i] = (int32_t)types[i];
    return uf__disk_file_store(dir, key, &symbol, 1, meta, 2 + nargs, obj,
                               objlen, true);
}

/* ---- one compilation's use ---------------------------------------------- */

void uf__disk_use_init(uf__disk_use *u, uf__obj_kind kind,
                       const uf__kmodule *km, const uf__kernel_decl *decl,
                       const char *sig, const uf__jit *jit)
{
    memset(u, 0, sizeof *u);
    if (!uf__disk_cache_dir(decl->cache, u->dir, sizeof u->dir))
        return;
    uf_error local;
    uf_error_clear(&local);
    size_t len = 0;
    if (!(u->text = uf__kernel_source(km, decl, &len, &local)))
        return;
    if (uf__obj_key_make(&u->key, kind, u->text, len, decl, sig, jit,
                         &local) != 0)
        return;
    uf__hash128 h;
    uf__disk_key_hash(&u->key, &h);
    uf__hash128_hex(&h, u->stem);
    u->on = true;
}

void uf__disk_use_release(uf__disk_use *u)
{
    uf__free(u->text);
    u->text = NULL;
    u->on = false;
}

int uf__disk_use_fetch(const uf__disk_use *u, uf__jit *jit, int nsyms,
                       void **addrs, int32_t *meta, int nmeta)
{
    uf__disk_file f;
    if (!u->on || !uf__disk_file_load(u->dir, &u->key, &f))
        return 0;
    int hit = 0;
    if (f.nsyms != nsyms || f.nmeta != nmeta)
        goto out;
    uf_error local;
    uf_error_clear(&local);
    if (uf__jit_load_object(jit, f.obj, f.objlen, f.syms, addrs, nsyms,
                            &local) != 0)
        goto out;
    for (int i = 0; i < nsyms; i++)
        if (!addrs[i])
            goto out;
    if (nmeta > 0)
        memcpy(meta, f.meta, (size_t)nmeta * sizeof *meta);
    hit = 1;
out:
    uf__disk_file_release(&f);
    return hit;
}

void uf__disk_use_store(const uf__disk_use *u, const char *const *syms,
                        int nsyms, const int32_t *meta, int nmeta,
                        const void *obj, size_t objlen)
{
    if (u->on)
        (void)uf__disk_file_store(u->dir, &u->key, syms, nsyms, meta, nmeta,
                                  obj, objlen, true);
}
