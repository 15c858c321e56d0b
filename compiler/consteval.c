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
#include "compiler/consteval.h"

typedef struct ev {
    const uf__const_env *env;
    uf_error *err;
} ev;

/* Kind order for promotion: bool < int < float < complex. */
static int kind_rank(uf_dtype d)
{
    switch (uf_dtype_kind(d)) {
    case 'b': return 0;
    case 'i': case 'u': return 1;
    case 'f': return 2;
    default: return 3;
    }
}

static bool is_int(uf_dtype d)
{
    char k = uf_dtype_kind(d);
    return k == 'i' || k == 'u';
}
static bool is_signed(uf_dtype d) { return uf_dtype_kind(d) == 'i'; }
static bool is_float(uf_dtype d) { return uf_dtype_kind(d) == 'f'; }
static bool is_complex(uf_dtype d) { return uf_dtype_kind(d) == 'c'; }

static int fail(ev *E, int code, const uf__expr *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(ev *E, int code, const uf__expr *e, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return uf__source_error(E->err, code, E->env->km->src, e->pos, "%s", msg);
}

static uf__cval mk(ev *E, uf_dtype d, bool weak)
{
    uf__cval v;
    memset(&v, 0, sizeof v);
    v.c.type = uf__type_scalar(E->env->km->tc, d);
    v.weak = weak;
    return v;
}

static uf_dtype dt_of(const uf__cval *v) { return v->c.type->dtype; }

/* The value as a double (the real part of a complex). */
static double as_double(const uf__cval *v)
{
    uf_dtype d = dt_of(v);
    if (d == UF_BOOL)
        return v->c.v.b ? 1.0 : 0.0;
    if (is_signed(d))
        return (double)v->c.v.i;
    if (is_int(d))
        return (double)v->c.v.u;
    if (is_float(d))
        return v->c.v.f;
    return v->c.v.c[0];
}

static double as_imag(const uf__cval *v)
{
    return is_complex(dt_of(v)) ? v->c.v.c[1] : 0.0;
}

/* Integers (and bools) as a 64-bit pattern, sign-extended. */
static uint64_t as_bits(const uf__cval *v)
{
    uf_dtype d = dt_of(v);
    if (d == UF_BOOL)
        return v->c.v.b;
    if (is_signed(d))
        return (uint64_t)v->c.v.i;
    return v->c.v.u;
}

/* Stores the low bits of `x` as dtype d (NumPy's wrap-around). */
static void set_int_wrap(uf__cval *v, uint64_t x)
{
    uf_dtype d = dt_of(v);
    unsigned bits = 8u * (unsigned)uf_dtype_itemsize(d);
    if (bits < 64)
        x &= (UINT64_C(1) << bits) - 1;
    if (is_signed(d)) {
        if (bits < 64 && (x >> (bits - 1)) & 1)
            x |= ~UINT64_C(0) << bits;
        v->c.v.i = (int64_t)x;
    } else {
        v->c.v.u = x;
    }
}

static double round_to(uf_dtype d, double x)
{
    return (d == UF_FLOAT32 || d == UF_COMPLEX64) ? (double)(float)x : x;
}

static bool int_fits(uf_dtype d, int64_t x)
{
    switch (d) {
    case UF_INT8: return x >= INT8_MIN && x <= INT8_MAX;
    case UF_INT16: return x >= INT16_MIN && x <= INT16_MAX;
    case UF_INT32: return x >= INT32_MIN && x <= INT32_MAX;
    case UF_INT64: return true;
    case UF_UINT8: return x >= 0 && x <= UINT8_MAX;
    case UF_UINT16: return x >= 0 && x <= UINT16_MAX;
    case UF_UINT32: return x >= 0 && x <= UINT32_MAX;
    case UF_UINT64: return x >= 0;
    default: return true;
    }
}

/* Converts `v` to dtype `d` (weak result when `weak`). A Python int that
 * does not fit a NumPy integer type is NumPy's OverflowError; a float that
 * does not fit an integer type is refused (C leaves it undefined). */
static int convert(ev *E, const uf__expr *at, const uf__cval *v, uf_dtype d,
                   bool weak, uf__cval *out)
{
    uf_dtype s = dt_of(v);
    uf__cval r = mk(E, d, weak);
    if (d == UF_BOOL) {
        r.c.v.b = as_double(v) != 0.0 || as_imag(v) != 0.0 ||
                  (is_int(s) && as_bits(v) != 0);
    } else if (is_int(d)) {
        if (is_complex(s))
            return fail(E, UF_ERR_VALUE, at, "cannot convert a complex "
                        "number to %s", uf_dtype_name(d));
        if (is_float(s)) {
            double x = trunc(v->c.v.f);
            bool ok = is_signed(d) ? (x >= -0x1p63 && x < 0x1p63)
                                   : (x >= 0 && x < 0x1p64);
            if (!ok)
                return fail(E, UF_ERR_VALUE, at, "float value out of range "
                            "for %s", uf_dtype_name(d));
            if (is_signed(d)) {
                if (!int_fits(d, (int64_t)x))
                    return fail(E, UF_ERR_VALUE, at, "float value out of "
                                "range for %s", uf_dtype_name(d));
                r.c.v.i = (int64_t)x;
            } else {
                uint64_t u = (uint64_t)x;
                if (d != UF_UINT64 && !int_fits(d, (int64_t)u))
                    return fail(E, UF_ERR_VALUE, at, "float value out of "
                                "range for %s", uf_dtype_name(d));
                r.c.v.u = u;
            }
        } else if (v->weak && s == UF_INT64 && !int_fits(d, v->c.v.i)) {
            return fail(E, UF_ERR_VALUE, at, "Python integer out of bounds "
                        "for %s", uf_dtype_name(d));
        } else {
            set_int_wrap(&r, as_bits(v));
        }
    } else if (is_float(d)) {
        if (is_complex(s))
            return fail(E, UF_ERR_VALUE, at, "cannot convert a complex "
                        "number to %s", uf_dtype_name(d));
        r.c.v.f = round_to(d, as_double(v));
    } else {
        r.c.v.c[0] = round_to(d, as_double(v));
        r.c.v.c[1] = round_to(d, as_imag(v));
    }
    *out = r;
    return 0;
}

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

/* ---- arithmetic ------------------------------------------------------ */

/* Python's float divmod (CPython's float_divmod). */
static void py_fdivmod(double x, double y, double *q, double *r)
{
    double mod = fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0.0) {
        if ((y < 0) != (mod < 0)) {
            mod += y;
            div -= 1.0;
        }
    } else {
        mod = copysign(0.0, y);
    }
    double fl;
    if (div != 0.0) {
        fl = floor(div);
        if (div - fl > 0.5)
            fl += 1.0;
    } else {
        fl = copysign(0.0, x / y);
    }
    *q = fl;
    *r = mod;
}

