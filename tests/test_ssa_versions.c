/* Versions of local names (compiler/types/ssa_versions.c), as Numba's SSA
 * versions: a name rebound to an unrelated type where the two never meet
 * at a read compiles, through straight code, loops, break/continue,
 * augmented assignment, loop targets and parameters; definitions that do
 * meet at a read unify at that join only (and fail to, with Numba's
 * message), each keeping its own type elsewhere.
 * Expected values are Numba 0.68's for the same bodies (njit, x = -1, 0,
 * 1, 2), including which bodies it refuses. */
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/front/kmodule.h"

typedef struct web_case {
    const char *file;
    int line;
    const char *body; /* of `def f(x):`, indented by 4 */
    double want[4];
    const char *error; /* fragment of the message, or NULL */
    int eline;         /* the error's line */
} web_case;

#define JOIN "Cannot unify int64 and UniTuple(int64 x 2) for 't'"

static const web_case cases[] = {
    {LOC, "t = 1\n    y = t + x\n    t = (x, 2)\n    return y + t[0]\n",
     {-1, 1, 3, 5}, NULL, 0},
    {LOC, "t = 0\n    for i in range(3):\n        t = t + 1.5\n    y = t\n"
          "    t = (y, 1)\n    return t[0] + x\n",
     {3.5, 4.5, 5.5, 6.5}, NULL, 0},
    {LOC, "s = 0\n    i = 0\n    while True:\n        i += 1\n"
          "        if i > 4:\n            break\n        s = s + i\n"
          "    u = s\n    s = (1.0, x)\n    return u + s[1]\n",
     {9, 10, 11, 12}, NULL, 0},
    {LOC, "for i in range(3):\n        x = x + i\n    i = (1.5, x)\n"
          "    return i[0] + i[1]\n",
     {3.5, 4.5, 5.5, 6.5}, NULL, 0},
    {LOC, "s = 1\n    s += x\n    s = (s, 1)\n    return s[0]\n",
     {0, 1, 2, 3}, NULL, 0},
    {LOC, "acc = 0.0\n    for i in range(4):\n        if i == 1:\n"
          "            continue\n        acc = acc + i\n    acc = (acc, 1)\n"
          "    return acc[0] + x\n",
     {4, 5, 6, 7}, NULL, 0},
    {LOC, "x = (x, 1.0)\n    return x[0] + x[1]\n", {0, 1, 2, 3}, NULL, 0},
    {LOC, "if x > 0:\n        t = 2\n    else:\n        t = 3\n"
          "    u = t * x\n    t = (u, 0.5)\n    return t[0] + t[1]\n",
     {-2.5, 0.5, 2.5, 4.5}, NULL, 0},
    /* an int64 version read before a join with a float64 one stays int64
     * (2**53 + 1 is not a float64): at an if, after x op= v, at a loop */
    {LOC, "t = 9007199254740993\n    y = t - 9007199254740992\n"
          "    if x > 0:\n        t = 2.5\n    return y + t * 0\n",
     {1, 1, 1, 1}, NULL, 0},
    {LOC, "s = 9007199254740993\n    y = s - 9007199254740992\n"
          "    s += 0.5\n    return y + s * 0\n",
     {1, 1, 1, 1}, NULL, 0},
    {LOC, "t = 9007199254740993\n    u = t - 9007199254740992\n"
          "    for i in range(2):\n        t = t + 0.5\n"
          "    return u + t * 0\n",
     {1, 1, 1, 1}, NULL, 0},
    /* a parameter and an int counter rebound in a while loop */
    {LOC, "n = 9007199254740993\n    while x < 2:\n        n -= 1\n"
          "        x += 1.0\n    return (n - 9007199254740990) + x * 0\n",
     {0, 1, 2, 3}, NULL, 0},
    /* the two definitions meet nowhere: Numba accepts it too */
    {LOC, "if x > 0:\n        t = 1\n    else:\n        t = (1, 2)\n"
          "    return x\n",
     {-1, 0, 1, 2}, NULL, 0},
    /* ... but they meet at the return: refused by both */
    {LOC, "if x > 0:\n        t = 1\n    else:\n        t = (1, 2)\n"
          "    return t\n",
     {0}, JOIN, 9},
    /* and around a loop's back edge */
    {LOC, "t = 1\n    for i in range(2):\n        t = (t, 1)\n    return x\n",
     {0}, "Cannot unify", 0},
    /* an if/elif/else ladder: one join of every way (int64, float64 and
     * bool widen to float64) ... */
    {LOC, "if x < 0:\n        y = 1\n    elif x < 1:\n        y = 2.5\n"
          "    elif x < 2:\n        y = True\n    else:\n        y = x * 2\n"
          "    return y\n",
     {1, 2.5, 1, 4}, NULL, 0},
    /* ... refused where one way does not unify, at that way's definition */
    {LOC, "if x < 0:\n        t = 1\n    elif x < 1:\n        t = 2.5\n"
          "    else:\n        t = (1, 2)\n    return t\n",
     {0}, "Cannot unify float64 and UniTuple(int64 x 2) for 't'", 11},
    /* a loop redefining s many times, with continue, break and else */
    {LOC, "s = 0\n    for i in range(5):\n        s = s + i\n"
          "        s = s * 1.5\n        if s > x + 4:\n            s = s - 1\n"
          "            continue\n        s = s + 0.25\n"
          "        if s > 2 * x + 3:\n            break\n        s += 1\n"
          "    else:\n        s = s + 100\n    return s\n",
     {122.765625, 3.625, 130.359375, 130.359375}, NULL, 0},
    /* a flag set before a break and again in the else block: both reach
     * the test after the loop (pruning took it for always False) */
    {LOC, "found = False\n    for i in range(3):\n        if i > x:\n"
          "            found = True\n            break\n    else:\n"
          "        found = False\n    if found:\n        return 1.0\n"
          "    return -1.0\n",
     {1, 1, 1, -1}, NULL, 0},
    /* nested loops: continue and break of the inner one, an else block */
    {LOC, "t = 0\n    n = 0\n    while n < 4:\n        n += 1\n"
          "        for j in range(3):\n            if j == n:\n"
          "                continue\n            if t > x + 2:\n"
          "                break\n            t = t + j * 0.5\n"
          "        else:\n            t = t + 1\n    return t + n\n",
     {6, 7.5, 7.5, 10}, NULL, 0},
    /* y reaches the first break only round the loop (from the last
     * iteration's y = 3): what is joined there need not be assigned on
     * the first iteration, the read after the loop is what Python checks */
    {LOC, "k = 0\n    while k < 5:\n        k += 1\n        if k > x + 3:\n"
          "            break\n        y = 1\n        if k > x:\n"
          "            y = 2.5\n        if k > x + 1:\n            break\n"
          "        y = 3\n    return k + y\n",
     {3.5, 4.5, 5.5, 6.5}, NULL, 0},
};

