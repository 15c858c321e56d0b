/* Type inference (compiler/types/infer.h): Numba is the oracle. Every case of
 * tests/data/numba_infer.txt (or of the file named by argv[1]; CTest also
 * runs this on a table Numba regenerates at test time) is a kernel file
 * typed for one argument list: the return type and every named variable
 * must be what Numba's type inference gives, and kernels Numba refuses
 * must be refused. Then the error paths with their messages and
 * positions, what the side table records for the lowering, reuse of
 * specialisations, the typed dump and out-of-memory unwinding. */
#include <math.h>

#include "test_util.h"

#include "common/alloc.h"
#include "compiler/types/infer.h"

static const char *table_path = UF_TEST_DATA_DIR "/numba_infer.txt";

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s != NULL && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s != NULL) {
        s[n] = '\0';
        *len = (size_t)n;
    }
    return s;
}

static const char *tname(const uf__type *t, char *buf, size_t size)
{
    if (t == NULL)
        snprintf(buf, size, "<null>");
    else
        uf__type_str(t, buf, size);
    return buf;
}

/* Types kernel `name` of `src` for the signature text `sig` ("(f4, i8)"
 * or "f4(f4)"); returns the specialisation or NULL with err set. *kmp
 * receives the module (free it). */
static uf__typed_func *infer_src(const uf__source *src, const char *name,
                                 const char *sig, uf__kmodule **kmp,
                                 uf_error *err)
{
    *kmp = uf__kmodule_new(src, err);
    if (*kmp == NULL)
        return NULL;
    const uf__kernel_decl *d = uf__kmodule_find(*kmp, name);
    if (d == NULL) {
        snprintf(err->message, sizeof err->message, "no kernel '%s'", name);
        err->code = UF_ERR_NOT_FOUND;
        return NULL;
    }
    uf__signature s;
    if (uf__parse_signature((*kmp)->tc, (*kmp)->arena, sig, &s, err) < 0)
        return NULL;
    return uf__infer(*kmp, d, s.args, s.nargs, s.ret, err);
}

/* ---- the Numba table --------------------------------------------------- */

typedef struct ncase {
    const char *id;
    int line; /* in the table file */
    char sig[256];
    char src[8192];
    size_t srclen;
    bool error;
    char ret[256];
    char vars[64][2][128];
    int nvars;
} ncase;

/* Checks one case; returns false (message printed) on a mismatch. */
static bool check_case(const ncase *c)
{
    uf_error err;
    uf_error_clear(&err);
    uf__source src = {"kernels.py", c->src, c->srclen};
    uf__kmodule *km = NULL;
    uf__typed_func *tf = infer_src(&src, "f", c->sig, &km, &err);
    bool ok = true;
    char buf[256];
    if (c->error) {
        if (tf != NULL) {
            print_error("%s:%d: case %s %s: Numba refuses it, ufjit typed it "
                        "(returns %s)\n", table_path, c->line, c->id, c->sig,
                        tname(tf->ret, buf, sizeof buf));
            ok = false;
        } else if (err.code != UF_ERR_TYPING &&
                   err.code != UF_ERR_UNSUPPORTED) {
            print_error("%s:%d: case %s: refused with %s: %s\n", table_path,
                        c->line, c->id, uf_err_name(err.code), err.message);
            ok = false;
        }
        uf__kmodule_free(km);
        return ok;
    }
    if (tf == NULL) {
        print_error("%s:%d: case %s %s: Numba types it, ufjit refuses: %s\n",
                    table_path, c->line, c->id, c->sig, err.message);
        uf__kmodule_free(km);
        return false;
    }
    tname(tf->ret, buf, sizeof buf);
    if (strcmp(buf, c->ret) != 0) {
        print_error("%s:%d: case %s %s: returns %s, Numba %s\n", table_path,
                    c->line, c->id, c->sig, buf, c->ret);
        ok = false;
    }
    for (int i = 0; i < c->nvars; i++) {
        const char *name = c->vars[i][0], *want = c->vars[i][1];
        /* the table unifies Numba's SSA versions of a name (x, x.1, ...),
         * "-" when they do not unify; so do the same over ufjit's versions
         * of it (compiler/types/ssa_versions.c) */
        const uf__type *t = NULL;
        size_t len = strlen(name);
        bool found = false;
        for (int k = 0; k < tf->nvars; k++) {
            const char *vn = tf->vars[k].name;
            if (strncmp(vn, name, len) != 0 ||
                (vn[len] != '\0' && vn[len] != '.') || !tf->vars[k].type)
                continue;
            t = found ? uf__type_unify(km->tc, t, tf->vars[k].type)
                      : tf->vars[k].type;
            found = true;
            if (t == NULL)
                break;
        }
        if (found && t == NULL && strcmp(want, "-") == 0)
            continue;
        if (t == NULL) {
            print_error("%s:%d: case %s: no variable '%s' (or its versions "
                        "do not unify)\n", table_path, c->line, c->id, name);
            ok = false;
            continue;
        }
        tname(t, buf, sizeof buf);
        if (strcmp(buf, want) != 0) {
            print_error("%s:%d: case %s %s: '%s' is %s, Numba %s\n",
                        table_path, c->line, c->id, c->sig, name, buf, want);
            ok = false;
        }
    }
    uf__kmodule_free(km);
    return ok;
}

