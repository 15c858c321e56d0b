/* The module scan (compiler/front/kmodule.h): what imports bind, module
 * constants folded with Python/NumPy semantics (expected values are what
 * Python 3 with NumPy 2 computes for the same expression), decorators and
 * their arguments, and every refusal with its message and position. */
#include <math.h>

#include "test_util.h"

#include "common/alloc.h"
#include "compiler/front/kmodule.h"

static uf__kmodule *scan(const char *text, uf__source *src, uf_error *err)
{
    src->name = "kernels.py";
    src->text = text;
    src->len = strlen(text);
    uf_error_clear(err);
    return uf__kmodule_new(src, err);
}

/* ---- imports ------------------------------------------------------------ */

static const char *imports_src =
    "import math\n"
    "import cmath as cm\n"
    "import numpy as np\n"
    "import numba\n"
    "import numba.cuda\n"
    "import numba.cuda as nc\n"
    "from numba import cuda, vectorize as vz, njit, jit, guvectorize, void\n"
    "from numba import float32 as f4, int64, f8, boolean, types\n"
    "from numba.cuda import reduce\n"
    "from numba.types import uint16\n"
    "from math import sqrt, pi as PI, floor\n"
    "from numpy import sin as npsin, float32 as npf4, conjugate, inf\n"
    "from cmath import sqrt as csqrt, infj\n"
    /* the Python package's names for numba's (a file switched to it) */
    "import ufjit.cuda\n"
    "import ufjit.cuda as uc\n"
    "from ufjit import vectorize as uvz, float64 as uf8\n"
    "from ufjit.cuda import jit as ucjit\n";

static const struct {
    const char *file;
    int line;
    const char *name;
    uf__global_kind kind;
    const char *module;  /* MODULE, DECORATOR */
    uf__builtin builtin; /* BUILTIN */
    uf_dtype dtype;      /* DTYPE */
} import_rows[] = {
    {LOC, "math", UF__G_MODULE, "math", 0, 0},
    {LOC, "cm", UF__G_MODULE, "cmath", 0, 0},
    {LOC, "np", UF__G_MODULE, "numpy", 0, 0},
    {LOC, "numba", UF__G_MODULE, "numba", 0, 0},
    {LOC, "nc", UF__G_MODULE, "numba.cuda", 0, 0},
    {LOC, "cuda", UF__G_MODULE, "numba.cuda", 0, 0},
    {LOC, "types", UF__G_MODULE, "numba.types", 0, 0},
    {LOC, "vz", UF__G_DECORATOR, "numba.vectorize", 0, 0},
    {LOC, "njit", UF__G_DECORATOR, "numba.njit", 0, 0},
    {LOC, "jit", UF__G_DECORATOR, "numba.jit", 0, 0},
    {LOC, "guvectorize", UF__G_DECORATOR, "numba.guvectorize", 0, 0},
    {LOC, "reduce", UF__G_DECORATOR, "numba.cuda.reduce", 0, 0},
    {LOC, "ufjit", UF__G_MODULE, "numba", 0, 0},
    {LOC, "uc", UF__G_MODULE, "numba.cuda", 0, 0},
    {LOC, "uvz", UF__G_DECORATOR, "numba.vectorize", 0, 0},
    {LOC, "ucjit", UF__G_DECORATOR, "numba.cuda.jit", 0, 0},
    {LOC, "uf8", UF__G_DTYPE, NULL, 0, UF_FLOAT64},
    {LOC, "f4", UF__G_DTYPE, NULL, 0, UF_FLOAT32},
    {LOC, "int64", UF__G_DTYPE, NULL, 0, UF_INT64},
    {LOC, "f8", UF__G_DTYPE, NULL, 0, UF_FLOAT64},
    {LOC, "boolean", UF__G_DTYPE, NULL, 0, UF_BOOL},
    {LOC, "uint16", UF__G_DTYPE, NULL, 0, UF_UINT16},
    {LOC, "npf4", UF__G_DTYPE, NULL, 0, UF_FLOAT32},
    {LOC, "void", UF__G_DTYPE, NULL, 0, UF_NTYPES},
    {LOC, "sqrt", UF__G_BUILTIN, NULL, UF__BI_SQRT, 0},
    {LOC, "floor", UF__G_BUILTIN, NULL, UF__BI_FLOOR, 0},
    {LOC, "npsin", UF__G_BUILTIN, NULL, UF__BI_NP_SIN, 0},
    {LOC, "conjugate", UF__G_BUILTIN, NULL, UF__BI_NP_CONJ, 0},
    {LOC, "csqrt", UF__G_BUILTIN, NULL, UF__BI_C_SQRT, 0},
    {LOC, "PI", UF__G_CONSTANT, NULL, 0, 0},
    {LOC, "inf", UF__G_CONSTANT, NULL, 0, 0},
    {LOC, "infj", UF__G_CONSTANT, NULL, 0, 0},
};

