/* The disk cache's checks for one kind of compiled kernel (guvectorize,
 * reduce, njit: one test_disk_cache_<kind>.c each, defining KIND and SMALL
 * and calling dk_main), through the public API with UFJIT_CACHE_DIR or
 * cache=True:
 *   - a miss compiles and writes its files; a new context loads them,
 *     compiles nothing and gives the same results (bit for bit, and the
 *     closed-form values);
 *   - another PROCESS (this program re-executed) hits;
 *   - a corrupt, truncated, emptied, renamed file, or one whose object
 *     LLVM refuses, is ignored, recompiled and rewritten;
 *   - a change in a called function's source misses; another kernel
 *     added to the file, or another kernel's options changed, do not;
 *   - decorator options and UFJIT_DEBUG give other files;
 *   - concurrent writer processes all succeed and leave valid files;
 *   - an unusable directory only disables caching;
 *   - cache=True without UFJIT_CACHE_DIR uses $XDG_CACHE_HOME/ufjit;
 *   - every allocation failing in turn gives UF_ERR_NOMEM or a result,
 *     never a leak.
 * `prog --time` prints what a hit saves (ms: new context, load, first
 * call). */
#ifndef UF_TESTS_DISK_CACHE_KINDS_H
#define UF_TESTS_DISK_CACHE_KINDS_H

#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"
#include "compiler/context.h"
#include "compiler/cache/disk_cache.h"
#include "disk_cache_test_util.h"

#define DK_NVALS 32

/* Results of one run: values (as float64) and each output's dtype. */
typedef struct dk_vals {
    double v[DK_NVALS];
    int n;
    uf_dtype dt[8];
    int nout;
} dk_vals;

typedef struct dk_kind {
    /* the module: "$O" stands for decorator keywords ("fastmath=True"),
     * "$C" for the same after a comma, "$F" for the called function's
     * body (callee[0] or callee[1]) */
    const char *src;
    const char *callee[2];
    /* calls m's kernels, appending results to v; 0 or the first error's
     * code, everything released */
    int (*run)(uf_module *m, dk_vals *v, uf_error *err);
    /* checks run's values against closed forms, callee version `which` */
    void (*check)(const dk_vals *v, int which);
    int ncompiles, nfiles; /* of a miss */
    const char *const *options; /* keywords that change the code */
    int nfixed; /* compilations (and files) of kernels that take no
                   keywords (no cache=True) */
} dk_kind;

/* Defined by the including test: the kind, and a one-compilation version
 * for the allocation walk. */
static const dk_kind KIND, SMALL;

/* Text appended to every module (an unrelated kernel). */
static const char *dk_extra = "";

/* k->src with option `opt` (may be "") and callee version `which`, then
 * dk_extra. */
static const char *dk_src(const dk_kind *k, const char *opt, int which)
{
    static char buf[8192];
    size_t n = 0;
    for (const char *s = k->src; *s && n < sizeof buf - 256; s++) {
        const char *put = NULL;
        char comma[128];
        if (s[0] == '$' && s[1] == 'O')
            put = opt;
        else if (s[0] == '$' && s[1] == 'C') {
            snprintf(comma, sizeof comma, "%s%s", *opt ? ", " : "", opt);
            put = comma;
        } else if (s[0] == '$' && s[1] == 'F')
            put = k->callee[which];
        if (put) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", put);
            s++;
        } else
            buf[n++] = *s;
    }
    snprintf(buf + n, sizeof buf - n, "%s", dk_extra);
    return buf;
}

/* Appends out's values and dtype to v. */
static int dk_take(const uf_array *out, dk_vals *v, uf_error *err)
{
    uf_array *d = uf_array_astype(out, UF_FLOAT64, UF_CASTING_UNSAFE,
                                  UF_ORDER_C, err);
    if (!d)
        return err->code;
    int64_t n = uf_array_size(d);
    for (int64_t i = 0; i < n && v->n < DK_NVALS; i++)
        v->v[v->n++] = ((const double *)uf_array_data(d))[i];
    if (v->nout < 8)
        v->dt[v->nout++] = uf_array_dtype(out);
    uf_array_release(d);
    return 0;
}

