/* The codegen cache (compiler/host/jit_codegen_cache.c, variable
 * UFJIT_CODEGEN_CACHE_DIR): object code kept under the module's IR.
 *   - a miss compiles and writes one file per module; another context
 *     making the same IR loads it (LLVM compiles nothing) and gives
 *     bit-identical results;
 *   - other IR (a called function changed) misses;
 *   - a damaged file is a miss, compiled and rewritten valid;
 *   - guvectorize and njit compilations use it too;
 *   - with UFJIT_DUMP_OPTIMIZED (its dump comes from compiling) or an
 *     unusable directory it is off, and compiling works as without it. */
#include "test_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "compiler/context.h"
#include "compiler/module.h"
#include "disk_cache_test_util.h"

/* The kernels, scale() multiplying by `factor`: another factor is other
 * IR everywhere. */
static const char *source(int factor)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "from numba import vectorize, njit, guvectorize\n"
             "@njit\n"
             "def scale(x):\n"
             "    return %d * x\n"
             "@vectorize(['float32(float32, float32)', "
             "'float64(float64, float64)'])\n"
             "def rel_diff(x, y):\n"
             "    return scale(x - y) / (x + y)\n"
             "@guvectorize(['void(float64[:], float64[:])'], '(n)->()')\n"
             "def total(x, out):\n"
             "    s = 0.0\n"
             "    for v in x:\n"
             "        s += scale(v)\n"
             "    out[0] = s\n"
             "@njit\n"
             "def poly(x):\n"
             "    return scale(x) * x + 1.0\n",
             factor);
    return text;
}

typedef struct outcome {
    double v[5];     /* rel_diff float64 */
    float f[5];      /* rel_diff float32 */
    double total;    /* total(linspace(1, 5, 5)) */
    double poly;     /* poly(1.5) */
    uint64_t ncompiles, hits;
} outcome;

