/* Constant folding: Python and NumPy arithmetic and comparisons on folded
 * values (Python ints in 64 bits with overflow refused, NumPy integers
 * wrapping, float32 rounded after each operation). */
#include <complex.h>
#include <math.h>

#include "compiler/front/consteval_internal.h"

/* glibc defines C11's CMPLX only for GCC >= 4.7 by version number, which
 * clang (claiming GCC 4.2) fails; clang has the same builtin. */
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

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
        return uf__kind_class(da) >= uf__kind_class(db) ? da : db;
    if (a->weak != b->weak) {
        const uf__cval *w = a->weak ? a : b, *s = a->weak ? b : a;
        uf_dtype dw = dt_of(w), ds = dt_of(s);
        if (uf__kind_class(dw) <= uf__kind_class(ds)) {
            if (ds == UF_BOOL && dw != UF_BOOL)
                return UF_INT64;
            return ds;
        }
        if (is_complex(dw) && ds == UF_FLOAT32)
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

int uf__ce_binop(ev *E, const uf__expr *e, uf__binop op, const uf__cval *a,
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

int uf__ce_compare(ev *E, const uf__expr *e, uf__cmpop op, const uf__cval *a,
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

bool uf__ce_truth(const uf__cval *v)
{
    uf_dtype d = dt_of(v);
    if (d == UF_BOOL)
        return v->c.v.b;
    if (is_int(d))
        return as_bits(v) != 0;
    return as_double(v) != 0.0 || as_imag(v) != 0.0;
}
