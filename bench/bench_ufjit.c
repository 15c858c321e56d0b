/* ufjit's side of the benchmark suite: a small server that bench/run.py
 * drives over stdin/stdout, so that one process keeps its compiled kernels
 * and its arrays while the Python side alternates rounds between ufjit and
 * its peers (machine noise then hits every contender alike).
 *
 * One command per line, one JSON object per reply line:
 *   case DTYPE NIN OP... NOUT SHAPE...
 *       new operands (frees the previous case's). OP is lin/LO/HI/SHAPE
 *       (np.linspace(LO, HI, size).reshape(SHAPE)), optionally /SLICE
 *       (a view such as ::2), or scalar/V (a 0-d array). SHAPE is 10x4x4,
 *       or - for 0-d. Outputs are allocated once, C order.
 *   prep KEY FILE KERNEL TARGET MVEC THREADS MODE AXES
 *       loads FILE (one context per MVEC: UFJIT_ENABLE_LIBMVEC=MVEC, set
 *       explicitly either way; 1 is ufjit's default),
 *       calls KERNEL once on the case (timed: includes the compile) and
 *       replies with a checksum of each output. MODE: call (uf_call) or
 *       ureduce (uf_reduce, the ufunc method); AXES: - (the default),
 *       all, or 0,1 (a list).
 *   run KEY REPS BATCH
 *       REPS timings, each the mean of BATCH back-to-back calls.
 *   compile FILE KERNEL DTYPE    load + first call on 10 elements, and a
 *       warm call: compile time of one more signature in a warm process.
 *   cachehit FILE KERNEL DTYPE DIR    the same in a new context with
 *       UFJIT_CACHE_DIR=DIR (hits once DIR holds the kernel).
 *       Both with ufjit's default, libmvec on (UFJIT_ENABLE_LIBMVEC=1).
 *   quit
 * Failures reply {"ok": false, "code": "UF_ERR_...", "error": "..."}; the
 * server keeps going. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/ufjit.h>

#define MAX_OPS 8
#define MAX_KEYS 32
#define MAX_MODULES 16

typedef struct prepared {
    uf_func *f;
    char target[32];
    int threads;
    int ureduce;
    uf_axes_mode axes_mode;
    int naxes;
    int axes[UF_MAXDIMS];
} prepared;

typedef struct loaded {
    int mvec;
    char path[1024];
    uf_module *m;
} loaded;

static uf_context *ctxs[2];
static loaded mods[MAX_MODULES];
static int nmods;
static uf_array *ins[MAX_OPS], *outs[MAX_OPS];
static int nin, nout;
static uf_dtype case_dtype = UF_FLOAT64;
static prepared keys[MAX_KEYS];
static int key_used[MAX_KEYS];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c == '\n')
            fputs("\\n", stdout);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void reply_error(const uf_error *err)
{
    printf("{\"ok\": false, \"code\": \"%s\", \"error\": ",
           uf_err_name(err->code));
    json_str(err->message);
    puts("}");
}

static void reply_usage(const char *what)
{
    fputs("{\"ok\": false, \"code\": \"usage\", \"error\": ", stdout);
    json_str(what);
    puts("}");
}

/* "10x4x4" -> shape; "-" -> 0-d. Returns ndim or -1. */
static int parse_shape(const char *s, int64_t *shape)
{
    int nd = 0;
    if (strcmp(s, "-") == 0)
        return 0;
    while (*s) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < 0 || nd == UF_MAXDIMS)
            return -1;
        shape[nd++] = v;
        s = *end == 'x' ? end + 1 : end;
        if (*end && *end != 'x')
            return -1;
    }
    return nd;
}

