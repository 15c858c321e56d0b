/* Folding module constants as Python would evaluate them on import.
 *
 * Values are either weak (Python bool/int/float/complex: dtype BOOL, INT64,
 * FLOAT64 or COMPLEX128) or NumPy scalars of any dtype. Python ints are
 * kept in 64 bits and an overflow is refused rather than silently wrapped;
 * NumPy integers wrap like NumPy. float32 values are rounded after every
 * operation, as NumPy computes them in single precision. */
#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/consteval_internal.h"


/* ---- names and attributes ------------------------------------------- */

static const struct {
    const char *name;
    uf_dtype dtype;
} numpy_dtypes[] = {
    {"bool_", UF_BOOL}, {"bool", UF_BOOL}, {"int8", UF_INT8},
    {"int16", UF_INT16}, {"int32", UF_INT32}, {"int64", UF_INT64},
    {"uint8", UF_UINT8}, {"uint16", UF_UINT16}, {"uint32", UF_UINT32},
    {"uint64", UF_UINT64}, {"float32", UF_FLOAT32}, {"float64", UF_FLOAT64},
    {"complex64", UF_COMPLEX64}, {"complex128", UF_COMPLEX128},
    {"intp", UF_INT64}, {"uintp", UF_UINT64}, {"int_", UF_INT64},
    {"uint", UF_UINT64}, {"intc", UF_INT32}, {"uintc", UF_UINT32},
    {"byte", UF_INT8}, {"ubyte", UF_UINT8}, {"short", UF_INT16},
    {"ushort", UF_UINT16}, {"longlong", UF_INT64},
    {"ulonglong", UF_UINT64}, {"single", UF_FLOAT32},
    {"double", UF_FLOAT64}, {"csingle", UF_COMPLEX64},
    {"cdouble", UF_COMPLEX128},
}, numba_dtypes[] = {
    {"boolean", UF_BOOL}, {"bool_", UF_BOOL}, {"b1", UF_BOOL},
    {"int8", UF_INT8}, {"int16", UF_INT16}, {"int32", UF_INT32},
    {"int64", UF_INT64}, {"uint8", UF_UINT8}, {"uint16", UF_UINT16},
    {"uint32", UF_UINT32}, {"uint64", UF_UINT64}, {"i1", UF_INT8},
    {"i2", UF_INT16}, {"i4", UF_INT32}, {"i8", UF_INT64},
    {"u1", UF_UINT8}, {"u2", UF_UINT16}, {"u4", UF_UINT32},
    {"u8", UF_UINT64}, {"float32", UF_FLOAT32}, {"float64", UF_FLOAT64},
    {"f4", UF_FLOAT32}, {"f8", UF_FLOAT64}, {"complex64", UF_COMPLEX64},
    {"complex128", UF_COMPLEX128}, {"c8", UF_COMPLEX64},
    {"c16", UF_COMPLEX128}, {"intp", UF_INT64}, {"uintp", UF_UINT64},
    {"intc", UF_INT32}, {"uintc", UF_UINT32}, {"float_", UF_FLOAT64},
    {"double", UF_FLOAT64}, {"int_", UF_INT64},
};

bool uf__const_dtype_name(const char *module, const char *name,
                          uf_dtype *out)
{
    if (strcmp(module, "numpy") == 0) {
        for (size_t i = 0; i < sizeof numpy_dtypes / sizeof *numpy_dtypes;
             i++)
            if (strcmp(numpy_dtypes[i].name, name) == 0) {
                *out = numpy_dtypes[i].dtype;
                return true;
            }
        return false;
    }
    if (strcmp(module, "numba") == 0 || strcmp(module, "numba.types") == 0) {
        for (size_t i = 0; i < sizeof numba_dtypes / sizeof *numba_dtypes;
             i++)
            if (strcmp(numba_dtypes[i].name, name) == 0) {
                *out = numba_dtypes[i].dtype;
                return true;
            }
    }
    return false;
}

