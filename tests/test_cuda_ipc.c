/* Pinned and mapped host arrays (uf_pin_array) and IPC handles of device
 * arrays (uf_cuda_ipc_get / uf_cuda_ipc_open) on cudasim, or a GPU under
 * UFJIT_TEST_CUDA_TARGET=cuda (tests/cmake/ipc.cmake). The cross-process
 * test starts this program again (fork + exec of /proc/self/exe, never a
 * bare fork: cudasim has threads) with the handle in hex; the child opens
 * it, checks the values, writes new ones and exits 0. Also: fallible
 * kernels' status words come from the memory manager (the counting
 * plug-in sees them). Every test ends with the manager reset, which fails
 * while memory is still allocated or pinned. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#include "cuda_test_target.h"
#include "emm_limit.h"

static const char *T;
static uf_context *ctx;
static uf_module *mod;

static const char *KERNELS =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64)'])\n"
    "def twice(x):\n"
    "    return 2.0 * x\n"
    "@vectorize(['float64(float64)'])\n"
    "def checked(x):\n"
    "    assert x >= 0.0\n"
    "    return x + 1.0\n";

static uf_cuda_memory_stats stats(void)
{
    uf_error err;
    uf_cuda_memory_stats s;
    uf_assert_ok(uf_cuda_memory_stats_get(T, &s, &err) == 0, &err);
    return s;
}

static int teardown(void **state)
{
    (void)state;
    uf_error err;
    if (uf_cuda_memory_take_error(T, &err) != 0 ||
        uf_cuda_memory_flush(T, &err) != 0 ||
        uf_cuda_memory_reset(T, &err) != 0 ||
        uf_cuda_set_memory_manager(T, NULL, &err) != 0) {
        fprintf(stderr, "teardown: %s\n", err.message);
        return -1;
    }
    return stats().live_allocations == 0 ? 0 : -1;
}

static uf_array *host_f64(int64_t n, double k)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++)
        ((double *)uf_array_data(a))[i] = k * (double)i;
    return a;
}

static uf_array *device_f64(int64_t n, double k)
{
    uf_error err;
    uf_array *h = host_f64(n, k);
    uf_array *d = uf_to_device(h, T, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_array_release(h);
    return d;
}

/* device array a's values, expected k * (first + i * step) */
static void expect_values(uf_array *a, double k, int64_t first,
                          int64_t step)
{
    uf_error err;
    uf_array *h = uf_copy_to_host(a, NULL, NULL, &err);
    uf_assert_ok(h != NULL, &err);
    const double *v = uf_array_data(h);
    for (int64_t i = 0; i < uf_array_size(h); i++)
        if (v[i] != k * (double)(first + i * step))
            fail_msg("element %lld: %g, expected %g", (long long)i, v[i],
                     k * (double)(first + i * step));
    uf_array_release(h);
}

