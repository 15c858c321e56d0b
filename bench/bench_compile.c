/* Compile-time benchmark (issue 3's "one more signature under 10 ms" and
 * issue 5's cache goals): through the public API, in one process, for the
 * seeds' rel_diff, hypot and gaussian_pdf:
 *   - first: a new context's first compile (JIT creation included) of one
 *     signature;
 *   - one_sig: one more signature, one per module (a fresh source each
 *     time, so no cache can answer);
 *   - per_sig_of4: a kernel declaring four signatures, first call / 4;
 *   - reload: the same source loaded again into the same context (the
 *     in-memory compile cache answers);
 *   - one_sig_stored: one_sig with UFJIT_CACHE_DIR set (compile, object
 *     emission and an fsync'ed file write);
 *   - disk_hit: one signature loaded from the disk cache (UFJIT_CACHE_DIR,
 *     filled beforehand by another context) into a context whose JIT
 *     exists: load + first call, against one_sig;
 *   - disk_hit_new_context: the same with a new context (JIT creation
 *     included), against first;
 * (plus polar_distance, whose device function returns a tuple)
 * and, given the ufjit command, a whole `ufjit call` process on a kernel
 * file (median of runs), without and with a filled disk cache. Prints one line of JSON per case (milliseconds,
 * medians over REPS), for bench/run.py or a person.
 *
 * usage: [BENCH_CPU=1] [BENCH_KERNELS=a,b] [BENCH_CASES=c,d] bench_compile
 *        [REPS] [UFJIT_CLI]
 * (BENCH_KERNELS / BENCH_CASES: only those kernels / cases, by name, e.g.
 * BENCH_CASES=one_sig for a profiler run). */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ufjit/ufjit.h>

extern char **environ;

static const struct kernel {
    const char *name;
    int nin;
    const char *body; /* after the decorator */
    const char *pre; /* device functions before it, or NULL */
} kernels[] = {
    {"rel_diff", 2,
     "def rel_diff(x, y):\n"
     "    return 2 * (x - y) / (x + y)\n", NULL},
    {"hypot", 2,
     "def hypot(x, y):\n"
     "    x = abs(x)\n"
     "    y = abs(y)\n"
     "    t = min(x, y)\n"
     "    x = max(x, y)\n"
     "    t = t / x\n"
     "    return x * math.sqrt(1 + t * t)\n", NULL},
    {"gaussian_pdf", 3,
     "def gaussian_pdf(x, mean, sigma):\n"
     "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / "
     "(sigma * SQRT_2PI)\n", NULL},
    {"polar_distance", 4,
     "def polar_distance(rho1, theta1, rho2, theta2):\n"
     "    x1, y1 = p2c(rho1, theta1)\n"
     "    x2, y2 = p2c(rho2, theta2)\n"
     "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n",
     "@njit\n"
     "def p2c(rho, theta):\n"
     "    return rho * math.cos(theta), rho * math.sin(theta)\n\n"},
};
#define MAXIN 4

/* Whether `name` is in the comma-separated list in environment variable
 * `var` (unset: everything is). */