bool uf__const_module_attr(uf__typectx *tc, const char *module,
                           const char *attr, uf__constant *out)
{
    static const struct {
        const char *module, *attr;
        double re, im;
    } table[] = {
        {"math", "pi", M_PI, 0}, {"math", "e", M_E, 0},
        {"math", "tau", 2 * M_PI, 0}, {"math", "inf", INFINITY, 0},
        {"math", "nan", NAN, 0},
        {"cmath", "pi", M_PI, 0}, {"cmath", "e", M_E, 0},
        {"cmath", "tau", 2 * M_PI, 0}, {"cmath", "inf", INFINITY, 0},
        {"cmath", "nan", NAN, 0}, {"cmath", "infj", 0, INFINITY},
        {"cmath", "nanj", 0, NAN},
        {"numpy", "pi", M_PI, 0}, {"numpy", "e", M_E, 0},
        {"numpy", "inf", INFINITY, 0}, {"numpy", "nan", NAN, 0},
        {"numpy", "euler_gamma", 0.5772156649015329, 0},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        if (strcmp(table[i].module, module) != 0 ||
            strcmp(table[i].attr, attr) != 0)
            continue;
        memset(out, 0, sizeof *out);
        if (strcmp(attr, "infj") == 0 || strcmp(attr, "nanj") == 0) {
            out->type = uf__type_scalar(tc, UF_COMPLEX128);
            out->v.c[0] = table[i].re;
            out->v.c[1] = table[i].im;
        } else {
            out->type = uf__type_scalar(tc, UF_FLOAT64);
            out->v.f = table[i].re;
        }
        return true;
    }
    return false;
}

/* "math.sin" for math.sin / sin (from math import sin); NULL otherwise.
 * Writes into buf. */
static const char *callee_name(ev *E, const uf__expr *f, char *buf,
                               size_t size)
{
    const uf__kmodule *km = E->env->km;
    if (f->kind == UF__EX_NAME) {
        const uf__global *g = uf__kmodule_global(km, f->u.name.id);
        if (g == NULL) {
            snprintf(buf, size, "%s", f->u.name.id); /* Python builtin */
            return buf;
        }
        if (g->kind == UF__G_BUILTIN) {
            snprintf(buf, size, "%s", uf__builtin_name(g->builtin));
            return buf;
        }
        if (g->kind == UF__G_DTYPE) {
            snprintf(buf, size, "<dtype>%d", (int)g->dtype);
            return buf;
        }
        return NULL;
    }
    if (f->kind == UF__EX_ATTR && f->u.attr.value->kind == UF__EX_NAME) {
        const uf__global *g =
            uf__kmodule_global(km, f->u.attr.value->u.name.id);
        if (g == NULL || g->kind != UF__G_MODULE)
            return NULL;
        uf_dtype d;
        if (uf__const_dtype_name(g->module, f->u.attr.attr, &d)) {
            snprintf(buf, size, "<dtype>%d", (int)d);
            return buf;
        }
        snprintf(buf, size, "%s.%s", g->module, f->u.attr.attr);
        return buf;
    }
    return NULL;
}

/* ---- calls ----------------------------------------------------------- */

/* Python's round(x, n) for a float: correctly rounded through the
 * shortest decimal text (glibc's printf rounds the exact binary value
 * half-to-even, as CPython's dtoa does). */
static double py_round_float(double x, int64_t n)
{
    if (!isfinite(x) || n > 323)
        return x;
    if (n < -308)
        return copysign(0.0, x);
    char buf[512];
    if (n >= 0) {
        snprintf(buf, sizeof buf, "%.*f", (int)n, x);
        return strtod(buf, NULL);
    }
    double p = pow(10.0, (double)-n);
    double y = x / p;
    double r = nearbyint(y); /* half-even */
    return copysign(r * p, x);
}

static int py_round_int(double x, int64_t *out)
{
    if (!isfinite(x) || x >= 0x1p63 || x < -0x1p63)
        return -1;
    *out = (int64_t)nearbyint(x);
    return 0;
}

typedef double (*fn1)(double);

static const struct {
    const char *name;
    fn1 f;
} math1[] = {
    {"math.sin", sin}, {"math.cos", cos}, {"math.tan", tan},
    {"math.asin", asin}, {"math.acos", acos}, {"math.atan", atan},
    {"math.sinh", sinh}, {"math.cosh", cosh}, {"math.tanh", tanh},
    {"math.asinh", asinh}, {"math.acosh", acosh}, {"math.atanh", atanh},
    {"math.exp", exp}, {"math.expm1", expm1}, {"math.log", log},
    {"math.log1p", log1p}, {"math.log2", log2}, {"math.log10", log10},
    {"math.sqrt", sqrt}, {"math.fabs", fabs}, {"math.erf", erf},
    {"math.erfc", erfc}, {"math.gamma", tgamma}, {"math.lgamma", lgamma},
};