static void test_imports(void **state)
{
    (void)state;
    uf__source src;
    uf_error err;
    uf__kmodule *km = scan(imports_src, &src, &err);
    uf_assert_ok(km != NULL, &err);
    for (size_t i = 0; i < sizeof import_rows / sizeof *import_rows; i++) {
        const __typeof__(import_rows[0]) *r = &import_rows[i];
        const uf__global *g = uf__kmodule_global(km, r->name);
        if (g == NULL)
            uf_fail_at(r->file, r->line, "'%s' is not bound", r->name);
        if (g->kind != r->kind)
            uf_fail_at(r->file, r->line, "'%s': kind %d, expected %d",
                       r->name, g->kind, r->kind);
        if (r->module && strcmp(g->module, r->module) != 0)
            uf_fail_at(r->file, r->line, "'%s': module %s, expected %s",
                       r->name, g->module, r->module);
        if (r->kind == UF__G_BUILTIN && g->builtin != r->builtin)
            uf_fail_at(r->file, r->line, "'%s': builtin %s", r->name,
                       uf__builtin_name(g->builtin));
        if (r->kind == UF__G_DTYPE && g->dtype != r->dtype)
            uf_fail_at(r->file, r->line, "'%s': dtype %d", r->name,
                       (int)g->dtype);
    }
    /* the constants imported from math / numpy / cmath */
    const uf__global *g = uf__kmodule_global(km, "PI");
    assert_int_equal(g->constant.type->dtype, UF_FLOAT64);
    assert_true(g->constant.v.f == M_PI);
    g = uf__kmodule_global(km, "inf");
    assert_true(isinf(g->constant.v.f) && g->constant.v.f > 0);
    g = uf__kmodule_global(km, "infj");
    assert_int_equal(g->constant.type->dtype, UF_COMPLEX128);
    assert_true(g->constant.v.c[0] == 0 && isinf(g->constant.v.c[1]));
    assert_null(uf__kmodule_global(km, "vectorize")); /* bound as vz */
    assert_int_equal(km->nkernels, 0);
    uf__kmodule_free(km);
    assert_int_equal(uf__alloc_live(), 0);
}

/* ---- module constants ----------------------------------------------------- */

static const char *const_header =
    "import math\nimport cmath\nimport numpy as np\n"
    "from numba import float32, float64, int8, uint8\n";

typedef struct const_row {
    const char *file;
    int line;
    const char *expr;
    uf_dtype dtype;
    double re, im; /* expected value (ints exactly representable) */
} const_row;

