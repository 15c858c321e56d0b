/* libFuzzer target: the slice/index parser (uf_index_parse) and the view
 * it selects. The input (to its first NUL) indexes a 0-d, a 1-d, an empty
 * and a 3-d array (uf_array_slice); every element of each view must lie
 * inside its base's data. */
#include <ufjit/array.h>

#include "fuzz_util.h"

#define MAXIDX 80

static uf_array *bases[4];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const int64_t s1[] = {7}, s0[] = {3, 0}, s3[] = {2, 3, 4};
    uf_error err;
    bases[0] = uf_zeros(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    bases[1] = uf_zeros(UF_INT8, 1, s1, UF_ORDER_C, &err);
    bases[2] = uf_zeros(UF_INT32, 2, s0, UF_ORDER_C, &err);
    bases[3] = uf_zeros(UF_COMPLEX128, 3, s3, UF_ORDER_F, &err);
    for (int i = 0; i < 4; i++)
        if (bases[i] == NULL)
            abort();
    return 0;
}

/* Every element of view `v` lies in [lo, hi). */
static void check_inside(const uf_array *v, const char *lo, const char *hi)
{
    int nd = uf_array_ndim(v);
    const int64_t *shape = uf_array_shape(v), *strides = uf_array_strides(v);
    if (uf_array_size(v) == 0)
        return;
    /* the extreme elements bound all others */
    const char *first = uf_array_data(v), *min = first, *max = first;
    for (int k = 0; k < nd; k++) {
        int64_t span = (shape[k] - 1) * strides[k];
        if (span < 0)
            min += span;
        else
            max += span;
    }
    FZ_CHECK(min >= lo && max + uf_array_itemsize(v) <= hi);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_cstring(data, size);
    uf_index ix[MAXIDX];
    int n = -1;
    uf_error err;

    uf_error_clear(&err);
    if (uf_index_parse(s, ix, MAXIDX, &n, &err) == 0)
        FZ_CHECK(n >= 0 && n <= MAXIDX);
    else
        fz_check_error(&err);

    for (int i = 0; i < 4; i++) {
        uf_error_clear(&err);
        uf_array *v = uf_array_slice(bases[i], s, &err);
        if (v == NULL) {
            fz_check_error(&err);
            continue;
        }
        const char *lo = uf_array_data(bases[i]);
        check_inside(v, lo, lo + uf_array_nbytes(bases[i]));
        uf_array_release(v);
    }
    free(s);
    return 0;
}
