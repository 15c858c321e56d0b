/* Scratch arrays on the stack (compiler/lower/lower_scratch.c): a
 * variable only ever bound to np.empty/zeros/ones/full and only indexed
 * for numbers or asked its shape gets a buffer in the kernel's frame,
 * reused each time its site runs; everything else stays on the NRT heap.
 * Each kernel is checked for its value (what Python gives), for leaving
 * no block behind, and for the blocks it made: none for a site on the
 * stack (uf__nrt_peak does not move), some where the array is too big for
 * the buffer or its variable lets a reference out (a view, a join of the
 * loop, another name, a kernel that may return it); whole-array reads
 * that keep nothing (np.sum, an array expression's operand, a copy into
 * another array, a kernel returning a number) leave it on the stack. np.zeros/ones/full refill the reused
 * buffer each time; a prange body's buffer is its thread's own; a
 * negative size still raises. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit, prange\n"
    "import numpy as np\n"
    "@njit\n"
    "def loop_empty(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.empty(m)\n"
    "        for j in range(m):\n"
    "            t[j] = i + j\n"
    "        s += t[m - 1]\n"
    "    return s\n"
    "@njit\n"
    "def loop_zeros(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.zeros(m)\n"
    "        t[i % m] += 1.0\n"
    "        for j in range(len(t)):\n"
    "            s += t[j]\n"
    "    return s\n"
    "@njit\n"
    "def full_ones(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, 2.0)\n"
    "        u = np.ones_like(t)\n"
    "        t[0] += i\n"
    "        for j in range(m):\n"
    "            s += t[j] * u[j]\n"
    "            u[j] = 7.0\n"
    "    return s\n"
    "@njit\n"
    "def shapes(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.empty((m, 2), dtype=np.int32)\n"
    "        for j in range(t.shape[0]):\n"
    "            t[j, 0] = j\n"
    "            t[j, 1] = len(t)\n"
    "        t[:, 1] += 1\n"
    "        s += t[m - 1, 0] + t[0, 1] + t.size + t.ndim\n"
    "    return s\n"
    "@njit\n"
    "def carried(n, m):\n"
    "    t = np.zeros(m)\n"
    "    for i in range(n):\n"
    "        s0 = t[0]\n"
    "        t = np.full(m, s0 + 1.0)\n"
    "    return t[m - 1]\n"
    "@njit\n"
    "def view_escapes(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        v = t[1:]\n"
    "        s += v[0]\n"
    "    return s\n"
    "@njit\n"
    "def alias_escapes(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        u = t\n"
    "        s += u[0]\n"
    "    return s\n"
    "@njit\n"
    "def expr_temp(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        s += (t * 2.0)[0]\n"
    "    return s\n"
    "@njit\n"
    "def total(a):\n"
    "    return a.sum()\n"
    "@njit\n"
    "def ident(a):\n"
    "    return a\n"
    "@njit\n"
    "def whole_reads(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.empty(m)\n"
    "        for j in range(m):\n"
    "            t[j] = i + j\n"
    "        s += np.sum(t) - t.max() + np.dot(t, t) - total(t)\n"
    "    return s\n"
    "@njit\n"
    "def expr_reads(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        u = np.empty(m)\n"
    "        u[:] = t * 2.0 + np.sqrt(t)\n"
    "        w = np.zeros(m, dtype=np.bool_)\n"
    "        w[:] = -t < -1.0\n"
    "        u[0] = w[0]\n"
    "        t[:] = u\n"
    "        s += t[0] + t[m - 1]\n"
    "    return s\n"
    "@njit\n"
    "def ufunc_out(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        u = np.empty(m)\n"
    "        np.multiply(t, 2.0, u)\n"
    "        s += u[m - 1]\n"
    "    return s\n"
    "@njit\n"
    "def callee_keeps(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        v = ident(t)\n"
    "        s += v[m - 1]\n"
    "    return s\n"
    "@njit\n"
    "def per_call(n, m):\n"
    "    t = np.empty(m)\n"
    "    for j in range(m):\n"
    "        t[j] = n * j\n"
    "    return t[m - 1]\n"
    "@njit\n"
    "def calls(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        s += per_call(i, m)\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def par(n, m):\n"
    "    s = 0.0\n"
    "    for i in prange(n):\n"
    "        t = np.empty(m)\n"
    "        for j in range(m):\n"
    "            t[j] = i\n"
    "        acc = 0.0\n"
    "        for j in range(m):\n"
    "            acc += t[j]\n"
    "        s += acc\n"
    "    return s\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "nrt_scratch.py", src, &err);
    if (!mod)
        fprintf(stderr, "%s\n", err.message);
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

/* name(a, b) with int64 arguments on `threads` threads: its result, or
 * NULL with err. */