static const const_row const_rows[] = {
    {LOC, "1", UF_INT64, 1, 0},
    {LOC, "2.5", UF_FLOAT64, 2.5, 0},
    {LOC, "1 / 2", UF_FLOAT64, 0.5, 0},
    {LOC, "7 // -2", UF_INT64, -4, 0},
    {LOC, "7 % -3", UF_INT64, -2, 0},
    {LOC, "-7.5 // 2", UF_FLOAT64, -4, 0},
    {LOC, "-7.5 % 2", UF_FLOAT64, 0.5, 0},
    {LOC, "7.0 // 0.5", UF_FLOAT64, 14, 0},
    {LOC, "2 ** 10", UF_INT64, 1024, 0},
    {LOC, "2 ** -1", UF_FLOAT64, 0.5, 0},
    {LOC, "10 ** 18", UF_INT64, 1e18, 0},
    {LOC, "float32((2 * math.pi) ** 0.5)", UF_FLOAT32, 2.5066282749176025, 0},
    {LOC, "np.float32(1) / 3", UF_FLOAT32, 0.3333333432674408, 0},
    {LOC, "math.sqrt(2)", UF_FLOAT64, 1.4142135623730951, 0},
    {LOC, "True", UF_BOOL, 1, 0},
    {LOC, "1j * 2", UF_COMPLEX128, 0, 2},
    {LOC, "int(3.9)", UF_INT64, 3, 0},
    {LOC, "int(-3.9)", UF_INT64, -3, 0},
    {LOC, "round(2.5)", UF_INT64, 2, 0},
    {LOC, "round(3.5)", UF_INT64, 4, 0},
    {LOC, "round(-2.5)", UF_INT64, -2, 0},
    {LOC, "round(2.675, 2)", UF_FLOAT64, 2.67, 0},
    {LOC, "abs(-3)", UF_INT64, 3, 0},
    {LOC, "abs(3 + 4j)", UF_FLOAT64, 5, 0},
    {LOC, "max(1, 2.5)", UF_FLOAT64, 2.5, 0},
    {LOC, "min(3, 2.5)", UF_FLOAT64, 2.5, 0},
    {LOC, "max(2, 2.0)", UF_INT64, 2, 0}, /* the first of equals */
    {LOC, "math.floor(-2.5)", UF_INT64, -3, 0},
    {LOC, "math.ceil(2.1)", UF_INT64, 3, 0},
    {LOC, "math.trunc(-2.7)", UF_INT64, -2, 0},
    {LOC, "np.int8(100) + np.int8(100)", UF_INT8, -56, 0},
    {LOC, "np.uint8(3) - 5", UF_UINT8, 254, 0},
    {LOC, "uint8(200) + uint8(100)", UF_UINT8, 44, 0},
    {LOC, "int8(5) * 2", UF_INT8, 10, 0},
    {LOC, "np.int8(-128) // np.int8(-1)", UF_INT8, -128, 0},
    {LOC, "np.int32(7) % 0", UF_INT32, 0, 0},
    {LOC, "np.float32(2) * 2.0", UF_FLOAT32, 4, 0},
    {LOC, "np.float32(0.1) + 0.2", UF_FLOAT32, (double)0.3f, 0},
    {LOC, "np.float64(0.1) + np.float32(0.2)", UF_FLOAT64,
     0.3000000029802322, 0},
    {LOC, "np.int32(3) * 2.5", UF_FLOAT64, 7.5, 0},
    {LOC, "np.int64(7) / 2", UF_FLOAT64, 3.5, 0},
    {LOC, "float32(1) + 1j", UF_COMPLEX64, 1, 1},
    {LOC, "np.float32(16777217)", UF_FLOAT32, 16777216, 0},
    {LOC, "float64(1) / 0", UF_FLOAT64, INFINITY, 0},
    {LOC, "np.float32(1e30) * np.float32(1e30)", UF_FLOAT32, INFINITY, 0},
    {LOC, "1e308 * 10", UF_FLOAT64, INFINITY, 0},
    {LOC, "math.pi * 2", UF_FLOAT64, 6.283185307179586, 0},
    {LOC, "-2 ** 2", UF_INT64, -4, 0},
    {LOC, "1 < 2 < 3", UF_BOOL, 1, 0},
    {LOC, "1 < 2 > 3", UF_BOOL, 0, 0},
    {LOC, "1 if 0 else 2", UF_INT64, 2, 0},
    {LOC, "0 or 5", UF_INT64, 5, 0},
    {LOC, "3 and 0", UF_INT64, 0, 0},
    {LOC, "not 0", UF_BOOL, 1, 0},
    {LOC, "-math.inf", UF_FLOAT64, -INFINITY, 0},
    {LOC, "1 << 3", UF_INT64, 8, 0},
    {LOC, "~5", UF_INT64, -6, 0},
    {LOC, "5 & 3", UF_INT64, 1, 0},
    {LOC, "5 | 3", UF_INT64, 7, 0},
    {LOC, "5 ^ 3", UF_INT64, 6, 0},
    {LOC, "True + True", UF_INT64, 2, 0},
    {LOC, "-True", UF_INT64, -1, 0},
    {LOC, "~True", UF_INT64, -2, 0},
    {LOC, "complex(1, 2)", UF_COMPLEX128, 1, 2},
    {LOC, "complex(2)", UF_COMPLEX128, 2, 0},
    {LOC, "(2 + 3j) ** 2", UF_COMPLEX128, -5, 12},
    {LOC, "(-8) ** (1/3)", UF_COMPLEX128, 1.0000000000000002,
     1.7320508075688772},
    {LOC, "float(7)", UF_FLOAT64, 7, 0},
    {LOC, "bool(0)", UF_BOOL, 0, 0},
    {LOC, "int(True)", UF_INT64, 1, 0},
    {LOC, "math.hypot(3, 4)", UF_FLOAT64, 5, 0},
    {LOC, "math.isnan(math.nan)", UF_BOOL, 1, 0},
    {LOC, "math.isinf(-math.inf)", UF_BOOL, 1, 0},
    {LOC, "math.log(100, 10)", UF_FLOAT64, 2, 0},
    {LOC, "math.degrees(math.pi)", UF_FLOAT64, 180, 0},
    {LOC, "math.factorial(5)", UF_INT64, 120, 0},
    {LOC, "math.factorial(20) // 1000000", UF_INT64, 2432902008176, 0},
    {LOC, "math.radians(180)", UF_FLOAT64, M_PI, 0},
    {LOC, "math.copysign(3, -0.0)", UF_FLOAT64, -3, 0},
    {LOC, "math.fmod(-7, 3)", UF_FLOAT64, -1, 0},
    {LOC, "math.atan2(1, 1)", UF_FLOAT64, 0.7853981633974483, 0},
    {LOC, "math.pow(2, 10)", UF_FLOAT64, 1024, 0},
    {LOC, "pow(2, 5)", UF_INT64, 32, 0},
    {LOC, "math.gamma(5)", UF_FLOAT64, 24, 0},
    {LOC, "np.pi", UF_FLOAT64, M_PI, 0},
    {LOC, "cmath.pi", UF_FLOAT64, M_PI, 0},
    {LOC, "math.e", UF_FLOAT64, M_E, 0},
    {LOC, "math.tau", UF_FLOAT64, 2 * M_PI, 0},
    {LOC, "np.float32(3).real", UF_FLOAT32, 3, 0},
    {LOC, "(3+4j).imag", UF_FLOAT64, 4, 0},
    {LOC, "np.bool_(True) & np.bool_(False)", UF_BOOL, 0, 0},
    {LOC, "float32(2) ** 2", UF_FLOAT32, 4, 0},
    {LOC, "abs(np.int8(-128))", UF_INT8, -128, 0},
    {LOC, "EARLIER * 2", UF_FLOAT32, 5, 0}, /* EARLIER = float32(2.5) */
};

static double value_of(const uf__constant *c)
{
    switch (uf_dtype_kind(c->type->dtype)) {
    case 'b': return c->v.b;
    case 'i': return (double)c->v.i;
    case 'u': return (double)c->v.u;
    case 'f': return c->v.f;
    default: return c->v.c[0];
    }
}