static int call_math(ev *E, const uf__expr *e, const char *name,
                     const uf__cval *args, int nargs, uf__cval *out)
{
    for (int i = 0; i < nargs; i++)
        if (is_complex(dt_of(&args[i])))
            return fail(E, UF_ERR_VALUE, e, "%s() argument must be a real "
                        "number", name);
    double x = nargs > 0 ? as_double(&args[0]) : 0;
    double y = nargs > 1 ? as_double(&args[1]) : 0;
    uf__cval r = mk(E, UF_FLOAT64, true);
    double v = 0;
    int want = 1;
    for (size_t i = 0; i < sizeof math1 / sizeof *math1; i++) {
        if (strcmp(math1[i].name, name) != 0)
            continue;
        if (nargs != 1 && !(strcmp(name, "math.log") == 0 && nargs == 2))
            goto arity;
        v = math1[i].f(x);
        if (nargs == 2) {
            double lb = log(y);
            v = v / lb;
            if (y <= 0 || lb == 0)
                goto domain;
        }
        if (isnan(v) && !isnan(x))
            goto domain;
        if (isinf(v) && isfinite(x)) {
            /* log(0), gamma of poles: ValueError; exp overflow:
             * OverflowError */
            if (strstr(name, "log") || strstr(name, "gamma") ||
                strcmp(name, "math.atanh") == 0)
                goto domain;
            return fail(E, UF_ERR_VALUE, e, "math range error in %s()",
                        name);
        }
        r.c.v.f = v;
        *out = r;
        return 0;
    }
    if (strcmp(name, "math.floor") == 0 || strcmp(name, "math.ceil") == 0 ||
        strcmp(name, "math.trunc") == 0) {
        if (nargs != 1)
            goto arity;
        uf_dtype d = dt_of(&args[0]);
        uf__cval q = mk(E, UF_INT64, true);
        if (is_int(d) || d == UF_BOOL) {
            if (!is_signed(d) && d != UF_BOOL && as_bits(&args[0]) >> 63)
                return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s "
                            "does not fit in 64 bits", "value");
            q.c.v.i = (int64_t)as_bits(&args[0]);
            *out = q;
            return 0;
        }
        v = name[5] == 'f' ? floor(x) : name[5] == 'c' ? ceil(x) : trunc(x);
        if (isnan(v))
            return fail(E, UF_ERR_VALUE, e, "cannot convert float NaN to "
                        "integer in %s()", name);
        if (!(v >= -0x1p63 && v < 0x1p63))
            return fail(E, UF_ERR_VALUE, e, "cannot convert float infinity "
                        "or a huge float to integer in %s()", name);
        q.c.v.i = (int64_t)v;
        *out = q;
        return 0;
    }
    if (strcmp(name, "math.isnan") == 0 || strcmp(name, "math.isinf") == 0 ||
        strcmp(name, "math.isfinite") == 0) {
        if (nargs != 1)
            goto arity;
        uf__cval q = mk(E, UF_BOOL, true);
        q.c.v.b = name[7] == 'n' ? isnan(x) : name[7] == 'i' ? isinf(x)
                                                              : isfinite(x);
        *out = q;
        return 0;
    }
    if (strcmp(name, "math.degrees") == 0 || strcmp(name, "math.radians") == 0) {
        if (nargs != 1)
            goto arity;
        r.c.v.f = name[5] == 'd' ? x * (180.0 / M_PI) : x * (M_PI / 180.0);
        *out = r;
        return 0;
    }
    if (strcmp(name, "math.factorial") == 0) {
        if (nargs != 1)
            goto arity;
        uf_dtype d = dt_of(&args[0]);
        if (!is_int(d) && d != UF_BOOL)
            return fail(E, UF_ERR_VALUE, e, "%s", "math.factorial() only "
                        "accepts integral values");
        int64_t n = (int64_t)as_bits(&args[0]);
        if (n < 0 || (!is_signed(d) && d != UF_BOOL && as_bits(&args[0]) >> 63))
            return fail(E, UF_ERR_VALUE, e, "%s", "math.factorial() not "
                        "defined for negative values");
        if (n > 20) /* 21! needs more than 64 bits */
            return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant "
                        "math.factorial(%lld) does not fit in 64 bits",
                        (long long)n);
        uf__cval q = mk(E, UF_INT64, true);
        q.c.v.i = 1;
        for (int64_t k = 2; k <= n; k++)
            q.c.v.i *= k;
        *out = q;
        return 0;
    }
    static const char *const math2[] = {"math.atan2", "math.hypot",
                                        "math.copysign", "math.fmod",
                                        "math.pow"};
    bool binary = false;
    for (size_t i = 0; i < sizeof math2 / sizeof *math2; i++)
        binary |= strcmp(math2[i], name) == 0;
    if (!binary)
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s() is not supported in a "
                    "module constant", name);
    want = 2;
    if (nargs != 2)
        goto arity;
    if (strcmp(name, "math.atan2") == 0)
        v = atan2(x, y);
    else if (strcmp(name, "math.hypot") == 0)
        v = hypot(x, y);
    else if (strcmp(name, "math.copysign") == 0)
        v = copysign(x, y);
    else if (strcmp(name, "math.fmod") == 0) {
        if (y == 0 && !isnan(x))
            goto domain;
        v = fmod(x, y);
    } else if (strcmp(name, "math.pow") == 0) {
        if ((x == 0 && y < 0) || (x < 0 && isfinite(y) && y != floor(y)))
            goto domain;
        v = pow(x, y);
        if (isinf(v) && isfinite(x) && isfinite(y))
            return fail(E, UF_ERR_VALUE, e, "math range error in %s()",
                        name);
    }
    r.c.v.f = v;
    *out = r;
    return 0;
