/* The disk cache of vectorize object code (compiler/cache/disk_cache.c), through
 * the public API with UFJIT_CACHE_DIR (or cache=True) set:
 *   - a miss compiles and writes one file per signature; a second context
 *     loads them, compiles nothing and gives bit-identical results;
 *   - a corrupt (flipped bytes), truncated, emptied or renamed file is
 *     ignored, recompiled, and rewritten valid;
 *   - a change in a called function's source misses, another kernel
 *     added or edited does not;
 *   - other options (here UFJIT_DEBUG, and keys differing only in the CPU)
 *     give other files;
 *   - several processes compiling into one directory at once all succeed
 *     and leave valid files;
 *   - an unusable directory only disables caching;
 *   - cache=True without UFJIT_CACHE_DIR uses $XDG_CACHE_HOME/ufjit;
 *   - loaded objects resolve the JIT's runtime symbols and libm; kernels
 *     without signatures (compiled on first use) are cached too;
 *   - allocation failures anywhere give UF_ERR_NOMEM or a compile. */
#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/alloc.h"
#include "compiler/context.h"
#include "compiler/cache/disk_cache.h"
#include "compiler/module.h"
#include "disk_cache_test_util.h"

static const char *SRC =
    "from numba import vectorize, njit\n"
    "@njit\n"
    "def scale(x):\n"
    "    return 2 * x\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)',"
    " 'float64(float64, float64)'])\n"
    "def rel_diff(x, y):\n"
    "    return scale(x - y) / (x + y)\n";

/* the same with the called function changed */
static const char *SRC3 =
    "from numba import vectorize, njit\n"
    "@njit\n"
    "def scale(x):\n"
    "    return 3 * x\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)',"
    " 'float64(float64, float64)'])\n"
    "def rel_diff(x, y):\n"
    "    return scale(x - y) / (x + y)\n";


static uint64_t ncompiles(uf_context *ctx)
{
    return ctx->jit ? uf__jit_ncompiles(ctx->jit) : 0;
}

/* rel_diff of `src` in a new context on x = linspace(1,5,5), y =
 * linspace(2,3,5), float64 and float32; out[0..5) float64 results then
 * out[5..10) float32 ones; returns the context's compilations. */
static uint64_t run(const char *src, double out[10])
{
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "rel_diff", &err);
    uf_assert_ok(f != NULL, &err);
    for (int t = 0; t < 2; t++) {
        uf_dtype dt = t ? UF_FLOAT32 : UF_FLOAT64;
        uf_array *in[2] = {uf_linspace(1, 5, 5, true, dt, &err),
                           uf_linspace(2, 3, 5, true, dt, &err)};
        uf_array *o = NULL;
        uf_assert_ok(uf_call(f, in, 2, &o, 1, NULL, &err) == 0, &err);
        assert_int_equal(uf_array_dtype(o), dt);
        for (int k = 0; k < 5; k++)
            out[5 * t + k] = t ? ((float *)uf_array_data(o))[k]
                               : ((double *)uf_array_data(o))[k];
        uf_array_release(in[0]);
        uf_array_release(in[1]);
        uf_array_release(o);
    }
    uint64_t n = ncompiles(ctx);
    uf_module_free(m);
    uf_context_free(ctx);
    return n;
}

static void check_values(const double *v, int factor)
{
    for (int k = 0; k < 5; k++) {
        double x = 1 + k, y = 2 + 0.25 * k;
        assert_true(v[k] == factor * (x - y) / (x + y));
        float xf = (float)x, yf = (float)y;
        assert_true(v[5 + k] == (double)((float)factor * (xf - yf) /
                                         (xf + yf)));
    }
}

