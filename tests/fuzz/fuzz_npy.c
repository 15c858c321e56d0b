/* libFuzzer target: the .npy reader, and the writer on what it read.
 * Each input is a whole file, read from memory (uf_npy_load_buffer) and
 * through a file (uf_npy_load on a memfd's /proc path, the stdio path);
 * both must agree. A loaded array's header is written again
 * (uf__npy_format_header) and must parse back to the same dtype, order
 * and shape; the array and strided views of it (transposed, reversed,
 * every other element) are saved (uf_npy_save, in a scratch directory of
 * this process) and must load back equal. */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ufjit/array.h>
#include <ufjit/npy.h>

#include "common/alloc.h"
#include "fuzz_util.h"
#include "ndarray/npy_internal.h"

static int memfd = -1;
static char memfd_path[64];
static char dir[64], out_path[96];

static void remove_dir(void)
{
    unlink(out_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    memfd = memfd_create("fuzz_npy", MFD_CLOEXEC);
    if (memfd < 0)
        abort();
    snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    struct stat st;
    snprintf(dir, sizeof dir, "%s/ufjit-fuzz-npy-XXXXXX",
             stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm"
                                                              : "/tmp");
    if (mkdtemp(dir) == NULL)
        abort();
    snprintf(out_path, sizeof out_path, "%s/out.npy", dir);
    atexit(remove_dir);
    return 0;
}

/* v saved and loaded again is v: same dtype, shape and elements. */
static void check_save_round_trip(const uf_array *v)
{
    uf_error err;
    uf_error_clear(&err);
    if (uf_array_nbytes(v) > (1 << 16))
        return; /* the writer's loops are the same for big arrays */
    FZ_CHECK(uf_npy_save(out_path, v, &err) == 0);
    uf_array *back = uf_npy_load(out_path, &err);
    FZ_CHECK(back != NULL);
    FZ_CHECK(uf_array_dtype(back) == uf_array_dtype(v) &&
             uf_array_ndim(back) == uf_array_ndim(v));
    for (int i = 0; i < uf_array_ndim(v); i++)
        FZ_CHECK(uf_array_shape(back)[i] == uf_array_shape(v)[i]);
    uf_array *c1 = uf_array_copy(v, UF_ORDER_C, &err);
    uf_array *c2 = uf_array_copy(back, UF_ORDER_C, &err);
    FZ_CHECK(c1 != NULL && c2 != NULL);
    FZ_CHECK(memcmp(uf_array_data(c1), uf_array_data(c2),
                    (size_t)uf_array_nbytes(c1)) == 0);
    uf_array_release(c1);
    uf_array_release(c2);
    uf_array_release(back);
}

static void check_saves(uf_array *a)
{
    uf_error err;
    check_save_round_trip(a);
    static const char *const slices[] = {"::-1", "..., ::2"};
    for (int i = 0; i < 2 && uf_array_ndim(a) > 0; i++) {
        uf_array *v = uf_array_slice(a, slices[i], &err);
        FZ_CHECK(v != NULL);
        check_save_round_trip(v);
        uf_array_release(v);
    }
    uf_array *t = uf_array_transpose(a, NULL, &err);
    FZ_CHECK(t != NULL);
    check_save_round_trip(t);
    uf_array_release(t);
}

/* The header np.save would write for `a` parses back to what `a` is. */
static void check_header_round_trip(const uf_array *a)
{
    uf_error err;
    uf_error_clear(&err);
    bool fortran = (uf_array_flags(a) & UF_ARRAY_F_CONTIGUOUS) &&
                   !(uf_array_flags(a) & UF_ARRAY_C_CONTIGUOUS);
    size_t len = 0;
    char *hdr = uf__npy_format_header(uf_array_dtype(a), fortran,
                                      uf_array_ndim(a), uf_array_shape(a),
                                      &len, &err);
    FZ_CHECK(hdr != NULL);
    int major;
    size_t prefix_len, header_len;
    FZ_CHECK(uf__npy_parse_prefix((const unsigned char *)hdr, len, "fuzz",
                                  &major, &prefix_len, &header_len,
                                  &err) == 0);
    FZ_CHECK(prefix_len + header_len == len);
    uf__npy_header h;
    FZ_CHECK(uf__npy_parse_header(hdr + prefix_len, header_len, major,
                                  "fuzz", &h, &err) == 0);
    FZ_CHECK(h.dtype == uf_array_dtype(a) && !h.swapped &&
             h.ndim == uf_array_ndim(a));
    for (int i = 0; i < h.ndim; i++)
        FZ_CHECK(h.shape[i] == uf_array_shape(a)[i]);
    uf__free(hdr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uf_error err, ferr;
    uf_error_clear(&err);
    uf_error_clear(&ferr);
    uf_array *a = uf_npy_load_buffer(data, size, &err);
    if (a == NULL)
        fz_check_error(&err);

    /* the same bytes as a file */
    if (ftruncate(memfd, 0) != 0 ||
        (size > 0 && pwrite(memfd, data, size, 0) != (ssize_t)size))
        abort();
    uf_array *b = uf_npy_load(memfd_path, &ferr);
    if (b == NULL)
        fz_check_error(&ferr);
    FZ_CHECK((a == NULL) == (b == NULL));
    FZ_CHECK(a != NULL || err.code == ferr.code);

    if (a != NULL) {
        FZ_CHECK(uf_array_dtype(a) == uf_array_dtype(b) &&
                 uf_array_ndim(a) == uf_array_ndim(b));
        FZ_CHECK(uf_array_nbytes(a) == uf_array_nbytes(b) &&
                 memcmp(uf_array_data(a), uf_array_data(b),
                        (size_t)uf_array_nbytes(a)) == 0);
        check_header_round_trip(a);
        check_saves(a);
    }
    uf_array_release(a);
    uf_array_release(b);
    return 0;
}