static uf_array *call(const char *name, int64_t a, int64_t b, int threads,
                      uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    if (!f)
        return NULL;
    uf_array *in[2] = {
        uf_full(UF_INT64, 0, NULL, &a, UF_INT64, UF_ORDER_C, err),
        uf_full(UF_INT64, 0, NULL, &b, UF_INT64, UF_ORDER_C, err)};
    uf_array *out = NULL;
    uf_call_options o = {.size = sizeof o, .num_threads = threads};
    int rc = in[0] && in[1] ? uf_call(f, in, 2, &out, 1, &o, err) : -1;
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    return rc == 0 ? out : NULL;
}

typedef struct scratch_case {
    const char *file;
    int line;
    const char *name;
    int64_t n, m;
    int threads;
    double want;
    bool on_stack; /* no NRT block made at all */
} scratch_case;

static void test_values_and_blocks(void **state)
{
    (void)state;
    static const scratch_case cases[] = {
        /* sum of i + m - 1 */
        {LOC, "loop_empty", 1000, 16, 1, 999.0 * 1000 / 2 + 1000 * 15, true},
        {LOC, "loop_empty", 0, 16, 1, 0.0, true},
        /* 2048 bytes fit, 2056 do not: the same site on the heap */
        {LOC, "loop_empty", 10, 256, 1, 45.0 + 10 * 255, true},
        {LOC, "loop_empty", 10, 257, 1, 45.0 + 10 * 256, false},
        {LOC, "loop_empty", 50, 5000, 1, 1225.0 + 50 * 4999, false},
        /* refilled with zeros each time: one 1.0 per iteration */
        {LOC, "loop_zeros", 300, 7, 1, 300.0, true},
        {LOC, "loop_zeros", 30, 1000, 1, 30.0, false},
        /* 2m + i per iteration; u's 7.0 never seen again */
        {LOC, "full_ones", 40, 9, 1, 40 * 18.0 + 39.0 * 40 / 2, true},
        /* (m - 1) + (m + 1) + 2m + 2 */
        {LOC, "shapes", 20, 6, 1, 20 * (5 + 7 + 12 + 2.0), true},
        /* the previous array read after the site: a join, the heap */
        {LOC, "carried", 100, 4, 1, 100.0, false},
        {LOC, "view_escapes", 100, 4, 1, 99.0 * 100 / 2, false},
        {LOC, "alias_escapes", 100, 4, 1, 99.0 * 100 / 2, false},
        /* t itself on the stack, the array t * 2.0 on the heap */
        {LOC, "expr_temp", 100, 4, 1, 99.0 * 100, false},
        /* read whole where no reference can come out: on the stack;
         * per i, sum(i + j) - (i + m - 1) + sum((i + j)^2) - sum(i + j) */
        {LOC, "whole_reads", 30, 4, 1, 39335.0, true},
        /* t = 2i + sqrt(i), then t[0] = (i > 1) */
        {LOC, "expr_reads", 10, 5, 1, 117.30600052603572, true},
        /* u is np.multiply's output, whose value it is: the heap */
        {LOC, "ufunc_out", 100, 4, 1, 99.0 * 100, false},
        /* a kernel that may return its argument keeps t on the heap */
        {LOC, "callee_keeps", 100, 4, 1, 99.0 * 100 / 2, false},
        /* a callee's site: its own frame's buffer */
        {LOC, "calls", 100, 8, 1, 7.0 * 99 * 100 / 2, true},
        /* each block of iterations on a thread: its own buffer */
        {LOC, "par", 20000, 32, 1, 32.0 * 19999 * 20000 / 2, true},
        {LOC, "par", 20000, 32, 2, 32.0 * 19999 * 20000 / 2, true},
        {LOC, "par", 20000, 32, 7, 32.0 * 19999 * 20000 / 2, true},
    };
    uf_error err;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const scratch_case *k = &cases[c];
        uf_array *w = call(k->name, 1, 1, 1, &err); /* compiled */
        uf_array_release(w);
        long live = uf__nrt_live();
        uf__nrt_peak_reset();
        uf_array *r = call(k->name, k->n, k->m, k->threads, &err);
        long made = uf__nrt_peak() - live;
        if (!r)
            uf_fail_at(k->file, k->line, "%s: %s", k->name, err.message);
        double got = *(double *)uf_array_data(r);
        uf_array_release(r);
        if (got != k->want)
            uf_fail_at(k->file, k->line, "%s(%lld, %lld): %.17g, want %.17g",
                       k->name, (long long)k->n, (long long)k->m, got,
                       k->want);
        if (uf__nrt_live() != live)
            uf_fail_at(k->file, k->line, "%s left %ld blocks", k->name,
                       uf__nrt_live() - live);
        if (k->n > 0 && k->on_stack != (made == 0))
            uf_fail_at(k->file, k->line, "%s(%lld, %lld): %ld blocks alive "
                       "at most, want %s", k->name, (long long)k->n,
                       (long long)k->m, made,
                       k->on_stack ? "none (on the stack)" : "some");
    }
}

/* The size check before the buffer: negative sizes raise as on the heap. */
static void test_negative_size(void **state)
{
    (void)state;
    uf_error err;
    uf_array *r = call("loop_empty", 3, -1, 1, &err);
    assert_null(r);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "negative dimensions"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_blocks),
        cmocka_unit_test(test_negative_size),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