static bool same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static void test_constants(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof const_rows / sizeof *const_rows; i++) {
        const const_row *r = &const_rows[i];
        char text[1024];
        snprintf(text, sizeof text, "%sEARLIER = float32(2.5)\nX = %s\n",
                 const_header, r->expr);
        uf__source src;
        uf_error err;
        uf__kmodule *km = scan(text, &src, &err);
        if (km == NULL)
            uf_fail_at(r->file, r->line, "X = %s: %s", r->expr, err.message);
        const uf__global *g = uf__kmodule_global(km, "X");
        assert_non_null(g);
        if (g->kind != UF__G_CONSTANT || g->constant.type->dtype != r->dtype)
            uf_fail_at(r->file, r->line, "X = %s: type %s, expected %s",
                       r->expr, uf_dtype_name(g->constant.type->dtype),
                       uf_dtype_name(r->dtype));
        double re = value_of(&g->constant);
        double im = uf_dtype_kind(r->dtype) == 'c' ? g->constant.v.c[1] : 0;
        if (!same(re, r->re) || !same(im, r->im))
            uf_fail_at(r->file, r->line, "X = %s: %.17g%+.17gj, expected "
                       "%.17g%+.17gj", r->expr, re, im, r->re, r->im);
        uf__kmodule_free(km);
    }
    assert_int_equal(uf__alloc_live(), 0);
}

/* A name bound twice keeps the last value; a = b = c binds both. */
static void test_constant_rebinding(void **state)
{
    (void)state;
    uf__source src;
    uf_error err;
    uf__kmodule *km = scan("A = 1\nB = A + 1\nA = 2.5\nC = D = B * A\n",
                           &src, &err);
    uf_assert_ok(km != NULL, &err);
    const uf__global *a = uf__kmodule_global(km, "A");
    const uf__global *c = uf__kmodule_global(km, "C");
    const uf__global *d = uf__kmodule_global(km, "D");
    assert_int_equal(a->constant.type->dtype, UF_FLOAT64);
    assert_true(a->constant.v.f == 2.5);
    assert_int_equal(c->constant.type->dtype, UF_FLOAT64);
    assert_true(c->constant.v.f == 5.0 && d->constant.v.f == 5.0);
    assert_int_equal(km->nglobals, 4);
    uf__kmodule_free(km);
}

/* ---- decorators ------------------------------------------------------------ */

static const char *deco_header =
    "import numba\nimport numba as nb\nfrom numba import vectorize, "
    "guvectorize, njit, jit, cuda, float32, float64, int32, int64, void\n"
    "from numba.cuda import reduce\n";

typedef struct deco_row {
    const char *file;
    int line;
    const char *decorator;
    uf__kernel_kind kind;
    const char *target;
    const char *layout;
    const char *identity;
    const char *sigs; /* signatures joined by " | " */
    bool fastmath, cache, boundscheck;
} deco_row;

static const deco_row deco_rows[] = {
    {LOC, "@vectorize", UF__K_VECTORIZE, "cpu", NULL, NULL, "", 0, 0, 0},
    {LOC, "@vectorize()", UF__K_VECTORIZE, "cpu", NULL, NULL, "", 0, 0, 0},
    {LOC, "@vectorize(['float32(float32)', 'f8(f8)'], target='parallel', "
          "identity=0, fastmath=True, cache=True, nopython=True)",
     UF__K_VECTORIZE, "parallel", NULL, "0",
     "float32(float32) | f8(f8)", 1, 1, 0},
    {LOC, "@vectorize('float32(float32)', target='cuda', identity=None)",
     UF__K_VECTORIZE, "cuda", NULL, "None", "float32(float32)", 0, 0, 0},
    {LOC, "@vectorize([float32(float32, float32), float64(float64, int32)], "
          "identity='reorderable', boundscheck=True)",
     UF__K_VECTORIZE, "cpu", NULL, "reorderable",
     "float32(float32, float32) | float64(float64, int32)", 0, 0, 1},
    {LOC, "@numba.vectorize([numba.float64(numba.int32)], identity=1)",
     UF__K_VECTORIZE, "cpu", NULL, "1", "float64(int32)", 0, 0, 0},
    {LOC, "@guvectorize(['void(float64[:,:], float64[:], float64[:])'], "
          "'(m,n),(n)->(m)')",
     UF__K_GUVECTORIZE, "cpu", "(m,n),(n)->(m)", NULL,
     "void(float64[:,:], float64[:], float64[:])", 0, 0, 0},
    {LOC, "@guvectorize([(int64[:], int64, int64[:])], '(n),()->(n)', "
          "target='parallel')",
     UF__K_GUVECTORIZE, "parallel", "(n),()->(n)", NULL,
     "(int64[:], int64, int64[:])", 0, 0, 0},
    {LOC, "@guvectorize([void(float64[:, ::1], float64[::1, :])], "
          "layout='(m,n)->(m,n)')",
     UF__K_GUVECTORIZE, "cpu", "(m,n)->(m,n)", NULL,
     "void(float64[:, ::1], float64[::1, :])", 0, 0, 0},
    {LOC, "@guvectorize('(n)->(n)')", UF__K_GUVECTORIZE, "cpu", "(n)->(n)",
     NULL, "", 0, 0, 0},
    {LOC, "@cuda.reduce", UF__K_REDUCE, "cuda", NULL, NULL, "", 0, 0, 0},
    {LOC, "@reduce", UF__K_REDUCE, "cuda", NULL, NULL, "", 0, 0, 0},
    {LOC, "@numba.cuda.reduce", UF__K_REDUCE, "cuda", NULL, NULL, "", 0, 0,
     0},
    {LOC, "@njit", UF__K_NJIT, "cpu", NULL, NULL, "", 0, 0, 0},
    {LOC, "@njit('f8(f8, f8)')", UF__K_NJIT, "cpu", NULL, NULL,
     "f8(f8, f8)", 0, 0, 0},
    {LOC, "@njit(fastmath=True, cache=True, nogil=True, boundscheck=False)",
     UF__K_NJIT, "cpu", NULL, NULL, "", 1, 1, 0},
    {LOC, "@jit(nopython=True)", UF__K_NJIT, "cpu", NULL, NULL, "", 0, 0, 0},
    {LOC, "@jit", UF__K_NJIT, "cpu", NULL, NULL, "", 0, 0, 0},
    {LOC, "@nb.njit([float64(float64, float64)])", UF__K_NJIT, "cpu", NULL,
     NULL, "float64(float64, float64)", 0, 0, 0},
    {LOC, "@cuda.jit(device=True)", UF__K_DEVICE, "cpu", NULL, NULL, "", 0,
     0, 0},
    {LOC, "@cuda.jit('float32(float32, float32)', device=True, inline=True, "
          "fastmath=True)",
     UF__K_DEVICE, "cpu", NULL, NULL, "float32(float32, float32)", 1, 0, 0},
    {LOC, "@numba.cuda.jit(device=True, inline='always')", UF__K_DEVICE,
     "cpu", NULL, NULL, "", 0, 0, 0},
    {LOC, "@cuda.jit(inline=True, device=True)", UF__K_DEVICE, "cpu", NULL,
     NULL, "", 0, 0, 0},
    {LOC, "@cuda.jit", UF__K_CUDA_KERNEL, "cuda", NULL, NULL, "", 0, 0, 0},
    {LOC, "@cuda.jit()", UF__K_CUDA_KERNEL, "cuda", NULL, NULL, "", 0, 0, 0},
    {LOC, "@cuda.jit(device=False)", UF__K_CUDA_KERNEL, "cuda", NULL, NULL,
     "", 0, 0, 0},
    {LOC, "@cuda.jit('void(float64[:], float64)', fastmath=True, "
          "debug=True, cache=True)",
     UF__K_CUDA_KERNEL, "cuda", NULL, NULL, "void(float64[:], float64)", 1,
     1, 1},
    {LOC, "@numba.cuda.jit([void(float32[:, :]), void(int32[::1, :])])",
     UF__K_CUDA_KERNEL, "cuda", NULL, NULL,
     "void(float32[:, :]) | void(int32[::1, :])", 0, 0, 0},
};

