/* Sets inside kernels (compiler/types/infer_set.c, compiler/lower/
 * lower_set.c, common/set.c) through uf_call, for what the Numba oracle
 * (tests/e2e/run_sets_oracle.py) cannot see: the runtime's adds,
 * removals, pops and operators against a bitmask reference under random
 * operations, empty sets and the KeyError codes and messages, -0.0/0.0
 * and NaN items, a set grown through many rehashes, discard then re-add,
 * a set filled by a helper, strided and reversed inputs, no leak across
 * 10^5 calls (uf__nrt_live and uf__alloc_live back where they started),
 * out of memory at every allocation reaching the caller as UF_ERR_NOMEM,
 * and the refusals at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/set.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def rm(a, k):\n"
    "    s = set(a)\n"
    "    s.remove(k)\n"
    "    return len(s)\n"
    "@njit\n"
    "def popn(a, n):\n"
    "    s = set(a)\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        t += s.pop()\n"
    "    return t, len(s)\n"
    "@njit\n"
    "def fkeys(a):\n"
    "    s = {-0.0}\n"
    "    for v in a:\n"
    "        s.add(v)\n"
    "    neg = 0\n"
    "    for v in s:\n"
    "        if v == 0.0 and np.signbit(v):\n"
    "            neg += 1\n"
    "    return len(s), neg, 0.0 in s, np.nan in s\n"
    "@njit\n"
    "def grow(n):\n"
    "    s = set()\n"
    "    for i in range(n):\n"
    "        s.add(i * 7919 % n)\n"
    "    for i in range(0, n, 3):\n"
    "        s.discard(i)\n"
    "    for i in range(0, n, 6):\n"
    "        s.add(i)\n"
    "    t = 0\n"
    "    for v in s:\n"
    "        t += v\n"
    "    return len(s), t, 3 in s, 6 in s\n"
    "@njit\n"
    "def fill(s, a):\n"
    "    for v in a:\n"
    "        s.add(v)\n"
    "@njit\n"
    "def helper(a):\n"
    "    s = {0.5}\n"
    "    fill(s, a)\n"
    "    return len(s), 2.0 in s\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0\n"
    "    for i in range(n):\n"
    "        s = {i, i + 1}\n"
    "        for k in range(i % 20):\n"
    "            s.add(k)\n"
    "        u = s | {100}\n"
    "        u -= {0}\n"
    "        t += len(s) + len(u) + (s <= u)\n"
    "    return t\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("sets_c.py", src);
}

static uf_array *f64(double v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(double *)uf_array_data(a) = v;
    return a;
}

static uf_array *vec(const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, (size_t)n * sizeof *v);
    return a;
}

static bool bool_of(const uf_array *a)
{
    return *(const bool *)uf_array_data(a);
}

/* The keys of s (64 small integers, spread far apart) as a bitmask. */
static uint64_t mask_of(void *s)
{
    const uf__set *d = s;
    uint64_t m = 0;
    int64_t n = 0;
    for (int64_t p = uf__set_next(s, 0); p >= 0;
         p = uf__set_next(s, p + 1), n++) {
        uint64_t k;
        memcpy(&k, d->slots + p * UF__SET_SLOT, sizeof k);
        assert_true(k % 0x10000 == 0 && k / 0x10000 < 64);
        m |= UINT64_C(1) << (k / 0x10000);
    }
    assert_int_equal(n, d->size);
    return m;
}

