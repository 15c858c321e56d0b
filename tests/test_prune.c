/* Branch pruning (compiler/types/infer_prune.c): kernels whose dead branch would
 * not type compile and run, as under Numba's dead_branch_prune; tests
 * Numba does not treat as constant still type (and fail); the decisions
 * land in the typed function's side table, the dead code is not typed,
 * `inspect --types` says which condition was pruned, and running out of
 * memory in the analysis is a clean UF_ERR_NOMEM.
 *
 * Expected values and which kernels Numba refuses were checked with Numba
 * 0.68 (tests/e2e/run_prune_oracle.py does the same for
 * tests/kernels/prune.py on every run). Inputs: x = -1, 0, 1, 2. */
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/types/infer.h"
#include "compiler/types/types.h"

#define HDR                                                                 \
    "from numba import vectorize\n"                                         \
    "from numba import float32\n"                                           \
    "DEBUG = False\nON = True\nK = 5\nF32 = float32(0.1)\n"                 \
    "@vectorize(['float64(float64)'])\n"
/* the def is on line 8 of every kernel below, its body from line 9 */

typedef struct prune_case {
    const char *file;
    int line;
    const char *body;
    double want[4];    /* f(-1), f(0), f(1), f(2) */
    const char *error; /* fragment of the message, or NULL */
    int eline, ecol;   /* where the error points */
} prune_case;

#define TUPLE "Can't unify return type"

