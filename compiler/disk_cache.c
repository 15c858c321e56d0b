/* The disk cache of vectorize object code (disk_cache.h): file names,
 * the file format, verified loads and atomic stores.
 *
 * A file is a header, then the body the header's checksum covers:
 *   header: magic "UFJITOB\0", u32 format version, u32 nargs, u32 nout,
 *           u32 symbol length, u64 key length, u64 object length,
 *           u64[2] 128-bit hash of the body;
 *   body:   the full key, the symbol, nargs i32 dtypes, the object file.
 * The full key is stored and compared, so a hash collision of two keys is
 * a miss, not wrong code. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "compiler/disk_cache.h"

#define MAGIC "UFJITOB"
#define VERSION 1u

typedef struct header {
    char magic[8];
    uint32_t version, nargs, nout, symlen;
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
    static const char tag[] = "ufjit-vectorize-object";
    p[0] = tag;
    n[0] = sizeof tag;
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

void uf__disk_entry_release(uf__disk_entry *e)
{
    uf__free(e->file);
    e->file = NULL;
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

/* The whole file at `path` (*len bytes), or NULL. */
static char *read_all(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size < sizeof(header) ||
        (uint64_t)st.st_size > ((uint64_t)1 << 31))
        goto out;
    size_t n = (size_t)st.st_size, got = 0;
    if (!(buf = uf__malloc(n, 1, NULL)))
        goto out;
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

int uf__disk_cache_load(const char *dir, const uf__loop_key *key, int nin,
                        uf__disk_entry *e)
{
    char path[UF__DISK_CACHE_PATH_MAX];
    size_t len = 0;
    memset(e, 0, sizeof *e);
    uf__disk_cache_path(dir, key, path, sizeof path);
    char *f = read_all(path, &len);
    if (!f)
        return 0;
    header h;
    memcpy(&h, f, sizeof h);
    size_t body = len - sizeof h;
    /* every size checked against the file before it is used */
    if (memcmp(h.magic, MAGIC, 8) != 0 || h.version != VERSION ||
        h.nargs > UF__UFUNC_MAXARGS || h.nout < 1 ||
        h.nout > h.nargs || (int)(h.nargs - h.nout) != nin ||
        h.symlen == 0 || h.symlen >= UF__JIT_SYMBOL_MAX ||
        h.keylen != key_len(key) || h.objlen == 0 ||
        h.keylen > body || h.objlen > body ||
        h.keylen + h.symlen + 4u * h.nargs + h.objlen != body)
        goto miss;
    uf__hash128 sum;
    uf__hash128_init(&sum);
    uf__hash128_add(&sum, f + sizeof h, body);
    if (sum.a != h.sum[0] || sum.b != h.sum[1])
        goto miss;
    const char *p = f + sizeof h;
    if (!same_key(p, h.keylen, key))
        goto miss;
    p += h.keylen;
    memcpy(e->symbol, p, h.symlen);
    e->symbol[h.symlen] = '\0';
    if (strlen(e->symbol) != h.symlen)
        goto miss;
    p += h.symlen;
    for (uint32_t i = 0; i < h.nargs; i++, p += 4) {
        int32_t t;
        memcpy(&t, p, 4);
        if (t < 0 || t >= UF_NTYPES)
            goto miss;
        e->types[i] = (uf_dtype)t;
    }
    e->file = f;
    e->nargs = (int)h.nargs;
    e->nout = (int)h.nout;
    e->obj = p;
    e->objlen = (size_t)h.objlen;
    return 1;
miss:
    uf__free(f);
    return 0;
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

int uf__disk_cache_store(const char *dir, const uf__loop_key *key,
                         const char *symbol, const uf_dtype *types, int nargs,
                         int nout, const void *obj, size_t objlen)
{
    size_t symlen = strlen(symbol);
    if (nargs < 1 || nargs > UF__UFUNC_MAXARGS || symlen == 0 ||
        symlen >= UF__JIT_SYMBOL_MAX || !make_dirs(dir))
        return -1;
    const void *kp[5];
    size_t kn[5];
    key_parts(key, kp, kn);
    int32_t t32[UF__UFUNC_MAXARGS];
    for (int i = 0; i < nargs; i++)
        t32[i] = (int32_t)types[i];
    header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, 8);
    h.version = VERSION;
    h.nargs = (uint32_t)nargs;
    h.nout = (uint32_t)nout;
    h.symlen = (uint32_t)symlen;
    h.keylen = key_len(key);
    h.objlen = objlen;
    uf__hash128 sum;
    uf__hash128_init(&sum);
    for (int i = 0; i < 5; i++)
        uf__hash128_add(&sum, kp[i], kn[i]);
    uf__hash128_add(&sum, symbol, symlen);
    uf__hash128_add(&sum, t32, 4u * (size_t)nargs);
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
    ok = ok && write_all(fd, symbol, symlen) &&
         write_all(fd, t32, 4u * (size_t)nargs) &&
         write_all(fd, obj, objlen) && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}