static uf_array *make_operand(char *spec, uf_error *err)
{
    char *save = NULL;
    char *kind = strtok_r(spec, "/", &save);
    if (kind != NULL && strcmp(kind, "scalar") == 0) {
        char *v = strtok_r(NULL, "/", &save);
        double x = v ? atof(v) : 0.0;
        return uf_full(case_dtype, 0, NULL, &x, UF_FLOAT64, UF_ORDER_C, err);
    }
    char *lo = strtok_r(NULL, "/", &save), *hi = strtok_r(NULL, "/", &save);
    char *sh = strtok_r(NULL, "/", &save), *sl = strtok_r(NULL, "/", &save);
    int64_t shape[UF_MAXDIMS], size = 1;
    int nd = sh ? parse_shape(sh, shape) : -1;
    if (kind == NULL || strcmp(kind, "lin") != 0 || hi == NULL || nd < 0) {
        uf_error_clear(err);
        err->code = UF_ERR_INVALID;
        snprintf(err->message, sizeof err->message, "bad operand spec");
        return NULL;
    }
    for (int i = 0; i < nd; i++)
        size *= shape[i];
    uf_array *flat = uf_linspace(atof(lo), atof(hi), size, true, case_dtype,
                                 err);
    if (flat == NULL)
        return NULL;
    uf_array *a = uf_array_reshape(flat, nd, shape, UF_ORDER_C, false, err);
    uf_array_release(flat);
    if (a != NULL && sl != NULL) {
        uf_array *v = uf_array_slice(a, sl, err);
        uf_array_release(a);
        a = v;
    }
    return a;
}

static void free_case(void)
{
    for (int i = 0; i < nin; i++)
        uf_array_release(ins[i]);
    for (int i = 0; i < nout; i++)
        uf_array_release(outs[i]);
    nin = nout = 0;
    memset(key_used, 0, sizeof key_used);
}

static void cmd_case(char **tok, int ntok)
{
    uf_error err;
    uf_error_clear(&err);
    free_case();
    if (ntok < 3 || uf_dtype_from_name(tok[1], &case_dtype, &err) < 0) {
        if (ntok < 3)
            reply_usage("case DTYPE NIN OP... NOUT SHAPE...");
        else
            reply_error(&err);
        return;
    }
    int n_in = atoi(tok[2]);
    if (n_in < 0 || n_in > MAX_OPS || ntok < 4 + n_in) {
        reply_usage("case: bad operand count");
        return;
    }
    int n_out = atoi(tok[3 + n_in]);
    if (n_out < 0 || n_out > MAX_OPS || ntok != 4 + n_in + n_out) {
        reply_usage("case: bad output count");
        return;
    }
    for (int i = 0; i < n_in; i++) {
        if ((ins[i] = make_operand(tok[3 + i], &err)) == NULL)
            goto fail;
        nin++;
    }
    for (int i = 0; i < n_out; i++) {
        int64_t shape[UF_MAXDIMS];
        int nd = parse_shape(tok[4 + n_in + i], shape);
        if (nd < 0) {
            reply_usage("case: bad output shape");
            free_case();
            return;
        }
        if ((outs[i] = uf_empty(case_dtype, nd, shape, UF_ORDER_C, &err)) ==
            NULL)
            goto fail;
        nout++;
    }
    puts("{\"ok\": true}");
    return;
fail:
    reply_error(&err);
    free_case();
}

/* A context's JIT reads UFJIT_ENABLE_LIBMVEC when it is created, at the
 * context's first compile: callers set it before every use. */
static uf_context *context(int mvec, uf_error *err)
{
    setenv("UFJIT_ENABLE_LIBMVEC", mvec ? "1" : "0", 1);
    if (ctxs[mvec] == NULL)
        ctxs[mvec] = uf_context_new(err);
    return ctxs[mvec];
}

static uf_func *get_func(int mvec, const char *path, const char *name,
                         uf_error *err)
{
    uf_module *m = NULL;
    for (int i = 0; i < nmods && m == NULL; i++)
        if (mods[i].mvec == mvec && strcmp(mods[i].path, path) == 0)
            m = mods[i].m;
    if (m == NULL) {
        uf_context *ctx = context(mvec, err);
        if (ctx == NULL || (m = uf_module_load(ctx, path, err)) == NULL)
            return NULL;
        if (nmods == MAX_MODULES) {
            uf_module_free(m);
            err->code = UF_ERR_INVALID;
            snprintf(err->message, sizeof err->message, "too many modules");
            return NULL;
        }
        mods[nmods].mvec = mvec;
        snprintf(mods[nmods].path, sizeof mods[nmods].path, "%s", path);
        mods[nmods++].m = m;
    }
    return uf_module_get(m, name, err);
}

static int call(const prepared *p, uf_error *err)
{
    uf_call_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.target = p->target;
    o.num_threads = p->threads;
    o.axes_mode = p->axes_mode;
    o.naxes = p->naxes;
    o.axes = p->axes;
    if (p->ureduce)
        return uf_reduce(p->f, ins[0], &outs[0], &o, err);
    return uf_call(p->f, ins, nin, outs, nout, &o, err);
}

