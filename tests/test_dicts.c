/* Dicts inside kernels (compiler/types/infer_dict.c, compiler/lower/
 * lower_dict.c, common/dict.c) through uf_call, for what the Numba oracle
 * (tests/e2e/run_dicts_oracle.py) cannot see: the table itself against a
 * reference under random inserts and deletions (every probe-run repair),
 * empty dicts and the KeyError's code and message, -0.0/0.0 and NaN keys,
 * a dict grown through many rehashes, deletion then reinsertion keeping
 * insertion order, a dict filled by a helper, a strided input, no leak
 * across 10^5 calls (uf__nrt_live and uf__alloc_live back where they
 * started: the tables are counted by the latter), out of memory at every
 * allocation reaching the caller as UF_ERR_NOMEM, and the refusals at
 * file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dict.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def look(a, k):\n"
    "    d = {}\n"
    "    for i in range(a.shape[0]):\n"
    "        d[a[i]] = i\n"
    "    return d[k], len(d)\n"
    "@njit\n"
    "def fkeys(a):\n"
    "    d = {1.0: 0}\n"
    "    for v in a:\n"
    "        d[v] = d.get(v, 0) + 1\n"
    "    return len(d), d.get(0.0, -1), d.get(-0.0, -1), np.nan in d\n"
    "@njit\n"
    "def grow(n):\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        d[i * 7919 % n] = i\n"
    "    for i in range(0, n, 3):\n"
    "        del_ = d.pop(i)\n"
    "    for i in range(0, n, 6):\n"
    "        d[i] = -1\n"
    "    s = 0\n"
    "    first = -2\n"
    "    last = -2\n"
    "    for k, v in d.items():\n"
    "        s += k + v\n"
    "        if first == -2:\n"
    "            first = k\n"
    "        last = k\n"
    "    return len(d), s, first, last\n"
    "@njit\n"
    "def fill(d, a):\n"
    "    for v in a:\n"
    "        d[v] = d.get(v, 0.0) + 1.0\n"
    "@njit\n"
    "def helper(a):\n"
    "    d = {0.5: 0.0}\n"
    "    fill(d, a)\n"
    "    return len(d), d[0.5]\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0\n"
    "    for i in range(n):\n"
    "        d = {i: 1}\n"
    "        for k in range(i % 20):\n"
    "            d[k] = d.get(k, 0) + k\n"
    "        t += len(d) + d[i]\n"
    "    return t\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("dicts_c.py", src);
}

static uf_array *vec(const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, (size_t)n * sizeof *v);
    return a;
}

/* common/dict.c against a plain array over 64 keys: 20000 random
 * inserts, deletions and lookups (deletions re-seat the probe runs after
 * them), then the entries in insertion order. */
