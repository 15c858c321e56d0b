/* cuda.jit kernels as PTX (compiler/nvvm/nvvm_cukernel.c): every kernel
 * of every tests/kernels/cuda file, for its declared signatures or, for a lazy
 * one, the argument types listed here, compiled through libnvvm and
 * through the NVPTX fallback; ptxas accepts each for sm_80 and sm_90
 * (parts needing the toolkit skip with the reason printed). */
#include <dirent.h>

#include "nvvm_util.h"

#include "common/error_internal.h"

#define CUDA_KERNELS UF_TEST_KERNELS_DIR "/cuda"

/* Argument types for the lazy kernels (a void signature in Numba's
 * syntax), by file and kernel; a kernel listed more than once compiles
 * for each. */
static const struct {
    const char *file, *kernel, *sig;
} lazy[] = {
    {"basics.py", "hypot_kernel", "void(float32[:], float32[:], float32[:])"},
    {"basics.py", "coordinates", "void(int64[:, :, :])"},
    {"basics.py", "sizes", "void(int32[::1])"},
    {"basics.py", "off_by_one", "void(float64[:])"},
    {"shared.py", "tile_transpose", "void(int32[:, ::1], int32[:, ::1])"},
    {"shared.py", "fast_matmul",
     "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"},
    {"shared.py", "reverse_blocks", "void(float64[::1])"},
    {"shared.py", "dynamic_size", "void(int64[::1])"},
    {"shared.py", "local_sort3", "void(float64[:, ::1], float64[:, ::1])"},
    {"shared.py", "shift_synced", "void(float64[::1], float64[::1])"},
    {"shared.py", "shift_racy", "void(float64[::1], float64[::1])"},
    {"shared.py", "shared_overrun", "void(float64[::1])"},
    {"atomics.py", "count_bad", "void(int32[::1])"},
    {"atomics.py", "count_atomic", "void(int32[::1])"},
    {"atomics.py", "histogram",
     "void(float32[::1], float32, float32, int32[::1])"},
    {"atomics.py", "tickets", "void(int32[::1], int32[::1])"},
    {"atomics.py", "tickets", "void(uint64[::1], uint64[::1])"},
    {"atomics.py", "tickets", "void(float32[::1], float32[::1])"},
    {"atomics.py", "tickets", "void(float64[::1], float64[::1])"},
    {"atomics.py", "add_sub_2d", "void(int64[:, ::1], float32[:, :])"},
    {"atomics.py", "shared_count", "void(int32[::1], float64[::1])"},
    {"atomics.py", "bitwise", "void(uint32[::1])"},
    {"atomics.py", "bitwise", "void(int64[::1])"},
    {"atomics.py", "first_wins",
     "void(int64[::1], int64[::1], int32[::1], int32[::1], uint64[::1], "
     "uint64[::1])"},
    {"atomics.py", "inc_dec", "void(uint32[::1], uint32[::1], uint32[:, ::1])"},
    {"atomics.py", "inc_dec", "void(uint64[::1], uint64[::1], uint64[:, ::1])"},
    {"atomics.py", "minmax", "void(int32[::1], int32[::1], int32[:, ::1])"},
    {"atomics.py", "minmax", "void(uint64[::1], uint64[::1], uint64[:, ::1])"},
    {"atomics.py", "minmax",
     "void(float32[::1], float32[::1], float32[:, ::1])"},
    {"atomics.py", "minmax",
     "void(float64[::1], float64[::1], float64[:, ::1])"},
    {"atomics.py", "sync_votes", "void(int32[::1], int32[:, ::1])"},
    {"atomics.py", "fenced", "void(int64[::1], int32[::1])"},
    {"random.py", "compute_pi", "void(uint64[:, ::1], int64, float64[::1])"},
    {"random.py", "draws",
     "void(uint64[:, ::1], float32[:, ::1], float64[:, ::1], "
     "float32[:, ::1], float64[:, ::1])"},
    {"random.py", "raw_draws", "void(uint64[:, ::1], uint64[:, ::1])"},
    {"random.py", "seed_on_device", "void(uint64[:, ::1], uint64, int64)"},
    {"warp.py", "warp_sum", "void(int64[::1], int64[::1])"},
    {"warp.py", "shuffles",
     "void(int32[::1], int64[::1], float32[::1], float64[::1], "
     "int32[:, ::1], int64[:, ::1], float32[:, ::1], float64[:, ::1])"},
    {"warp.py", "votes", "void(int32[::1], int64[:, ::1])"},
    {"warp.py", "early_exit", "void(int64[:, ::1])"},
    {"warp.py", "float_ballot", "void(float32[::1], int32[::1])"},
};

