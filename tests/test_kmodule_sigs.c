/* Module-level signature lists (compiler/front/kmodule.c): SIGS = [...] bound
 * at module level and named by decorators, as Numba allows since the
 * decorator just gets the list's value. Errors in a listed signature point
 * at the string inside the list, those found after parsing it (argument
 * types a ufunc cannot take, a wrong count) too. */
#include "test_util.h"

typedef struct sig_case {
    const char *file;
    int line;
    const char *src;
    const char *kernel;
    int nsigs;
    const char *sig0, *sig1;
    const char *error; /* "k.py:LINE:COL: " of the load or call error (COL
                          1-based), or NULL */
} sig_case;

/* The error's location as "file:line:column: ". */
static const char *where(const uf_error *err)
{
    static char buf[300];
    snprintf(buf, sizeof buf, "%s:%d:%d: ", err->file, err->line,
             err->column);
    return buf;
}

#define HDR "from numba import vectorize, float64\n"

static const sig_case cases[] = {
    {LOC,
     HDR "SIGS = ['float64(float64)', 'float32(float32)']\n"
         "@vectorize(SIGS)\ndef f(x):\n    return x + 1\n",
     "f", 2, "float64(float64)", "float32(float32)", NULL},
    {LOC,
     HDR "SIGS = ('int64(int64)',)\n"
         "@vectorize(SIGS, target='cpu')\ndef f(x):\n    return x + 1\n",
     "f", 1, "int64(int64)", NULL, NULL},
    /* one list, two kernels; A = B = [...] binds both names */
    {LOC,
     HDR "A = B = ['float32(float32)', float64(float64)]\n"
         "@vectorize(A)\ndef g(x):\n    return x\n"
         "@vectorize(B)\ndef f(x):\n    return x * 2\n",
     "f", 2, "float32(float32)", "float64(float64)", NULL},
    /* the error is at the bad string, line 2 column 21 */
    {LOC,
     HDR "SIGS = ['f8(f8)', 'float64(flot64)']\n"
         "@vectorize(SIGS)\ndef f(x):\n    return x\n",
     "f", 2, "f8(f8)", "float64(flot64)", "k.py:2:19: "},
    /* rebinding the name hides the list */
    {LOC,
     HDR "SIGS = ['float64(float64)']\nSIGS = 3\n"
         "@vectorize(SIGS)\ndef f(x):\n    return x\n",
     "f", 1, NULL, NULL, "k.py:4:12: "},
    {LOC,
     HDR "@vectorize(NOPE)\ndef f(x):\n    return x\n",
     "f", 1, NULL, NULL, "k.py:2:12: "},
    {LOC,
     HDR "SIGS = []\n@vectorize(SIGS)\ndef f(x):\n    return x\n",
     "f", 0, NULL, NULL, "k.py:2:"},
    /* a signature that parses but no ufunc can take: at its string too */
    {LOC,
     HDR "@vectorize(['unicode_type(unicode_type)'])\n"
         "def f(x):\n    return x\n",
     "f", 1, NULL, NULL, "k.py:2:13: "},
    {LOC,
     HDR "SIGS = ['f8(f8)', 'float64(float64, float64)']\n"
         "@vectorize(SIGS)\ndef f(x):\n    return x\n",
     "f", 2, NULL, NULL, "k.py:2:19: "},
};

static void test_siglists(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const sig_case *t = &cases[c];
        uf_error_clear(&err);
        uf_module *m = uf_module_from_string(ctx, "k.py", t->src, &err);
        uf_func *f = m ? uf_module_get(m, t->kernel, &err) : NULL;
        if (f == NULL) {
            if (!t->error || strncmp(where(&err), t->error,
                                     strlen(t->error)) != 0)
                uf_fail_at(t->file, t->line, "load: %s%s", where(&err),
                           err.message);
            uf_module_free(m);
            continue;
        }
        if (uf_func_nsignatures(f) != t->nsigs)
            uf_fail_at(t->file, t->line, "%d signatures, not %d",
                       uf_func_nsignatures(f), t->nsigs);
        if (t->sig0 && strcmp(uf_func_signature(f, 0), t->sig0) != 0)
            uf_fail_at(t->file, t->line, "signature 0 is '%s'",
                       uf_func_signature(f, 0));
        if (t->sig1 && strcmp(uf_func_signature(f, 1), t->sig1) != 0)
            uf_fail_at(t->file, t->line, "signature 1 is '%s'",
                       uf_func_signature(f, 1));
        /* int32 casts safely to float64 and int64, not to float32 */
        uf_array *in = uf_linspace(1, 3, 3, true, UF_INT32, &err);
        uf_array *out = NULL;
        int rc = uf_call(f, &in, 1, &out, 1, NULL, &err);
        if (t->error) {
            if (rc == 0 ||
                strncmp(where(&err), t->error, strlen(t->error)) != 0)
                uf_fail_at(t->file, t->line, "expected '%s', got: %s%s",
                           t->error, where(&err),
                           rc == 0 ? "success" : err.message);
        } else if (rc != 0) {
            uf_fail_at(t->file, t->line, "call: %s", err.message);
        } else if (uf_array_dtype(out) !=
                   (strstr(t->sig0, "int64") ? UF_INT64 : UF_FLOAT64)) {
            uf_fail_at(t->file, t->line, "dtype %d", uf_array_dtype(out));
        }
        uf_array_release(in);
        uf_array_release(out);
        uf_module_free(m);
    }
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_siglists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