static void test_miss_then_hit(void **state)
{
    (void)state;
    dk_fresh_dir();
    char names[16][DK_NAME_MAX];
    double a[10], b[10];
    assert_int_equal(dk_list(dk_dir, names), 0);
    assert_int_equal(run(SRC, a), 1);
    check_values(a, 2);
    /* two distinct signatures (one declared twice): two files */
    assert_int_equal(dk_list(dk_dir, names), 2);
    assert_int_equal(run(SRC, b), 0); /* loaded, nothing compiled */
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(dk_list(dk_dir, names), 2);

    /* inspect on a loaded loop lists it (optimised again for the
     * listing, no code compiled) */
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
    char *s = uf_func_inspect(uf_module_get(m, "rel_diff", &err),
                              "float64(float64, float64)", UF_INSPECT_LLVM,
                              &err);
    uf_assert_ok(s != NULL, &err);
    assert_non_null(strstr(s, "define "));
    assert_non_null(strstr(s, "fdiv"));
    assert_int_equal(ncompiles(ctx), 0);
    uf_free(s);
    uf_module_free(m);
    uf_context_free(ctx);
    dk_remove_dir(dk_dir);
}

/* Damages every file with `how`, then checks recompile + rewrite. */
static void damage_and_check(int how)
{
    char names[16][DK_NAME_MAX];
    double a[10], b[10];
    assert_int_equal(run(SRC, a), 1);
    assert_int_equal(dk_list(dk_dir, names), 2);
    for (int i = 0; i < 2; i++) {
        struct stat st;
        assert_int_equal(stat(names[i], &st), 0);
        int fd = open(names[i], O_RDWR);
        assert_true(fd >= 0);
        if (how == 0) { /* flip bytes in the object, then in the header */
            unsigned char c;
            off_t at[2] = {st.st_size - 100, 9};
            for (int j = 0; j < 2; j++) {
                assert_int_equal(pread(fd, &c, 1, at[j]), 1);
                c ^= 0x5a;
                assert_int_equal(pwrite(fd, &c, 1, at[j]), 1);
            }
        } else if (how == 1) {
            assert_int_equal(ftruncate(fd, st.st_size / 2), 0);
        } else {
            assert_int_equal(ftruncate(fd, 0), 0);
        }
        close(fd);
    }
    assert_int_equal(run(SRC, b), 1); /* recompiled, no crash */
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(dk_list(dk_dir, names), 2);
    assert_int_equal(run(SRC, b), 0); /* the rewritten files load */
    assert_memory_equal(a, b, sizeof a);
}

/* Object bytes LLVM rejects, under a valid header and checksum: the load
 * fails cleanly, the kernel is compiled (under other symbol names) and the
 * file rewritten. `how` 0: a broken ELF magic; 1: the object truncated to
 * its first 64 bytes. */
static void bad_object(int how)
{
    char names[16][DK_NAME_MAX];
    double a[10], b[10];
    assert_int_equal(run(SRC, a), 1);
    assert_int_equal(dk_list(dk_dir, names), 2);
    for (int i = 0; i < 2; i++) {
        FILE *fp = fopen(names[i], "rb");
        assert_non_null(fp);
        static char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        assert_true(n > 56 && n < sizeof buf);
        uint64_t objlen;
        memcpy(&objlen, buf + 32, 8);
        size_t obj = n - (size_t)objlen;
        assert_memory_equal(buf + obj, "\177ELF", 4);
        if (how == 0) {
            buf[obj + 1] = 'X';
        } else {
            objlen = 64;
            memcpy(buf + 32, &objlen, 8);
            n = obj + 64;
        }
        uf__hash128 h;
        uf__hash128_init(&h);
        uf__hash128_add(&h, buf + 56, n - 56);
        memcpy(buf + 40, &h.a, 8);
        memcpy(buf + 48, &h.b, 8);
        fp = fopen(names[i], "wb");
        assert_int_equal(fwrite(buf, 1, n, fp), n);
        fclose(fp);
    }
    assert_int_equal(run(SRC, b), 1);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(run(SRC, b), 0);
    assert_memory_equal(a, b, sizeof a);
}

