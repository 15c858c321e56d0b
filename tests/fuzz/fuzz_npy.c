/* libFuzzer target: the .npy reader. Each input is a whole file, read
 * from memory (uf_npy_load_buffer) and through a file (uf_npy_load on a
 * memfd's /proc path, the stdio path); both must agree. A loaded array's
 * header is written again (uf__npy_format_header) and must parse back to
 * the same dtype, order and shape. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ufjit/array.h>
#include <ufjit/npy.h>

#include "common/alloc.h"
#include "fuzz_util.h"
#include "ndarray/npy_internal.h"

static int memfd = -1;
static char memfd_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    memfd = memfd_create("fuzz_npy", MFD_CLOEXEC);
    if (memfd < 0)
        abort();
    snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    return 0;
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
    }
    uf_array_release(a);
    uf_array_release(b);
    return 0;
}