enum { DK_CALL, DK_REDUCE, DK_ACCUMULATE };

/* Kernel `name` of m on in[0..nin) (released here; a NULL entry is an
 * allocation that failed) through `how`, nout outputs allocated, their
 * values appended to v. 0 or the error's code. */
static int dk_call(uf_module *m, const char *name, int how, uf_array **in,
                   int nin, int nout, dk_vals *v, uf_error *err)
{
    uf_array *out[4] = {NULL, NULL, NULL, NULL};
    int rc = 0;
    for (int i = 0; i < nin; i++)
        if (!in[i])
            rc = err->code ? err->code : UF_ERR_NOMEM;
    uf_func *f = rc ? NULL : uf_module_get(m, name, err);
    if (!rc && !f)
        rc = err->code;
    /* @cuda.reduce kernels default to the cuda target: the disk cache of
     * their host loops is what these tests look at */
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    if (!rc) {
        if (how == DK_CALL)
            rc = uf_call(f, in, nin, out, nout,
                         uf_func_get_kind(f) == UF_FUNC_REDUCE ? &cpu : NULL,
                         err);
        else if (how == DK_REDUCE)
            rc = uf_reduce(f, in[0], &out[0], NULL, err);
        else
            rc = uf_accumulate(f, in[0], &out[0], NULL, err);
    }
    for (int k = 0; rc == 0 && k < nout; k++)
        rc = dk_take(out[k], v, err);
    for (int k = 0; k < nout; k++)
        uf_array_release(out[k]);
    for (int i = 0; i < nin; i++)
        uf_array_release(in[i]);
    return rc;
}

static uint64_t dk_ncompiles(uf_context *ctx)
{
    return ctx->jit ? uf__jit_ncompiles(ctx->jit) : 0;
}

/* k's module (option opt, callee which) run in a new context: its values
 * into v, its compilations returned. */
static uint64_t dk_run(const dk_kind *k, const char *opt, int which,
                       dk_vals *v)
{
    uf_error err;
    uf_error_clear(&err);
    memset(v, 0, sizeof *v);
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", dk_src(k, opt, which),
                                         &err);
    uf_assert_ok(m != NULL, &err);
    uf_assert_ok(k->run(m, v, &err) == 0, &err);
    uint64_t n = dk_ncompiles(ctx);
    uf_module_free(m);
    uf_context_free(ctx);
    return n;
}

/* The values without any disk cache (the reference every run matches),
 * computed once per kind and callee version. */
static void dk_reference(const dk_kind *k, int which, dk_vals *v)
{
    static dk_vals done[2][2]; /* [KIND or SMALL][which] */
    static bool have[2][2];
    int ki = k == &SMALL;
    if (have[ki][which]) {
        *v = done[ki][which];
        return;
    }
    char *saved = getenv("UFJIT_CACHE_DIR");
    char keep[300] = "";
    if (saved)
        snprintf(keep, sizeof keep, "%s", saved);
    unsetenv("UFJIT_CACHE_DIR");
    dk_run(k, "", which, v);
    if (saved)
        setenv("UFJIT_CACHE_DIR", keep, 1);
    k->check(v, which);
    done[ki][which] = *v;
    have[ki][which] = true;
}

static void dk_same(const dk_vals *a, const dk_vals *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->nout, b->nout);
    assert_memory_equal(a->v, b->v, (size_t)a->n * sizeof(double));
    assert_memory_equal(a->dt, b->dt, (size_t)a->nout * sizeof(uf_dtype));
}

/* ---- the tests --------------------------------------------------------- */