static void test_bad_object(void **state)
{
    (void)state;
    for (int how = 0; how < 2; how++) {
        dk_fresh_dir();
        bad_object(how);
        dk_remove_dir(dk_dir);
    }
}

static void test_corrupt_files(void **state)
{
    (void)state;
    for (int how = 0; how < 3; how++) {
        dk_fresh_dir();
        damage_and_check(how);
        dk_remove_dir(dk_dir);
    }
}

/* A FIFO where an entry should be (issue 20: the open blocked for ever)
 * is a miss, at once; the store then puts a file in its place. alarm()
 * turns a hang back into a failure. */
static void test_fifo_entry_is_a_miss(void **state)
{
    (void)state;
    dk_fresh_dir();
    char names[16][DK_NAME_MAX];
    double a[10], b[10];
    assert_int_equal(run(SRC, a), 1);
    int n = dk_list(dk_dir, names);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        assert_int_equal(unlink(names[i]), 0);
        assert_int_equal(mkfifo(names[i], 0644), 0);
    }
    alarm(60);
    assert_int_equal(run(SRC, b), 1);
    alarm(0);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(run(SRC, b), 0); /* regular files again */
    dk_remove_dir(dk_dir);
}

/* A valid file of another key under this key's name (what a hash
 * collision would look like) is a miss. */
static void test_collision_is_a_miss(void **state)
{
    (void)state;
    dk_fresh_dir();
    char names[16][DK_NAME_MAX];
    double a[10], b[10];
    assert_int_equal(run(SRC, a), 1);
    assert_int_equal(dk_list(dk_dir, names), 2);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", names[0], names[1]);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(run(SRC, b), 1);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(run(SRC, b), 0);
    dk_remove_dir(dk_dir);
}

static void test_changed_callee_misses(void **state)
{
    (void)state;
    dk_fresh_dir();
    char names[16][DK_NAME_MAX];
    double a[10];
    assert_int_equal(run(SRC, a), 1);
    check_values(a, 2);
    assert_int_equal(run(SRC3, a), 1); /* scale() changed: a miss */
    check_values(a, 3);
    assert_int_equal(dk_list(dk_dir, names), 4);
    assert_int_equal(run(SRC3, a), 0);
    check_values(a, 3);
    assert_int_equal(run(SRC, a), 0); /* the old entries stay valid */
    check_values(a, 2);
    dk_remove_dir(dk_dir);
}

/* The keys name the kernel's text and its callees' (and the module's
 * imports and constants), not the whole file: another kernel added or
 * edited keeps the loops; the kernel moved to other lines does not. */
static void test_other_kernel_edited(void **state)
{
    (void)state;
    dk_fresh_dir();
    char names[16][DK_NAME_MAX], src[2048];
    double a[10];
    assert_int_equal(run(SRC, a), 1);
    snprintf(src, sizeof src, "%s@njit\ndef other(x):\n    return x\n",
             SRC);
    assert_int_equal(run(src, a), 0);
    check_values(a, 2);
    snprintf(src, sizeof src, "%s@njit\ndef other(x):\n    return -x\n",
             SRC);
    assert_int_equal(run(src, a), 0);
    check_values(a, 2);
    assert_int_equal(dk_list(dk_dir, names), 2);
    snprintf(src, sizeof src, "\n%s", SRC); /* one line down */
    assert_int_equal(run(src, a), 1);
    check_values(a, 2);
    assert_int_equal(dk_list(dk_dir, names), 4);
    dk_remove_dir(dk_dir);
}

