/* CUDA kernels' PTX in the disk cache (ufunc/cuda_ptx_cache.c), through
 * the real driver table loaded from the fake libcuda the suite builds
 * (tests/cuda/fake_libcuda.c: it loads PTX and counts launches, it does
 * not run them): a second context finds the PTX on disk and compiles
 * nothing; a damaged file, another architecture or another signature
 * compiles again; kernels with a status word are never kept; guvectorize
 * kernels are keyed the same way (their signature, layout and variant). */
#include <dirent.h>
#include <dlfcn.h>
#include <unistd.h>

#include "test_util.h"

#include "compiler/nvvm/nvvm.h"

static char dir[64];

static const char src[] =
    "from numba import vectorize\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],"
    " target='cuda')\n"
    "def axpy(x, y):\n"
    "    return 2.0 * x + y\n"
    "@vectorize(['float64(float64)'], target='cuda')\n"
    "def checked(x):\n"
    "    assert x < 1e300\n"
    "    return x\n"
    "from numba import guvectorize\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])',"
    " 'void(float32[:], float32[:], float32[:])'], '(n),(n)->(n)',"
    " target='cuda')\n"
    "def gadd(x, y, out):\n"
    "    for i in range(x.shape[0]):\n"
    "        out[i] = x[i] + y[i]\n";

static long launches(void)
{
    void *lib = dlopen(UF_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL)
        return 0; /* not loaded yet: nothing launched */
    long (*fn)(void) = (long (*)(void))dlsym(lib, "fake_cuda_launches");
    assert_non_null(fn);
    long n = fn();
    dlclose(lib);
    return n;
}

/* Calls kernel `name` of a fresh context on n float64 (or float32)
 * elements: every call starts with no compiled kernel in memory. */
static void call_fresh(const char *name, uf_dtype dt)
{
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, name, &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *x = uf_arange(0, 1000, 1, dt, &err);
    uf_array *in[2] = {x, x}, *out = NULL;
    int nin = strcmp(name, "checked") == 0 ? 1 : 2;
    long before = launches();
    uf_assert_ok(uf_call(f, in, nin, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(launches(), before + 1);
    uf_array_release(out);
    uf_array_release(x);
    uf_module_free(m);
    uf_context_free(ctx);
}

static int count_files(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".ufo") != NULL;
    closedir(d);
    return n;
}

/* Truncates every cache file to half its size. */
static void damage_files(void)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!strstr(e->d_name, ".ufo"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *fp = fopen(path, "r+");
        assert_non_null(fp);
        fseek(fp, 0, SEEK_END);
        long len = ftell(fp);
        fclose(fp);
        assert_int_equal(truncate(path, len / 2), 0);
    }
    closedir(d);
}

static void ptx_hits_and_misses(void **state)
{
    (void)state;
    uint64_t n0 = uf__nvvm_ncompiles();
    call_fresh("axpy", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 1);
    int files = count_files();
    assert_true(files >= 1);

    /* another context: the PTX comes from disk */
    call_fresh("axpy", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 1);

    /* another signature: its own file */
    call_fresh("axpy", UF_FLOAT32);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 2);
    assert_int_equal(count_files(), files + 1);

    /* another architecture: another key */
    setenv("UFJIT_CUDA_ARCH", "compute_75", 1);
    call_fresh("axpy", UF_FLOAT64);
    unsetenv("UFJIT_CUDA_ARCH");
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 3);

    /* a damaged file is a miss, compiled and written again */
    damage_files();
    call_fresh("axpy", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 4);
    call_fresh("axpy", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 4);
}

/* A guvectorize kernel: compiled by the first context, found on disk by
 * the second; its other signature (the same layout, float32) is another
 * key. */
static void gufunc_ptx_hits_and_misses(void **state)
{
    (void)state;
    uint64_t n0 = uf__nvvm_ncompiles();
    int files = count_files();
    call_fresh("gadd", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 1);
    assert_int_equal(count_files(), files + 1);

    call_fresh("gadd", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 1);
    assert_int_equal(count_files(), files + 1);

    call_fresh("gadd", UF_FLOAT32);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 2);
    assert_int_equal(count_files(), files + 2);
    call_fresh("gadd", UF_FLOAT32);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 2);
}

/* A kernel with a status word (an assert) compiles every time. */
static void status_kernels_not_kept(void **state)
{
    (void)state;
    uint64_t n0 = uf__nvvm_ncompiles();
    call_fresh("checked", UF_FLOAT64);
    call_fresh("checked", UF_FLOAT64);
    assert_int_equal(uf__nvvm_ncompiles(), n0 + 2);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/uf_ptx_cache_XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    setenv("UFJIT_CACHE_DIR", dir, 1);
    setenv("UFJIT_CUDA_DRIVER", UF_FAKE_CUDA, 1);
    unsetenv("UFJIT_ENABLE_CUDASIM");
    unsetenv("UFJIT_FAKE_CUDA");
    unsetenv("UFJIT_CUDA_ARCH");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ptx_hits_and_misses),
        cmocka_unit_test(status_kernels_not_kept),
        cmocka_unit_test(gufunc_ptx_hits_and_misses),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
