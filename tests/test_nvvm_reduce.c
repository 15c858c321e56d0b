/* The CUDA reduction kernel (compiler/nvvm/nvvm_reduce.c) as PTX: every
 * kernel of tests/kernels/cuda/reduce.py (@cuda.reduce and vectorize) for
 * int32, int64, float32 and float64 where it types, through libnvvm and
 * the NVPTX fallback; ptxas accepts each for sm_80 and sm_90 (parts
 * needing the toolkit skip with the reason printed). The PTX has the
 * block's shared array and its barriers. */
#include "nvvm_util.h"

#include "common/error_internal.h"
#include "compiler/types/infer.h"

#define FILE_PATH UF_TEST_KERNELS_DIR "/cuda/reduce.py"

static int registers(const char *log)
{
    const char *p = log ? strstr(log, "Used ") : NULL;
    return p ? atoi(p + 5) : -1;
}

static void compile_one(uf__kmodule *km, const uf__kernel_decl *d,
                        uf_dtype t, bool libnvvm, bool ptxas)
{
    uf_error err;
    const uf__type *tt = uf__type_scalar(km->tc, t);
    const uf__type *args[2] = {tt, tt};
    bool vec = d->kind == UF__K_VECTORIZE;
    const uf__typed_func *tf = uf__infer(km, d, args, 2, vec ? tt : NULL,
                                         &err);
    uf_assert_ok(tf != NULL, &err);
    /* the general kernel, then the TREE kernel for contiguous rows,
     * which may take no more registers */
    int regs[2][2] = {{-1, -1}, {-1, -1}};
    for (int contig = 0; contig < 2; contig++) {
    uf__nvvm_spec spec = {.tf = tf, .reduce = true};
    spec.v.layout = contig ? UF__NVVM_CONTIG : UF__NVVM_STRIDED;
    for (int b = libnvvm ? 0 : 1; b < 2; b++) {
        uf__nvvm_options o = {.backend = b == 0 ? UF__NVVM_LIBNVVM
                                                : UF__NVVM_NVPTX};
        uf__nvvm_ptx ptx;
        uf_assert_ok(uf__nvvm_ufuncs_ptx(&spec, 1, &o, &ptx, &err) == 0, &err);
        assert_non_null(strstr(ptx.ptx, ".entry"));
        assert_non_null(strstr(ptx.ptx, ".shared"));
        assert_non_null(strstr(ptx.ptx, "bar.sync"));
        assert_int_equal(ptx.kernels[0].nparams, 12);
        static const char *const sms[] = {"sm_80", "sm_90"};
        for (int i = 0; i < 2 && ptxas; i++) {
            char *log = NULL;
            if (uf__nvvm_ptxas(ptx.ptx, sms[i], &log, &err) != 0)
                fail_msg("ptxas -arch=%s refuses %s(%s) %s: %s", sms[i],
                         d->name, uf_dtype_name(t),
                         b == 0 ? "libnvvm" : "nvptx", err.message);
            if (i == 0) {
                regs[contig][b] = registers(log);
                printf("%-12s %-8s %-7s %-10s %d registers (sm_80)\n",
                       d->name, uf_dtype_name(t),
                       b == 0 ? "libnvvm" : "nvptx",
                       contig ? "contiguous" : "general", regs[contig][b]);
            }
            uf__free(log);
        }
        uf__nvvm_ptx_free(&ptx);
    }
    }
    for (int b = 0; b < 2; b++)
        if (regs[0][b] > 0 && regs[1][b] > 0)
            assert_true(regs[1][b] <= regs[0][b]);
}

static void test_reduce_kernels(void **state)
{
    (void)state;
    bool libnvvm = nvvm_have_libnvvm(), ptxas = nvvm_have_ptxas();
    nvvm_file f;
    if (!nvvm_file_load(&f, FILE_PATH))
        fail_msg("%s does not load", FILE_PATH);
    static const uf_dtype types[] = {UF_INT32, UF_INT64, UF_FLOAT32,
                                     UF_FLOAT64};
    int n = 0;
    for (int i = 0; i < f.km->nkernels; i++) {
        const uf__kernel_decl *d = &f.km->kernels[i];
        bool bitwise = strstr(d->name, "and_") || strstr(d->name, "or_");
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
            if (bitwise && uf_dtype_kind(types[k]) == 'f')
                continue;
            if (d->kind == UF__K_VECTORIZE && types[k] != UF_INT64 &&
                types[k] != UF_FLOAT64 && strcmp(d->name, "vadd") != 0)
                continue;
            compile_one(f.km, d, types[k], libnvvm, ptxas);
            n++;
        }
    }
    nvvm_file_free(&f);
    printf("%d reduction kernels compiled to PTX (%s)\n", n,
           libnvvm ? "libnvvm and nvptx" : "nvptx");
    assert_true(n >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