static void test_options_change_the_file(void **state)
{
    (void)state;
    dk_fresh_dir();
    char names[16][DK_NAME_MAX];
    double a[10], b[10];
    assert_int_equal(run(SRC, a), 1);
    setenv("UFJIT_DEBUG", "1", 1); /* bounds checks: other code */
    assert_int_equal(run(SRC, b), 1);
    unsetenv("UFJIT_DEBUG");
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(dk_list(dk_dir, names), 4);

    /* keys differing in the CPU name or its features: other files */
    uf__loop_key k1 = {.text = SRC, .len = strlen(SRC), .kernel = "rel_diff"};
    snprintf(k1.sig, sizeof k1.sig, "float64,float64->?");
    uf__loop_key k2 = k1, k3 = k1;
    snprintf(k1.opts, sizeof k1.opts, "target=cpu;cpu=skylake-avx512");
    snprintf(k2.opts, sizeof k2.opts, "target=cpu;cpu=znver3");
    snprintf(k3.opts, sizeof k3.opts, "target=cpu;cpu=skylake-avx512;f=1");
    char p1[300], p2[300], p3[300];
    uf__disk_cache_path(dk_dir, &k1, p1, sizeof p1);
    uf__disk_cache_path(dk_dir, &k2, p2, sizeof p2);
    uf__disk_cache_path(dk_dir, &k3, p3, sizeof p3);
    assert_string_not_equal(p1, p2);
    assert_string_not_equal(p1, p3);
    /* a stored entry of k1 does not answer k2 */
    const char obj[] = "not an object";
    uf_dtype t[3] = {UF_FLOAT64, UF_FLOAT64, UF_FLOAT64};
    assert_int_equal(uf__disk_cache_store(dk_dir, &k1, "sym", t, 3, 1, obj,
                                          sizeof obj), 0);
    uf__disk_entry e;
    assert_int_equal(uf__disk_cache_load(dk_dir, &k1, 2, &e), 1);
    assert_string_equal(e.symbol, "sym");
    assert_int_equal(e.nout, 1);
    assert_memory_equal(e.obj, obj, sizeof obj);
    uf__disk_entry_release(&e);
    assert_int_equal(uf__disk_cache_load(dk_dir, &k1, 1, &e), 0); /* nin */
    assert_int_equal(uf__disk_cache_load(dk_dir, &k2, 2, &e), 0);
    dk_remove_dir(dk_dir);
}

static void test_concurrent_writers(void **state)
{
    (void)state;
    dk_fresh_dir();
    enum { NPROC = 4 };
    pid_t pids[NPROC];
    for (int i = 0; i < NPROC; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            double v[10];
            /* each one compiles or loads, and must get the right values */
            run(SRC, v);
            for (int k = 0; k < 5; k++) {
                double x = 1 + k, y = 2 + 0.25 * k;
                if (v[k] != 2 * (x - y) / (x + y))
                    _exit(1);
            }
            _exit(0);
        }
    }
    for (int i = 0; i < NPROC; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    char names[16][DK_NAME_MAX];
    double a[10];
    assert_int_equal(dk_list(dk_dir, names), 2); /* no temporaries left */
    assert_int_equal(run(SRC, a), 0);
    check_values(a, 2);
    dk_remove_dir(dk_dir);
}

static void test_unusable_dir(void **state)
{
    (void)state;
    dk_fresh_dir();
    char file[300], sub[320], names[16][DK_NAME_MAX];
    snprintf(file, sizeof file, "%s/plain-file", dk_dir);
    FILE *fp = fopen(file, "w");
    assert_non_null(fp);
    fclose(fp);
    double a[10];
    /* a regular file as the directory, and a directory under it */
    setenv("UFJIT_CACHE_DIR", file, 1);
    assert_int_equal(run(SRC, a), 1);
    check_values(a, 2);
    snprintf(sub, sizeof sub, "%s/sub", file);
    setenv("UFJIT_CACHE_DIR", sub, 1);
    assert_int_equal(run(SRC, a), 1);
    check_values(a, 2);
    assert_int_equal(run(SRC, a), 1); /* nothing was cached */
    unlink(file);
    assert_int_equal(dk_list(dk_dir, names), 0);
    /* a directory that does not exist yet is made */
    snprintf(sub, sizeof sub, "%s/a/b", dk_dir);
    setenv("UFJIT_CACHE_DIR", sub, 1);
    assert_int_equal(run(SRC, a), 1);
    assert_int_equal(run(SRC, a), 0);
    assert_int_equal(dk_list(sub, names), 2);
    dk_remove_dir(dk_dir);
}