static int popcount(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* common/set.c against bitmasks: 5000 rounds of random adds, discards,
 * pops and lookups on two sets, each round checked with the four
 * operators (new and in place) and the seven comparisons. */
static void test_table(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    void *s[2] = {uf__set_new(&frame, UF__SET_BITS),
                  uf__set_new(&frame, UF__SET_BITS)};
    assert_non_null(s[0]);
    assert_non_null(s[1]);
    uint64_t ref[2] = {0, 0};
    srand(11);
    for (int step = 0; step < 5000; step++) {
        int w = rand() % 2, op = rand() % 4;
        uint64_t k = (uint64_t)(rand() % 64), bit = UINT64_C(1) << k;
        assert_int_equal(uf__set_contains(s[w], k * 0x10000),
                         (ref[w] & bit) != 0);
        if (op < 2) {
            assert_int_equal(uf__set_add(s[w], k * 0x10000), 0);
            ref[w] |= bit;
        } else if (op == 2) {
            assert_int_equal(uf__set_discard(s[w], k * 0x10000),
                             (ref[w] & bit) != 0);
            ref[w] &= ~bit;
        } else {
            uint64_t got = 0;
            assert_int_equal(uf__set_pop(s[w], &got), ref[w] != 0);
            if (ref[w] != 0) {
                assert_true(ref[w] & (UINT64_C(1) << (got / 0x10000)));
                ref[w] &= ~(UINT64_C(1) << (got / 0x10000));
            }
        }
        if (step % 50 != 0)
            continue;
        const uint64_t a = ref[0], b = ref[1];
        const uint64_t want[4] = {a | b, a & b, a & ~b, a ^ b};
        for (int32_t o = 0; o < 4; o++) {
            void *r = uf__set_op(&frame, s[0], s[1], o);
            assert_non_null(r);
            assert_true(mask_of(r) == want[o]);
            r = uf__set_copy(&frame, s[0]);
            assert_int_equal(uf__set_iop(r, s[1], o), 0);
            assert_true(mask_of(r) == want[o]);
        }
        int na = popcount(a), nb = popcount(b);
        bool le = (a & ~b) == 0, ge = (b & ~a) == 0;
        const int cmp[7] = {a == b, a != b, le, le && na < nb, ge,
                            ge && nb < na, (a & b) == 0};
        for (int32_t c = 0; c < 7; c++)
            assert_int_equal(uf__set_cmp(s[0], s[1], c), cmp[c]);
        assert_true(mask_of(s[0]) == a && mask_of(s[1]) == b);
    }
    /* s op s itself */
    assert_int_equal(uf__set_iop(s[0], s[0], UF__SET_OR), 0);
    assert_true(mask_of(s[0]) == ref[0]);
    assert_int_equal(uf__set_iop(s[0], s[0], UF__SET_XOR), 0);
    assert_true(mask_of(s[0]) == 0);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* s.remove(k) of an absent k and s.pop() of an empty set: KeyError with
 * Numba's message as UF_ERR_VALUE; empty, strided and reversed inputs. */
static void test_key_errors(void **state)
{
    (void)state;
    uf_error err;
    double v[6] = {3, -0.5, 7, 3, 1e300, -0.0};
    uf_array *a = vec(v, 6), *out[2] = {0};
    uf_array *in[2] = {a, f64(7)};
    uf_assert_ok(uf_t_call("rm", in, 2, out, 1, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 4); /* 3 twice, 7 removed */
    uf_t_release(out, 1);
    uf_array_release(in[1]);
    in[1] = f64(4);
    assert_int_equal(uf_t_call("rm", in, 2, out, 1, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message,
                           "KeyError: set.remove(): key not in set"));
    assert_null(out[0]);
    uf_array *s = uf_array_slice(a, "::-2", &err); /* -0.0, 3, -0.5 */
    uf_assert_ok(s != NULL, &err);
    in[0] = s;
    uf_array_release(in[1]);
    in[1] = f64(0.0); /* finds -0.0 */
    uf_assert_ok(uf_t_call("rm", in, 2, out, 1, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 2);
    uf_t_release(out, 1);
    uf_array_release(in[1]);
    in[1] = uf_t_i64(3);
    uf_assert_ok(uf_t_call("popn", in, 2, out, 2, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == 2.5);
    assert_int_equal(uf_t_i64_of(out[1]), 0);
    uf_t_release(out, 2);
    uf_array_release(in[1]);
    in[1] = uf_t_i64(4);
    assert_int_equal(uf_t_call("popn", in, 2, out, 2, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "KeyError: set.pop(): empty set"));
    uf_array *e = uf_array_slice(a, "4:1", &err); /* empty */
    uf_assert_ok(e != NULL, &err);
    in[0] = e;
    uf_array_release(in[1]);
    in[1] = uf_t_i64(1);
    assert_int_equal(uf_t_call("popn", in, 2, out, 2, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "set.pop(): empty set"));
    uf_array_release(e);
    uf_array_release(s);
    uf_array_release(in[1]);
    uf_array_release(a);
}

/* -0.0 and 0.0 are one item (the first added kept); each NaN a new item
 * no lookup finds. */
static void test_float_keys(void **state)
{
    (void)state;
    uf_error err;
    double v[7] = {0.0, -0.0, NAN, 0.0, NAN, INFINITY, -0.0};
    uf_array *a = vec(v, 7), *out[4] = {0};
    uf_assert_ok(uf_t_call("fkeys", &a, 1, out, 4, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 4); /* -0.0 nan nan inf */
    assert_int_equal(uf_t_i64_of(out[1]), 1); /* the -0.0 first added */
    assert_true(bool_of(out[2]));
    assert_false(bool_of(out[3]));
    uf_t_release(out, 4);
    uf_array_release(a);
}

/* 10^5 items (some 14 rehashes), a third discarded, a sixth re-added. */
static void test_growth(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 100000;
    uf_array *x = uf_t_i64(n), *out[4] = {0};
    uf_assert_ok(uf_t_call("grow", &x, 1, out, 4, &err) == 0, &err);
    int64_t len = 0, t = 0;
    for (int64_t k = 0; k < n; k++)
        if (k % 3 != 0 || k % 6 == 0) {
            len++;
            t += k;
        }
    assert_int_equal(uf_t_i64_of(out[0]), len);
    assert_int_equal(uf_t_i64_of(out[1]), t);
    assert_false(bool_of(out[2]));
    assert_true(bool_of(out[3]));
    uf_t_release(out, 4);
    uf_array_release(x);
}

/* A helper filling the caller's set: the caller sees its adds. */
static void test_helper(void **state)
{
    (void)state;
    uf_error err;
    double v[5] = {0.5, 2, 2, 0.5, 3};
    uf_array *a = vec(v, 5), *out[2] = {0};
    uf_assert_ok(uf_t_call("helper", &a, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 3);
    assert_true(bool_of(out[1]));
    uf_t_release(out, 2);
    uf_array_release(a);
}

/* 10^5 calls making sets in a loop leave no block and no table. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(50);
    uf_t_check_no_leak("churn", x, 1, 100000);
    uf_array_release(x);
}

/* Out of memory at each allocation of an add (tables of 8 to 64) and of
 * the operators: UF_ERR_NOMEM, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(60);
    uf_t_check_oom("grow", x, 4);
    uf_array_release(x);
    x = uf_t_i64(12);
    uf_t_check_oom("churn", x, 1);
    uf_array_release(x);
}

/* Refused at FILE:LINE:COL: a set never added to, a set returned to the
 * API, a list or an array as an item, sets of two types combined, a set
 * in a CUDA kernel, an add in a parallel prange body; and a set
 * comprehension, refused by the parser. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit, prange\n"
        "@njit\n"
        "def never(n):\n"
        "    s = set()\n"
        "    return len(s)\n"
        "@njit\n"
        "def back(n):\n"
        "    s = {n, 1}\n"
        "    return s\n"
        "@njit\n"
        "def litem(n):\n"
        "    s = set()\n"
        "    s.add([n])\n"
        "    return len(s)\n"
        "@njit\n"
        "def aitem(a):\n"
        "    s = {a}\n"
        "    return len(s)\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    s = {1.0}\n"
        "    out[0] = len(s)\n"
        "@njit(parallel=True)\n"
        "def par(n):\n"
        "    s = {0}\n"
        "    for i in prange(n):\n"
        "        s.add(i)\n"
        "    return len(s)\n"
        "@njit\n"
        "def mixed(a):\n"
        "    return len(set(a) & {1})\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"never", "(int64,)", "Cannot infer the type of variable 's'", 5, 5},
        {"back", "(int64,)", "a set cannot leave", 10, 5},
        {"litem", "(int64,)", "cannot be an item of a set", 14, 11},
        {"aitem", "(float64[:],)", "cannot be an item of a set", 18, 10},
        {"k", "void(float64[:])", "not supported in CUDA kernels", 22, 9},
        {"par", "(int64,)", "prange body run in parallel", 28, 9},
        {"mixed", "(int32[:],)", "All Sets must be of the same type", 32,
         16},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(uf_t_ctx, "sets_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_LLVM, &err);
        if (text != NULL)
            uf_fail_at(__FILE__, __LINE__, "%s compiled", cases[i].fn);
        if (strstr(err.message, cases[i].want) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.file, "sets_bad.py") == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %s:%d:%d: %s", cases[i].fn,
                       err.file, err.line, err.column, err.message);
    }
    uf_module_free(m);
    static const char csrc[] = "from numba import njit\n"
                               "@njit\n"
                               "def comp(a):\n"
                               "    return len({v for v in a})\n";
    assert_null(uf_module_from_string(uf_t_ctx, "sets_comp.py", csrc, &err));
    assert_non_null(strstr(err.message, "a set comprehension is not "
                                        "supported in kernels"));
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_key_errors),
        cmocka_unit_test(test_float_keys),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_helper),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