arity:
    return uf__source_error(E->err, UF_ERR_VALUE, E->env->km->src, e->pos,
                            "%s() takes %d argument%s (%d given)", name,
                            want, want == 1 ? "" : "s", nargs);
domain:
    return fail(E, UF_ERR_VALUE, e, "math domain error in %s()", name);
}

static int eval(ev *E, const uf__expr *e, uf__cval *out);

static int call(ev *E, const uf__expr *e, uf__cval *out)
{
    const uf__expr *f = e->u.call.func;
    char name[160];
    if (e->u.call.nkw > 0)
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "keyword arguments in "
                    "a module constant");
    if (callee_name(E, f, name, sizeof name) == NULL)
        return fail(E, UF_ERR_UNSUPPORTED, f, "%s", "this call is not a "
                    "constant expression");
    int n = e->u.call.nargs;
    uf__cval args[8];
    if (n > 8)
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "too many arguments in "
                    "a module constant");
    for (int i = 0; i < n; i++)
        if (eval(E, e->u.call.args[i], &args[i]) < 0)
            return E->err->code;

    if (strncmp(name, "<dtype>", 7) == 0) {
        uf_dtype d = (uf_dtype)atoi(name + 7);
        if (n != 1)
            return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "a dtype cast takes "
                        "one argument");
        return convert(E, e, &args[0], d, false, out);
    }
    if (strncmp(name, "math.", 5) == 0)
        return call_math(E, e, name, args, n, out);

    if (strcmp(name, "int") == 0 || strcmp(name, "float") == 0 ||
        strcmp(name, "bool") == 0 || strcmp(name, "abs") == 0) {
        if (n != 1)
            return fail(E, UF_ERR_VALUE, e, "%s() takes one argument", name);
        uf_dtype d = dt_of(&args[0]);
        if (name[0] == 'i') {
            if (is_int(d) && !is_signed(d) && as_bits(&args[0]) >> 63)
                return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s "
                            "does not fit in 64 bits", "value");
            return convert(E, e, &args[0], UF_INT64, true, out);
        }
        if (name[0] == 'f')
            return convert(E, e, &args[0], UF_FLOAT64, true, out);
        if (name[0] == 'b')
            return convert(E, e, &args[0], UF_BOOL, true, out);
        /* abs keeps the kind; abs of a complex is its modulus */
        uf__cval r = args[0];
        if (d == UF_BOOL) {
            if (!r.weak)
                return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "abs() of a "
                            "NumPy bool in a module constant");
            return convert(E, e, &args[0], UF_INT64, true, out);
        } else if (is_signed(d)) {
            if (r.weak && r.c.v.i == INT64_MIN)
                return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s "
                            "does not fit in 64 bits", "value");
            set_int_wrap(&r, r.c.v.i < 0 ? -(uint64_t)r.c.v.i
                                         : (uint64_t)r.c.v.i);
        } else if (is_float(d)) {
            r.c.v.f = fabs(r.c.v.f);
        } else if (is_complex(d)) {
            uf_dtype fd = d == UF_COMPLEX64 ? UF_FLOAT32 : UF_FLOAT64;
            r = mk(E, fd, args[0].weak);
            r.c.v.f = round_to(fd, hypot(args[0].c.v.c[0],
                                         args[0].c.v.c[1]));
        }
        *out = r;
        return 0;
    }
    if (strcmp(name, "complex") == 0) {
        if (n < 1 || n > 2)
            return fail(E, UF_ERR_VALUE, e, "%s() takes 1 or 2 arguments",
                        name);
        for (int i = 0; i < n; i++)
            if (is_complex(dt_of(&args[i])) && n == 2)
                return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "complex(x, y) "
                            "with complex parts in a module constant");
        uf__cval r = mk(E, UF_COMPLEX128, true);
        r.c.v.c[0] = as_double(&args[0]);
        r.c.v.c[1] = n == 2 ? as_double(&args[1]) : as_imag(&args[0]);
        *out = r;
        return 0;
    }
    if (strcmp(name, "round") == 0) {
        if (n < 1 || n > 2)
            return fail(E, UF_ERR_VALUE, e, "%s() takes 1 or 2 arguments",
                        name);
        uf_dtype d = dt_of(&args[0]);
        if (is_complex(d))
            return fail(E, UF_ERR_VALUE, e, "%s", "type complex doesn't "
                        "define __round__");
        if (n == 1) {
            if (is_int(d) || d == UF_BOOL)
                return convert(E, e, &args[0], UF_INT64, true, out);
            uf__cval r = mk(E, UF_INT64, true);
            if (py_round_int(args[0].c.v.f, &r.c.v.i) < 0)
                return fail(E, UF_ERR_VALUE, e, "%s", "cannot convert NaN "
                            "or infinity to integer in round()");
            *out = r;
            return 0;
        }
        if (!is_int(dt_of(&args[1])))
            return fail(E, UF_ERR_VALUE, e, "%s", "round(): ndigits must be "
                        "an integer");
        if (!args[0].weak || !is_float(d))
            return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "round(x, ndigits) "
                        "of a non-float or a NumPy scalar in a module "
                        "constant");
        uf__cval r = args[0];
        r.c.v.f = py_round_float(args[0].c.v.f, args[1].c.v.i);
        *out = r;
        return 0;
    }
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
        if (n < 2)
            return fail(E, UF_ERR_UNSUPPORTED, e, "%s() of fewer than two "
                        "values in a module constant", name);
        int best = 0;
        for (int i = 1; i < n; i++) {
            bool better;
            if (uf__ce_compare(E, e, name[1] == 'a' ? UF__CMP_GT : UF__CMP_LT,
                        &args[i], &args[best], &better) < 0)
                return E->err->code;
            if (better)
                best = i;
        }
        *out = args[best];
        return 0;
    }
    if (strcmp(name, "pow") == 0) {
        if (n != 2)
            return fail(E, UF_ERR_UNSUPPORTED, e, "%s() with other than two "
                        "arguments in a module constant", name);
        return uf__ce_binop(E, e, UF__OP_POW, &args[0], &args[1], out);
    }
    return fail(E, UF_ERR_UNSUPPORTED, f, "%s() is not supported in a "
                "module constant", name);
}