static void test_cache_flag(void **state)
{
    (void)state;
    dk_fresh_dir();
    unsetenv("UFJIT_CACHE_DIR");
    setenv("XDG_CACHE_HOME", dk_dir, 1);
    char sub[320], names[16][DK_NAME_MAX];
    snprintf(sub, sizeof sub, "%s/ufjit", dk_dir);
    double a[10];
    assert_int_equal(run(SRC, a), 1); /* no cache=True: no file */
    assert_int_equal(dk_list(sub, names), 0);
    static const char *CACHED =
        "from numba import vectorize\n"
        "@vectorize(['float32(float32, float32)', "
        "'float64(float64, float64)'], cache=True)\n"
        "def rel_diff(x, y):\n"
        "    return 2 * (x - y) / (x + y)\n";
    assert_int_equal(run(CACHED, a), 1);
    check_values(a, 2);
    assert_int_equal(dk_list(sub, names), 2);
    assert_int_equal(run(CACHED, a), 0);
    check_values(a, 2);
    unsetenv("XDG_CACHE_HOME");
    dk_remove_dir(dk_dir);
}

/* A loaded object calls the JIT's runtime helpers (uf__rt_csqrt, an
 * absolute symbol) and libm (sin) and divides by zero the NumPy way. */
static void test_runtime_symbols_resolve(void **state)
{
    (void)state;
    dk_fresh_dir();
    static const char *RT =
        "import cmath, math\n"
        "from numba import vectorize\n"
        "@vectorize(['float64(float64, float64)'])\n"
        "def f(x, y):\n"
        "    z = cmath.sqrt(complex(-x, 0.0))\n"
        "    return z.imag + math.sin(x) + x / y\n";
    double got[2][4];
    for (int r = 0; r < 2; r++) {
        uf_error err;
        uf_context *ctx = uf_context_new(&err);
        uf_module *m = uf_module_from_string(ctx, "rt.py", RT, &err);
        uf_assert_ok(m != NULL, &err);
        uf_array *in[2] = {uf_linspace(1, 4, 4, true, UF_FLOAT64, &err),
                           uf_linspace(0, 3, 4, true, UF_FLOAT64, &err)};
        uf_array *o = NULL;
        uf_assert_ok(uf_call(uf_module_get(m, "f", &err), in, 2, &o, 1, NULL,
                             &err) == 0,
                     &err);
        memcpy(got[r], uf_array_data(o), sizeof got[r]);
        assert_int_equal(ncompiles(ctx), r == 0 ? 1 : 0);
        uf_array_release(in[0]);
        uf_array_release(in[1]);
        uf_array_release(o);
        uf_module_free(m);
        uf_context_free(ctx);
    }
    assert_memory_equal(got[0], got[1], sizeof got[0]);
    assert_true(isinf(got[1][0]) && got[1][0] > 0); /* 1 / 0 */
    for (int k = 1; k < 4; k++) {
        double x = 1 + k, y = k;
        assert_true(fabs(got[1][k] - (sqrt(x) + sin(x) + x / y)) < 1e-12);
    }
    dk_remove_dir(dk_dir);
}

/* Every allocation failing in turn, with the files present (hits) and
 * absent (compile + store): the call fails with UF_ERR_NOMEM or, when
 * only the disk layer's allocation failed, succeeds by compiling; nothing
 * leaks. */