static int wanted(const char *var, const char *name)
{
    const char *l = getenv(var);
    if (!l || !*l)
        return 1;
    size_t n = strlen(name);
    for (const char *p = l; (p = strstr(p, name)) != NULL; p += n)
        if ((p == l || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Four signatures by dtype: float32, float64, int32, int64 inputs. */
static const char *const dnames[4] = {"float32", "float64", "int32",
                                      "int64"};
static const char *const rnames[4] = {"float32", "float64", "float64",
                                      "float64"};
static const uf_dtype dtypes[4] = {UF_FLOAT32, UF_FLOAT64, UF_INT32,
                                   UF_INT64};

/* Wall time, or with BENCH_CPU=1 the process's CPU time (steadier on a
 * shared machine; for the `ufjit call` case the child's, from wait4). */
static int use_cpu;

static double now(void)
{
    struct timespec ts;
    clock_gettime(use_cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The kernel's source with signatures sigs[0..nsig) (dtype indices), made
 * unique by `tag` (a dead assignment in the kernel). */
static void source(char *buf, size_t cap, const struct kernel *k,
                   const int *sigs, int nsig, long tag)
{
    int n = snprintf(buf, cap,
                     "# variant %ld\nimport math\n"
                     "from numba import njit, vectorize, float32\n"
                     "SQRT_2PI = float32((2 * math.pi) ** 0.5)\n"
                     "%s@vectorize([", tag, k->pre ? k->pre : "");
    for (int s = 0; s < nsig; s++) {
        int d = sigs[s];
        n += snprintf(buf + n, cap - (size_t)n, "%s'%s(", s ? ", " : "",
                      rnames[d]);
        for (int a = 0; a < k->nin; a++)
            n += snprintf(buf + n, cap - (size_t)n, "%s%s", a ? ", " : "",
                          dnames[d]);
        n += snprintf(buf + n, cap - (size_t)n, ")'");
    }
    /* the tag inside the kernel too: the compile cache ignores comments */
    const char *nl = strchr(k->body, '\n');
    snprintf(buf + n, cap - (size_t)n, "])\n%.*s    _variant = %ld\n%s",
             (int)(nl - k->body + 1), k->body, tag, nl + 1);
}

/* Loads `src` into ctx and calls the kernel once per dtype in sigs (one
 * element each: the compile dominates). Returns seconds or -1. */
static double load_and_call(uf_context *ctx, const struct kernel *k,
                            const char *src, const int *sigs, int nsig)
{
    uf_error err;
    uf_error_clear(&err);
    double t0 = now();
    uf_module *m = uf_module_from_string(ctx, "bench.py", src, &err);
    uf_func *f = m ? uf_module_get(m, k->name, &err) : NULL;
    int rc = f ? 0 : -1;
    for (int s = 0; rc == 0 && s < nsig; s++) {
        uf_array *in[MAXIN] = {NULL}, *out = NULL;
        int64_t one = 1;
        double v = 1.5;
        for (int a = 0; a < k->nin; a++)
            if (!(in[a] = uf_full(dtypes[sigs[s]], 1, &one, &v, UF_FLOAT64,
                                  UF_ORDER_C, &err)))
                rc = -1;
        if (rc == 0)
            rc = uf_call(f, in, k->nin, &out, 1, NULL, &err);
        uf_array_release(out);
        for (int a = 0; a < k->nin; a++)
            uf_array_release(in[a]);
    }
    double t = now() - t0;
    uf_module_free(m);
    if (rc < 0) {
        fprintf(stderr, "bench_compile: %s: %s\n", k->name, err.message);
        return -1;
    }
    return t;
}

static void report(const char *kernel, const char *what, double *t, int n)
{
    double m = median(t, n); /* sorts t */
    printf("{\"kernel\": \"%s\", \"case\": \"%s\", \"clock\": \"%s\", "
           "\"median_ms\": %.3f, "
           "\"min_ms\": %.3f, \"max_ms\": %.3f}\n", kernel, what,
           use_cpu ? "cpu" : "wall", 1e3 * m,
           1e3 * t[0], 1e3 * t[n - 1]);
    fflush(stdout);
}

/* A whole `ufjit call FILE NAME 1.5 2.5 [3.5] -o OUT` process. */
static double run_cli(const char *cli, const char *file,
                      const struct kernel *k, const char *out)
{
    static const char *const vals[MAXIN] = {"1.5", "2.5", "3.5", "4.5"};
    char *argv[8 + MAXIN] = {(char *)cli, "call", (char *)file,
                             (char *)k->name};
    int a = 4;
    for (int i = 0; i < k->nin; i++)
        argv[a++] = (char *)vals[i];
    argv[a++] = "-o";
    argv[a++] = (char *)out;
    argv[a] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    double t0 = now();
    pid_t pid;
    int rc = posix_spawn(&pid, cli, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    if (use_cpu)
        return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    return now() - t0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    const char *cpu = getenv("BENCH_CPU");
    use_cpu = cpu && *cpu && strcmp(cpu, "0") != 0;
    const char *cli = argc > 2 ? argv[2] : NULL;
    if (reps < 1 || reps > 1000)
        return 2;
    double *t = calloc((size_t)reps, sizeof *t);
    char *src = malloc(8192);
    if (!t || !src)
        return 1;
    long tag = (long)getpid() * 100000;
    static const int all[4] = {0, 1, 2, 3};
    uf_error err;
    uf_error_clear(&err);

    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        const struct kernel *k = &kernels[ki];
        if (!wanted("BENCH_KERNELS", k->name))
            continue;
        /* a new context's first compile */
        for (int r = 0; wanted("BENCH_CASES", "first") && r < reps; r++) {
            double t0 = now();
            uf_context *ctx = uf_context_new(&err);
            source(src, 8192, k, &all[1], 1, ++tag);
            double c = ctx ? load_and_call(ctx, k, src, &all[1], 1) : -1;
            t[r] = c < 0 ? -1 : now() - t0;
            uf_context_free(ctx);
            if (t[r] < 0)
                return 1;
            if (r == reps - 1)
                report(k->name, "first", t, reps);
        }

        uf_context *ctx = uf_context_new(&err);
        if (!ctx)
            return 1;
        source(src, 8192, k, all, 1, ++tag); /* warm up */
        if (load_and_call(ctx, k, src, all, 1) < 0)
            return 1;
        if (wanted("BENCH_CASES", "one_sig")) {
            for (int r = 0; r < reps; r++) {
                source(src, 8192, k, &all[r % 2], 1, ++tag);
                if ((t[r] = load_and_call(ctx, k, src, &all[r % 2], 1)) < 0)
                    return 1;
            }
            report(k->name, "one_sig", t, reps);
        }

        if (wanted("BENCH_CASES", "per_sig_of4")) {
            for (int r = 0; r < reps; r++) {
                source(src, 8192, k, all, 4, ++tag);
                if ((t[r] = load_and_call(ctx, k, src, all, 4)) < 0)
                    return 1;
                t[r] /= 4;
            }
            report(k->name, "per_sig_of4", t, reps);
        }

        /* the same source again: everything is in the context's cache */
        if (wanted("BENCH_CASES", "reload_4sigs")) {
            source(src, 8192, k, all, 4, ++tag);
            if (load_and_call(ctx, k, src, all, 4) < 0)
                return 1;
            for (int r = 0; r < reps; r++)
                if ((t[r] = load_and_call(ctx, k, src, all, 4)) < 0)
                    return 1;
            report(k->name, "reload_4sigs", t, reps);
        }
        uf_context_free(ctx);

        /* the disk cache: files made by one context, loaded by others */
        char cdir[64];
        snprintf(cdir, sizeof cdir, "/tmp/bench_compile_cache_%ld",
                 (long)getpid());
        if (wanted("BENCH_CASES", "one_sig_stored") ||
            wanted("BENCH_CASES", "disk_hit") ||
            wanted("BENCH_CASES", "disk_hit_new_context")) {
            setenv("UFJIT_CACHE_DIR", cdir, 1);
            long base = tag;
            if (!(ctx = uf_context_new(&err)))
                return 1;
            source(src, 8192, k, &all[1], 1, ++tag + 2 * reps); /* warm */
            if (load_and_call(ctx, k, src, &all[1], 1) < 0)
                return 1;
            for (int r = 0; r < reps; r++) {
                source(src, 8192, k, &all[1], 1, base + r);
                if ((t[r] = load_and_call(ctx, k, src, &all[1], 1)) < 0)
                    return 1;
            }
            if (wanted("BENCH_CASES", "one_sig_stored"))
                report(k->name, "one_sig_stored", t, reps); /* + write */
            uf_context_free(ctx);
            if (!(ctx = uf_context_new(&err)))
                return 1;
            source(src, 8192, k, &all[1], 1, ++tag + reps); /* JIT made */
            if (load_and_call(ctx, k, src, &all[1], 1) < 0)
                return 1;
            for (int r = 0; r < reps; r++) {
                source(src, 8192, k, &all[1], 1, base + r);
                if ((t[r] = load_and_call(ctx, k, src, &all[1], 1)) < 0)
                    return 1;
            }
            if (wanted("BENCH_CASES", "disk_hit"))
                report(k->name, "disk_hit", t, reps);
            uf_context_free(ctx);
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                uf_context *c2 = uf_context_new(&err);
                source(src, 8192, k, &all[1], 1, base + r);
                double c = c2 ? load_and_call(c2, k, src, &all[1], 1) : -1;
                t[r] = c < 0 ? -1 : now() - t0;
                uf_context_free(c2);
                if (t[r] < 0)
                    return 1;
            }
            if (wanted("BENCH_CASES", "disk_hit_new_context"))
                report(k->name, "disk_hit_new_context", t, reps);
            tag += 3 * reps;
            unsetenv("UFJIT_CACHE_DIR");
        }

        if (cli && (wanted("BENCH_CASES", "ufjit_call_process") ||
                    wanted("BENCH_CASES", "ufjit_call_process_cached"))) {
            char file[64], out[64];
            snprintf(file, sizeof file, "/tmp/bench_compile_%ld.py",
                     (long)getpid());
            snprintf(out, sizeof out, "/tmp/bench_compile_%ld.npy",
                     (long)getpid());
            source(src, 8192, k, all, 2, 0);
            FILE *fp = fopen(file, "w");
            if (!fp || fputs(src, fp) < 0 || fclose(fp) != 0)
                return 1;
            for (int r = 0; r < reps; r++)
                if ((t[r] = run_cli(cli, file, k, out)) < 0) {
                    fprintf(stderr, "bench_compile: %s call failed\n", cli);
                    return 1;
                }
            if (wanted("BENCH_CASES", "ufjit_call_process"))
                report(k->name, "ufjit_call_process", t, reps);
            setenv("UFJIT_CACHE_DIR", cdir, 1);
            if (run_cli(cli, file, k, out) < 0) /* fills the cache */
                return 1;
            for (int r = 0; r < reps; r++)
                if ((t[r] = run_cli(cli, file, k, out)) < 0)
                    return 1;
            if (wanted("BENCH_CASES", "ufjit_call_process_cached"))
                report(k->name, "ufjit_call_process_cached", t, reps);
            unsetenv("UFJIT_CACHE_DIR");
            remove(file);
            remove(out);
        }
        char rm[96];
        snprintf(rm, sizeof rm, "rm -rf '%s'", cdir);
        if (system(rm) != 0)
            return 1;
    }
    free(src);
    free(t);
    return 0;
}