/* The dtype both operands of `op` are brought to: Python rules when both
 * are weak, NumPy 2 (NEP 50) otherwise. */
static uf_dtype common_dtype(const uf__cval *a, const uf__cval *b)
{
    uf_dtype da = dt_of(a), db = dt_of(b);
    if (a->weak && b->weak)
        return kind_rank(da) >= kind_rank(db) ? da : db;
    if (a->weak != b->weak) {
        const uf__cval *w = a->weak ? a : b, *s = a->weak ? b : a;
        uf_dtype dw = dt_of(w), ds = dt_of(s);
        if (kind_rank(dw) <= kind_rank(ds)) {
            if (ds == UF_BOOL && dw != UF_BOOL)
                return UF_INT64;
            return ds;
        }
        if (kind_rank(dw) == 3 && ds == UF_FLOAT32)
            return UF_COMPLEX64;
        return dw;
    }
    return uf_promote_types(da, db);
}

static int int_binop(ev *E, const uf__expr *e, uf__binop op, bool weak,
                     uf__cval x, uf__cval y, uf__cval *out)
{
    uf_dtype d = dt_of(&x);
    uf__cval r = mk(E, d, weak);
    bool sg = is_signed(d);
    int64_t a = x.c.v.i, b = y.c.v.i, ri = 0;
    uint64_t ua = as_bits(&x), ub = as_bits(&y);
    switch (op) {
    case UF__OP_ADD:
    case UF__OP_SUB:
    case UF__OP_MUL:
        if (weak) {
            bool ovf = op == UF__OP_ADD   ? __builtin_add_overflow(a, b, &ri)
                       : op == UF__OP_SUB ? __builtin_sub_overflow(a, b, &ri)
                                          : __builtin_mul_overflow(a, b, &ri);
            if (ovf)
                return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s "
                            "does not fit in 64 bits", "expression");
            r.c.v.i = ri;
        } else {
            uint64_t u = op == UF__OP_ADD   ? ua + ub
                         : op == UF__OP_SUB ? ua - ub
                                            : ua * ub;
            set_int_wrap(&r, u);
        }
        break;
    case UF__OP_FLOORDIV:
    case UF__OP_MOD:
        if (ub == 0) {
            if (weak)
                return fail(E, UF_ERR_VALUE, e, "%s in a module constant",
                            op == UF__OP_MOD ? "integer modulo by zero"
                                             : "integer division by zero");
            set_int_wrap(&r, 0); /* NumPy: 0 with a warning */
            break;
        }
        if (sg) {
            if (a == INT64_MIN && b == -1) {
                if (weak)
                    return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant "
                                "%s does not fit in 64 bits", "expression");
                set_int_wrap(&r, op == UF__OP_MOD ? 0 : (uint64_t)a);
                break;
            }
            int64_t q = a / b, m = a % b;
            if (m != 0 && ((m < 0) != (b < 0))) {
                q -= 1;
                m += b;
            }
            set_int_wrap(&r, (uint64_t)(op == UF__OP_MOD ? m : q));
        } else {
            set_int_wrap(&r, op == UF__OP_MOD ? ua % ub : ua / ub);
        }
        break;
    case UF__OP_LSHIFT:
    case UF__OP_RSHIFT:
        if (sg && b < 0)
            return fail(E, UF_ERR_VALUE, e, "%s", "negative shift count");
        if (op == UF__OP_RSHIFT) {
            unsigned s = ub >= 64 ? 63 : (unsigned)ub;
            if (sg)
                set_int_wrap(&r, (uint64_t)(a >> s));
            else
                set_int_wrap(&r, ub >= 64 ? 0 : ua >> s);
        } else {
            if (weak && a != 0 &&
                (ub >= 63 || ((int64_t)(ua << ub) >> ub) != a))
                return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s "
                            "does not fit in 64 bits", "expression");
            set_int_wrap(&r, ub >= 64 ? 0 : ua << ub);
        }
        break;
    case UF__OP_BITAND: set_int_wrap(&r, ua & ub); break;
    case UF__OP_BITOR: set_int_wrap(&r, ua | ub); break;
    case UF__OP_BITXOR: set_int_wrap(&r, ua ^ ub); break;
    case UF__OP_POW: {
        if (sg && b < 0)
            return fail(E, UF_ERR_VALUE, e, "%s", "Integers to negative "
                        "integer powers are not allowed");
        uint64_t acc = 1, base = ua, n = ub;
        int64_t sacc = 1, sbase = a;
        bool ovf = false;
        while (n) {
            if (n & 1) {
                acc *= base;
                if (weak && __builtin_mul_overflow(sacc, sbase, &sacc))
                    ovf = true;
            }
            n >>= 1;
            if (n) {
                base *= base;
                if (weak && __builtin_mul_overflow(sbase, sbase, &sbase))
                    ovf = true;
            }
        }
        if (weak && ovf)
            return fail(E, UF_ERR_UNSUPPORTED, e, "integer constant %s does "
                        "not fit in 64 bits", "expression");
        set_int_wrap(&r, weak ? (uint64_t)sacc : acc);
        break;
    }
    default:
        return fail(E, UF_ERR_UNSUPPORTED, e, "operator %s in a module "
                    "constant", uf__binop_str(op));
    }
    *out = r;
    return 0;
}