static void test_decorators(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof deco_rows / sizeof *deco_rows; i++) {
        const deco_row *r = &deco_rows[i];
        char text[2048];
        snprintf(text, sizeof text, "%s\n%s\ndef k(a, b):\n    return a\n",
                 deco_header, r->decorator);
        uf__source src;
        uf_error err;
        uf__kmodule *km = scan(text, &src, &err);
        if (km == NULL)
            uf_fail_at(r->file, r->line, "%s: %s", r->decorator, err.message);
        const uf__kernel_decl *d = uf__kmodule_find(km, "k");
        assert_non_null(d);
        assert_int_equal(km->nkernels, 1);
        assert_ptr_equal(d->def, km->ast->body.stmts[km->ast->body.n - 1]);
        char sigs[1024] = "";
        for (int s = 0; s < d->nsignatures; s++) {
            if (s)
                strcat(sigs, " | ");
            strcat(sigs, d->signatures[s]);
            /* each signature points at its place in the source */
            assert_int_equal(d->signature_pos[s].line, 6);
        }
        if (d->kind != r->kind || strcmp(d->target, r->target) != 0 ||
            strcmp(sigs, r->sigs) != 0 ||
            (r->layout == NULL) != (d->layout == NULL) ||
            (r->layout && strcmp(r->layout, d->layout) != 0) ||
            (r->identity == NULL) != (d->identity == NULL) ||
            (r->identity && strcmp(r->identity, d->identity) != 0) ||
            d->fastmath != r->fastmath || d->cache != r->cache ||
            d->boundscheck != r->boundscheck)
            uf_fail_at(r->file, r->line, "%s: kind %d target %s layout %s "
                       "identity %s sigs [%s] fastmath %d cache %d "
                       "boundscheck %d", r->decorator, d->kind, d->target,
                       d->layout ? d->layout : "-",
                       d->identity ? d->identity : "-", sigs, d->fastmath,
                       d->cache, d->boundscheck);
        uf__kmodule_free(km);
    }
    assert_int_equal(uf__alloc_live(), 0);
}

/* Undecorated functions are known (for a precise error when a kernel calls
 * one) but are not kernels; the __main__ guard and docstrings are
 * skipped. */
static void test_plain_functions_and_skips(void **state)
{
    (void)state;
    uf__source src;
    uf_error err;
    uf__kmodule *km = scan(
        "\"\"\"A kernel file.\"\"\"\n"
        "from numba import njit\n"
        "def helper(x):\n    return x\n"
        "@njit\ndef k(x):\n    return x\n"
        "pass\n"
        "'a string statement'\n"
        "if __name__ == '__main__':\n    print(k(1))\n    import os\n"
        "if '__main__' == __name__:\n    helper(3)\n",
        &src, &err);
    uf_assert_ok(km != NULL, &err);
    assert_int_equal(km->nkernels, 1);
    assert_null(uf__kmodule_find(km, "helper"));
    assert_null(uf__kmodule_find(km, "nothing"));
    assert_non_null(uf__kmodule_find(km, "k"));
    const uf__global *g = uf__kmodule_global(km, "helper");
    assert_non_null(g);
    assert_int_equal(g->kind, UF__G_KERNEL);
    assert_int_equal(g->kernel, -1);
    g = uf__kmodule_global(km, "k");
    assert_int_equal(g->kernel, 0);
    assert_ptr_equal(uf__kmodule_find(km, "k"), &km->kernels[0]);
    uf__kmodule_free(km);
}

