/* Reading and writing NumPy .npy files (the header itself is npy_header.c).
 *
 * Loading reads the prefix and header, checks that the file holds all the
 * data the shape asks for before allocating anything, then reads the data
 * straight into a new array and swaps it to native byte order. Bytes after
 * the data are ignored, as np.load ignores them.
 *
 * Saving writes np.save's exact bytes to a new file next to the target and
 * renames it into place, so the target is replaced whole or left alone;
 * the new file has no name while it is written (open_temp). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ufjit/npy.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "ndarray/iter.h"
#include "ndarray/npy_internal.h"

/* Room for "'path'" in messages; longer paths are cut, the message buffer
 * of uf_error is not larger anyway. */
#define LABEL_SIZE 512

static void make_label(char *label, const char *path)
{
    snprintf(label, LABEL_SIZE, "'%s'", path);
}

/* ---- loading ------------------------------------------------------------- */

/* Where the bytes come from: an open file or a caller's buffer. `avail` is
 * the number of bytes left when known (buffers, regular files). */
typedef struct source {
    FILE *f;
    const unsigned char *buf;
    size_t pos;
    bool known;
    size_t avail;
    const char *label;
} source;

/* Reads up to n bytes; *got < n only at the end of the data. */
static int src_read(source *s, void *dst, size_t n, size_t *got,
                    uf_error *err)
{
    if (!s->f) {
        size_t k = n < s->avail ? n : s->avail;
        if (k)
            memcpy(dst, s->buf + s->pos, k);
        s->pos += k;
        s->avail -= k;
        *got = k;
        return 0;
    }
    errno = 0;
    size_t k = n ? fread(dst, 1, n, s->f) : 0;
    if (k < n && ferror(s->f))
        return uf__error_set(err, UF_ERR_IO, "cannot read %s: %s", s->label,
                             strerror(errno ? errno : EIO));
    if (s->known)
        s->avail = k < s->avail ? s->avail - k : 0;
    *got = k;
    return 0;
}

/* Bytes of data the header asks for. NumPy refuses a shape whose nonzero
 * dimensions times the itemsize overflow its intp, even when a zero
 * dimension makes the array empty; so do we. */
static int data_nbytes(const uf__npy_header *h, const char *label,
                       size_t *out, uf_error *err)
{
    int64_t nonzero = (int64_t)uf_dtype_itemsize(h->dtype);
    bool empty = false;
    for (int i = 0; i < h->ndim; i++) {
        if (h->shape[i] == 0)
            empty = true;
        else if (!uf__mul_i64(nonzero, h->shape[i], &nonzero))
            goto overflow;
    }
    if ((uint64_t)nonzero > SIZE_MAX)
        goto overflow;
    *out = empty ? 0 : (size_t)nonzero;
    return 0;
overflow:;
    char shp[UF_MAXDIMS * 22 + 8];
    return uf__error_set(err, UF_ERR_FORMAT,
                         "%s: shape %s of %s is too big: its size in bytes "
                         "overflows a 64-bit integer", label,
                         uf__shape_str(h->ndim, h->shape, shp, sizeof shp),
                         uf_dtype_name(h->dtype));
}

static void swap_bytes(unsigned char *p, size_t nbytes, size_t width)
{
    switch (width) {
    case 2:
        for (size_t i = 0; i < nbytes; i += 2) {
            uint16_t v;
            memcpy(&v, p + i, 2);
            v = __builtin_bswap16(v);
            memcpy(p + i, &v, 2);
        }
        break;
    case 4:
        for (size_t i = 0; i < nbytes; i += 4) {
            uint32_t v;
            memcpy(&v, p + i, 4);
            v = __builtin_bswap32(v);
            memcpy(p + i, &v, 4);
        }
        break;
    case 8:
        for (size_t i = 0; i < nbytes; i += 8) {
            uint64_t v;
            memcpy(&v, p + i, 8);
            v = __builtin_bswap64(v);
            memcpy(p + i, &v, 8);
        }
        break;
    default:
        break;
    }
}

/* Native byte order, and bool bytes made 0 or 1: any other byte read as a
 * C bool is undefined behaviour (NumPy would keep it). */
static void fix_data(const uf__npy_header *h, unsigned char *p, size_t n)
{
    size_t width = uf_dtype_itemsize(h->dtype);
    if (uf_dtype_kind(h->dtype) == 'c')
        width /= 2;
    if (h->swapped)
        swap_bytes(p, n, width);
    if (h->dtype == UF_BOOL)
        for (size_t i = 0; i < n; i++)
            p[i] = p[i] != 0;
}