/* Sum and sum of magnitudes, in double, of a C-contiguous output. */
static void checksum(const uf_array *a, double *sum, double *asum)
{
    int64_t n = uf_array_size(a);
    const void *d = uf_array_data(a);
    *sum = *asum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double v;
        switch (uf_array_dtype(a)) {
        case UF_FLOAT32: v = ((const float *)d)[i]; break;
        case UF_FLOAT64: v = ((const double *)d)[i]; break;
        case UF_INT32: v = ((const int32_t *)d)[i]; break;
        case UF_INT64: v = (double)((const int64_t *)d)[i]; break;
        default: v = 0.0; break;
        }
        *sum += v;
        *asum += v < 0 ? -v : v;
    }
}

static void cmd_prep(char **tok, int ntok)
{
    uf_error err;
    uf_error_clear(&err);
    if (ntok != 9) {
        reply_usage("prep KEY FILE KERNEL TARGET MVEC THREADS MODE AXES");
        return;
    }
    int key = atoi(tok[1]);
    if (key < 0 || key >= MAX_KEYS) {
        reply_usage("prep: bad key");
        return;
    }
    prepared *p = &keys[key];
    memset(p, 0, sizeof *p);
    key_used[key] = 0;
    snprintf(p->target, sizeof p->target, "%s", tok[4]);
    p->threads = atoi(tok[6]);
    p->ureduce = strcmp(tok[7], "ureduce") == 0;
    if (strcmp(tok[8], "all") == 0) {
        p->axes_mode = UF_AXES_ALL;
    } else if (strcmp(tok[8], "-") != 0) {
        p->axes_mode = UF_AXES_LIST;
        for (char *s = tok[8]; *s && p->naxes < UF_MAXDIMS;) {
            char *end;
            p->axes[p->naxes++] = (int)strtol(s, &end, 10);
            s = *end == ',' ? end + 1 : end;
            if (end == s && *s) {
                reply_usage("prep: bad axes");
                return;
            }
        }
    }
    if ((p->ureduce && nin != 1) || nout < 1) {
        reply_usage("prep: the case does not fit the mode");
        return;
    }
    int mvec = atoi(tok[5]) != 0;
    if ((p->f = get_func(mvec, tok[2], tok[3], &err)) == NULL) {
        reply_error(&err);
        return;
    }
    setenv("UFJIT_ENABLE_LIBMVEC", mvec ? "1" : "0", 1);
    double t0 = now();
    if (call(p, &err) < 0) {
        reply_error(&err);
        return;
    }
    double first = now() - t0;
    key_used[key] = 1;
    printf("{\"ok\": true, \"first_s\": %.9g, \"checksum\": [", first);
    for (int i = 0; i < nout; i++) {
        double s, as;
        checksum(outs[i], &s, &as);
        printf("%s[%.17g, %.17g]", i ? ", " : "", s, as);
    }
    puts("]}");
}

static void cmd_run(char **tok, int ntok)
{
    uf_error err;
    uf_error_clear(&err);
    int key = ntok == 4 ? atoi(tok[1]) : -1;
    long reps = ntok == 4 ? atol(tok[2]) : 0;
    long batch = ntok == 4 ? atol(tok[3]) : 0;
    if (key < 0 || key >= MAX_KEYS || !key_used[key] || reps < 1 ||
        batch < 1 || reps > 100000) {
        reply_usage("run KEY REPS BATCH (after a successful prep)");
        return;
    }
    double *t = malloc((size_t)reps * sizeof *t);
    if (t == NULL) {
        reply_usage("run: out of memory");
        return;
    }
    for (long r = 0; r < reps; r++) {
        double t0 = now();
        for (long b = 0; b < batch; b++)
            if (call(&keys[key], &err) < 0) {
                reply_error(&err);
                free(t);
                return;
            }
        t[r] = (now() - t0) / (double)batch;
    }
    fputs("{\"ok\": true, \"times\": [", stdout);
    for (long r = 0; r < reps; r++)
        printf("%s%.9g", r ? ", " : "", t[r]);
    puts("]}");
    free(t);
}