static void test_kernels(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    char src[2048];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const web_case *t = &cases[c];
        snprintf(src, sizeof src,
                 "from numba import njit\n\n\n@njit\ndef f(x):\n    %s",
                 t->body);
        uf_error_clear(&err);
        uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
        uf_func *f = m ? uf_module_get(m, "f", &err) : NULL;
        for (int i = 0; f != NULL && i < 4; i++) {
            double x = i - 1;
            uf_array *in = uf_full(UF_FLOAT64, 0, NULL, &x, UF_FLOAT64,
                                  UF_ORDER_C, &err);
            uf_assert_ok(in != NULL, &err);
            uf_array *out = NULL;
            int rc = uf_call(f, &in, 1, &out, 1, NULL, &err);
            uf_array_release(in);
            if (t->error != NULL) {
                if (rc == 0)
                    uf_fail_at(t->file, t->line, "compiled; expected '%s'",
                               t->error);
                if (strstr(err.message, t->error) == NULL ||
                    (t->eline && err.line != t->eline))
                    uf_fail_at(t->file, t->line,
                               "expected '%s' at line %d, got %d: %s",
                               t->error, t->eline, err.line, err.message);
                break;
            }
            if (rc != 0)
                uf_fail_at(t->file, t->line, "f(%g): %s", x, err.message);
            double got = 0;
            if (uf_array_dtype(out) == UF_FLOAT64)
                got = *(const double *)uf_array_data(out);
            else
                uf_fail_at(t->file, t->line, "f(%g) returned %s", x,
                           uf_dtype_name(uf_array_dtype(out)));
            if (got != t->want[i])
                uf_fail_at(t->file, t->line, "f(%g) = %g, not %g", x, got,
                           t->want[i]);
            uf_array_release(out);
        }
        uf_module_free(m);
    }
    uf_context_free(ctx);
}