static int truncated_data(const uf__npy_header *h, const char *label,
                          size_t need, size_t have, uf_error *err)
{
    char shp[UF_MAXDIMS * 22 + 8];
    return uf__error_set(err, UF_ERR_FORMAT,
                         "%s: file is truncated: shape %s of %s needs %zu "
                         "bytes of data, only %zu present", label,
                         uf__shape_str(h->ndim, h->shape, shp, sizeof shp),
                         uf_dtype_name(h->dtype), need, have);
}

static uf_array *load(source *s, uf_error *err)
{
    unsigned char prefix[12];
    size_t got, more, prefix_len, header_len;
    int major;
    char *text = NULL;
    uf_array *a = NULL;
    uf__npy_header h;

    if (src_read(s, prefix, 10, &got, err))
        return NULL;
    if (got == 10 && prefix[6] != 1) {
        if (src_read(s, prefix + 10, 2, &more, err))
            return NULL;
        got += more;
    }
    if (uf__npy_parse_prefix(prefix, got, s->label, &major, &prefix_len,
                             &header_len, err))
        return NULL;
    if (s->known && s->avail < header_len) {
        uf__error_set(err, UF_ERR_FORMAT,
                      "%s: file is truncated in the header: %zu header "
                      "bytes expected, %zu present", s->label, header_len,
                      s->avail);
        return NULL;
    }
    if (s->f) {
        text = uf__malloc(header_len, 1, err);
        if (!text)
            return NULL;
        if (src_read(s, text, header_len, &got, err))
            goto fail;
        if (got < header_len) {
            uf__error_set(err, UF_ERR_FORMAT,
                          "%s: file is truncated in the header: %zu header "
                          "bytes expected, %zu present", s->label,
                          header_len, got);
            goto fail;
        }
        if (uf__npy_parse_header(text, header_len, major, s->label, &h, err))
            goto fail;
    } else {
        /* parse in place: a buffer needs no copy of its header */
        if (uf__npy_parse_header((const char *)s->buf + s->pos, header_len,
                                 major, s->label, &h, err))
            return NULL;
        s->pos += header_len;
        s->avail -= header_len;
    }

    size_t nbytes = 0; /* set by data_nbytes; gcc -O2 cannot tell */
    if (data_nbytes(&h, s->label, &nbytes, err))
        goto fail;
    if (s->known && s->avail < nbytes) {
        truncated_data(&h, s->label, nbytes, s->avail, err);
        goto fail;
    }
    a = uf_empty(h.dtype, h.ndim, h.shape,
                 h.fortran_order ? UF_ORDER_F : UF_ORDER_C, err);
    if (!a)
        goto fail;
    unsigned char *data = uf_array_data(a);
    if (src_read(s, data, nbytes, &got, err))
        goto fail;
    if (got < nbytes) {
        truncated_data(&h, s->label, nbytes, got, err);
        goto fail;
    }
    fix_data(&h, data, nbytes);
    uf__free(text);
    return a;

fail:
    uf_array_release(a);
    uf__free(text);
    return NULL;
}

uf_array *uf_npy_load_buffer(const void *buf, size_t len, uf_error *err)
{
    if (!buf && len) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_npy_load_buffer: NULL buffer of %zu bytes", len);
        return NULL;
    }
    static const unsigned char empty[1];
    source s = {.buf = buf ? buf : empty, .known = true, .avail = len,
                .label = "npy buffer"};
    return load(&s, err);
}

uf_array *uf_npy_load(const char *path, uf_error *err)
{
    if (!path) {
        uf__error_set(err, UF_ERR_INVALID, "uf_npy_load: NULL path");
        return NULL;
    }
    char label[LABEL_SIZE];
    make_label(label, path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        uf__error_set(err, UF_ERR_IO, "cannot open %s: %s", label,
                      strerror(errno));
        return NULL;
    }
    source s = {.f = f, .label = label};
    struct stat st;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            uf__error_set(err, UF_ERR_IO, "cannot read %s: %s", label,
                          strerror(EISDIR));
            fclose(f);
            return NULL;
        }
        if (S_ISREG(st.st_mode) && st.st_size >= 0) {
            s.known = true;
            s.avail = (size_t)st.st_size;
        }
    }
    uf_array *a = load(&s, err);
    fclose(f);
    return a;
}

/* ---- saving -------------------------------------------------------------- */

/* NumPy's contiguity rule: axes of length 1 do not count, an empty array is
 * contiguous. Computed here rather than trusted from the flags because the
 * bytes written depend on it. */