/* ---- refusals ---------------------------------------------------------------- */

typedef struct err_row {
    const char *file;
    int line;
    const char *text;
    int code;
    const char *msg;
    int eline, ecol;
} err_row;

#define H "from numba import vectorize, guvectorize, njit, jit, cuda\n"

static const err_row err_rows[] = {
    /* imports */
    {LOC, "import os\n", UF_ERR_UNSUPPORTED, "module 'os' is not supported",
     1, 8},
    {LOC, "import math, scipy.special as sp\n", UF_ERR_UNSUPPORTED,
     "module 'scipy.special' is not supported", 1, 14},
    {LOC, "from os import path\n", UF_ERR_UNSUPPORTED,
     "module 'os' is not supported", 1, 1},
    {LOC, "from numba import objmode\n", UF_ERR_UNSUPPORTED,
     "cannot import 'objmode' from 'numba'", 1, 19},
    {LOC, "from math import sqrt, frexp\n", UF_ERR_UNSUPPORTED,
     "cannot import 'frexp' from 'math'", 1, 24},
    {LOC, "from math import *\n", UF_ERR_UNSUPPORTED,
     "import *' is not supported", 1, 18},
    {LOC, "from . import kernels\n", UF_ERR_UNSUPPORTED,
     "relative imports", 1, 1},
    /* module-level statements */
    {LOC, "print(1)\n", UF_ERR_UNSUPPORTED,
     "an expression statement at module level is not supported", 1, 1},
    {LOC, "X = 1\nfor i in range(3):\n    X = i\n", UF_ERR_UNSUPPORTED,
     "a for loop at module level", 2, 1},
    {LOC, "X = 1\nwhile X:\n    pass\n", UF_ERR_UNSUPPORTED,
     "a while loop at module level", 2, 1},
    {LOC, "X = 1\nif X:\n    pass\n", UF_ERR_UNSUPPORTED,
     "an if statement at module level", 2, 1},
    {LOC, "X = 1\nX += 1\n", UF_ERR_UNSUPPORTED,
     "an augmented assignment at module level", 2, 1},
    {LOC, "assert True\n", UF_ERR_UNSUPPORTED, "assert at module level", 1,
     1},
    {LOC, "X, Y = 1, 2\n", UF_ERR_UNSUPPORTED,
     "must bind one name to a constant number", 1, 1},
    /* constants */
    /* X = 'text' is a Literal[str] constant (compiler/types/infer_str.c);
     * a string inside an expression is not */
    {LOC, "X = 'te' + 'xt'\n", UF_ERR_UNSUPPORTED, "a string module "
     "constant must be one string literal", 1, 5},
    {LOC, "X = ((1, 2), 3)\n", UF_ERR_UNSUPPORTED, "nested tuples as "
     "module constants", 1, 6},
    {LOC, "X = (1, 'a')\n", UF_ERR_UNSUPPORTED, "not inside an expression "
     "or a tuple", 1, 9},
    {LOC, "X = [1, 2]\n", UF_ERR_UNSUPPORTED, "tuple and list module "
     "constants", 1, 5},
    {LOC, "X = None\n", UF_ERR_UNSUPPORTED, "None as a module constant", 1,
     5},
    {LOC, "X = Y + 1\n", UF_ERR_UNSUPPORTED, "name 'Y' is not defined", 1,
     5},
    {LOC, "import math\nX = math.sin\n", UF_ERR_UNSUPPORTED,
     "unknown constant 'math.sin'", 2, 10},
    {LOC, "import math\nX = math.sqrt(-1)\n", UF_ERR_VALUE,
     "math domain error in math.sqrt()", 2, 5},
    {LOC, "import math\nX = math.log(0)\n", UF_ERR_VALUE,
     "math domain error", 2, 5},
    {LOC, "import math\nX = math.exp(1000)\n", UF_ERR_VALUE,
     "math range error", 2, 5},
    {LOC, "X = 1 / 0\n", UF_ERR_VALUE, "float division by zero", 1, 5},
    {LOC, "X = 1 // 0\n", UF_ERR_VALUE, "integer division by zero", 1, 5},
    {LOC, "X = 10.0 ** 400\n", UF_ERR_VALUE, "float overflow", 1, 5},
    {LOC, "X = 2 ** 63\n", UF_ERR_UNSUPPORTED, "does not fit in 64 bits", 1,
     5},
    {LOC, "X = 99999999999999999999\n", UF_ERR_UNSUPPORTED,
     "does not fit in 64 bits", 1, 5},
    {LOC, "import numpy as np\nX = np.int8(300)\n", UF_ERR_VALUE,
     "Python integer out of bounds for int8", 2, 5},
    {LOC, "import numpy as np\nX = np.int32(float('nan'))\n",
     UF_ERR_UNSUPPORTED, "not inside an expression or a tuple", 2, 20},
    {LOC, "import numpy as np\nX = np.int32(1e20)\n", UF_ERR_VALUE,
     "float value out of range for int32", 2, 5},
    {LOC, "import numpy as np\nX = np.float32(1j)\n", UF_ERR_VALUE,
     "cannot convert a complex number to float32", 2, 5},
    {LOC, "import numpy as np\nX = np.int8(2) ** -1\n", UF_ERR_VALUE,
     "Integers to negative integer powers are not allowed", 2, 5},
    {LOC, "import numpy as np\nX = np.sqrt(2)\n", UF_ERR_UNSUPPORTED,
     "numpy.sqrt() is not supported in a module constant", 2, 5},
    {LOC, "X = 1.5 & 1\n", UF_ERR_UNSUPPORTED,
     "unsupported operand types for &", 1, 5},
    {LOC, "X = 1j < 2j\n", UF_ERR_UNSUPPORTED,
     "'<' not supported between complex numbers", 1, 5},
    {LOC, "X = 1j // 2\n", UF_ERR_UNSUPPORTED,
     "unsupported operand types for //: complex", 1, 5},
    {LOC, "X = round(1j)\n", UF_ERR_VALUE, "complex doesn't define __round__",
     1, 5},
    {LOC, "X = abs(1, 2)\n", UF_ERR_VALUE, "abs() takes one argument", 1, 5},
    {LOC, "X = len(3)\n", UF_ERR_UNSUPPORTED,
     "len() is not supported in a module constant", 1, 5},
    {LOC, "import math\nX = math.sin(x=1)\n", UF_ERR_UNSUPPORTED,
     "keyword arguments in a module constant", 2, 5},
    {LOC, "import math\nX = math.sin(1, 2)\n", UF_ERR_VALUE,
     "math.sin() takes 1 argument (2 given)", 2, 5},
    /* a math function outside the folded set says so, whatever its arity
     * (math.factorial(5) once said "takes 2 arguments (1 given)") */
    {LOC, "import math\nX = math.gcd(4, 6)\n", UF_ERR_UNSUPPORTED,
     "math.gcd() is not supported in a module constant", 2, 5},
    {LOC, "import math\nX = math.isqrt(5)\n", UF_ERR_UNSUPPORTED,
     "math.isqrt() is not supported in a module constant", 2, 5},
    {LOC, "import math\nX = math.factorial(21)\n", UF_ERR_UNSUPPORTED,
     "math.factorial(21) does not fit in 64 bits", 2, 5},
    {LOC, "import math\nX = math.factorial(-1)\n", UF_ERR_VALUE,
     "math.factorial() not defined for negative values", 2, 5},
    {LOC, "import math\nX = math.factorial(2.0)\n", UF_ERR_VALUE,
     "math.factorial() only accepts integral values", 2, 5},
    /* decorators */
    {LOC, H "@staticmethod\ndef k(a):\n    return a\n", UF_ERR_UNSUPPORTED,
     "unknown decorator", 2, 2},
    {LOC, H "import numba\n@numba.stencil\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "unknown decorator 'numba.stencil'", 3, 2},
    /* a module as the decorator: its name has no dot (fuzz_kernel found
     * the NULL + 1 this made) */
    {LOC, "import numpy as njit\n@njit\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "unknown decorator 'numpy'", 2, 2},
    {LOC, H "@vectorize(foo=1)\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "@vectorize: unknown or unsupported argument 'foo'",
     2, 12},
    {LOC, H "@njit(parallel='yes')\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "parallel= must be True or False", 2, 16},
    {LOC, H "@vectorize(['f8(f8)'], parallel=True)\ndef k(a):\n"
          "    return a\n",
     UF_ERR_UNSUPPORTED, "@vectorize: unknown or unsupported argument "
     "'parallel'", 2, 24},
    {LOC, H "@njit(layout='(n)->(n)')\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "unknown or unsupported argument 'layout'", 2, 7},
    {LOC, H "@vectorize(['f8(f8)'], target='gpu')\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "target 'gpu' is not supported", 2, 31},
    {LOC, H "@vectorize(['f8(f8)'], identity=2)\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "identity= must be 0, 1, None or 'reorderable'", 2,
     33},
    {LOC, H "@vectorize(['f8(f8)'], fastmath='yes')\ndef k(a):\n"
          "    return a\n",
     UF_ERR_UNSUPPORTED, "fastmath= must be True or False", 2, 33},
    {LOC, H "@vectorize(['f8(f8)'], target=1)\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "target= must be a string", 2, 31},
    {LOC, H "@vectorize(['f8(f8)'], ['f4(f4)'])\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "@vectorize takes at most 1 positional argument", 2,
     24},
    {LOC, H "@vectorize([])\ndef k(a):\n    return a\n", UF_ERR_UNSUPPORTED,
     "empty signature list", 2, 12},
    {LOC, H "@vectorize([1.5])\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "cannot be used in a signature", 2, 13},
    {LOC, H "f = cuda.declare_device('f', 'float32(float32)', abi='x')\n",
     UF_ERR_UNSUPPORTED, "cuda.declare_device: abi= must be 'numba' or 'c'",
     2, 54},
    {LOC, H "@cuda.jit(link=[1])\ndef k(a):\n    a[0] = 1\n",
     UF_ERR_UNSUPPORTED, "link= takes file paths as strings", 2, 17},
    {LOC, H "@cuda.jit(inline=True)\ndef k(a):\n    a[0] = 1\n",
     UF_ERR_UNSUPPORTED, "@jit: unknown or unsupported argument 'inline'", 2,
     11},
    {LOC, H "@jit(nopython=False)\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "@jit(nopython=False): object mode is not "
     "supported", 2, 15},
    {LOC, H "@guvectorize(['void(f8[:], f8[:])'])\ndef k(a, b):\n"
          "    b[0] = a[0]\n",
     UF_ERR_UNSUPPORTED, "@guvectorize needs a layout", 2, 2},
    {LOC, H "@guvectorize\ndef k(a, b):\n    b[0] = a[0]\n",
     UF_ERR_UNSUPPORTED, "@guvectorize needs a layout", 2, 2},
    {LOC, H "@guvectorize(['void(f8[:], f8[:])'], 3)\ndef k(a, b):\n"
          "    b[0] = a[0]\n",
     UF_ERR_UNSUPPORTED, "layout must be a string", 2, 38},
    {LOC, H "@cuda.reduce()\ndef k(a, b):\n    return a + b\n",
     UF_ERR_UNSUPPORTED, "@cuda.reduce takes no arguments", 2, 2},
    {LOC, H "@cuda.reduce\ndef k(a, b, c):\n    return a + b\n",
     UF_ERR_UNSUPPORTED, "a reduce kernel takes two arguments, 'k' takes 3",
     3, 5},
    {LOC, H "@njit(identity=0)\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "unknown or unsupported argument 'identity'", 2, 7},
    {LOC, H "@njit\n@vectorize\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "exactly one decorator", 3, 2},
    {LOC, H "@njit\ndef k(a, b=1):\n    return a\n", UF_ERR_UNSUPPORTED,
     "default argument values are not supported", 3, 10},
    {LOC, H "@njit\ndef k(a):\n    return a\n@njit\ndef k(a):\n"
          "    return a\n",
     UF_ERR_UNSUPPORTED, "'k' is defined twice", 6, 5},
    {LOC, H "@njit\ndef k(a):\n    return a\nk = 3\n", UF_ERR_UNSUPPORTED,
     "'k' is defined twice", 5, 1},
    {LOC, H "import math\n@njit([math.sin(xyz)])\ndef k(a):\n    return a\n",
     UF_ERR_UNSUPPORTED, "'sin' cannot be used in a signature", 3, 8},
    /* syntax errors come from the parser */
    {LOC, "def k(a:\n", UF_ERR_SYNTAX, "", 1, 0},
};

static void check_error_rows(const err_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const err_row *r = &rows[i];
        uf__source src;
        uf_error err;
        uf__kmodule *km = scan(r->text, &src, &err);
        if (km != NULL) {
            uf__kmodule_free(km);
            uf_fail_at(r->file, r->line, "accepted:\n%s", r->text);
        }
        if (err.code != r->code || strstr(err.message, r->msg) == NULL)
            uf_fail_at(r->file, r->line, "got %s: %s\nexpected %s: %s",
                       uf_err_name(err.code), err.message,
                       uf_err_name(r->code), r->msg);
        if (err.line != r->eline ||
            (r->ecol > 0 && err.column != r->ecol) ||
            strcmp(err.file, "kernels.py") != 0)
            uf_fail_at(r->file, r->line, "error at %s:%d:%d, expected "
                       "%d:%d (%s)", err.file, err.line, err.column,
                       r->eline, r->ecol, err.message);
        /* the message shows the source line with a caret */
        if (r->code != UF_ERR_SYNTAX && strchr(err.message, '^') == NULL)
            uf_fail_at(r->file, r->line, "no caret in: %s", err.message);
    }
    assert_int_equal(uf__alloc_live(), 0);
}

static void test_errors(void **state)
{
    (void)state;
    check_error_rows(err_rows, sizeof err_rows / sizeof *err_rows);
}

/* ---- out of memory -------------------------------------------------------- */

static void test_out_of_memory(void **state)
{
    (void)state;
    char text[4096];
    snprintf(text, sizeof text,
             "%s\nimport math\nimport numpy as np\n"
             "SQRT_2PI = float32((2 * math.pi) ** 0.5)\nN = np.int8(3) * 2\n"
             "@vectorize([float32(float32, float32), 'f8(f8, f8)'], "
             "target='parallel', identity=0)\n"
             "def k(a, b):\n    return a * SQRT_2PI + b\n"
             "@guvectorize([void(float64[:, ::1], float64[:])], "
             "'(m,n)->(m)')\ndef g(a, out):\n    out[0] = a[0, 0]\n"
             "def plain(x):\n    return x\n",
             deco_header);
    long n;
    for (n = 1; n < 10000; n++) {
        uf__source src;
        uf_error err;
        uf__alloc_fail_at(n);
        uf__kmodule *km = scan(text, &src, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (km != NULL) {
            uf__kmodule_free(km);
            if (!failed)
                break;
            fail_msg("allocation %ld failed but the scan succeeded", n);
        }
        if (err.code != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s (%s)", n, err.message,
                     uf_err_name(err.code));
        assert_int_equal(uf__alloc_live(), 0);
    }
    assert_true(n > 5 && n < 10000);
    assert_int_equal(uf__alloc_live(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_imports),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_constant_rebinding),
        cmocka_unit_test(test_decorators),
        cmocka_unit_test(test_plain_functions_and_skips),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