/* ---- expressions ----------------------------------------------------- */

static int unary(ev *E, const uf__expr *e, uf__cval *out)
{
    uf__cval v;
    if (eval(E, e->u.unary.operand, &v) < 0)
        return E->err->code;
    uf_dtype d = dt_of(&v);
    switch (e->u.unary.op) {
    case UF__OP_NOT: {
        uf__cval r = mk(E, UF_BOOL, true);
        r.c.v.b = !uf__ce_truth(&v);
        *out = r;
        return 0;
    }
    case UF__OP_POS:
        if (d == UF_BOOL)
            return convert(E, e, &v, UF_INT64, true, out);
        *out = v;
        return 0;
    case UF__OP_NEG: {
        if (d == UF_BOOL) {
            if (!v.weak)
                return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "negating a "
                            "NumPy bool");
            uf__cval r = mk(E, UF_INT64, true);
            r.c.v.i = v.c.v.b ? -1 : 0;
            *out = r;
            return 0;
        }
        if (is_int(d)) {
            if (v.weak && v.c.v.i == INT64_MIN)
                return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s "
                            "does not fit in 64 bits", "value");
            set_int_wrap(&v, -as_bits(&v));
        } else if (is_float(d)) {
            v.c.v.f = -v.c.v.f;
        } else {
            v.c.v.c[0] = -v.c.v.c[0];
            v.c.v.c[1] = -v.c.v.c[1];
        }
        *out = v;
        return 0;
    }
    case UF__OP_INVERT:
        if (d == UF_BOOL) {
            if (v.weak) { /* ~True == -2 in Python */
                uf__cval r = mk(E, UF_INT64, true);
                r.c.v.i = ~(int64_t)v.c.v.b;
                *out = r;
            } else {
                v.c.v.b = !v.c.v.b;
                *out = v;
            }
            return 0;
        }
        if (!is_int(d))
            return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "bad operand type "
                        "for unary ~");
        set_int_wrap(&v, ~as_bits(&v));
        *out = v;
        return 0;
    }
    return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "unknown unary operator");
}

