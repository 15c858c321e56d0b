/* libFuzzer target: the dtype parsers. The input (to its first NUL) is
 * given to uf_dtype_from_name, uf_dtype_from_typestr and
 * uf_casting_from_name; what parses must be a valid value whose own
 * name and typestring parse back to it. */
#include <ufjit/dtype.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_cstring(data, size);
    uf_error err;
    uf_dtype d;
    bool swapped;
    char buf[8];

    uf_error_clear(&err);
    if (uf_dtype_from_name(s, &d, &err) == 0) {
        FZ_CHECK(uf_dtype_valid((int)d));
        uf_dtype back;
        FZ_CHECK(uf_dtype_from_name(uf_dtype_name(d), &back, &err) == 0 &&
                 back == d);
    } else {
        fz_check_error(&err);
    }

    uf_error_clear(&err);
    if (uf_dtype_from_typestr(s, &d, &swapped, &err) == 0) {
        FZ_CHECK(uf_dtype_valid((int)d));
        uf_dtype back;
        bool bswapped = true;
        FZ_CHECK(uf_dtype_from_typestr(uf_dtype_typestr(d, buf), &back,
                                       &bswapped, &err) == 0 &&
                 back == d && !bswapped);
    } else {
        fz_check_error(&err);
    }

    uf_casting c;
    uf_error_clear(&err);
    if (uf_casting_from_name(s, &c, &err) == 0)
        FZ_CHECK(strcmp(uf_casting_name(c), s) == 0);
    else
        fz_check_error(&err);
    free(s);
    return 0;
}