/* Load + first call + warm call of FILE's KERNEL on 10 elements in `ctx`. */
static int time_compile(uf_context *ctx, const char *path, const char *name,
                        const char *dtname, double *t_load, double *t_first,
                        double *t_warm, uf_error *err)
{
    uf_dtype dt;
    uf_array *a[MAX_OPS] = {0}, *out[MAX_OPS] = {0};
    int na = 0, no = 0, rc = -1;
    uf_module *m = NULL;
    if (uf_dtype_from_name(dtname, &dt, err) < 0)
        return -1;
    double t0 = now();
    if ((m = uf_module_load(ctx, path, err)) == NULL)
        return -1;
    uf_func *f = uf_module_get(m, name, err);
    *t_load = now() - t0;
    if (f == NULL)
        goto done;
    na = uf_func_nin(f);
    no = uf_func_nout(f) < 1 ? 1 : uf_func_nout(f); /* -1: not known yet */
    if (na < 1 || na > MAX_OPS || no < 1 || no > MAX_OPS) {
        err->code = UF_ERR_INVALID;
        snprintf(err->message, sizeof err->message, "compile: %d inputs, "
                 "%d outputs not supported", na, no);
        na = no = 0;
        goto done;
    }
    for (int i = 0; i < na; i++)
        if ((a[i] = uf_linspace(1.0 + i, 2.0 + i, 10, true, dt, err)) ==
            NULL)
            goto done;
    t0 = now();
    if (uf_call(f, a, na, out, no, NULL, err) < 0)
        goto done;
    *t_first = now() - t0;
    t0 = now();
    if (uf_call(f, a, na, out, no, NULL, err) < 0)
        goto done;
    *t_warm = now() - t0;
    rc = 0;
done:
    for (int i = 0; i < na; i++)
        uf_array_release(a[i]);
    for (int i = 0; i < no; i++)
        uf_array_release(out[i]);
    uf_module_free(m);
    return rc;
}

static void cmd_compile(char **tok, int ntok, int cachehit)
{
    uf_error err;
    uf_error_clear(&err);
    if (ntok != (cachehit ? 5 : 4)) {
        reply_usage(cachehit ? "cachehit FILE KERNEL DTYPE DIR"
                             : "compile FILE KERNEL DTYPE");
        return;
    }
    double t_ctx = 0.0, t_load = 0.0, t_first = 0.0, t_warm = 0.0;
    uf_context *ctx;
    if (cachehit) {
        /* a fresh context sees the cache directory, as a new process would */
        setenv("UFJIT_CACHE_DIR", tok[4], 1);
        setenv("UFJIT_ENABLE_LIBMVEC", "1", 1);
        double t0 = now();
        ctx = uf_context_new(&err);
        t_ctx = now() - t0;
    } else {
        ctx = context(1, &err);
    }
    int rc = ctx ? time_compile(ctx, tok[1], tok[2], tok[3], &t_load,
                                &t_first, &t_warm, &err)
                 : -1;
    if (cachehit) {
        uf_context_free(ctx);
        unsetenv("UFJIT_CACHE_DIR");
    }
    if (rc < 0) {
        reply_error(&err);
        return;
    }
    printf("{\"ok\": true, \"context_s\": %.9g, \"load_s\": %.9g, "
           "\"first_s\": %.9g, \"warm_s\": %.9g}\n",
           t_ctx, t_load, t_first, t_warm);
}

int main(void)
{
    char line[8192];
    /* never read by the library: contexts set it as they are created */
    unsetenv("UFJIT_CACHE_DIR");
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *tok[64];
        int ntok = 0;
        char *save = NULL;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && ntok < 64;
             t = strtok_r(NULL, " \t\r\n", &save))
            tok[ntok++] = t;
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "quit") == 0)
            break;
        if (strcmp(tok[0], "case") == 0)
            cmd_case(tok, ntok);
        else if (strcmp(tok[0], "prep") == 0)
            cmd_prep(tok, ntok);
        else if (strcmp(tok[0], "run") == 0)
            cmd_run(tok, ntok);
        else if (strcmp(tok[0], "compile") == 0)
            cmd_compile(tok, ntok, 0);
        else if (strcmp(tok[0], "cachehit") == 0)
            cmd_compile(tok, ntok, 1);
        else
            reply_usage("unknown command");
        fflush(stdout);
    }
    free_case();
    for (int i = 0; i < nmods; i++)
        uf_module_free(mods[i].m);
    for (int i = 0; i < 2; i++)
        uf_context_free(ctxs[i]);
    return 0;
}