static void test_alloc_failures(void **state)
{
    (void)state;
    for (int hit = 1; hit >= 0; hit--) {
        dk_fresh_dir();
        double a[10];
        if (hit)
            assert_int_equal(run(SRC, a), 1);
        long live0 = uf__alloc_live();
        for (long n = 1;; n++) {
            if (!hit)
                dk_remove_dir(dk_dir);
            uf_error err;
            uf_error_clear(&err);
            uf_context *ctx = uf_context_new(&err);
            uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
            uf_func *f = uf_module_get(m, "rel_diff", &err);
            uf_array *in[2] = {uf_linspace(1, 5, 5, true, UF_FLOAT64, &err),
                               uf_linspace(2, 3, 5, true, UF_FLOAT64, &err)};
            uf_array *o = NULL;
            uf__alloc_fail_at(n);
            int rc = uf_call(f, in, 2, &o, 1, NULL, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (rc == 0)
                assert_true(((double *)uf_array_data(o))[4] ==
                            2.0 * (5 - 3) / 8);
            else if (rc != UF_ERR_NOMEM)
                fail_msg("allocation %ld failing gave rc %d: %s", n, rc,
                         err.message);
            uf_array_release(o);
            uf_array_release(in[0]);
            uf_array_release(in[1]);
            uf_module_free(m);
            uf_context_free(ctx);
            if (uf__alloc_live() != live0)
                fail_msg("allocation %ld failing leaked %ld blocks", n,
                         uf__alloc_live() - live0);
            if (!failed) {
                assert_int_equal(rc, 0);
                /* the first allocations are the JIT's, the disk layer's
                 * come later: make sure the walk went that far */
                assert_true(n > 20);
                if (getenv("UF_TEST_VERBOSE"))
                    printf("%s: %ld allocations\n", hit ? "hit" : "miss", n);
                break;
            }
        }
        dk_remove_dir(dk_dir);
    }
}

/* A kernel without signatures compiles per input types on first use: those
 * loops are cached on disk as well. */
static void test_lazy_kernel(void **state)
{
    (void)state;
    dk_fresh_dir();
    static const char *LAZY = "from numba import vectorize\n"
                              "@vectorize\n"
                              "def add(x, y):\n"
                              "    return x + y\n";
    char names[16][DK_NAME_MAX];
    for (int r = 0; r < 2; r++) {
        uf_error err;
        uf_context *ctx = uf_context_new(&err);
        uf_module *m = uf_module_from_string(ctx, "lazy.py", LAZY, &err);
        uf_assert_ok(m != NULL, &err);
        uf_array *in[2] = {uf_linspace(1, 3, 3, true, UF_INT32, &err),
                           uf_linspace(-5, 5, 3, true, UF_INT32, &err)};
        uf_array *o = NULL;
        uf_assert_ok(uf_call(uf_module_get(m, "add", &err), in, 2, &o, 1,
                             NULL, &err) == 0,
                     &err);
        /* int32 + int32 is int64 in Numba */
        assert_int_equal(uf_array_dtype(o), UF_INT64);
        const int64_t *v = uf_array_data(o);
        assert_true(v[0] == -4 && v[1] == 2 && v[2] == 8);
        assert_int_equal(ncompiles(ctx), r == 0 ? 1 : 0);
        assert_int_equal(dk_list(dk_dir, names), 1);
        uf_array_release(in[0]);
        uf_array_release(in[1]);
        uf_array_release(o);
        uf_module_free(m);
        uf_context_free(ctx);
    }
    dk_remove_dir(dk_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_then_hit),
        cmocka_unit_test(test_corrupt_files),
        cmocka_unit_test(test_collision_is_a_miss),
        cmocka_unit_test(test_fifo_entry_is_a_miss),
        cmocka_unit_test(test_bad_object),
        cmocka_unit_test(test_changed_callee_misses),
        cmocka_unit_test(test_other_kernel_edited),
        cmocka_unit_test(test_options_change_the_file),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_unusable_dir),
        cmocka_unit_test(test_cache_flag),
        cmocka_unit_test(test_runtime_symbols_resolve),
        cmocka_unit_test(test_lazy_kernel),
        cmocka_unit_test(test_alloc_failures),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unsetenv("UFJIT_CACHE_DIR");
    return rc;
}
