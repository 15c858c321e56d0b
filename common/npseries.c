/* polyutils.as_series's trimming (npseries.h). */
#include "common/npseries.h"

int64_t uf__np_series_trim(const char *data, int64_t n, int32_t cplx)
{
    const double *d = (const double *)(const void *)data;
    int64_t w = cplx ? 2 : 1, i = n - 1;
    for (; i > 0; i--)
        if (d[i * w] != 0.0 || (cplx && d[i * w + 1] != 0.0))
            break;
    return n > 0 ? i + 1 : 0;
}
