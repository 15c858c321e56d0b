/* Loading kernel files (uf_module_load, uf_module_from_string) from what
 * a mistaken path can name (issue 20): a FIFO once blocked the open for
 * ever and /dev/zero was read without bound; now only regular files are
 * read, and sources over UF__MAX_SOURCE_BYTES are refused while reading.
 * alarm() turns a hang into a failure. */
#include "test_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/module.h"

static const char kernel[] = "from numba import njit\n"
                             "@njit\n"
                             "def one():\n"
                             "    return 1\n";

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/uf-modload-XXXXXX");
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static uf_module *load(uf_context *ctx, const char *path, uf_error *err)
{
    alarm(30);
    uf_module *m = uf_module_load(ctx, path, err);
    alarm(0);
    return m;
}

static void regular_file_loads(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    char path[128];
    snprintf(path, sizeof path, "%s/k.py", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(kernel, f);
    fclose(f);
    uf_module *m = load(ctx, path, &err);
    uf_assert_ok(m != NULL, &err);
    assert_int_equal(uf_module_nfuncs(m), 1);
    uf_module_free(m);
    uf_context_free(ctx);
}

static void special_files_refused(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/k.fifo", dir);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    const char *paths[] = {fifo, "/dev/zero", "/dev/null", dir};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        assert_null(load(ctx, paths[i], &err));
        assert_int_equal(err.code, UF_ERR_IO);
        assert_non_null(strstr(err.message, "is not a regular file"));
        assert_non_null(strstr(err.message, paths[i]));
    }
    assert_null(load(ctx, "/nonexistent/k.py", &err));
    assert_int_equal(err.code, UF_ERR_IO);
    assert_non_null(strstr(err.message, "cannot open"));
    uf_context_free(ctx);
}

static void oversized_sources_refused(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    char path[128];
    snprintf(path, sizeof path, "%s/big.py", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    /* one byte over the limit (sparse: the read sees zeros) */
    assert_int_equal(ftruncate(fd, UF__MAX_SOURCE_BYTES + 1), 0);
    close(fd);
    assert_null(load(ctx, path, &err));
    assert_int_equal(err.code, UF_ERR_LIMIT);
    assert_non_null(strstr(err.message, "16 MiB"));

    char *big = malloc(UF__MAX_SOURCE_BYTES + 2);
    assert_non_null(big);
    memset(big, ' ', UF__MAX_SOURCE_BYTES + 1);
    big[UF__MAX_SOURCE_BYTES + 1] = '\0';
    assert_null(uf_module_from_string(ctx, "big", big, &err));
    assert_int_equal(err.code, UF_ERR_LIMIT);
    assert_non_null(strstr(err.message, "16 MiB"));
    /* exactly at the limit is read (and then parsed: blanks only) */
    big[UF__MAX_SOURCE_BYTES] = '\0';
    uf_module *m = uf_module_from_string(ctx, "edge", big, &err);
    uf_assert_ok(m != NULL, &err);
    assert_int_equal(uf_module_nfuncs(m), 0);
    uf_module_free(m);
    free(big);
    uf_context_free(ctx);
}

/* What Python reads: a byte order mark, and letters beyond ASCII in
 * names (PEP 3131), typed like any other. */
static void non_ascii_sources_load(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    static const char src[] =
        "\xef\xbb\xbf" "from numba import vectorize\n"
        "@vectorize(['float64(float64)'])\n"
        "def f(x):\n"
        "    \xcf\x80 = 3.5\n"
        "    \xce\xb1\xce\xb2_2 = x * \xcf\x80\n"
        "    return \xce\xb1\xce\xb2_2\n";
    uf_module *m = uf_module_from_string(ctx, "greek.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    char *types = uf_func_inspect(f, NULL, UF_INSPECT_TYPES, &err);
    uf_assert_ok(types != NULL, &err);
    assert_non_null(strstr(types, "#   \xcf\x80 = float64"));
    assert_non_null(strstr(types, "#   \xce\xb1\xce\xb2_2 = float64"));
    uf_free(types);
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(non_ascii_sources_load),
        cmocka_unit_test(regular_file_loads),
        cmocka_unit_test(special_files_refused),
        cmocka_unit_test(oversized_sources_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