static int eval(ev *E, const uf__expr *e, uf__cval *out)
{
    const uf__kmodule *km = E->env->km;
    switch (e->kind) {
    case UF__EX_INT: {
        if (e->u.i.too_big || e->u.i.value > (uint64_t)INT64_MAX)
            return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s does "
                        "not fit in 64 bits", "literal");
        uf__cval r = mk(E, UF_INT64, true);
        r.c.v.i = (int64_t)e->u.i.value;
        *out = r;
        return 0;
    }
    case UF__EX_FLOAT: {
        uf__cval r = mk(E, UF_FLOAT64, true);
        r.c.v.f = e->u.f;
        *out = r;
        return 0;
    }
    case UF__EX_IMAG: {
        uf__cval r = mk(E, UF_COMPLEX128, true);
        r.c.v.c[1] = e->u.f;
        *out = r;
        return 0;
    }
    case UF__EX_BOOL: {
        uf__cval r = mk(E, UF_BOOL, true);
        r.c.v.b = e->u.b;
        *out = r;
        return 0;
    }
    case UF__EX_NAME: {
        const char *id = e->u.name.id;
        const uf__global *g = uf__kmodule_global(km, id);
        if (g == NULL)
            return fail(E, UF_ERR_UNSUPPORTED, e, "name '%s' is not defined",
                        id);
        if (g->kind != UF__G_CONSTANT ||
            g->constant.type->kind != UF__T_SCALAR) /* or a string */
            return fail(E, UF_ERR_UNSUPPORTED, e, "'%s' is not a constant "
                        "number", id);
        out->c = g->constant;
        out->weak = E->env->weak[g - km->globals];
        return 0;
    }
    case UF__EX_ATTR: {
        const uf__expr *v = e->u.attr.value;
        if (v->kind == UF__EX_NAME) {
            const uf__global *g = uf__kmodule_global(km, v->u.name.id);
            if (g != NULL && g->kind == UF__G_MODULE) {
                if (uf__const_module_attr(km->tc, g->module, e->u.attr.attr,
                                          &out->c)) {
                    out->weak = true;
                    return 0;
                }
                return uf__source_error(E->err, UF_ERR_UNSUPPORTED, km->src,
                                        e->u.attr.attr_pos, "unknown "
                                        "constant '%s.%s'", g->module,
                                        e->u.attr.attr);
            }
        }
        uf__cval base;
        if (eval(E, v, &base) < 0)
            return E->err->code;
        const char *a = e->u.attr.attr;
        if (strcmp(a, "real") == 0 || strcmp(a, "imag") == 0) {
            uf_dtype d = dt_of(&base);
            if (!is_complex(d)) {
                if (a[0] == 'r') {
                    *out = base;
                } else {
                    uf__cval z;
                    if (convert(E, e, &base, d, base.weak, &z) < 0)
                        return E->err->code;
                    memset(&z.c.v, 0, sizeof z.c.v);
                    *out = z;
                }
                return 0;
            }
            uf_dtype fd = d == UF_COMPLEX64 ? UF_FLOAT32 : UF_FLOAT64;
            uf__cval r = mk(E, fd, base.weak);
            r.c.v.f = base.c.v.c[a[0] == 'r' ? 0 : 1];
            *out = r;
            return 0;
        }
        return uf__source_error(E->err, UF_ERR_UNSUPPORTED, km->src,
                                e->u.attr.attr_pos, "unknown attribute "
                                "'%s' in a module constant", a);
    }
    case UF__EX_UNARY:
        return unary(E, e, out);
    case UF__EX_BINARY: {
        uf__cval a, b;
        if (eval(E, e->u.binary.left, &a) < 0 ||
            eval(E, e->u.binary.right, &b) < 0)
            return E->err->code;
        return uf__ce_binop(E, e, e->u.binary.op, &a, &b, out);
    }
    case UF__EX_COMPARE: {
        uf__cval a, b;
        bool all = true;
        if (eval(E, e->u.compare.operands[0], &a) < 0)
            return E->err->code;
        for (int i = 0; i < e->u.compare.nops; i++) {
            bool r;
            if (eval(E, e->u.compare.operands[i + 1], &b) < 0 ||
                uf__ce_compare(E, e, e->u.compare.ops[i], &a, &b, &r) < 0)
                return E->err->code;
            if (!r) {
                all = false;
                break;
            }
            a = b;
        }
        uf__cval r = mk(E, UF_BOOL, true);
        r.c.v.b = all;
        *out = r;
        return 0;
    }
    case UF__EX_BOOLOP: {
        /* Python returns the deciding operand itself */
        for (int i = 0; i < e->u.boolop.n; i++) {
            if (eval(E, e->u.boolop.values[i], out) < 0)
                return E->err->code;
            if (uf__ce_truth(out) != e->u.boolop.is_and)
                return 0;
        }
        return 0;
    }
    case UF__EX_IFEXP: {
        uf__cval c;
        if (eval(E, e->u.ifexp.cond, &c) < 0)
            return E->err->code;
        return eval(E, uf__ce_truth(&c) ? e->u.ifexp.then : e->u.ifexp.orelse,
                    out);
    }
    case UF__EX_CALL:
        return call(E, e, out);
    case UF__EX_STR:
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "a string module "
                    "constant must be one string literal (MODE = 'fast'), "
                    "not inside an expression or a tuple");
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "tuple and list module "
                    "constants are not supported (only numbers)");
    case UF__EX_NONE:
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "None as a module "
                    "constant is not supported (only numbers)");
    default:
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "this expression is not "
                    "a constant number");
    }
}