static void dk_test_miss_then_hit(void **state)
{
    (void)state;
    dk_vals ref, a, b;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    assert_int_equal(dk_list(dk_dir, NULL), 0);
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    dk_same(&ref, &a);
    assert_int_equal(dk_list(dk_dir, NULL), KIND.nfiles);
    assert_int_equal(dk_run(&KIND, "", 0, &b), 0); /* loaded */
    dk_same(&ref, &b);
    assert_int_equal(dk_list(dk_dir, NULL), KIND.nfiles);
    dk_remove_dir(dk_dir);
}

/* This program again as another process: its compilations, values. */
static uint64_t dk_child(dk_vals *v)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execl("/proc/self/exe", "dk-child", "--child", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    static char out[8192];
    size_t n = 0;
    ssize_t r;
    while ((r = read(fd[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    unsigned long long nc;
    int off = 0;
    memset(v, 0, sizeof *v);
    assert_int_equal(sscanf(out, "%llu %d %d%n", &nc, &v->n, &v->nout, &off),
                     3);
    for (int i = 0; i < v->n; i++) {
        int used = 0;
        assert_int_equal(sscanf(out + off, " %la%n", &v->v[i], &used), 1);
        off += used;
    }
    for (int i = 0; i < v->nout; i++) {
        int used = 0, t;
        assert_int_equal(sscanf(out + off, " %d%n", &t, &used), 1);
        v->dt[i] = (uf_dtype)t;
        off += used;
    }
    return nc;
}

/* The child's side: runs KIND once, prints compilations and values. */
static int dk_child_main(void)
{
    dk_vals v;
    uint64_t nc = dk_run(&KIND, "", 0, &v);
    printf("%llu %d %d", (unsigned long long)nc, v.n, v.nout);
    for (int i = 0; i < v.n; i++)
        printf(" %a", v.v[i]);
    for (int i = 0; i < v.nout; i++)
        printf(" %d", (int)v.dt[i]);
    printf("\n");
    return 0;
}

static void dk_test_other_process(void **state)
{
    (void)state;
    dk_vals ref, a, b;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    assert_int_equal(dk_child(&a), KIND.ncompiles);
    dk_same(&ref, &a);
    assert_int_equal(dk_child(&b), 0);
    dk_same(&ref, &b);
    /* and this process loads what the other wrote */
    assert_int_equal(dk_run(&KIND, "", 0, &b), 0);
    dk_same(&ref, &b);
    assert_int_equal(dk_list(dk_dir, NULL), KIND.nfiles);
    dk_remove_dir(dk_dir);
}

/* Damages every file of dk_dir with `how` (0 flipped bytes, 1 truncated,
 * 2 emptied, 3 an object LLVM refuses under a valid checksum, 4 another
 * file's content), then checks recompile, rewrite, hit. */
static void dk_damage(int how, const dk_vals *ref)
{
    dk_vals a;
    char names[16][DK_NAME_MAX];
    int nf = dk_list(dk_dir, names);
    assert_int_equal(nf, KIND.nfiles);
    for (int i = 0; i < nf && i < 16; i++) {
        struct stat st;
        assert_int_equal(stat(names[i], &st), 0);
        size_t n = (size_t)st.st_size;
        char *buf = malloc(n);
        FILE *fp = fopen(names[i], "rb");
        assert_true(buf && fp && fread(buf, 1, n, fp) == n);
        fclose(fp);
        if (how == 0) {
            buf[n - 100] ^= 0x5a;
            buf[9] ^= 0x5a;
        } else if (how == 1) {
            n /= 2;
        } else if (how == 2) {
            n = 0;
        } else if (how == 3) {
            /* the object is the file's end (offsets: disk_cache.c) */
            uint64_t objlen;
            memcpy(&objlen, buf + 32, 8);
            assert_memory_equal(buf + n - objlen, "\177ELF", 4);
            buf[n - objlen + 1] = 'X';
            uf__hash128 h;
            uf__hash128_init(&h);
            uf__hash128_add(&h, buf + 56, n - 56);
            memcpy(buf + 40, &h.a, 8);
            memcpy(buf + 48, &h.b, 8);
        } else {
            char cmd[700];
            snprintf(cmd, sizeof cmd, "cp '%.299s' '%.299s'",
                     names[(i + 1) % nf], names[i]);
            free(buf);
            if (i == 0) /* one file is enough */
                assert_int_equal(system(cmd), 0);
            continue;
        }
        fp = fopen(names[i], "wb");
        assert_true(fp && fwrite(buf, 1, n, fp) == n);
        fclose(fp);
        free(buf);
    }
    uint64_t nc = dk_run(&KIND, "", 0, &a);
    if (how != 4)
        assert_int_equal(nc, KIND.ncompiles);
    else
        assert_true(nc >= 1 && nc <= (uint64_t)KIND.ncompiles);
    dk_same(ref, &a);
    assert_int_equal(dk_list(dk_dir, NULL), KIND.nfiles);
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0); /* rewritten, valid */
    dk_same(ref, &a);
}

static void dk_test_damaged_files(void **state)
{
    (void)state;
    dk_vals ref, a;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    for (int how = 0; how < 5; how++)
        dk_damage(how, &ref);
    dk_remove_dir(dk_dir);
}

static void dk_test_changed_callee(void **state)
{
    (void)state;
    dk_vals ref0, ref1, a;
    dk_reference(&KIND, 0, &ref0);
    dk_reference(&KIND, 1, &ref1);
    dk_fresh_dir();
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    dk_same(&ref0, &a);
    assert_int_equal(dk_run(&KIND, "", 1, &a), KIND.ncompiles); /* stale */
    dk_same(&ref1, &a);
    assert_int_equal(dk_list(dk_dir, NULL), 2 * KIND.nfiles);
    assert_int_equal(dk_run(&KIND, "", 1, &a), 0);
    dk_same(&ref1, &a);
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0); /* both stay valid */
    dk_same(&ref0, &a);
    dk_remove_dir(dk_dir);
}

static void dk_test_options(void **state)
{
    (void)state;
    dk_vals ref, a;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    int files = dk_list(dk_dir, NULL);
    for (int i = 0; KIND.options[i]; i++) {
        /* kernels without keywords keep their files */
        uint64_t nc = dk_run(&KIND, KIND.options[i], 0, &a);
        if (nc != (uint64_t)(KIND.ncompiles - KIND.nfixed))
            fail_msg("option %s: %llu compilations", KIND.options[i],
                     (unsigned long long)nc);
        dk_same(&ref, &a); /* these kernels are exact under every option */
        int now = dk_list(dk_dir, NULL);
        assert_int_equal(now, files + KIND.nfiles - KIND.nfixed);
        files = now;
        assert_int_equal(dk_run(&KIND, KIND.options[i], 0, &a), 0);
    }
    setenv("UFJIT_DEBUG", "1", 1); /* bounds checks: other code */
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0);
    unsetenv("UFJIT_DEBUG");
    dk_same(&ref, &a);
    assert_int_equal(dk_list(dk_dir, NULL), files + KIND.nfiles);
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0);
    dk_remove_dir(dk_dir);
}