static void test_numba_table(void **state)
{
    (void)state;
    size_t len;
    char *text = read_file(table_path, &len);
    if (text == NULL)
        fail_msg("cannot read %s", table_path);
    static ncase c;
    int ncases = 0, nbad = 0, lineno = 0;
    bool in_case = false;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        if (strncmp(line, "case ", 5) == 0) {
            memset(&c, 0, sizeof c);
            char *sp = strchr(line + 5, ' ');
            assert_non_null(sp);
            *sp = '\0';
            c.id = line + 5;
            c.line = lineno;
            snprintf(c.sig, sizeof c.sig, "%s", sp + 1);
            in_case = true;
        } else if (in_case && line[0] == '|') {
            const char *s = line[1] == ' ' ? line + 2 : line + 1;
            size_t n = strlen(s);
            assert_true(c.srclen + n + 2 < sizeof c.src);
            memcpy(c.src + c.srclen, s, n);
            c.srclen += n;
            c.src[c.srclen++] = '\n';
            c.src[c.srclen] = '\0';
        } else if (in_case && strncmp(line, "ret ", 4) == 0) {
            snprintf(c.ret, sizeof c.ret, "%s", line + 4);
        } else if (in_case && strncmp(line, "error ", 6) == 0) {
            c.error = true;
        } else if (in_case && strncmp(line, "var ", 4) == 0) {
            char *name = line + 4, *sp = strchr(name, ' ');
            assert_non_null(sp);
            *sp = '\0';
            assert_true(c.nvars < 64);
            snprintf(c.vars[c.nvars][0], 128, "%s", name);
            snprintf(c.vars[c.nvars][1], 128, "%s", sp + 1);
            c.nvars++;
        } else if (in_case && strcmp(line, "end") == 0) {
            ncases++;
            if (!check_case(&c) && ++nbad > 60)
                break;
            in_case = false;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (nbad > 0)
        fail_msg("%d of %d Numba cases differ", nbad, ncases);
    assert_true(ncases > 1000);
    assert_int_equal(uf__alloc_live(), 0);
}

/* ---- refusals -------------------------------------------------------- */

/* Each row: a kernel file (the header H is 3 lines: kernels start on line
 * 4), the kernel, the signature, the error, where. */
#define H "import math\nimport numpy as np\n" \
          "from numba import njit, vectorize, cuda, float32, void\n"

typedef struct err_row {
    const char *file;
    int line;
    const char *text;
    const char *kernel, *sig;
    int code;
    const char *msg;
    int eline, ecol;
} err_row;

static const err_row err_rows[] = {
    /* names and attributes */
    {LOC, H "@njit\ndef f(a):\n    return foo + a\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "name 'foo' is not defined", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    reversed(a)\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "'reversed' is not supported in kernels", 6, 5},
    {LOC, H "@njit\ndef f(a):\n    return math.sinn(a)\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "unknown attribute 'sinn' of module 'math'", 6, 17},
    {LOC, H "@njit\ndef f(a):\n    return np.foo\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "unknown attribute 'foo' of module 'numpy'", 6, 15},
    {LOC, H "@njit\ndef f(a):\n    return a.foo\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "unknown attribute 'foo' of float64", 6, 14},
    {LOC, H "@njit\ndef f(a):\n    return a.real\n", "f", "(bool,)",
     UF_ERR_UNSUPPORTED, "unknown attribute 'real' of bool", 6, 14},
    {LOC, H "@njit\ndef f(a):\n    return a.foo\n", "f", "(float64[:],)",
     UF_ERR_UNSUPPORTED, "unknown attribute 'foo' of array(float64, 1d, A)",
     6, 14},
    {LOC, H "@njit\ndef f(a):\n    x = math\n    return a\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED,
     "Module(math) cannot be stored in a variable ('x')", 6, 9},
    {LOC, H "@njit\ndef f(a):\n    s = math.sin\n    return s(a)\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED, "cannot be stored in a variable", 6,
     9},
    {LOC, H "@njit\ndef f(a):\n    return vectorize(a)\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "the decorator 'vectorize' cannot be used inside a "
     "kernel", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return void(a)\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "can only be used in signatures", 6, 12},
    {LOC, H "@vectorize\ndef f(a):\n    return 'text'\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "only an @njit function may return a string", 6,
     5},
    {LOC, H "@njit\ndef f(a):\n    return [a]\n", "f", "(float64,)",
     UF_ERR_UNSUPPORTED, "a list cannot leave the kernel called through", 6,
     5},
    {LOC, H "@njit\ndef f(a):\n    return 99999999999999999999\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED, "integer literal too large", 6, 12},
    /* statements */
    {LOC, H "@njit\ndef f(a):\n    def g(x):\n        return x\n"
            "    return g\n", "f", "(float64,)", UF_ERR_UNSUPPORTED,
     "nested function 'g' used other than called", 8, 12},
    {LOC, H "@njit\ndef f(a):\n    def g(x):\n        return x + a\n"
            "    return (g, 1)\n", "f", "(float64,)", UF_ERR_TYPING,
     "Cannot capture the non-constant value associated with variable 'a'",
     8, 13},
    {LOC, H "@njit\ndef f(a):\n    import cmath\n    return a\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED, "imports inside a kernel", 6, 5},
    {LOC, H "@njit\ndef f(a):\n    for x in a:\n        pass\n"
            "    return a\n", "f", "(float64,)", UF_ERR_UNSUPPORTED,
     "only 'for ... in range(...)' loops are supported", 6, 14},
    {LOC, H "@njit\ndef f(a):\n    for x in (a, 1):\n        pass\n"
            "    return a\n", "f", "(float64,)", UF_ERR_TYPING,
     "Invalid use of getiter with parameters (Tuple(float64, int64))", 6,
     14},
    {LOC, H "@njit\ndef f(a):\n    for i, j in range(3):\n        pass\n"
            "    return a\n", "f", "(float64,)", UF_ERR_UNSUPPORTED,
     "the target of a for loop must be a single name", 6, 9},
    {LOC, H "@njit\ndef f(a):\n    z = y\n    y = 1\n    return z\n", "f",
     "(float64,)", UF_ERR_TYPING,
     "local variable 'y' is referenced before assignment", 6, 9},
    {LOC, H "@njit\ndef f(n):\n    for i in range(n):\n        if i > 0:\n"
            "            y = z\n        z = i\n    return n\n", "f",
     "(int64,)", UF_ERR_TYPING,
     "local variable 'z' is referenced before assignment", 8, 17},
    {LOC, H "@njit\ndef f(n):\n    while n > 0:\n        n = w\n"
            "        w = 1\n    return n\n", "f", "(int64,)", UF_ERR_TYPING,
     "local variable 'w' is referenced before assignment", 7, 13},
    {LOC, H "@njit\ndef f(a):\n    x, y = a\n    return x\n", "f",
     "(float64,)", UF_ERR_TYPING, "cannot unpack float64 into 2 values", 6,
     12},
    {LOC, H "@njit\ndef f(a):\n    x, y = a, a, a\n    return x\n", "f",
     "(float64,)", UF_ERR_TYPING,
     "cannot unpack UniTuple(float64 x 3) into 2 values: it has 3", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    t = (a, a)\n    t[0] = 1\n    return t\n",
     "f", "(float64,)", UF_ERR_TYPING,
     "UniTuple(float64 x 2) does not support item assignment", 7, 5},
    {LOC, H "@njit\ndef f(a):\n    a.real = 1\n    return a\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED, "assigning to an attribute ('.real')",
     6, 5},
    {LOC, H "@njit\ndef f(a, b):\n    a[0] = b\n", "f",
     "(float64[:], complex128)", UF_ERR_TYPING,
     "cannot store complex128 into an element of array(float64, 1d, A)", 6,
     5},
    {LOC, H "@njit\ndef f(a, b):\n    a[0] = b\n", "f",
     "(float64[:, :], complex128)", UF_ERR_TYPING,
     "cannot assign complex128 to a slice of type array(float64, 1d, A)", 6,
     5},
    {LOC, H "@njit\ndef f(a):\n    assert a > 0, a\n    return a\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED, "the message of an assert must be a "
     "string literal", 6, 19},
    {LOC, H "@njit\ndef f(a):\n    if (a, a):\n        return a\n"
            "    return a\n", "f", "(float64,)", UF_ERR_TYPING,
     "the truth value of UniTuple(float64 x 2) is not supported", 6, 8},
    /* unification */
    {LOC, H "@njit\ndef f(a, c):\n    x = a\n    if c:\n        x = (1, 2)\n"
            "    return x\n", "f", "(float64, bool)", UF_ERR_TYPING,
     "Cannot unify float64 and UniTuple(int64 x 2) for 'x', defined at "
     "kernels.py (6) and kernels.py (8)", 8, 9},
    {LOC, H "@njit\ndef f(a):\n    if a > 0:\n        return 1\n"
            "    return (1, 2)\n", "f", "(float64,)", UF_ERR_TYPING,
     "Can't unify return type from the following types: int64, "
     "UniTuple(int64 x 2)", 8, 5},
    {LOC, H "@njit\ndef f(a):\n    if a > 0:\n        return a\n", "f",
     "(float64,)", UF_ERR_TYPING,
     "Can't unify return type from the following types: float64, none", 5,
     5},
    {LOC, H "@njit\ndef f(a, c):\n    return a if c else (a, a)\n", "f",
     "(float64, bool)", UF_ERR_TYPING, "Cannot unify float64 and "
     "UniTuple(float64 x 2) for the conditional expression", 6, 24},
    {LOC, H "@njit\ndef f(a, b):\n    return a and b\n", "f",
     "(float64, float64[:])", UF_ERR_TYPING,
     "the truth value of array(float64, 1d, A)", 6, 18},
    /* operators */
    {LOC, H "@njit\ndef f(a, b):\n    return a // b\n", "f",
     "(complex128, complex128)", UF_ERR_TYPING,
     "unsupported operand types for //: complex128 and complex128", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return ~a\n", "f", "(float64,)",
     UF_ERR_TYPING, "unsupported operand type for unary ~: float64", 6, 12},
    {LOC, H "@njit\ndef f(a, b):\n    return a < b\n", "f",
     "(complex64, complex64)", UF_ERR_TYPING,
     "'<' is not supported between complex64 and complex64", 6, 12},
    {LOC, H "@njit\ndef f(a, b):\n    return a is b is a\n", "f",
     "(float64, float64)", UF_ERR_UNSUPPORTED,
     "'is' in a chain of comparisons is not supported", 6, 12},
    {LOC, H "@njit\ndef f(a, b):\n    return (a, b) is (a, b)\n", "f",
     "(float64, float64)", UF_ERR_UNSUPPORTED,
     "the 'is' operator on UniTuple(float64 x 2) and UniTuple(float64 x 2)",
     6, 12},
    {LOC, H "@njit\ndef f(a, b):\n    a += b\n    return a\n", "f",
     "(float64, float64[:])", UF_ERR_TYPING,
     "unsupported operand types for +=: float64 and array(float64, 1d, A)",
     6, 5},
    {LOC, H "@cuda.jit\ndef k(a, out):\n    t = a * 2.0\n    out[0] = t[0]\n",
     "k", "(float64[:], float64[:])", UF_ERR_UNSUPPORTED,
     "it would allocate an array, which CUDA kernels cannot do", 6, 9},
    {LOC, H "@njit\ndef f(a):\n    t = (a, a)\n    t += 1\n    return t\n",
     "f", "(float64,)", UF_ERR_TYPING, "unsupported operand types for +=", 7,
     5},
    /* indexing */
    {LOC, H "@njit\ndef f(a, b):\n    return a[b]\n", "f",
     "(float64[:], float64)", UF_ERR_TYPING,
     "array indices must be integers, not float64", 6, 14},
    {LOC, H "@njit\ndef f(a, i):\n    return a[i, i]\n", "f",
     "(float64[:], int64)", UF_ERR_TYPING,
     "too many indices for array(float64, 1d, A): 2", 6, 12},
    {LOC, H "@njit\ndef f(a, i):\n    return a[i]\n", "f",
     "(float64[:], float64[:])", UF_ERR_TYPING, "Unsupported array index "
     "type array(float64, 1d, A)", 6, 14},
    {LOC, H "@njit\ndef f(a):\n    t = (a, a)\n    return t[2]\n", "f",
     "(float64,)", UF_ERR_TYPING, "tuple index out of range", 7, 14},
    {LOC, H "@njit\ndef f(a, i):\n    t = (a, i)\n    return t[i]\n", "f",
     "(float64, int64)", UF_ERR_TYPING,
     "Tuple(float64, int64) can only be indexed with a literal integer", 7,
     14},
    {LOC, H "@njit\ndef f(a):\n    return a[0]\n", "f", "(float64,)",
     UF_ERR_TYPING, "float64 is not subscriptable", 6, 12},
    /* builtins */
    {LOC, H "@njit\ndef f(a):\n    return math.sin(a, a)\n", "f",
     "(float64,)", UF_ERR_TYPING,
     "No implementation of math.sin for (float64, float64)", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return math.sin(a)\n", "f",
     "(complex128,)", UF_ERR_TYPING,
     "No implementation of math.sin for (complex128,)", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return np.sqrt(a, a)\n", "f",
     "(float64,)", UF_ERR_TYPING,
     "numpy.sqrt(): output argument 2 must be an array, not float64", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return np.sqrt(a, a, a)\n", "f",
     "(float64,)", UF_ERR_TYPING, "numpy.sqrt() takes 1 to 2 arguments (3 "
     "given)", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return abs(a, a)\n", "f", "(float64,)",
     UF_ERR_TYPING, "abs() takes 1 argument (2 given)", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return round(a, 1, 2)\n", "f",
     "(float64,)", UF_ERR_TYPING, "round() takes 1 to 2 arguments (3 given)",
     6, 12},
    {LOC, H "@njit\ndef f(a):\n    return round(a, ndigits=2)\n", "f",
     "(float64,)", UF_ERR_UNSUPPORTED, "keyword arguments are only "
     "supported in calls of kernels", 6, 21},
    {LOC, H "@njit\ndef f(a):\n    return float32(a)\n", "f",
     "(complex128,)", UF_ERR_TYPING, "cannot cast complex128 to float32", 6,
     12},
    {LOC, H "@njit\ndef f(a):\n    s = 0\n    for i in range(a):\n"
            "        s += i\n    return s\n", "f", "(float64,)",
     UF_ERR_TYPING, "range() arguments must be integers, not float64", 7,
     20},
    {LOC, H "@njit\ndef f(a):\n    return a.conjugate(1)\n", "f",
     "(complex64,)", UF_ERR_TYPING, "conjugate() takes no arguments", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return a(1)\n", "f", "(float64,)",
     UF_ERR_TYPING, "float64 is not callable", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return len(a)\n", "f", "(float64,)",
     UF_ERR_TYPING, "No implementation of len for (float64,)", 6, 12},
    /* calls of other functions */
    {LOC, H "def plain(x):\n    return x\n@njit\ndef f(a):\n"
            "    return plain(a)\n", "f", "(float64,)", UF_ERR_TYPING,
     "Untyped global name 'plain': cannot determine Numba type of <class "
     "'function'> (decorate 'plain' with @njit", 8, 12},
    {LOC, H "@vectorize\ndef v(x):\n    return x\n@njit\ndef f(a):\n"
            "    return v(a)\n", "f", "(float64,)", UF_ERR_UNSUPPORTED,
     "'v' is a vectorize kernel: only @njit and @cuda.jit(device=True) "
     "functions can be called from kernels", 9, 12},
    {LOC, H "@njit\ndef f(a):\n    return f(a - 1)\n", "f", "(int64,)",
     UF_ERR_UNSUPPORTED, "recursive call of 'f' is not supported", 6, 12},
    {LOC, H "@njit\ndef f(a):\n    return g(a)\n@njit\ndef g(x):\n"
            "    return f(x)\n", "f", "(int64,)", UF_ERR_UNSUPPORTED,
     "recursive call of 'f' is not supported", 9, 12},
    {LOC, H "@njit\ndef g(x):\n    return x\n@njit\ndef f(a):\n"
            "    return g(a, 1)\n", "f", "(float64,)", UF_ERR_TYPING,
     "g() takes 1 positional argument but 2 were given", 9, 12},
    {LOC, H "@njit\ndef g(x, y):\n    return x\n@njit\ndef f(a):\n"
            "    return g(a, z=1)\n", "f", "(float64,)", UF_ERR_TYPING,
     "g() got an unexpected keyword argument 'z'", 9, 17},
    {LOC, H "@njit\ndef g(x, y):\n    return x\n@njit\ndef f(a):\n"
            "    return g(a, x=1)\n", "f", "(float64,)", UF_ERR_TYPING,
     "g() got multiple values for argument 'x'", 9, 17},
    {LOC, H "@njit\ndef g(x, y):\n    return x\n@njit\ndef f(a):\n"
            "    return g(y=a)\n", "f", "(float64,)", UF_ERR_TYPING,
     "g() missing argument 'x'", 9, 12},
    {LOC, H "@njit\ndef g(x):\n    return math.sin(x)\n@njit\ndef f(a):\n"
            "    return g(a)\n", "f", "(complex64,)", UF_ERR_TYPING,
     "No implementation of math.sin for (complex64,)", 6, 12},
    {LOC, H "@njit('float32(float32)')\ndef g(x):\n    return x\n"
            "@njit\ndef f(a):\n    return g(a)\n", "f", "(complex64,)",
     UF_ERR_TYPING, "No implementation of g for (complex64,)", 9, 12},
    {LOC, H "@njit\ndef g(x):\n    return x\n@njit\ndef f(a):\n"
            "    return g(None)\n", "f", "(float64,)", UF_ERR_TYPING,
     "cannot pass None to 'g'", 9, 14},
    /* the specialisation itself */
    {LOC, H "@njit\ndef f(a):\n    return a\n", "f", "(float64, float64)",
     UF_ERR_TYPING, "f() takes 1 argument but 2 were given", 5, 5},
    {LOC, H "@vectorize\ndef f(a):\n    return a\n", "f",
     "float32(complex64)", UF_ERR_TYPING, "'f' returns complex64, which "
     "cannot be converted to the declared return type float32", 6, 5},
    {LOC, H "@vectorize\ndef f(a):\n    pass\n", "f", "float32(float32)",
     UF_ERR_TYPING, "'f' returns none, which cannot be converted", 5, 5},
    {LOC, H "@vectorize\ndef f(a):\n    return a, a\n", "f",
     "float32(float32)", UF_ERR_TYPING, "'f' returns UniTuple(float32 x 2), "
     "which cannot be converted", 6, 5},
    {LOC, H "@njit\ndef f(a, b):\n    return a\n", "f", "(float64, none)",
     UF_ERR_TYPING, "argument 'b' of 'f' cannot have type none", 5, 10},
};

static void test_errors(void **state)
{
    (void)state;
    size_t n = sizeof err_rows / sizeof *err_rows;
    for (size_t i = 0; i < n; i++) {
        const err_row *r = &err_rows[i];
        uf__source src = {"kernels.py", r->text, strlen(r->text)};
        uf_error err;
        uf_error_clear(&err);
        uf__kmodule *km = NULL;
        uf__typed_func *tf = infer_src(&src, r->kernel, r->sig, &km, &err);
        if (tf != NULL) {
            uf__kmodule_free(km);
            uf_fail_at(r->file, r->line, "accepted:\n%s", r->text);
        }
        uf__kmodule_free(km);
        if (err.code != r->code || strstr(err.message, r->msg) == NULL)
            uf_fail_at(r->file, r->line, "got %s: %s\nexpected %s: %s",
                       uf_err_name(err.code), err.message,
                       uf_err_name(r->code), r->msg);
        if (err.line != r->eline || err.column != r->ecol ||
            strcmp(err.file, "kernels.py") != 0 ||
            strchr(err.message, '^') == NULL)
            uf_fail_at(r->file, r->line, "error at %s:%d:%d, expected "
                       "%d:%d:\n%s", err.file, err.line, err.column,
                       r->eline, r->ecol, err.message);
    }
    assert_int_equal(uf__alloc_live(), 0);
}

/* ---- what the side table records --------------------------------------- */

static const char *info_src =
    "import math\n"                                        /* 1 */
    "import numpy as np\n"                                 /* 2 */
    "from numba import njit, vectorize, float32\n"         /* 3 */
    "C1 = 3\n"                                             /* 4 */
    "@njit\n"                                              /* 5 */
    "def g(x, y):\n"                                       /* 6 */
    "    return x * y, x\n"                                /* 7 */
    "@vectorize\n"                                         /* 8 */
    "def f(a, b):\n"                                       /* 9 */
    "    x = a + b\n"                                      /* 10 */
    "    y = math.sin(x)\n"                                /* 11 */
    "    z = float32(y)\n"                                 /* 12 */
    "    w, v = g(z, 1)\n"                                 /* 13 */
    "    c = C1 * x + math.pi\n"                           /* 14 */
    "    for i in range(b):\n"                             /* 15 */
    "        x += i\n"                                     /* 16 */
    "    k = a < b < 2.5\n"                                /* 17 */
    "    q = np.float32(a).real\n"                         /* 18 */
    "    return w + c + x + q + v\n";                      /* 19 */

static const uf__stmt *body_stmt(const uf__kmodule *km, const char *kernel,
                                 int i)
{
    const uf__kernel_decl *d = uf__kmodule_find(km, kernel);
    assert_non_null(d);
    const uf__block *b = &d->def->u.funcdef.body;
    for (int k = 0; k < b->n; k++) /* the source's statements */
        if (!b->stmts[k]->join_feed && i-- == 0)
            return b->stmts[k];
    fail_msg("%s has no statement %d", kernel, i);
    return NULL;
}

static const char *ty(const uf__type *t)
{
    static char bufs[4][128];
    static int k;
    char *b = bufs[k++ & 3];
    return tname(t, b, 128);
}

static int var_index(const uf__typed_func *tf, const char *name)
{
    for (int i = 0; i < tf->nvars; i++)
        if (strcmp(tf->vars[i].name, name) == 0)
            return i;
    fail_msg("no variable %s", name);
    return -1;
}

/* the entry of expression e in tf's side table */
#define INFO(e) uf__tf_info(tf, (e))

static void test_info(void **state)
{
    (void)state;
    uf__source src = {"kernels.py", info_src, strlen(info_src)};
    uf_error err;
    uf__kmodule *km = NULL;
    uf__typed_func *tf = infer_src(&src, "f", "(float32, int32)", &km, &err);
    uf_assert_ok(tf != NULL, &err);

    /* x = a + b: operands converted to float64 (float32 + int32) */
    const uf__stmt *s = body_stmt(km, "f", 0);
    const uf__expr *add = s->u.assign.value;
    assert_string_equal(ty(INFO(add)->type), "float64");
    assert_string_equal(ty(INFO(add)->optype), "float64");
    const uf__expr *a = add->u.binary.left;
    assert_int_equal(INFO(a)->var, var_index(tf, "a"));
    assert_string_equal(ty(INFO(a)->type), "float32");
    const uf__expr *xt = s->u.assign.targets[0];
    assert_int_equal(INFO(xt)->var, var_index(tf, "x"));
    assert_int_equal(tf->vars[var_index(tf, "a")].arg, 0);
    assert_int_equal(tf->vars[var_index(tf, "b")].arg, 1);
    assert_int_equal(tf->vars[var_index(tf, "x")].arg, -1);

    /* y = math.sin(x): the builtin, computed in float64 */
    s = body_stmt(km, "f", 1);
    const uf__expr *call = s->u.assign.value;
    assert_int_equal(INFO(call)->builtin, UF__BI_SIN);
    assert_string_equal(ty(INFO(call)->optype), "float64");
    assert_int_equal(INFO(call->u.call.func)->builtin, UF__BI_SIN);
    assert_int_equal(INFO(call->u.call.func)->var, -1);

    /* z = float32(y): a cast */
    s = body_stmt(km, "f", 2);
    call = s->u.assign.value;
    assert_int_equal(INFO(call)->builtin, UF__BI_CAST);
    assert_int_equal(INFO(call)->cast_to, UF_FLOAT32);
    assert_string_equal(ty(INFO(call)->type), "float32");

    /* w, v = g(z, 1): the callee's specialisation, in f's error model */
    s = body_stmt(km, "f", 3);
    call = s->u.assign.value;
    const uf__typed_func *g = INFO(call)->callee;
    assert_non_null(g);
    assert_string_equal(g->decl->name, "g");
    assert_int_equal(g->nargs, 2);
    assert_string_equal(ty(g->args[0]), "float32");
    assert_string_equal(ty(g->args[1]), "int64");
    assert_string_equal(ty(g->ret), "Tuple(float64, float32)");
    assert_true(g->numpy_error_model);
    assert_true(tf->numpy_error_model);
    assert_string_equal(ty(INFO(s->u.assign.targets[0])->type),
                        "Tuple(float64, float32)");

    /* c = C1 * x + math.pi: both constants resolved */
    s = body_stmt(km, "f", 4);
    const uf__expr *sum = s->u.assign.value;
    const uf__expr *c1 = sum->u.binary.left->u.binary.left;
    assert_non_null(INFO(c1)->constant);
    assert_int_equal(INFO(c1)->constant->v.i, 3);
    assert_ptr_equal(INFO(c1)->constant,
                     &uf__kmodule_global(km, "C1")->constant);
    assert_int_equal(INFO(c1)->var, -1);
    const uf__expr *pi = sum->u.binary.right;
    assert_non_null(INFO(pi)->constant);
    assert_true(INFO(pi)->constant->v.f == M_PI);
    assert_string_equal(ty(INFO(pi)->type), "float64");

    /* for i in range(b): the loop variable's type in the range call's
     * optype (int32 for an int32 bound, as Numba's range_state32) */
    s = body_stmt(km, "f", 5);
    assert_int_equal(INFO(s->u.for_.iter)->builtin, UF__BI_RANGE);
    assert_string_equal(ty(INFO(s->u.for_.iter)->optype), "int32");
    assert_string_equal(ty(tf->vars[var_index(tf, "i")].type), "int32");
    /* x += i: a version of its own, x.1 = x.2 + i, reading the join x.2
     * of x and x.1 (compiler/types/ssa_versions.c); the operand type float64 */
    const uf__stmt *aug = s->u.for_.body.stmts[0];
    assert_int_equal(aug->kind, UF__ST_ASSIGN);
    const uf__expr *op = aug->u.assign.value;
    assert_true(op->u.binary.inplace);
    assert_string_equal(ty(INFO(op)->optype), "float64");
    assert_int_equal(INFO(aug->u.assign.targets[0])->var,
                     var_index(tf, "x.1"));
    assert_int_equal(INFO(op->u.binary.left)->var, var_index(tf, "x.2"));
    assert_string_equal(ty(tf->vars[var_index(tf, "x")].type), "float64");

    /* k = a < b < 2.5: one operand type for the chain */
    s = body_stmt(km, "f", 6);
    assert_string_equal(ty(INFO(s->u.assign.value)->type), "bool");
    assert_string_equal(ty(INFO(s->u.assign.value)->optype), "float64");

    /* q = np.float32(a).real */
    s = body_stmt(km, "f", 7);
    assert_int_equal(INFO(s->u.assign.value)->builtin, UF__BI_ATTR_REAL);

    /* the declared return type of a vectorize signature is applied */
    assert_string_equal(ty(tf->ret), "float64");
    assert_string_equal(tf->symbol, "uf.f.1"); /* g was typed first */
    assert_string_equal(g->symbol, "uf.g.0");
    assert_ptr_equal(tf->km, km);
    uf__kmodule_free(km);
    assert_int_equal(uf__alloc_live(), 0);
}

/* ---- specialisations ----------------------------------------------------- */

static const char *spec_src =
    "import math\n"
    "from numba import njit, vectorize, guvectorize, cuda\n"
    "@cuda.jit(device=True)\n"
    "def dev(x):\n"
    "    return x + 1\n"
    "@njit\n"
    "def h(x):\n"
    "    return dev(x) * 2\n"
    "@vectorize\n"
    "def v(a):\n"
    "    return h(a) + dev(a)\n"
    "@cuda.reduce\n"
    "def r(a, b):\n"
    "    return h(a) + b\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')\n"
    "def gu(x, out):\n"
    "    for i in range(x.shape[0]):\n"
    "        out[i] = h(x[i])\n";

static uf__typed_func *spec(uf__kmodule *km, const char *name,
                            const char *sig)
{
    uf_error err;
    uf__signature s;
    int rc = uf__parse_signature(km->tc, km->arena, sig, &s, &err);
    uf_assert_ok(rc == 0, &err);
    uf__typed_func *tf = uf__infer(km, uf__kmodule_find(km, name), s.args,
                                   s.nargs, s.ret, &err);
    uf_assert_ok(tf != NULL, &err);
    return tf;
}

static const uf__typed_func *callee_in(const uf__typed_func *tf,
                                       const char *name)
{
    for (int i = 0; i < tf->nids; i++) /* info is per function (infer.h) */
        if (tf->info[i].callee &&
            strcmp(tf->info[i].callee->decl->name, name) == 0)
            return tf->info[i].callee;
    return NULL;
}

static void test_specialisations(void **state)
{
    (void)state;
    uf__source src = {"kernels.py", spec_src, strlen(spec_src)};
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);

    /* njit called directly: Python's error model; the same callee from a
     * ufunc kernel: NumPy's, a separate specialisation */
    uf__typed_func *h = spec(km, "h", "(int32,)");
    assert_false(h->numpy_error_model);
    assert_false(callee_in(h, "dev")->numpy_error_model);
    uf__typed_func *v = spec(km, "v", "(int32,)");
    assert_true(v->numpy_error_model);
    const uf__typed_func *vh = callee_in(v, "h");
    assert_true(vh->numpy_error_model);
    assert_ptr_not_equal(vh, h);
    assert_true(callee_in(vh, "dev")->numpy_error_model);
    assert_string_equal(ty(v->ret), "int64");

    /* the same request gives the same specialisation; another declared
     * return type or other arguments give another one */
    assert_ptr_equal(spec(km, "h", "(int32,)"), h);
    assert_ptr_equal(spec(km, "v", "(int32,)"), v);
    uf__typed_func *v32 = spec(km, "v", "float32(int32)");
    assert_ptr_not_equal(v32, v);
    assert_string_equal(ty(v32->ret), "float32");
    assert_ptr_equal(spec(km, "v", "float32(int32)"), v32);
    /* the callee is reused across kernels with the same model */
    assert_ptr_equal(callee_in(v32, "h"), vh);
    uf__typed_func *vf = spec(km, "v", "(float64,)");
    assert_ptr_not_equal(vf, v);
    assert_string_equal(ty(vf->ret), "float64");

    /* reduce and guvectorize kernels use NumPy's model too */
    uf__typed_func *r = spec(km, "r", "(float32, float32)");
    assert_true(r->numpy_error_model);
    uf__typed_func *gu = spec(km, "gu", "void(float64[:], float64[:])");
    assert_true(gu->numpy_error_model);
    assert_string_equal(ty(gu->ret), "none");
    assert_true(callee_in(gu, "h")->numpy_error_model);

    /* every specialisation is recorded once, under a unique symbol */
    for (int i = 0; i < km->ntyped; i++)
        for (int j = i + 1; j < km->ntyped; j++) {
            assert_ptr_not_equal(km->typed[i], km->typed[j]);
            assert_string_not_equal(km->typed[i]->symbol,
                                    km->typed[j]->symbol);
        }
    assert_true(km->ntyped >= 9);
    uf__kmodule_free(km);
    assert_int_equal(uf__alloc_live(), 0);
}

/* Joins and loops reach a fixed point (z's join: bool, then float64
 * through the back edge; y: only from the widened join); an argument
 * reassigned in a loop keeps its type, its join widens. */
static void test_fixed_point(void **state)
{
    (void)state;
    static const char *text =
        "from numba import njit\n"
        "@njit\n"
        "def f(a, n):\n"
        "    x = 0\n"
        "    z = False\n"
        "    for i in range(n):\n"
        "        if i > 0:\n"
        "            y = z * 2\n"
        "        z = x\n"
        "        x = x + 0.5\n"
        "    while n > 0:\n"
        "        a = a / 2\n"
        "        n -= 1\n"
        "    return x, a\n";
    uf__source src = {"kernels.py", text, strlen(text)};
    uf_error err;
    uf__kmodule *km = NULL;
    uf__typed_func *tf = infer_src(&src, "f", "(int64, int32)", &km, &err);
    uf_assert_ok(tf != NULL, &err);
    /* Numba's SSA versions (its typemap for the same function): x = 0 and
     * z = False keep their types, the joins x.2, z.2 widen */
    static const char *want[][2] = {
        {"x", "int64"},   {"x.1", "float64"}, {"x.2", "float64"},
        {"z", "bool"},    {"z.1", "float64"}, {"z.2", "float64"},
        {"y", "float64"}, {"a", "int64"},     {"a.1", "float64"},
        {"a.2", "float64"}, {"n", "int32"},   {"n.1", "int64"},
        {"n.2", "int64"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        assert_string_equal(ty(tf->vars[var_index(tf, want[k][0])].type),
                            want[k][1]);
    assert_string_equal(ty(tf->args[0]), "int64");
    assert_string_equal(ty(tf->ret), "UniTuple(float64 x 2)");
    uf__kmodule_free(km);
}

/* ---- the typed dump ---------------------------------------------------- */

static void test_dump(void **state)
{
    (void)state;
    static const char *text =
        "import math\n"
        "from numba import vectorize\n"
        "@vectorize(['float32(float32, int32)'])\n"
        "def k(x, n):\n"
        "    acc = 0\n"
        "    for i in range(n):\n"
        "        acc += x * i\n"
        "    r, s = acc, math.floor(x)\n"
        "    return r + s\n"
        "\n"
        "@vectorize\n"
        "def other(y):\n"
        "    return y\n";
    uf__source src = {"kernels.py", text, strlen(text)};
    uf_error err;
    uf__kmodule *km = NULL;
    uf__typed_func *tf = infer_src(&src, "k", "float32(float32, int32)", &km,
                                   &err);
    uf_assert_ok(tf != NULL, &err);
    char *dump = uf__typed_func_dump(tf, &err);
    uf_assert_ok(dump != NULL, &err);
    const char *want =
        "k (float32, int32) -> float32\n"
        "----------------------------------------------------------------"
        "----------------\n"
        "# File: kernels.py\n"
        "@vectorize(['float32(float32, int32)'])\n"
        "def k(x, n):\n"
        "    #   x = arg(0) :: float32\n"
        "    #   n = arg(1) :: int32\n"
        "    acc = 0\n"
        "    #   acc = int64\n"
        "    #   acc.2 = float64\n"
        "    for i in range(n):\n"
        "    #   i = int32\n"
        "        acc += x * i\n"
        "        #   acc.1 = float64\n"
        "        #   acc.2 = float64\n"
        "    r, s = acc, math.floor(x)\n"
        "    #   r = float64\n"
        "    #   s = int64\n"
        "    return r + s\n";
    if (strcmp(dump, want) != 0)
        fail_msg("dump:\n%s\nexpected:\n%s", dump, want);
    uf__free(dump);
    uf__kmodule_free(km);
    assert_int_equal(uf__alloc_live(), 0);
}

/* ---- out of memory ------------------------------------------------------ */

static void test_out_of_memory(void **state)
{
    (void)state;
    uf__source src = {"kernels.py", info_src, strlen(info_src)};
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);
    uf__signature s;
    int rc = uf__parse_signature(km->tc, km->arena, "(float32, int32)", &s,
                                 &err);
    uf_assert_ok(rc == 0, &err);
    const uf__kernel_decl *d = uf__kmodule_find(km, "f");
    long n;
    /* a fresh module per attempt: a failed inference may leave typed
     * callees behind in the module (they are valid and freed with it) */
    uf__kmodule_free(km);
    for (n = 1; n < 100000; n++) {
        km = uf__kmodule_new(&src, &err);
        uf_assert_ok(km != NULL, &err);
        rc = uf__parse_signature(km->tc, km->arena, "(float32, int32)", &s,
                                 &err);
        uf_assert_ok(rc == 0, &err);
        d = uf__kmodule_find(km, "f");
        uf__alloc_fail_at(n);
        uf__typed_func *tf = uf__infer(km, d, s.args, s.nargs, NULL, &err);
        char *dump = tf ? uf__typed_func_dump(tf, &err) : NULL;
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        uf__free(dump);
        uf__kmodule_free(km);
        assert_int_equal(uf__alloc_live(), 0);
        if (!failed) {
            assert_non_null(dump);
            break;
        }
        if (dump != NULL)
            fail_msg("allocation %ld failed but the dump succeeded", n);
        if (err.code != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s (%s)", n, err.message,
                     uf_err_name(err.code));
    }
    assert_true(n > 3 && n < 100000);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        table_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numba_table),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_specialisations),
        cmocka_unit_test(test_fixed_point),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