static bool is_contiguous(const uf_array *a, bool fortran)
{
    int nd = uf_array_ndim(a);
    const int64_t *shape = uf_array_shape(a);
    const int64_t *strides = uf_array_strides(a);
    int64_t expect = (int64_t)uf_array_itemsize(a);
    for (int k = 0; k < nd; k++)
        if (shape[k] == 0)
            return true;
    for (int k = 0; k < nd; k++) {
        int i = fortran ? k : nd - 1 - k;
        if (shape[i] == 1)
            continue;
        if (strides[i] != expect)
            return false;
        expect *= shape[i];
    }
    return true;
}

static int write_all(int fd, const void *p, size_t n, const char *label,
                     uf_error *err)
{
    const char *c = p;
    while (n) {
        size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
        ssize_t k = write(fd, c, chunk);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return uf__error_set(err, UF_ERR_IO, "cannot write %s: %s",
                                 label, strerror(errno));
        }
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static void gather(char *dst, const char *src, int64_t stride, int64_t n,
                   size_t itemsize)
{
    /* constant sizes let the compiler turn each memcpy into one move */
    switch (itemsize) {
#define GATHER(W)                                                           \
    case W:                                                                 \
        for (int64_t i = 0; i < n; i++, src += stride, dst += W)            \
            memcpy(dst, src, W);                                            \
        return;
        GATHER(1)
        GATHER(2)
        GATHER(4)
        GATHER(8)
        GATHER(16)
#undef GATHER
    default:
        for (int64_t i = 0; i < n; i++, src += stride, dst += itemsize)
            memcpy(dst, src, itemsize);
    }
}

/* Any strides, in C order, through a bounded buffer. */
static int write_strided(int fd, const uf_array *a, const char *label,
                         uf_error *err)
{
    enum { buf_bytes = 1 << 16 };
    size_t itemsize = uf_array_itemsize(a);
    uf__iter_operand op = {uf_array_data(a), uf_array_ndim(a),
                           uf_array_shape(a), uf_array_strides(a)};
    uf__iter *it = uf__iter_new(1, &op, op.ndim, op.shape, UF__ITER_C_ORDER,
                                err);
    if (!it)
        return err ? err->code : UF_ERR_NOMEM;
    int rc = 0;
    char *buf = uf__malloc(buf_bytes, 1, err);
    if (!buf) {
        rc = err ? err->code : UF_ERR_NOMEM;
        goto done;
    }
    int64_t cap = (int64_t)(buf_bytes / itemsize), used = 0;
    int64_t len = uf__iter_strip_len(it);
    int64_t stride = uf__iter_strip_strides(it)[0];
    uf__iter_cursor cur;
    char *ptr;
    uf__iter_range(it, 0, uf__iter_nstrips(it), &cur);
    while (uf__iter_next(it, &cur, &ptr)) {
        for (int64_t done = 0; done < len;) {
            int64_t n = len - done < cap - used ? len - done : cap - used;
            gather(buf + used * (int64_t)itemsize, ptr + done * stride,
                   stride, n, itemsize);
            used += n;
            done += n;
            if (used == cap) {
                if ((rc = write_all(fd, buf, (size_t)used * itemsize, label,
                                    err)))
                    goto done;
                used = 0;
            }
        }
    }
    rc = write_all(fd, buf, (size_t)used * itemsize, label, err);
done:
    uf__free(buf);
    uf__iter_free(it);
    return rc;
}

/* The temporary is created with mode 0666 so the umask applies as it
 * does for np.save (mkstemp would force 0600). Where the file system
 * allows, it has no name while it is written (O_TMPFILE): a process
 * killed then leaves nothing behind. It gets a name just before the
 * rename over the target (linkat: a window of one system call); elsewhere
 * the named file exists for the whole write. Names are hidden and short,
 * so a long target name still fits. */
typedef struct temp_file {
    int fd;
    bool anonymous; /* O_TMPFILE, not linked yet */
    char *name;     /* next to the target; NULL until it has one */
} temp_file;

/* Tries hidden names in the target's directory with `make` (which returns
 * 0, or -1 with errno set) until one is free. */
static int name_temp(const char *path, temp_file *t,
                     int (*make)(const char *name, temp_file *t),
                     const char *label, uf_error *err)
{
    static atomic_ulong serial;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t cap = dirlen + 64;
    char *tmp = uf__malloc(cap, 1, err);
    if (!tmp)
        return err ? err->code : UF_ERR_NOMEM;
    memcpy(tmp, path, dirlen);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned long n = atomic_fetch_add(&serial, 1);
        snprintf(tmp + dirlen, cap - dirlen, ".ufjit-npy-%ld-%lx-%lu.tmp",
                 (long)getpid(), (unsigned long)ts.tv_nsec, n);
        if (make(tmp, t) == 0) {
            t->name = tmp;
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    int rc = uf__error_set(err, UF_ERR_IO,
                           "cannot save %s: cannot create a file in its "
                           "directory: %s", label, strerror(errno));
    uf__free(tmp);
    return rc;
}

static int create_named(const char *name, temp_file *t)
{
    t->fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    return t->fd >= 0 ? 0 : -1;
}

static int link_anonymous(const char *name, temp_file *t)
{
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", t->fd);
    return linkat(AT_FDCWD, self, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

static int open_temp(const char *path, temp_file *t, const char *label,
                     uf_error *err)
{
    *t = (temp_file){-1, false, NULL};
#ifdef O_TMPFILE
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) + 1, path);
    /* linkat names it through /proc (AT_EMPTY_PATH needs privileges) */
    if (access("/proc/self/fd", X_OK) == 0)
        t->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (t->fd >= 0) {
        t->anonymous = true;
        return 0;
    }
    /* EOPNOTSUPP, EISDIR or EINVAL: no O_TMPFILE here; the named way
     * reports the other errors */
#endif
    return name_temp(path, t, create_named, label, err);
}

/* Gives an anonymous temporary its name, just before the rename. */
static int name_anonymous(const char *path, temp_file *t, const char *label,
                          uf_error *err)
{
    if (!t->anonymous)
        return 0;
    return name_temp(path, t, link_anonymous, label, err);
}

int uf_npy_save(const char *path, const uf_array *a, uf_error *err)
{
    if (!path || !a)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_npy_save: NULL %s", path ? "array" : "path");
    char label[LABEL_SIZE];
    make_label(label, path);
    if (uf_array_device(a).type != UF_DEVICE_HOST)
        return uf__error_set(err, UF_ERR_INVALID,
                             "cannot save %s: the array is on a CUDA device; "
                             "copy it to the host first", label);

    bool c_contig = is_contiguous(a, false);
    bool f_contig = is_contiguous(a, true);
    bool fortran = f_contig && !c_contig;
    int64_t nbytes = uf_array_nbytes(a);
    size_t hlen;
    char *header = uf__npy_format_header(uf_array_dtype(a), fortran,
                                         uf_array_ndim(a), uf_array_shape(a),
                                         &hlen, err);
    if (!header)
        return err ? err->code : UF_ERR_NOMEM;
    /* Through a symlink, as np.save writes: the link stays a link. A path
     * that does not exist yet is used as given. */
    char real[PATH_MAX];
    const char *target = realpath(path, real) ? real : path;
    temp_file tmp = {-1, false, NULL};
    int fd = -1, rc;
    struct stat st;
    bool exists = stat(target, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device, FIFO or socket is written through, as np.save and cp
         * do (-o /dev/null discards); renaming over it would destroy it.
         * Not blocking on a FIFO nobody reads: ENXIO, said plainly. A
         * directory fails here with EISDIR, as its rename did. */
        if ((fd = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
            fcntl(fd, F_SETFL, 0) != 0) {
            rc = uf__error_set(err, UF_ERR_IO, "cannot save %s: %s", label,
                               errno == ENXIO ? "a FIFO with no reader"
                                              : strerror(errno));
            goto fail_file;
        }
    } else {
        if ((rc = open_temp(target, &tmp, label, err)))
            goto fail_header;
        fd = tmp.fd;
        /* an existing file keeps its permissions, as when np.save
         * truncates it */
        if (exists)
            (void)fchmod(fd, st.st_mode & 07777);
    }
    if ((rc = write_all(fd, header, hlen, label, err)))
        goto fail_file;
    if (c_contig || f_contig)
        rc = write_all(fd, uf_array_data(a), (size_t)nbytes, label, err);
    else
        rc = write_strided(fd, a, label, err);
    if (rc || (rc = name_anonymous(target, &tmp, label, err)))
        goto fail_file;
    int closed = close(fd);
    fd = -1;
    if (closed != 0) {
        rc = uf__error_set(err, UF_ERR_IO, "cannot write %s: %s", label,
                           strerror(errno));
        goto fail_file;
    }
    if (tmp.name != NULL && rename(tmp.name, target) != 0) {
        rc = uf__error_set(err, UF_ERR_IO, "cannot save %s: %s", label,
                           strerror(errno));
        goto fail_file;
    }
    uf__free(tmp.name);
    uf__free(header);
    return 0;

fail_file:
    if (fd >= 0)
        close(fd);
    if (tmp.name != NULL)
        unlink(tmp.name);
    uf__free(tmp.name);
fail_header:
    uf__free(header);
    return rc;
}