/* A kernel added to the file, or a changed option of another kernel,
 * leaves the keys of the others as they were; moving a kernel to other
 * lines does not (error statuses carry source lines). */
static void dk_test_other_kernels_edited(void **state)
{
    (void)state;
    dk_vals ref, a;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    dk_extra = "@njit\n"
               "def unrelated(x):\n"
               "    return x - 1\n";
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0);
    dk_same(&ref, &a);
    dk_extra = "";
    static char moved[8192];
    snprintf(moved, sizeof moved, "# a comment line\n%s", KIND.src);
    dk_kind k = KIND;
    k.src = moved;
    assert_int_equal(dk_run(&k, "", 0, &a), KIND.ncompiles);
    dk_same(&ref, &a);
    assert_int_equal(dk_run(&k, "", 0, &a), 0);
    assert_int_equal(dk_list(dk_dir, NULL), 2 * KIND.nfiles);
    dk_remove_dir(dk_dir);
}

static void dk_test_concurrent_writers(void **state)
{
    (void)state;
    enum { NPROC = 4 };
    dk_vals ref, a;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    pid_t pids[NPROC];
    for (int i = 0; i < NPROC; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            dk_vals v;
            /* each compiles or loads, and must get the reference values */
            dk_run(&KIND, "", 0, &v);
            _exit(v.n == ref.n &&
                          memcmp(v.v, ref.v, sizeof v.v[0] * (size_t)v.n) ==
                              0
                      ? 0
                      : 1);
        }
    }
    for (int i = 0; i < NPROC; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    assert_int_equal(dk_list(dk_dir, NULL), KIND.nfiles); /* no temporary */
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0);
    dk_same(&ref, &a);
    dk_remove_dir(dk_dir);
}