static void test_table(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    void *d = uf__dict_new(&frame, 24, UF__DICT_BITS);
    assert_non_null(d);
    int64_t ref[64], order[64]; /* value or -1; insertion stamp */
    int64_t stamp = 0;
    for (int k = 0; k < 64; k++)
        ref[k] = -1;
    srand(7);
    for (int step = 0; step < 20000; step++) {
        uint64_t k = (uint64_t)(rand() % 64);
        int op = rand() % 3;
        char *p = uf__dict_find(d, k * 0x10000); /* keys far apart */
        assert_true((p != NULL) == (ref[k] >= 0));
        if (p != NULL) {
            int64_t v;
            memcpy(&v, p, sizeof v);
            assert_int_equal(v, ref[k]);
        }
        if (op < 2) {
            p = uf__dict_insert(d, k * 0x10000);
            assert_non_null(p);
            if (ref[k] < 0)
                order[k] = stamp++;
            ref[k] = step;
            memcpy(p, &ref[k], sizeof ref[k]);
        } else {
            int64_t v = 0;
            assert_int_equal(uf__dict_delete(d, k * 0x10000, &v),
                             ref[k] >= 0);
            if (ref[k] >= 0)
                assert_int_equal(v, ref[k]);
            ref[k] = -1;
        }
    }
    int64_t n = 0, prev = -1;
    for (int64_t pos = uf__dict_next(d, 0); pos >= 0;
         pos = uf__dict_next(d, pos + 1)) {
        uint64_t key;
        memcpy(&key, ((uf__dict *)d)->entries + pos * 24, sizeof key);
        int64_t k = (int64_t)(key / 0x10000);
        assert_true(ref[k] >= 0 && order[k] > prev);
        prev = order[k];
        n++;
    }
    assert_int_equal(n, ((uf__dict *)d)->size);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* d[k] found, including in an empty dict's absence: KeyError as a
 * UF_ERR_VALUE with Numba's class in the message; a strided input. */
static void test_lookup(void **state)
{
    (void)state;
    uf_error err;
    double v[6] = {3, -0.5, 7, 3, 1e300, -0.0};
    uf_array *a = vec(v, 6), *out[2] = {0};
    uf_array *in[2] = {a, uf_t_i64(7)};
    uf_assert_ok(uf_t_call("look", in, 2, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 2);
    assert_int_equal(uf_t_i64_of(out[1]), 5); /* 3 twice */
    uf_t_release(out, 2);
    uf_array_release(in[1]);
    in[1] = uf_t_i64(4);
    assert_int_equal(uf_t_call("look", in, 2, out, 2, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "KeyError"));
    assert_null(out[0]);
    uf_array *s = uf_array_slice(a, "::-2", &err); /* -0.0, 3, -0.5 */
    uf_assert_ok(s != NULL, &err);
    in[0] = s;
    uf_array_release(in[1]);
    in[1] = uf_t_i64(3);
    uf_assert_ok(uf_t_call("look", in, 2, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 1);
    assert_int_equal(uf_t_i64_of(out[1]), 3);
    uf_t_release(out, 2);
    uf_array *e = uf_array_slice(a, "4:1", &err); /* empty */
    uf_assert_ok(e != NULL, &err);
    in[0] = e;
    assert_int_equal(uf_t_call("look", in, 2, out, 2, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "KeyError"));
    uf_array_release(e);
    uf_array_release(s);
    uf_array_release(in[1]);
    uf_array_release(a);
}

/* -0.0 and 0.0 are two keys; each NaN a new key no lookup finds. */
static void test_float_keys(void **state)
{
    (void)state;
    uf_error err;
    double v[7] = {0.0, -0.0, NAN, 0.0, NAN, INFINITY, -0.0};
    uf_array *a = vec(v, 7), *out[4] = {0};
    uf_assert_ok(uf_t_call("fkeys", &a, 1, out, 4, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 6); /* 1.0 0.0 -0.0 nan nan inf */
    assert_int_equal(uf_t_i64_of(out[1]), 2);
    assert_int_equal(uf_t_i64_of(out[2]), 2);
    assert_false(*(const bool *)uf_array_data(out[3]));
    uf_t_release(out, 4);
    uf_array_release(a);
}

/* 10^5 keys (the table rehashes some 14 times), a third deleted, a sixth
 * put back at the end: sums and the first and last keys in order. */
static void test_growth(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 100000;
    uf_array *x = uf_t_i64(n), *out[4] = {0};
    uf_assert_ok(uf_t_call("grow", &x, 1, out, 4, &err) == 0, &err);
    int64_t len = 0, s = 0, first = -2, last = -2;
    /* the same in C: key i*7919 % n holds i; pops of multiples of 3;
     * multiples of 6 reinserted with -1, after the survivors */
    int64_t *val = malloc((size_t)n * sizeof *val);
    assert_non_null(val);
    for (int64_t i = 0; i < n; i++)
        val[i * 7919 % n] = i;
    for (int64_t i = 0; i < n; i++) { /* survivors, insertion order */
        int64_t k = i * 7919 % n;
        if (k % 3 == 0)
            continue;
        len++;
        s += k + val[k];
        if (first == -2)
            first = k;
        last = k;
    }
    for (int64_t k = 0; k < n; k += 6) {
        len++;
        s += k - 1;
        last = k;
    }
    free(val);
    assert_int_equal(uf_t_i64_of(out[0]), len);
    assert_int_equal(uf_t_i64_of(out[1]), s);
    assert_int_equal(uf_t_i64_of(out[2]), first);
    assert_int_equal(uf_t_i64_of(out[3]), last);
    uf_t_release(out, 4);
    uf_array_release(x);
}

/* A helper filling the caller's dict: the caller sees its stores. */
static void test_helper(void **state)
{
    (void)state;
    uf_error err;
    double v[5] = {0.5, 2, 2, 0.5, 3};
    uf_array *a = vec(v, 5), *out[2] = {0};
    uf_assert_ok(uf_t_call("helper", &a, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 3);
    assert_true(*(const double *)uf_array_data(out[1]) == 2.0);
    uf_t_release(out, 2);
    uf_array_release(a);
}

/* 10^5 calls making dicts in a loop leave no block and no table. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(50);
    uf_t_check_no_leak("churn", x, 1, 100000);
    uf_array_release(x);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(60); /* tables of 8, 16, 32, 64 entries */
    uf_t_check_oom("grow", x, 4);
    uf_array_release(x);
    x = uf_t_i64(12);
    uf_t_check_oom("churn", x, 1);
    uf_array_release(x);
}

/* Refused at FILE:LINE:COL: a dict never stored into, a dict returned to
 * the API, a list or an array as a key, a dict in a CUDA kernel, an
 * insert in a parallel prange body. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit, prange\n"
        "@njit\n"
        "def never(n):\n"
        "    d = {}\n"
        "    return len(d)\n"
        "@njit\n"
        "def back(n):\n"
        "    d = {n: 1.0}\n"
        "    return d\n"
        "@njit\n"
        "def lkey(n):\n"
        "    d = {}\n"
        "    d[[n]] = 1\n"
        "    return len(d)\n"
        "@njit\n"
        "def akey(a):\n"
        "    d = {a: 1}\n"
        "    return len(d)\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    d = {1: 1.0}\n"
        "    out[0] = d[1]\n"
        "@njit(parallel=True)\n"
        "def par(n):\n"
        "    d = {0: 0}\n"
        "    for i in prange(n):\n"
        "        d[i] = i\n"
        "    return len(d)\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"never", "(int64,)", "Cannot infer the type of variable 'd'", 5, 5},
        {"back", "(int64,)", "a dict cannot leave", 10, 5},
        {"lkey", "(int64,)", "cannot be a key of a dict", 14, 7},
        {"akey", "(float64[:],)", "cannot be a key of a dict", 18, 10},
        {"k", "void(float64[:])", "not supported in CUDA kernels", 22, 9},
        {"par", "(int64,)", "prange body run in parallel", 28, 9},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(uf_t_ctx, "dicts_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_LLVM, &err);
        if (text != NULL)
            uf_fail_at(__FILE__, __LINE__, "%s compiled", cases[i].fn);
        if (strstr(err.message, cases[i].want) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.file, "dicts_bad.py") == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %s:%d:%d: %s", cases[i].fn,
                       err.file, err.line, err.column, err.message);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_float_keys),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_helper),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