int uf__consteval(const uf__const_env *env, const uf__expr *e, uf__cval *out,
                  uf_error *err)
{
    ev E = {env, err};
    return eval(&E, e, out);
}

int uf__consteval_binop(const uf__const_env *env, const uf__expr *at,
                        uf__binop op, const uf__cval *a, const uf__cval *b,
                        uf__cval *out, uf_error *err)
{
    ev E = {env, err};
    return uf__ce_binop(&E, at, op, a, b, out);
}

int uf__consteval_compare(const uf__const_env *env, const uf__expr *at,
                          uf__cmpop op, const uf__cval *a, const uf__cval *b,
                          bool *out, uf_error *err)
{
    ev E = {env, err};
    /* NEP 50: a Python float meets a NumPy float32 as a float32 */
    uf__cval x = *a, y = *b;
    if (x.weak && !y.weak && dt_of(&y) == UF_FLOAT32 && is_float(dt_of(&x)))
        x.c.v.f = round_to(UF_FLOAT32, x.c.v.f);
    if (y.weak && !x.weak && dt_of(&x) == UF_FLOAT32 && is_float(dt_of(&y)))
        y.c.v.f = round_to(UF_FLOAT32, y.c.v.f);
    return uf__ce_compare(&E, at, op, &x, &y, out);
}

bool uf__consteval_truth(const uf__cval *v)
{
    return uf__ce_truth(v);
}