/* inspect --types shows the versions under their own names */
static void test_names(void **state)
{
    (void)state;
    static const char src[] = "from numba import njit\n\n\n@njit\n"
                              "def f(a):\n    x = 1\n    y = x + a\n"
                              "    x = (1.5, 2)\n    return y + x[0]\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    char *text = uf_func_inspect(f, "float64(float64)", UF_INSPECT_TYPES,
                                 &err);
    uf_assert_ok(text != NULL, &err);
    assert_non_null(strstr(text, "#   x = int64\n"));
    assert_non_null(strstr(text, "#   x.1 = Tuple(float64, int64)\n"));
    assert_non_null(strstr(text, "#   y = float64\n"));
    uf_free(text);
    uf_module_free(m);

    /* a join has a version of its own: x.2 = phi(x, x.1) */
    static const char src2[] = "from numba import njit\n\n\n@njit\n"
                               "def f(a):\n    x = 1\n    y = x * 2\n"
                               "    if a > 0:\n        x = 2.5\n"
                               "    return y + x\n";
    m = uf_module_from_string(ctx, "k.py", src2, &err);
    uf_assert_ok(m != NULL, &err);
    f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    text = uf_func_inspect(f, "float64(float64)", UF_INSPECT_TYPES, &err);
    uf_assert_ok(text != NULL, &err);
    assert_non_null(strstr(text, "    x = 1\n    #   x = int64\n"
                                 "    #   x.2 = float64\n"));
    assert_non_null(strstr(text, "    #   y = int64\n"));
    assert_non_null(strstr(text, "        #   x.1 = float64\n"
                                 "        #   x.2 = float64\n"));
    uf_free(text);
    uf_module_free(m);

    /* a ladder has one join, fed at the end of each way */
    static const char src3[] = "from numba import njit\n\n\n@njit\n"
                               "def f(a):\n    if a < 0:\n        y = 1\n"
                               "    elif a < 1:\n        y = 2.5\n"
                               "    else:\n        y = 3\n    return y\n";
    m = uf_module_from_string(ctx, "k.py", src3, &err);
    uf_assert_ok(m != NULL, &err);
    f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    text = uf_func_inspect(f, "float64(float64)", UF_INSPECT_TYPES, &err);
    uf_assert_ok(text != NULL, &err);
    assert_non_null(strstr(text, "#   y = int64\n        #   y.3 = float64\n"));
    assert_non_null(strstr(text, "#   y.1 = float64\n"
                                 "        #   y.3 = float64\n"));
    assert_non_null(strstr(text, "#   y.2 = int64\n        #   y.3 = float64\n"));
    assert_null(strstr(text, "y.4"));
    uf_free(text);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* The join_feed statements of b and its nested blocks; the distinct
 * variables they assign go to seen[0 .. *nseen). */
static int count_feeds(const uf__block *b, const char **seen, int *nseen)
{
    int k = 0;
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i];
        if (s->join_feed) {
            const char *t = s->u.assign.targets[0]->u.name.id;
            int j = 0;
            while (j < *nseen && strcmp(seen[j], t) != 0)
                j++;
            if (j == *nseen && *nseen < 64)
                seen[(*nseen)++] = t;
            k++;
        }
        if (s->kind == UF__ST_IF)
            k += count_feeds(&s->u.if_.body, seen, nseen) +
                 count_feeds(&s->u.if_.orelse, seen, nseen);
        else if (s->kind == UF__ST_FOR)
            k += count_feeds(&s->u.for_.body, seen, nseen) +
                 count_feeds(&s->u.for_.orelse, seen, nseen);
        else if (s->kind == UF__ST_WHILE)
            k += count_feeds(&s->u.while_.body, seen, nseen) +
                 count_feeds(&s->u.while_.orelse, seen, nseen);
    }
    return k;
}

static int feeds_of(const char *src, int *ntargets)
{
    uf__source source = {"k.py", src, strlen(src)};
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&source, &err);
    uf_assert_ok(km != NULL, &err);
    const uf__kernel_decl *d = uf__kmodule_find(km, "f");
    assert_non_null(d);
    const char *seen[64];
    *ntargets = 0;
    int n = count_feeds(&d->def->u.funcdef.body, seen, ntargets);
    uf__kmodule_free(km);
    return n;
}

/* Joins are fed at the merge points: n sequential `if x > i: x = x + 1`
 * take 2 feeds each (the body's definition, the value from before), not
 * one per definition reaching each later read (n^2 / 2); an elif ladder
 * of n ways takes one join of n feeds. */
static void test_feeds_linear(void **state)
{
    (void)state;
    enum { N = 2000 };
    size_t cap = 64 * (size_t)N + 256, len;
    char *src = malloc(cap);
    assert_non_null(src);
    len = (size_t)snprintf(src, cap, "from numba import njit\n@njit\n"
                                     "def f(x):\n");
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(src + len, cap - len,
                                "    if x > %d:\n        x = x + 1\n", i);
    snprintf(src + len, cap - len, "    return x\n");
    int ntargets;
    assert_int_equal(feeds_of(src, &ntargets), 2 * N);

    len = (size_t)snprintf(src, cap, "from numba import njit\n@njit\n"
                                     "def f(x):\n    if x < 0:\n"
                                     "        y = 0.0\n");
    for (int i = 1; i < N / 4; i++)
        len += (size_t)snprintf(src + len, cap - len,
                                "    elif x < %d:\n        y = %d\n", i, i);
    snprintf(src + len, cap - len, "    else:\n        y = -1\n"
                                   "    return y\n");
    assert_int_equal(feeds_of(src, &ntargets), N / 4 + 1);
    assert_int_equal(ntargets, 1);
    free(src);
}

/* Running out of memory anywhere in loading is a clean error. */
static void test_out_of_memory(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import njit\n\n\n@njit\ndef f(x):\n    t = 0\n"
        "    for i in range(3):\n        t = t + 1.5\n        if t > x:\n"
        "            break\n    t = (t, 1)\n    return t[0]\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    bool done = false;
    for (long n = 1; n < 5000 && !done; n++) {
        uf__alloc_fail_at(n);
        uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
        uf__alloc_fail_at(0);
        if (m == NULL)
            assert_int_equal(err.code, UF_ERR_NOMEM);
        done = m != NULL;
        uf_module_free(m);
    }
    assert_true(done);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_feeds_linear),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