/* CPython's complex power: repeated squaring for small integral
 * exponents (c_powi), else polar form (_Py_c_pow). */
static double complex py_cpow(double complex a, double complex b)
{
    double br = creal(b), bi = cimag(b);
    if (bi == 0.0 && br == floor(br) && fabs(br) <= 100.0) {
        long n = (long)br;
        unsigned long m = n < 0 ? (unsigned long)-n : (unsigned long)n;
        double complex r = 1.0, x = a;
        while (m) {
            if (m & 1)
                r *= x;
            x *= x;
            m >>= 1;
        }
        return n < 0 ? 1.0 / r : r;
    }
    if (br == 0.0 && bi == 0.0)
        return 1.0;
    if (creal(a) == 0.0 && cimag(a) == 0.0)
        return 0.0;
    double vabs = hypot(creal(a), cimag(a));
    double len = pow(vabs, br);
    double at = atan2(cimag(a), creal(a));
    double phase = at * br;
    if (bi != 0.0) {
        len /= exp(at * bi);
        phase += bi * log(vabs);
    }
    return CMPLX(len * cos(phase), len * sin(phase));
}

static int float_binop(ev *E, const uf__expr *e, uf__binop op, bool weak,
                       uf_dtype d, double a, double b, uf__cval *out)
{
    uf__cval r = mk(E, d, weak);
    double v, q, m;
    switch (op) {
    case UF__OP_ADD: v = a + b; break;
    case UF__OP_SUB: v = a - b; break;
    case UF__OP_MUL: v = a * b; break;
    case UF__OP_DIV:
        if (b == 0.0 && weak)
            return fail(E, UF_ERR_VALUE, e, "%s", "float division by zero "
                        "in a module constant");
        v = a / b;
        break;
    case UF__OP_FLOORDIV:
    case UF__OP_MOD:
        if (b == 0.0) {
            if (weak)
                return fail(E, UF_ERR_VALUE, e, "%s", "float division by "
                            "zero in a module constant");
            v = op == UF__OP_MOD ? NAN : a / b;
            break;
        }
        py_fdivmod(a, b, &q, &m);
        v = op == UF__OP_MOD ? m : q;
        break;
    case UF__OP_POW:
        if (weak && a == 0.0 && b < 0)
            return fail(E, UF_ERR_VALUE, e, "%s", "0.0 cannot be raised to "
                        "a negative power");
        if (a < 0 && isfinite(b) && b != floor(b)) {
            if (!weak)
                return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "negative NumPy "
                            "float to a fractional power");
            /* Python gives a complex number here */
            double complex z = py_cpow(a, b);
            uf__cval c = mk(E, UF_COMPLEX128, true);
            c.c.v.c[0] = creal(z);
            c.c.v.c[1] = cimag(z);
            *out = c;
            return 0;
        }
        v = pow(a, b);
        if (weak && isinf(v) && isfinite(a) && isfinite(b))
            return fail(E, UF_ERR_VALUE, e, "%s", "float overflow in a "
                        "module constant");
        break;
    default:
        return fail(E, UF_ERR_UNSUPPORTED, e, "unsupported operand types "
                    "for %s in a module constant", uf__binop_str(op));
    }
    r.c.v.f = round_to(d, v);
    *out = r;
    return 0;
}