static void dk_test_unusable_dir(void **state)
{
    (void)state;
    dk_vals ref, a;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    char file[300], sub[320];
    snprintf(file, sizeof file, "%s/plain-file", dk_dir);
    FILE *fp = fopen(file, "w");
    assert_non_null(fp);
    fclose(fp);
    /* a regular file as the directory, and a directory under it */
    setenv("UFJIT_CACHE_DIR", file, 1);
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    dk_same(&ref, &a);
    snprintf(sub, sizeof sub, "%s/sub", file);
    setenv("UFJIT_CACHE_DIR", sub, 1);
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    dk_same(&ref, &a);
    unlink(file);
    /* a directory that does not exist yet is made */
    snprintf(sub, sizeof sub, "%s/a/b", dk_dir);
    setenv("UFJIT_CACHE_DIR", sub, 1);
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    assert_int_equal(dk_run(&KIND, "", 0, &a), 0);
    assert_int_equal(dk_list(sub, NULL), KIND.nfiles);
    dk_remove_dir(dk_dir);
}

static void dk_test_cache_flag(void **state)
{
    (void)state;
    dk_vals ref, a;
    dk_reference(&KIND, 0, &ref);
    dk_fresh_dir();
    unsetenv("UFJIT_CACHE_DIR");
    setenv("XDG_CACHE_HOME", dk_dir, 1);
    char sub[320];
    snprintf(sub, sizeof sub, "%s/ufjit", dk_dir);
    assert_int_equal(dk_run(&KIND, "", 0, &a), KIND.ncompiles);
    assert_int_equal(dk_list(sub, NULL), 0); /* no cache=True: no file */
    assert_int_equal(dk_run(&KIND, "cache=True", 0, &a), KIND.ncompiles);
    dk_same(&ref, &a);
    int files = dk_list(sub, NULL);
    assert_true(files >= KIND.ncompiles - KIND.nfixed);
    /* kernels without the keyword compile again */
    assert_int_equal(dk_run(&KIND, "cache=True", 0, &a), KIND.nfixed);
    dk_same(&ref, &a);
    assert_int_equal(dk_list(sub, NULL), files);
    unsetenv("XDG_CACHE_HOME");
    dk_remove_dir(dk_dir);
}

/* Every allocation failing in turn, with the files present (hits) and
 * absent (compile + store): UF_ERR_NOMEM or the right values; no leak. */