static uf_func *get(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* ---- pinned and mapped ---- */

/* pinned: a view of the same memory, a stream copy's source; unpinned
 * exactly once (the pin is live while the view is, and the memory can be
 * pinned again after; a second unpin would be a sticky error) */
static void pinned_copy_source(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 5000;
    uf_array *a = host_f64(n, 0.25);
    size_t live = stats().live_allocations;
    uf_array *p = uf_pin_array(a, false, T, &err);
    uf_assert_ok(p != NULL, &err);
    assert_ptr_equal(uf_array_data(p), uf_array_data(a));
    assert_int_equal(uf_array_device(p).type, UF_DEVICE_HOST);
    assert_int_equal(stats().live_allocations, live + 1);
    /* pinning it again while pinned: refused */
    assert_null(uf_pin_array(a, false, T, &err));
    assert_int_not_equal(err.code, 0);

    uf_stream *s = uf_stream_create(T, &err);
    uf_assert_ok(s != NULL, &err);
    uf_array *d = uf_to_device(p, T, s, &err);
    uf_assert_ok(d != NULL, &err);
    uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
    expect_values(d, 0.25, 0, 1);
    uf_array_release(d);
    uf_stream_destroy(s);

    uf_array_release(a); /* the pinned view keeps it alive */
    uf_array *view = uf_array_slice(p, "10:20", &err);
    uf_assert_ok(view != NULL, &err);
    uf_array_release(p);
    assert_int_equal(stats().live_allocations, live + 1); /* view holds it */
    assert_true(((double *)uf_array_data(view))[0] == 2.5);
    void *mem = uf_array_data(view);
    uf_array_release(view);
    assert_int_equal(stats().live_allocations, live);
    assert_int_equal(uf_cuda_memory_take_error(T, &err), 0);
    (void)mem;
}

/* a negative-stride view pins the memory it spans; an empty array pins
 * nothing; a device array is refused */
static void pinned_edges(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = host_f64(100, 1.0);
    uf_array *rev = uf_array_slice(a, "90:9:-3", &err);
    uf_assert_ok(rev != NULL, &err);
    size_t live = stats().live_allocations;
    uf_array *p = uf_pin_array(rev, false, T, &err);
    uf_assert_ok(p != NULL, &err);
    assert_int_equal(stats().live_allocations, live + 1);
    assert_true(((double *)uf_array_data(p))[0] == 90.0);
    uf_array_release(p);
    assert_int_equal(stats().live_allocations, live);

    int64_t zero = 0;
    uf_array *e = uf_empty(UF_FLOAT64, 1, &zero, UF_ORDER_C, &err);
    uf_array *pe = uf_pin_array(e, true, T, &err);
    uf_assert_ok(pe != NULL, &err);
    assert_int_equal(uf_array_size(pe), 0);
    assert_int_equal(stats().live_allocations, live);
    uf_array_release(pe);
    uf_array_release(e);

    uf_array *d = device_f64(4, 1.0);
    assert_null(uf_pin_array(d, false, T, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_pin_array(NULL, false, T, &err));
    uf_array_release(d);
    uf_array_release(rev);
    uf_array_release(a);
}

/* mapped: a device array over the host memory, written in place by a
 * kernel; the host sees the values without a copy */
static void mapped_written_by_kernel(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 3000;
    uf_array *h = host_f64(n, 0.0);
    uf_array *m = uf_pin_array(h, true, T, &err);
    uf_assert_ok(m != NULL, &err);
    assert_int_equal(uf_array_device(m).type, UF_DEVICE_CUDA);
    uf_array *x = device_f64(n, 1.5);
    /* a call on device operands returns once queued (on a GPU, before
     * the kernel ran): wait on its stream before reading the host side */
    uf_stream *s = uf_stream_create(T, &err);
    uf_assert_ok(s != NULL, &err);
    uf_call_options o = {.size = sizeof o, .target = T, .stream = s};
    uf_array *in[1] = {x}, *out[1] = {m};
    uf_assert_ok(uf_call(get("twice"), in, 1, out, 1, &o, &err) == 0, &err);
    uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
    uf_stream_destroy(s);
    const double *v = uf_array_data(h);
    for (int64_t i = 0; i < n; i++)
        assert_true(v[i] == 3.0 * (double)i);
    uf_array_release(x);
    uf_array_release(m);
    uf_array_release(h);
}

/* ---- IPC ---- */

static void hex_of(const void *p, size_t n, char *out)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

static bool from_hex(const char *s, void *p, size_t n)
{
    unsigned char *b = p;
    if (strlen(s) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return false;
        b[i] = (unsigned char)v;
    }
    return true;
}

/* The child: argv = --ipc-child TARGET HEX K FIRST. Opens the handle,
 * checks that element i is K * (FIRST + i), writes -(FIRST + i) with a
 * copy, closes. The exit status says what failed. */
static int ipc_child(char **argv)
{
    uf_cuda_ipc_array_handle h;
    if (!from_hex(argv[3], &h, sizeof h))
        return 10;
    double k = atof(argv[4]);
    int64_t first = atoll(argv[5]);
    uf_error err;
    uf_array *a = uf_cuda_ipc_open(&h, argv[2], &err);
    if (a == NULL) {
        fprintf(stderr, "child: %s\n", err.message);
        return 11;
    }
    /* opened twice: one mapping, counted */
    uf_array *again = uf_cuda_ipc_open(&h, argv[2], &err);
    if (again == NULL || uf_array_data(again) != uf_array_data(a))
        return 12;
    uf_array_release(again);
    uf_array *v = uf_copy_to_host(a, NULL, NULL, &err);
    if (v == NULL)
        return 13;
    double *x = uf_array_data(v);
    for (int64_t i = 0; i < uf_array_size(v); i++) {
        if (x[i] != k * (double)(first + i))
            return 14;
        x[i] = -(double)(first + i);
    }
    if (uf_copy_to_device(a, v, NULL, &err) != 0)
        return 15;
    uf_array_release(v);
    uf_array_release(a);
    if (uf_cuda_memory_take_error(argv[2], &err) != 0) {
        fprintf(stderr, "child: %s\n", err.message);
        return 16;
    }
    return 0;
}

/* runs the child on handle h; its exit status */
static int run_child(const uf_cuda_ipc_array_handle *h, double k,
                     int64_t first)
{
    char *hex = malloc(2 * sizeof *h + 1);
    hex_of(h, sizeof *h, hex);
    char ks[32], fs[32];
    snprintf(ks, sizeof ks, "%.17g", k);
    snprintf(fs, sizeof fs, "%lld", (long long)first);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, self, "--ipc-child", T, hex, ks, fs, (char *)NULL);
        _exit(127);
    }
    free(hex);
    assert_true(pid > 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* another process opens the array, checks it and writes new values; a
 * view's handle (an offset into the allocation) too */
static void cross_process(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 4096;
    uf_array *d = device_f64(n, 1.5);
    uf_cuda_ipc_array_handle h;
    uf_assert_ok(uf_cuda_ipc_get(d, &h, &err) == 0, &err);
    assert_int_equal(h.ndim, 1);
    assert_int_equal(h.shape[0], n);
    assert_int_equal(run_child(&h, 1.5, 0), 0);
    expect_values(d, -1.0, 0, 1);

    uf_array *v = uf_array_slice(d, "1000:1500", &err);
    uf_assert_ok(v != NULL, &err);
    uf_assert_ok(uf_cuda_ipc_get(v, &h, &err) == 0, &err);
    assert_true(h.offset >= 1000 * sizeof(double));
    assert_int_equal(run_child(&h, -1.0, 1000), 0);
    expect_values(v, -1.0, 1000, 1);
    uf_array_release(v);
    uf_array_release(d);
}

/* cudasim opens a handle in the process that made it (the same memory;
 * twice: counted); a GPU's driver does not (UF_ERR_INVALID) */
static void same_process(void **state)
{
    (void)state;
    uf_error err;
    uf_array *d = device_f64(64, 2.0);
    uf_array *v = uf_array_slice(d, "8:40:2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_cuda_ipc_array_handle h;
    uf_assert_ok(uf_cuda_ipc_get(v, &h, &err) == 0, &err);
    assert_int_equal(h.strides[0], 16);
    uf_array *o = uf_cuda_ipc_open(&h, T, &err);
    if (cuda_test_on_gpu) {
        assert_null(o);
        assert_int_equal(err.code, UF_ERR_INVALID);
    } else {
        uf_assert_ok(o != NULL, &err);
        assert_ptr_equal(uf_array_data(o), uf_array_data(v));
        uf_array *o2 = uf_cuda_ipc_open(&h, T, &err);
        uf_assert_ok(o2 != NULL, &err);
        expect_values(o2, 2.0, 8, 2);
        uf_array_release(o2);
        /* the original freed first: the mapping keeps the memory */
        uf_array_release(v);
        uf_array_release(d);
        v = d = NULL;
        expect_values(o, 2.0, 8, 2);
        uf_array_release(o);
    }
    uf_array_release(v);
    uf_array_release(d);
    assert_int_equal(uf_cuda_memory_take_error(T, &err), 0);
}

/* damaged handles, host arrays, foreign memory: errors, not crashes */
static void bad_handles(void **state)
{
    (void)state;
    uf_error err;
    uf_array *d = device_f64(16, 1.0);
    uf_cuda_ipc_array_handle h, bad;
    uf_assert_ok(uf_cuda_ipc_get(d, &h, &err) == 0, &err);

    bad = h;
    bad.magic ^= 1;
    assert_null(uf_cuda_ipc_open(&bad, T, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    bad = h;
    bad.shape[0] = 17; /* past the allocation */
    assert_null(uf_cuda_ipc_open(&bad, T, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    bad = h;
    bad.strides[0] = -8; /* before it */
    assert_null(uf_cuda_ipc_open(&bad, T, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    bad = h;
    bad.dtype = 999;
    assert_null(uf_cuda_ipc_open(&bad, T, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    bad = h;
    memset(bad.handle, 0x5a, sizeof bad.handle);
    bad.pid = 1; /* not this process: the driver's handle is garbage */
    assert_null(uf_cuda_ipc_open(&bad, T, &err));
    assert_int_not_equal(err.code, 0);
    assert_null(uf_cuda_ipc_open(NULL, T, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);

    uf_array *host = host_f64(4, 1.0);
    assert_int_equal(uf_cuda_ipc_get(host, &h, &err), UF_ERR_INVALID);
    uf_array_release(host);
    assert_int_equal(uf_cuda_ipc_get(d, NULL, &err), UF_ERR_INVALID);
    uf_array_release(d);
    assert_int_equal(uf_cuda_memory_take_error(T, &err), 0);
}

/* ---- with the counting plug-in (no IPC) ---- */

static const char *limit_so(void)
{
    const char *p = getenv("UF_EMM_LIMIT_SO");
    return p && *p ? p : UF_EMM_LIMIT_SO;
}

static void *limit_sym(const char *name)
{
    void *dl = dlopen(limit_so(), RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL)
        fail_msg("%s", dlerror());
    void *s = dlsym(dl, name);
    assert_non_null(s);
    return s;
}

static void limit_counts(void *user, uf_emm_limit_counts *out)
{
    void (*get_counts)(void *, uf_emm_limit_counts *);
    void *s = limit_sym("uf_emm_limit_get_counts");
    memcpy(&get_counts, &s, sizeof get_counts);
    get_counts(user, out);
}

static void *install_limit(void)
{
    uf_error err;
    void *s = limit_sym("uf_emm_limit_factory");
    uf_cuda_mm_factory f;
    memcpy(&f, &s, sizeof f);
    uf_cuda_memory_manager mm;
    uf_assert_ok(f(UF_CUDA_MM_INTERFACE_VERSION, &mm, &err) == 0, &err);
    uf_assert_ok(uf_cuda_set_memory_manager(T, &mm, &err) == 0, &err);
    return mm.user;
}

static void plugin_without_ipc(void **state)
{
    (void)state;
    install_limit();
    uf_error err;
    uf_array *d = device_f64(16, 1.0);
    uf_cuda_ipc_array_handle h;
    assert_int_equal(uf_cuda_ipc_get(d, &h, &err), UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "get_ipc_handle"));
    uf_array_release(d);
}

/* a fallible kernel's status word is an allocation of the manager's,
 * made once for the stream and reused by later launches on it */
static void status_word_through_manager(void **state)
{
    (void)state;
    void *user = install_limit();
    uf_error err;
    const int64_t n = 100;
    uf_array *x = device_f64(n, 1.0);
    uf_call_options o = {.size = sizeof o, .target = T};
    uf_array *in[1] = {x}, *out[1] = {NULL};
    uf_emm_limit_counts c0, c1, c2;
    limit_counts(user, &c0);
    uf_assert_ok(uf_call(get("checked"), in, 1, out, 1, &o, &err) == 0,
                 &err);
    uf_array_release(out[0]);
    out[0] = NULL;
    limit_counts(user, &c1);
    /* the output (given back) and the stream's status word (kept) */
    assert_int_equal(c1.allocs - c0.allocs, 2);
    assert_int_equal(c1.live - c0.live, 1);
    uf_assert_ok(uf_call(get("checked"), in, 1, out, 1, &o, &err) == 0,
                 &err);
    limit_counts(user, &c2);
    /* the output only: the status word is reused */
    assert_int_equal(c2.allocs - c1.allocs, 1);
    assert_int_equal(c2.live - c1.live, 1);
    expect_values(out[0], 1.0, 1, 1);
    uf_array_release(out[0]);
    uf_array_release(x);
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "--ipc-child") == 0)
        return ipc_child(argv);
    T = cuda_test_target();
    uf_error err;
    if ((ctx = uf_context_new(&err)) == NULL ||
        (mod = uf_module_from_string(ctx, "ipc.py", KERNELS, &err)) ==
            NULL) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
#define TT(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        TT(pinned_copy_source),  TT(pinned_edges),
        TT(mapped_written_by_kernel), TT(cross_process),
        TT(same_process),        TT(bad_handles),
        TT(plugin_without_ipc),  TT(status_word_through_manager),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    uf_module_free(mod);
    uf_context_free(ctx);
    return rc;
}