static const prune_case cases[] = {
    /* module constants: bool, int compared, float, float32 vs literal */
    {LOC, "def f(x):\n    if DEBUG:\n        return (x, x)\n"
          "    return x * 2\n", {-2, 0, 2, 4}, NULL, 0, 0},
    {LOC, "def f(x):\n    if ON:\n        return x + 1\n    else:\n"
          "        return (x, x)\n", {0, 1, 2, 3}, NULL, 0, 0},
    {LOC, "def f(x):\n    if K > 3:\n        return x\n    return (x, x)\n",
     {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    if K - 5:\n        return (x, x)\n    return -x\n",
     {1, 0, -1, -2}, NULL, 0, 0},
    /* NumPy 2: the Python float meets float32(0.1) as a float32 */
    {LOC, "def f(x):\n    if F32 == 0.1:\n        return x\n"
          "    return (x, x)\n", {-1, 0, 1, 2}, NULL, 0, 0},
    /* literals (CPython drops these before Numba sees them) */
    {LOC, "def f(x):\n    if 0:\n        return (x, x)\n    return x\n",
     {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    if not 1 < 2:\n        return (x, x)\n"
          "    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    /* and/or/not in a condition: each test a branch of its own */
    {LOC, "def f(x):\n    if x > 0 and DEBUG:\n        return (x, x)\n"
          "    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    if DEBUG and undefined(x):\n"
          "        return (x, x)\n    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    if not (x > 0 or ON):\n        return (x, x)\n"
          "    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    if 0 < K < 3:\n        return (x, x)\n"
          "    if x > 3 > 4:\n        return (x, x)\n    return x\n",
     {-1, 0, 1, 2}, NULL, 0, 0},
    /* elif, while, conditional expressions, and/or as values */
    {LOC, "def f(x):\n    if DEBUG:\n        return (x, x)\n"
          "    elif K == 5:\n        return x + 10\n    else:\n"
          "        return (x, x, x)\n", {9, 10, 11, 12}, NULL, 0, 0},
    {LOC, "def f(x):\n    while DEBUG:\n        return (x, x)\n"
          "    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    y = (x, x) if DEBUG else x\n"
          "    z = x if DEBUG or ON else (x, x)\n    return y + z\n",
     {-2, 0, 2, 4}, NULL, 0, 0},
    {LOC, "def f(x):\n    y = DEBUG and (x, x)\n    z = DEBUG or x\n"
          "    return y + z\n", {-1, 0, 1, 2}, NULL, 0, 0},
    /* locals: one definition, or the only one reaching (SSA) */
    {LOC, "def f(x):\n    flag = False\n    if flag:\n"
          "        return (x, x)\n    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    n = 1\n    n = 2\n    if n > 1:\n"
          "        return x * n\n    return (x, x)\n", {-2, 0, 2, 4}, NULL,
     0, 0},
    {LOC, "def f(x):\n    c = K > 7\n    d = c\n    if d:\n"
          "        return (x, x)\n    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    n = 1\n    if DEBUG:\n        n = 2\n"
          "    if n > 1:\n        return (x, x)\n    return x * n\n",
     {-1, 0, 1, 2}, NULL, 0, 0},
    /* while tests: on entry (n = 0 there) and at the end of the body */
    {LOC, "def f(x):\n    n = 0\n    while n > 0:\n        n -= 1\n"
          "        return (x, x)\n    return x\n", {-1, 0, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    flag = True\n    while flag:\n"
          "        x = x + 1.0\n        flag = False\n    return x\n",
     {0, 1, 2, 3}, NULL, 0, 0},
    {LOC, "def f(x):\n    n = 3\n    while n > 0:\n        n -= 1\n"
          "        x = x + 1.0\n    return x\n", {2, 3, 4, 5}, NULL, 0, 0},
    {LOC, "def f(x):\n    while ON:\n        if x > 0:\n"
          "            return x\n        x += 1.0\n    return (x, x)\n",
     {1, 1, 1, 2}, NULL, 0, 0},
    {LOC, "def f(x):\n    n = 0\n    while ON:\n        n += 1\n"
          "        if n > 2:\n            break\n        continue\n"
          "    else:\n        return (x, x)\n    return x + n\n",
     {2, 3, 4, 5}, NULL, 0, 0},
    /* dead code after return or a pruned if is not typed */
    {LOC, "def f(x):\n    return x\n    return (x, x)\n", {-1, 0, 1, 2},
     NULL, 0, 0},
    {LOC, "def f(x):\n    if ON:\n        return x + 2\n    y = nope\n"
          "    return y\n", {1, 2, 3, 4}, NULL, 0, 0},
    {LOC, "def f(x):\n    for i in range(2):\n        x = x + 1.0\n"
          "    else:\n        return x\n    return (x, x)\n", {1, 2, 3, 4},
     NULL, 0, 0},

    /* what Numba does not fold is typed, and fails as under Numba */
    {LOC, "def f(x):\n    if -K > 0:\n        return (x, x)\n    return x\n",
     {0}, TUPLE, 11, 5},
    {LOC, "def f(x):\n    if bool(DEBUG):\n        return (x, x)\n"
          "    return x\n", {0}, TUPLE, 11, 5},
    {LOC, "def f(x):\n    c = not ON\n    if c:\n        return (x, x)\n"
          "    return x\n", {0}, TUPLE, 12, 5},
    {LOC, "def f(x):\n    n = 1\n    if x > 0:\n        n = 2\n"
          "    if n > 5:\n        return (x, x)\n    return x\n", {0}, TUPLE,
     14, 5},
    {LOC, "def f(x):\n    n = 0\n    for i in range(3):\n"
          "        if n > 5:\n            return (x, x)\n        n = 1\n"
          "    return x\n", {0}, TUPLE, 14, 5},
    {LOC, "def f(x):\n    a, b = 1, 2\n    if a > 5:\n"
          "        return (x, x)\n    return x\n", {0}, TUPLE, 12, 5},
    /* Numba's rounds: `if n > 1` pruned last, `m` already has a phi */
    {LOC, "def f(x):\n    n = 1\n    if DEBUG:\n        n = 2\n"
          "    m = 0\n    if n > 1:\n        m = 5\n    if m > 1:\n"
          "        return (x, x)\n    return x\n", {0}, TUPLE, 17, 5},
    /* an argument is never a constant (Numba: only when passed None) */
    {LOC, "def f(x):\n    if x == 1.5:\n        return (x, x)\n"
          "    return x\n", {0}, TUPLE, 11, 5},
    /* the live branch is typed; pruned assignments do not define */
    {LOC, "def f(x):\n    if ON:\n        return (x, x)\n    return x\n",
     {0}, "cannot be converted to the declared return type", 10, 9},
    {LOC, "def f(x):\n    if DEBUG:\n        y = 1.0\n    return y\n", {0},
     "local variable 'y' is referenced before assignment", 11, 12},
    {LOC, "def f(x):\n    if x > 0 or ON:\n        return nope\n"
          "    return x\n", {0}, "name 'nope' is not defined", 10, 16},
};

static void test_kernels(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_array *in = uf_linspace(-1, 2, 4, true, UF_FLOAT64, &err);
    uf_assert_ok(in != NULL, &err);
    char src[2048];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const prune_case *t = &cases[c];
        snprintf(src, sizeof src, "%s%s", HDR, t->body);
        uf_error_clear(&err);
        uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
        uf_func *f = m ? uf_module_get(m, "f", &err) : NULL;
        uf_array *out = NULL;
        int rc = f ? uf_call(f, &in, 1, &out, 1, NULL, &err) : -1;
        if (t->error != NULL) {
            if (rc == 0)
                uf_fail_at(t->file, t->line, "compiled; expected '%s'",
                           t->error);
            else if (strstr(err.message, t->error) == NULL ||
                     err.line != t->eline || err.column != t->ecol)
                uf_fail_at(t->file, t->line, "expected '%s' at %d:%d, got "
                           "%d:%d: %s", t->error, t->eline, t->ecol,
                           err.line, err.column, err.message);
        } else if (rc != 0) {
            uf_fail_at(t->file, t->line, "%s", err.message);
        } else {
            const double *o = uf_array_data(out);
            for (int i = 0; i < 4; i++)
                if (o[i] != t->want[i])
                    uf_fail_at(t->file, t->line, "f(%d) = %g, not %g", i - 1,
                               o[i], t->want[i]);
        }
        uf_array_release(out);
        uf_module_free(m);
    }
    uf_array_release(in);
    uf_context_free(ctx);
}

/* guvectorize: a.ndim of an array argument is a constant (Numba's
 * rewrite_semantic_constants). */
static void test_ndim(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import guvectorize\n"
        "@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')\n"
        "def g(a, out):\n"
        "    for i in range(a.shape[0]):\n"
        "        if a.ndim == 2:\n"
        "            out[i] = (a[i], a[i])\n"
        "        else:\n"
        "            out[i] = a[i] * 2\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "g.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "g", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *in = uf_linspace(-1, 2, 4, true, UF_FLOAT64, &err);
    uf_array *out = NULL;
    int rc = uf_call(f, &in, 1, &out, 1, NULL, &err);
    uf_assert_ok(rc == 0, &err);
    const double *o = uf_array_data(out);
    assert_true(o[0] == -2 && o[1] == 0 && o[2] == 2 && o[3] == 4);
    uf_array_release(in);
    uf_array_release(out);
    uf_module_free(m);
    uf_context_free(ctx);
}

static const char dump_src[] =
    "from numba import vectorize\n"
    "DEBUG = False\n"
    "@vectorize(['float64(float64)'])\n"
    "def f(x):\n"
    "    flag = K2 > 1\n"
    "    if flag:\n"
    "        y = (x, x)\n"
    "        return y[0]\n"
    "    while DEBUG and x > 0:\n"
    "        z = x\n"
    "    return x\n"
    "K2 = 3\n";

/* The side table: decisions on the conditions, nothing typed in the dead
 * code, and the dump's note. */
static uf__typed_func *type_dump_src(uf__kmodule **km, uf_error *err)
{
    static uf__source src; /* outlives the module */
    src = (uf__source){"k.py", dump_src, sizeof dump_src - 1};
    *km = uf__kmodule_new(&src, err);
    if (*km == NULL)
        return NULL;
    uf__signature s;
    if (uf__parse_signature((*km)->tc, (*km)->arena, "float64(float64)", &s,
                            err) < 0)
        return NULL;
    return uf__infer(*km, uf__kmodule_find(*km, "f"), s.args, s.nargs, s.ret,
                     err);
}

static void test_side_table(void **state)
{
    (void)state;
    uf_error err;
    uf__kmodule *km;
    uf__typed_func *tf = type_dump_src(&km, &err);
    uf_assert_ok(tf != NULL, &err);
    const uf__block *body = &tf->decl->def->u.funcdef.body;
    const uf__stmt *sif = body->stmts[1], *swhile = body->stmts[2];
    assert_int_equal(uf__tf_info(tf, sif->u.if_.cond)->truth, 1);
    const uf__expr *wc = swhile->u.while_.cond;
    assert_int_equal(uf__tf_info(tf, wc)->truth, -1);
    assert_int_equal(uf__tf_info(tf, wc->u.boolop.values[0])->truth, -1);
    /* y = (x, x) is typed; z = x in the dead loop is not */
    const uf__stmt *yz = sif->u.if_.body.stmts[0];
    assert_non_null(uf__tf_info(tf, yz->u.assign.value)->type);
    const uf__stmt *zx = swhile->u.while_.body.stmts[0];
    assert_null(uf__tf_info(tf, zx->u.assign.value)->type);
    assert_null(uf__tf_info(tf, wc->u.boolop.values[1])->type);
    assert_false(uf__stmt_falls_through(tf, sif));
    char *dump = uf__typed_func_dump(tf, &err);
    uf_assert_ok(dump != NULL, &err);
    if (strstr(dump, "    if flag:\n    #   pruned: the condition is always "
                     "True") == NULL ||
        strstr(dump, "always False") == NULL || strstr(dump, "#   z = ") != NULL)
        fail_msg("dump:\n%s", dump);
    uf__free(dump);
    uf__kmodule_free(km);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    long n, live0 = uf__alloc_live();
    for (n = 1; n < 100000; n++) {
        uf__kmodule *km = NULL;
        uf__source src = {"k.py", dump_src, strlen(dump_src)};
        km = uf__kmodule_new(&src, &err);
        uf_assert_ok(km != NULL, &err);
        uf__signature s;
        int rc = uf__parse_signature(km->tc, km->arena, "float64(float64)",
                                     &s, &err);
        uf_assert_ok(rc == 0, &err);
        uf__alloc_fail_at(n);
        uf__typed_func *tf = uf__infer(km, uf__kmodule_find(km, "f"), s.args,
                                       s.nargs, s.ret, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        uf__kmodule_free(km);
        assert_int_equal(uf__alloc_live(), live0);
        if (!failed) {
            assert_non_null(tf);
            break;
        }
        if (tf != NULL || err.code != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s (%s)", n,
                     tf ? "typed anyway" : err.message,
                     uf_err_name(err.code));
    }
    assert_true(n > 3 && n < 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels),
        cmocka_unit_test(test_ndim),
        cmocka_unit_test(test_side_table),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