static int complex_binop(ev *E, const uf__expr *e, uf__binop op, bool weak,
                         uf_dtype d, double complex a, double complex b,
                         uf__cval *out)
{
    double complex v;
    switch (op) {
    case UF__OP_ADD: v = a + b; break;
    case UF__OP_SUB: v = a - b; break;
    case UF__OP_MUL: v = a * b; break;
    case UF__OP_DIV:
        if (b == 0 && weak)
            return fail(E, UF_ERR_VALUE, e, "%s", "complex division by zero "
                        "in a module constant");
        v = a / b;
        break;
    case UF__OP_POW:
        if (a == 0 && weak && (creal(b) < 0 || cimag(b) != 0))
            return fail(E, UF_ERR_VALUE, e, "%s", "0.0 to a negative or "
                        "complex power");
        v = py_cpow(a, b);
        break;
    default:
        return fail(E, UF_ERR_UNSUPPORTED, e, "unsupported operand types "
                    "for %s: complex", uf__binop_str(op));
    }
    uf__cval r = mk(E, d, weak);
    r.c.v.c[0] = round_to(d, creal(v));
    r.c.v.c[1] = round_to(d, cimag(v));
    *out = r;
    return 0;
}

static int binop(ev *E, const uf__expr *e, uf__binop op, const uf__cval *a,
                 const uf__cval *b, uf__cval *out)
{
    bool weak = a->weak && b->weak;
    uf_dtype d = common_dtype(a, b);
    bool bitwise = op == UF__OP_BITAND || op == UF__OP_BITOR ||
                   op == UF__OP_BITXOR;
    if (op == UF__OP_MATMUL)
        return fail(E, UF_ERR_UNSUPPORTED, e, "operator %s in a module "
                    "constant", "@");
    if (d == UF_BOOL) {
        if (bitwise) {
            uf__cval r = mk(E, UF_BOOL, weak);
            bool x = a->c.v.b, y = b->c.v.b;
            r.c.v.b = op == UF__OP_BITAND ? (x && y)
                      : op == UF__OP_BITOR ? (x || y) : (x != y);
            *out = r;
            return 0;
        }
        if (!weak)
            return fail(E, UF_ERR_UNSUPPORTED, e, "operator %s on NumPy "
                        "booleans in a module constant", uf__binop_str(op));
        d = UF_INT64; /* True + True == 2 */
    }
    /* int ** negative int is a float in Python */
    if (weak && d == UF_INT64 && op == UF__OP_POW && as_bits(b) >> 63)
        d = UF_FLOAT64;
    if (op == UF__OP_DIV && is_int(d))
        d = UF_FLOAT64;
    uf__cval x, y;
    if (convert(E, e, a, d, weak, &x) < 0 || convert(E, e, b, d, weak, &y) < 0)
        return E->err->code;
    if (is_int(d))
        return int_binop(E, e, op, weak, x, y, out);
    if ((is_float(d) || is_complex(d)) && bitwise)
        return fail(E, UF_ERR_UNSUPPORTED, e, "unsupported operand types "
                    "for %s: not integers", uf__binop_str(op));
    if (op == UF__OP_LSHIFT || op == UF__OP_RSHIFT)
        return fail(E, UF_ERR_UNSUPPORTED, e, "unsupported operand types "
                    "for %s: not integers", uf__binop_str(op));
    if (is_float(d))
        return float_binop(E, e, op, weak, d, x.c.v.f, y.c.v.f, out);
    return complex_binop(E, e, op, weak, d,
                         CMPLX(x.c.v.c[0], x.c.v.c[1]),
                         CMPLX(y.c.v.c[0], y.c.v.c[1]), out);
}