/* The next table entry for the kernel from entry *at on, or NULL. */
static const char *lazy_sig(const char *file, const char *kernel, size_t *at)
{
    for (; *at < sizeof lazy / sizeof lazy[0]; ++*at)
        if (strcmp(lazy[*at].file, file) == 0 &&
            strcmp(lazy[*at].kernel, kernel) == 0)
            return lazy[(*at)++].sig;
    return NULL;
}

static void check_ptxas(const char *what, const char *ptx)
{
    static const char *const sms[] = {"sm_80", "sm_90"};
    for (int i = 0; i < 2; i++) {
        uf_error err;
        char *log = NULL;
        if (uf__nvvm_ptxas(ptx, sms[i], &log, &err) != 0)
            fail_msg("ptxas -arch=%s refuses %s: %s", sms[i], what,
                     err.message);
        uf__free(log);
    }
}

/* One kernel typed for `sig`, compiled by each backend there is. */
static int compile_one(uf__kmodule *km, const uf__kernel_decl *d,
                       const char *sig, bool libnvvm, bool ptxas)
{
    uf_error err;
    uf__signature s;
    uf_assert_ok(uf__parse_signature(km->tc, km->arena, sig, &s, &err) == 0,
                 &err);
    const uf__typed_func *tf =
        uf__infer(km, d, s.args, s.nargs, NULL, &err);
    uf_assert_ok(tf != NULL, &err);
    uf__nvvm_spec spec = {.tf = tf, .kernel = true};
    for (int b = libnvvm ? 0 : 1; b < 2; b++) {
        uf__nvvm_options o = {.backend = b == 0 ? UF__NVVM_LIBNVVM
                                                : UF__NVVM_NVPTX};
        uf__nvvm_ptx ptx;
        uf_assert_ok(uf__nvvm_ufuncs_ptx(&spec, 1, &o, &ptx, &err) == 0, &err);
        assert_non_null(strstr(ptx.ptx, ".entry"));
        assert_non_null(strstr(ptx.ptx, ptx.kernels[0].name));
        char what[160];
        snprintf(what, sizeof what, "%s(%s) %s", d->name, sig,
                 b == 0 ? "libnvvm" : "nvptx");
        if (ptxas)
            check_ptxas(what, ptx.ptx);
        uf__nvvm_ptx_free(&ptx);
    }
    return 1;
}

static void test_kernel_files(void **state)
{
    (void)state;
    bool libnvvm = nvvm_have_libnvvm(), ptxas = nvvm_have_ptxas();
    DIR *dir = opendir(CUDA_KERNELS);
    assert_non_null(dir);
    int nfiles = 0, nkernels = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".py") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CUDA_KERNELS, e->d_name);
        nvvm_file f;
        if (!nvvm_file_load(&f, path))
            fail_msg("%s does not load", path);
        nfiles++;
        for (int i = 0; i < f.km->nkernels; i++) {
            const uf__kernel_decl *d = &f.km->kernels[i];
            if (d->kind != UF__K_CUDA_KERNEL)
                continue;
            size_t at = 0;
            const char *sig = lazy_sig(e->d_name, d->name, &at);
            if (d->nsignatures == 0 && sig == NULL)
                fail_msg("%s: kernel %s is lazy and has no types in this "
                         "test's table", e->d_name, d->name);
            for (; d->nsignatures == 0 && sig;
                 sig = lazy_sig(e->d_name, d->name, &at))
                nkernels += compile_one(f.km, d, sig, libnvvm, ptxas);
            for (int s = 0; s < d->nsignatures; s++)
                nkernels += compile_one(f.km, d, d->signatures[s], libnvvm,
                                        ptxas);
        }
        nvvm_file_free(&f);
    }
    closedir(dir);
    printf("%d cuda.jit kernels of %d files compiled to PTX (%s)\n",
           nkernels, nfiles, libnvvm ? "libnvvm and nvptx" : "nvptx");
    assert_true(nkernels >= 18);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
