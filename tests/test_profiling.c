/* UFJIT_ENABLE_PROFILING=1 (compiler/host/jit.c): the JIT announces what it
 * links to LLVM's perf listener, which writes $JITDUMPDIR/.debug/jit/
 * llvm-IR-jit-DATE-ID/jit-PID.dump naming the compiled functions (what
 * `perf inject --jit` reads); results are unchanged. Without the variable
 * nothing is written. */
#include <dirent.h>
#include <ftw.h>
#include <unistd.h>

#include "test_util.h"

static const char kernel_src[] =
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def addk(a, b):\n"
    "    return a * 2.0 + b\n";

/* A new directory holding the kernel file; its path in dir. */
static void make_dir(char *dir, size_t size, char *kernel, size_t ksize)
{
    snprintf(dir, size, "/tmp/uf_profiling_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(kernel, ksize, "%s/k.py", dir);
    FILE *f = fopen(kernel, "w");
    assert_non_null(f);
    fputs(kernel_src, f);
    fclose(f);
}

/* Compiles and calls addk in a new context; checks the values. */
static void call_kernel(const char *kernel)
{
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_load(ctx, kernel, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "addk", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *in[2] = {uf_arange(0, 100, 1, UF_FLOAT64, &err),
                       uf_arange(1, 101, 1, UF_FLOAT64, &err)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
    const double *o = uf_array_data(out);
    for (int i = 0; i < 100; i++)
        assert_true(o[i] == 2.0 * i + (i + 1));
    uf_array_release(out);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* The bytes of DIR/.debug/jit/<the one subdirectory>/jit-PID.dump, or
 * NULL when there is none; *len gets the size. */
static char *read_dump(const char *dir, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/.debug/jit", dir);
    DIR *d = opendir(path);
    if (d == NULL)
        return NULL;
    struct dirent *e;
    char *buf = NULL;
    while ((e = readdir(d)) != NULL && buf == NULL) {
        if (strncmp(e->d_name, "llvm-IR-jit-", 12) != 0)
            continue;
        char file[1024];
        snprintf(file, sizeof file, "%s/%s/jit-%d.dump", path, e->d_name,
                 (int)getpid());
        FILE *f = fopen(file, "rb");
        if (f == NULL)
            continue;
        buf = malloc(1 << 20);
        assert_non_null(buf);
        *len = fread(buf, 1, 1 << 20, f);
        fclose(f);
    }
    closedir(d);
    return buf;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes the test's directory and everything in it. */
static void remove_dir(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_dump_names_functions(void **state)
{
    (void)state;
    char dir[64], kernel[128];
    make_dir(dir, sizeof dir, kernel, sizeof kernel);
    setenv("JITDUMPDIR", dir, 1);
    setenv("UFJIT_ENABLE_PROFILING", "1", 1);
    call_kernel(kernel);
    unsetenv("UFJIT_ENABLE_PROFILING");
    size_t len = 0;
    char *dump = read_dump(dir, &len);
    if (dump == NULL) {
        remove_dir(dir);
        skip(); /* (an LLVM built without perf support writes nothing) */
    }
    /* the header's magic "JiTD", then records naming the contiguous loop */
    assert_true(len > 40);
    assert_memory_equal(dump, "DTiJ", 4); /* 0x4A695444, little-endian */
    assert_non_null(memmem(dump, len, "_contig", 7));
    free(dump);
    remove_dir(dir);
}

static void test_off_writes_nothing(void **state)
{
    (void)state;
    char dir[64], kernel[128];
    make_dir(dir, sizeof dir, kernel, sizeof kernel);
    setenv("JITDUMPDIR", dir, 1);
    unsetenv("UFJIT_ENABLE_PROFILING");
    call_kernel(kernel);
    size_t len = 0;
    char *dump = read_dump(dir, &len);
    assert_null(dump);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_writes_nothing),
        cmocka_unit_test(test_dump_names_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
