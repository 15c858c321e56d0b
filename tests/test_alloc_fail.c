/* Out-of-memory paths: each operation is run with allocation N failing for
 * N = 1, 2, ... until it succeeds without a failure. Every failing run must
 * report UF_ERR_NOMEM and leave no allocation behind. */
#include <unistd.h>

#include "test_util.h"

#include "common/alloc.h"

/* An operation under test: returns 0 on success, <0 with err set. It must
 * release whatever it made. */
typedef int (*op_fn)(uf_array *in, uf_error *err);

static int finish(uf_array *out, uf_error *err)
{
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

static int op_zeros(uf_array *in, uf_error *err)
{
    (void)in;
    return finish(uf_zeros(UF_FLOAT64, 3, (int64_t[]){2, 3, 4}, UF_ORDER_F,
                           err), err);
}

static int op_full(uf_array *in, uf_error *err)
{
    (void)in;
    double v = 2.5;
    return finish(uf_full(UF_COMPLEX64, 2, (int64_t[]){3, 3}, &v, UF_FLOAT64,
                          UF_ORDER_C, err), err);
}

static int op_arange(uf_array *in, uf_error *err)
{
    (void)in;
    return finish(uf_arange(0, 10, 0.5, UF_FLOAT32, err), err);
}

static int op_linspace(uf_array *in, uf_error *err)
{
    (void)in;
    return finish(uf_linspace(0, 1, 11, true, UF_INT16, err), err);
}

static int op_copy_k(uf_array *in, uf_error *err)
{
    return finish(uf_array_copy(in, UF_ORDER_K, err), err);
}

static int op_astype(uf_array *in, uf_error *err)
{
    return finish(uf_array_astype(in, UF_INT8, UF_CASTING_UNSAFE, UF_ORDER_F,
                                  err), err);
}

static int op_slice(uf_array *in, uf_error *err)
{
    return finish(uf_array_slice(in, "::-2, None, 1:", err), err);
}

static int op_reshape_copy(uf_array *in, uf_error *err)
{
    /* `in` is transposed, so a C-order reshape needs a copy */
    return finish(uf_array_reshape(in, 1, (int64_t[]){-1}, UF_ORDER_C, true,
                                   err), err);
}

static int op_transpose(uf_array *in, uf_error *err)
{
    return finish(uf_array_transpose(in, NULL, err), err);
}

static int op_broadcast(uf_array *in, uf_error *err)
{
    const int64_t *s = uf_array_shape(in);
    return finish(uf_array_broadcast_to(in, 3, (int64_t[]){2, s[0], s[1]},
                                        err), err);
}

static int op_ravel(uf_array *in, uf_error *err)
{
    return finish(uf_array_ravel(in, UF_ORDER_C, err), err);
}

static int op_squeeze_expand(uf_array *in, uf_error *err)
{
    uf_array *e = uf_array_expand_dims(in, 1, err);
    if (e == NULL)
        return err->code;
    uf_array *s = uf_array_squeeze(e, NULL, 0, err);
    uf_array_release(e);
    return finish(s, err);
}

static int op_repr(uf_array *in, uf_error *err)
{
    char *s = uf_array_repr(in, err);
    if (s == NULL)
        return err->code;
    uf_free(s);
    return 0;
}

static int op_npy_roundtrip(uf_array *in, uf_error *err)
{
    char path[] = UF_TEST_BINARY_DIR "/alloc_fail_XXXXXX.npy";
    int fd = mkstemps(path, 4);
    if (fd < 0)
        return uf__alloc_failed() ? UF_ERR_NOMEM : UF_ERR_IO;
    close(fd);
    int rc = uf_npy_save(path, in, err);
    if (rc == 0) {
        uf_array *back = uf_npy_load(path, err);
        rc = back ? 0 : err->code;
        uf_array_release(back);
    }
    unlink(path);
    return rc;
}

static const struct {
    const char *name;
    op_fn op;
} ops[] = {
    {"zeros", op_zeros},
    {"full", op_full},
    {"arange", op_arange},
    {"linspace", op_linspace},
    {"copy K", op_copy_k},
    {"astype", op_astype},
    {"slice", op_slice},
    {"reshape copy", op_reshape_copy},
    {"transpose", op_transpose},
    {"broadcast_to", op_broadcast},
    {"ravel", op_ravel},
    {"squeeze/expand_dims", op_squeeze_expand},
    {"repr", op_repr},
    {"npy save+load", op_npy_roundtrip},
};

static void test_every_allocation_can_fail(void **state)
{
    (void)state;
    uf_error err;
    /* a transposed, non-contiguous input makes copies do real work */
    uf_array *base = uf_arange(0, 20, 1, UF_FLOAT64, &err);
    uf_array *m = uf_array_reshape(base, 2, (int64_t[]){4, 5}, UF_ORDER_C,
                                   false, &err);
    uf_array *in = uf_array_transpose(m, NULL, &err);
    assert_non_null(in);
    uf_array_release(base);
    uf_array_release(m);

    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        long live0 = uf__alloc_live();
        int failures = 0;
        for (long n = 1;; n++) {
            uf_error_clear(&err);
            uf__alloc_fail_at(n);
            int rc = ops[k].op(in, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (uf__alloc_live() != live0)
                fail_msg("%s: allocation %ld failing leaked %ld blocks",
                         ops[k].name, n, uf__alloc_live() - live0);
            if (!failed) {
                if (rc != 0)
                    fail_msg("%s failed without an allocation failure: %s",
                             ops[k].name, err.message);
                break;
            }
            if (rc != UF_ERR_NOMEM)
                fail_msg("%s: allocation %ld failing gave rc %d (%s): %s",
                         ops[k].name, n, rc, uf_err_name(rc), err.message);
            failures++;
        }
        if (failures == 0)
            fail_msg("%s made no allocation", ops[k].name);
    }
    uf_array_release(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