static void dk_test_alloc_failures(void **state)
{
    (void)state;
    dk_vals ref;
    dk_reference(&SMALL, 0, &ref);
    for (int hit = 1; hit >= 0; hit--) {
        dk_fresh_dir();
        dk_vals a;
        if (hit)
            assert_int_equal(dk_run(&SMALL, "", 0, &a), SMALL.ncompiles);
        long live0 = uf__alloc_live();
        for (long n = 1;; n++) {
            if (!hit)
                dk_remove_dir(dk_dir);
            uf_error err;
            uf_error_clear(&err);
            uf_context *ctx = uf_context_new(&err);
            uf_module *m = uf_module_from_string(ctx, "k.py",
                                                 dk_src(&SMALL, "", 0), &err);
            uf_assert_ok(m != NULL, &err);
            memset(&a, 0, sizeof a);
            uf__alloc_fail_at(n);
            int rc = SMALL.run(m, &a, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            uint64_t nc = dk_ncompiles(ctx);
            uf_module_free(m);
            uf_context_free(ctx);
            if (rc == 0)
                dk_same(&ref, &a);
            else if (rc != UF_ERR_NOMEM)
                fail_msg("allocation %ld failing gave rc %d: %s", n, rc,
                         err.message);
            if (uf__alloc_live() != live0)
                fail_msg("allocation %ld failing leaked %ld blocks", n,
                         uf__alloc_live() - live0);
            if (!failed) {
                assert_int_equal(rc, 0);
                assert_int_equal(nc, hit ? 0 : SMALL.ncompiles);
                assert_true(n > 5);
                if (getenv("UF_TEST_VERBOSE"))
                    printf("%s: %ld allocations\n", hit ? "hit" : "miss", n);
                break;
            }
        }
        dk_remove_dir(dk_dir);
    }
}

/* ---- timing (prog --time) ---------------------------------------------- */

/* Milliseconds of wall time (cpu false) or of this process's CPU time. */
static double dk_ms(bool cpu)
{
    struct timespec t;
    clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Best of `reps` runs: compiled without a cache, compiled and stored (a
 * miss), loaded (a hit); each a new context, the module and the first
 * calls; wall and CPU time. */
static void dk_time(const dk_kind *k, const char *what, int reps)
{
    double best[2][3] = {{1e30, 1e30, 1e30}, {1e30, 1e30, 1e30}};
    dk_vals v;
    for (int r = 0; r < reps; r++) {
        double t[2][4];
        unsetenv("UFJIT_CACHE_DIR");
        for (int c = 0; c < 2; c++)
            t[c][0] = dk_ms(c);
        dk_run(k, "", 0, &v);
        for (int c = 0; c < 2; c++)
            t[c][1] = dk_ms(c);
        dk_fresh_dir();
        for (int c = 0; c < 2; c++)
            t[c][1] = dk_ms(c);
        dk_run(k, "", 0, &v);
        for (int c = 0; c < 2; c++)
            t[c][2] = dk_ms(c);
        dk_run(k, "", 0, &v);
        for (int c = 0; c < 2; c++)
            t[c][3] = dk_ms(c);
        dk_remove_dir(dk_dir);
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < 3; i++)
                if (t[c][i + 1] - t[c][i] < best[c][i])
                    best[c][i] = t[c][i + 1] - t[c][i];
    }
    for (int c = 0; c < 2; c++)
        printf("%s (%d compilation%s), %s ms: no cache %.2f, miss (compile "
               "+ store) %.2f, hit (load) %.2f\n",
               what, k->ncompiles, k->ncompiles == 1 ? "" : "s",
               c ? "CPU" : "wall", best[c][0], best[c][1], best[c][2]);
}

static int dk_main(int argc, char **argv, const char *name)
{
    if (argc == 2 && strcmp(argv[1], "--child") == 0)
        return dk_child_main();
    if (argc == 2 && strcmp(argv[1], "--time") == 0) {
        dk_time(&SMALL, "one kernel", 7);
        dk_time(&KIND, name, 5);
        unsetenv("UFJIT_CACHE_DIR");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dk_test_miss_then_hit),
        cmocka_unit_test(dk_test_other_process),
        cmocka_unit_test(dk_test_damaged_files),
        cmocka_unit_test(dk_test_changed_callee),
        cmocka_unit_test(dk_test_options),
        cmocka_unit_test(dk_test_other_kernels_edited),
        cmocka_unit_test(dk_test_concurrent_writers),
        cmocka_unit_test(dk_test_unusable_dir),
        cmocka_unit_test(dk_test_cache_flag),
        cmocka_unit_test(dk_test_alloc_failures),
    };
    if (argc == 2) /* one test or a pattern: dk_test_options */
        cmocka_set_test_filter(argv[1]);
    int rc = cmocka_run_group_tests_name(name, tests, NULL, NULL);
    unsetenv("UFJIT_CACHE_DIR");
    return rc;
}

#endif
