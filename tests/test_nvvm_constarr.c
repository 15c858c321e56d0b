/* Module-level arrays in PTX (compiler/lower/lower_garray.c on the NVVM
 * target): every kernel of tests/kernels/cuda/constarr.py compiled through
 * libnvvm and the NVPTX fallback holds its tables as `.const` arrays
 * (CUDA's constant memory, as numba-cuda's make_constant_array) with the
 * arrays' bytes, and ptxas accepts it for sm_80 and sm_90 (parts needing
 * the toolkit skip with the reason printed). The whole-directory check is
 * test_nvvm_cukernel.c's. */
#include "nvvm_util.h"

#include "common/error_internal.h"

static void test_const_arrays(void **state)
{
    (void)state;
    bool libnvvm = nvvm_have_libnvvm(), ptxas = nvvm_have_ptxas();
    if (!libnvvm)
        printf("SKIP part: no libnvvm here, the NVPTX fallback only\n");
    if (!ptxas)
        printf("SKIP part: no ptxas here\n");
    nvvm_file f;
    if (!nvvm_file_load(&f, UF_TEST_KERNELS_DIR "/cuda/constarr.py"))
        fail_msg("%s", "constarr.py does not load");
    int n = 0;
    for (int i = 0; i < f.km->nkernels; i++) {
        const uf__kernel_decl *d = &f.km->kernels[i];
        if (d->kind != UF__K_CUDA_KERNEL)
            continue;
        uf_error err;
        uf__signature s;
        uf_assert_ok(uf__parse_signature(f.km->tc, f.km->arena,
                                         d->signatures[0], &s, &err) == 0,
                     &err);
        const uf__typed_func *tf =
            uf__infer(f.km, d, s.args, s.nargs, NULL, &err);
        uf_assert_ok(tf != NULL, &err);
        uf__nvvm_spec spec = {.tf = tf, .kernel = true};
        for (int b = libnvvm ? 0 : 1; b < 2; b++) {
            uf__nvvm_options o = {.backend = b == 0 ? UF__NVVM_LIBNVVM
                                                    : UF__NVVM_NVPTX};
            uf__nvvm_ptx ptx;
            uf_assert_ok(uf__nvvm_ufuncs_ptx(&spec, 1, &o, &ptx, &err) == 0,
                         &err);
            /* smooth: TAPS, 5 float32 (20 bytes); lookup: TABLE and
             * PRIMES; plain_global: PRIMES */
            const char *c = strstr(ptx.ptx, ".const .align");
            if (c == NULL)
                fail_msg("%s (%s): no .const array in\n%s", d->name,
                         b ? "nvptx" : "libnvvm", ptx.ptx);
            if (strcmp(d->name, "smooth") == 0)
                assert_non_null(strstr(ptx.ptx, "[20] = {0, 0, 128, 61, "
                                                "0, 0, 128, 62, 0, 0, 192, "
                                                "62, 0, 0, 128, 62, 0, 0, "
                                                "128, 61}"));
            if (strcmp(d->name, "lookup") == 0)
                assert_non_null(strstr(c + 1, ".const .align"));
            if (ptxas)
                for (int k = 0; k < 2; k++) {
                    char *log = NULL;
                    const char *sm = k ? "sm_90" : "sm_80";
                    if (uf__nvvm_ptxas(ptx.ptx, sm, &log, &err) != 0)
                        fail_msg("ptxas -arch=%s refuses %s: %s", sm,
                                 d->name, err.message);
                    uf__free(log);
                }
            uf__nvvm_ptx_free(&ptx);
            n++;
        }
    }
    assert_true(n >= 3);
    nvvm_file_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_const_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