static uf_array *call1(uf_module *m, const char *name, uf_array **in,
                       int nin)
{
    uf_error err;
    uf_func *f = uf_module_get(m, name, &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *o = NULL;
    uf_assert_ok(uf_call(f, in, nin, &o, 1, NULL, &err) == 0, &err);
    return o;
}

/* Each kernel of `src` once in a new context. */
static outcome run(const char *src)
{
    outcome r;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    for (int t = 0; t < 2; t++) {
        uf_dtype dt = t ? UF_FLOAT32 : UF_FLOAT64;
        uf_array *in[2] = {uf_linspace(1, 5, 5, true, dt, &err),
                           uf_linspace(2, 3, 5, true, dt, &err)};
        uf_array *o = call1(m, "rel_diff", in, 2);
        for (int k = 0; k < 5; k++) {
            if (t)
                r.f[k] = ((float *)uf_array_data(o))[k];
            else
                r.v[k] = ((double *)uf_array_data(o))[k];
        }
        uf_array_release(o);
        if (!t) {
            o = call1(m, "total", in, 1);
            r.total = *(double *)uf_array_data(o);
            uf_array_release(o);
        }
        uf_array_release(in[0]);
        uf_array_release(in[1]);
    }
    double x = 1.5;
    uf_array *s = uf_full(UF_FLOAT64, 0, NULL, &x, UF_FLOAT64, UF_ORDER_C,
                          &err);
    uf_array *o = call1(m, "poly", &s, 1);
    r.poly = *(double *)uf_array_data(o);
    uf_array_release(o);
    uf_array_release(s);
    r.ncompiles = uf__jit_ncompiles(ctx->jit);
    r.hits = uf__jit_ncodegen_hits(ctx->jit);
    uf_module_free(m);
    uf_context_free(ctx);
    return r;
}

static void check(const outcome *r, int factor)
{
    for (int k = 0; k < 5; k++) {
        double x = 1 + k, y = 2 + 0.25 * k;
        assert_true(r->v[k] == factor * (x - y) / (x + y));
        float xf = (float)x, yf = (float)y;
        assert_true(r->f[k] == (float)factor * (xf - yf) / (xf + yf));
    }
    assert_true(r->total == factor * 15.0);
    assert_true(r->poly == factor * 1.5 * 1.5 + 1.0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dk_dir, sizeof dk_dir, "/tmp/ufjit-cg-XXXXXX");
    assert_non_null(mkdtemp(dk_dir));
    setenv("UFJIT_CODEGEN_CACHE_DIR", dk_dir, 1);
    unsetenv("UFJIT_CACHE_DIR");
    unsetenv("UFJIT_DUMP_OPTIMIZED");
    unsetenv("UFJIT_DUMP_ASSEMBLY");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dk_remove_dir(dk_dir);
    unsetenv("UFJIT_CODEGEN_CACHE_DIR");
    return 0;
}

static void test_miss_then_hit(void **state)
{
    (void)state;
    outcome a = run(source(2));
    check(&a, 2);
    assert_true(a.ncompiles >= 3); /* vectorize, gufunc, njit modules */
    assert_int_equal(a.hits, 0);
    int files = dk_list(dk_dir, NULL);
    assert_int_equal(files, (int)a.ncompiles);

    outcome b = run(source(2));
    assert_int_equal(b.ncompiles, a.ncompiles);
    assert_int_equal(b.hits, b.ncompiles); /* LLVM compiled nothing */
    assert_memory_equal(a.v, b.v, sizeof a.v);
    assert_memory_equal(a.f, b.f, sizeof a.f);
    assert_true(a.total == b.total && a.poly == b.poly);
    assert_int_equal(dk_list(dk_dir, NULL), files);

    outcome c = run(source(3)); /* other IR: compiled, more files */
    check(&c, 3);
    assert_int_equal(c.hits, 0);
    assert_int_equal(dk_list(dk_dir, NULL), files + (int)c.ncompiles);
}

/* Flips a byte in the middle of every file. */
static void damage_all(void)
{
    char names[16][DK_NAME_MAX];
    int n = dk_list(dk_dir, names);
    assert_true(n >= 1 && n <= 16);
    for (int i = 0; i < n; i++) {
        int fd = open(names[i], O_RDWR);
        assert_true(fd >= 0);
        off_t len = lseek(fd, 0, SEEK_END);
        unsigned char ch;
        assert_int_equal(pread(fd, &ch, 1, len / 2), 1);
        ch ^= 0x5a;
        assert_int_equal(pwrite(fd, &ch, 1, len / 2), 1);
        close(fd);
    }
}

static void test_damaged_file_misses(void **state)
{
    (void)state;
    outcome a = run(source(2));
    damage_all();
    outcome b = run(source(2));
    check(&b, 2);
    assert_int_equal(b.hits, 0);
    outcome c = run(source(2)); /* rewritten valid */
    assert_int_equal(c.hits, c.ncompiles);
    assert_memory_equal(a.v, c.v, sizeof a.v);
}

static void test_off_when_dumping(void **state)
{
    (void)state;
    (void)run(source(2));
    int files = dk_list(dk_dir, NULL);
    /* the dump goes to stderr: into /dev/null for this run */
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && null >= 0);
    dup2(null, 2);
    setenv("UFJIT_DUMP_OPTIMIZED", "1", 1);
    outcome b = run(source(2));
    unsetenv("UFJIT_DUMP_OPTIMIZED");
    dup2(saved, 2);
    close(saved);
    close(null);
    check(&b, 2);
    assert_int_equal(b.hits, 0);
    assert_int_equal(dk_list(dk_dir, NULL), files);
}

static void test_unusable_dir(void **state)
{
    (void)state;
    char file[300];
    snprintf(file, sizeof file, "%s/not-a-dir", dk_dir);
    int fd = open(file, O_WRONLY | O_CREAT, 0644);
    assert_true(fd >= 0);
    close(fd);
    setenv("UFJIT_CODEGEN_CACHE_DIR", file, 1);
    outcome a = run(source(2));
    outcome b = run(source(2));
    setenv("UFJIT_CODEGEN_CACHE_DIR", dk_dir, 1);
    check(&a, 2);
    check(&b, 2);
    assert_int_equal(b.hits, 0);
    unlink(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_miss_then_hit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_file_misses, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_off_when_dumping, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unusable_dir, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