/* -1 / 0 / 1, or 2 when unordered (NaN). Exact for two integers. */
static int compare3(const uf__cval *a, const uf__cval *b)
{
    uf_dtype da = dt_of(a), db = dt_of(b);
    if ((is_int(da) || da == UF_BOOL) && (is_int(db) || db == UF_BOOL)) {
        bool na = is_signed(da) && a->c.v.i < 0;
        bool nb = is_signed(db) && b->c.v.i < 0;
        if (na != nb)
            return na ? -1 : 1;
        uint64_t x = as_bits(a), y = as_bits(b);
        return x < y ? -1 : x > y;
    }
    double x = as_double(a), y = as_double(b);
    if (isnan(x) || isnan(y))
        return 2;
    return x < y ? -1 : x > y;
}

static int compare(ev *E, const uf__expr *e, uf__cmpop op, const uf__cval *a,
                   const uf__cval *b, bool *res)
{
    bool cplx = is_complex(dt_of(a)) || is_complex(dt_of(b));
    if (op == UF__CMP_EQ || op == UF__CMP_NE) {
        bool eq;
        if (cplx)
            eq = as_double(a) == as_double(b) && as_imag(a) == as_imag(b);
        else
            eq = compare3(a, b) == 0;
        *res = op == UF__CMP_EQ ? eq : !eq;
        return 0;
    }
    if (cplx)
        return fail(E, UF_ERR_UNSUPPORTED, e, "'%s' not supported between "
                    "complex numbers", uf__cmpop_str(op));
    int c = compare3(a, b);
    switch (op) {
    case UF__CMP_LT: *res = c == -1; return 0;
    case UF__CMP_LE: *res = c == -1 || c == 0; return 0;
    case UF__CMP_GT: *res = c == 1; return 0;
    case UF__CMP_GE: *res = c == 1 || c == 0; return 0;
    default:
        return fail(E, UF_ERR_UNSUPPORTED, e, "operator '%s' in a module "
                    "constant", uf__cmpop_str(op));
    }
}

static bool truth(const uf__cval *v)
{
    uf_dtype d = dt_of(v);
    if (d == UF_BOOL)
        return v->c.v.b;
    if (is_int(d))
        return as_bits(v) != 0;
    return as_double(v) != 0.0 || as_imag(v) != 0.0;
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
    double v;
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
    } else {
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s() is not supported in a "
                    "module constant", name);
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
            if (compare(E, e, name[1] == 'a' ? UF__CMP_GT : UF__CMP_LT,
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
        return binop(E, e, UF__OP_POW, &args[0], &args[1], out);
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
        r.c.v.b = !truth(&v);
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
        if (g->kind != UF__G_CONSTANT)
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
        return binop(E, e, e->u.binary.op, &a, &b, out);
    }
    case UF__EX_COMPARE: {
        uf__cval a, b;
        bool all = true;
        if (eval(E, e->u.compare.operands[0], &a) < 0)
            return E->err->code;
        for (int i = 0; i < e->u.compare.nops; i++) {
            bool r;
            if (eval(E, e->u.compare.operands[i + 1], &b) < 0 ||
                compare(E, e, e->u.compare.ops[i], &a, &b, &r) < 0)
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
            if (truth(out) != e->u.boolop.is_and)
                return 0;
        }
        return 0;
    }
    case UF__EX_IFEXP: {
        uf__cval c;
        if (eval(E, e->u.ifexp.cond, &c) < 0)
            return E->err->code;
        return eval(E, truth(&c) ? e->u.ifexp.then : e->u.ifexp.orelse, out);
    }
    case UF__EX_CALL:
        return call(E, e, out);
    case UF__EX_STR:
        return fail(E, UF_ERR_UNSUPPORTED, e, "%s", "string module "
                    "constants are not supported (only numbers)");
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
