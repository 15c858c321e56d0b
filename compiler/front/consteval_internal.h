/* Private to the constant folder (consteval.c, consteval_arith.c): the
 * evaluation state and the value helpers both files use. */
#ifndef UF_COMPILER_CONSTEVAL_INTERNAL_H
#define UF_COMPILER_CONSTEVAL_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/consteval.h"
#include "ndarray/dtype_internal.h"

typedef struct ev {
    const uf__const_env *env;
    uf_error *err;
} ev;

static inline bool is_int(uf_dtype d)
{
    char k = uf_dtype_kind(d);
    return k == 'i' || k == 'u';
}
static inline bool is_signed(uf_dtype d) { return uf_dtype_kind(d) == 'i'; }
static inline bool is_float(uf_dtype d) { return uf_dtype_kind(d) == 'f'; }
static inline bool is_complex(uf_dtype d) { return uf_dtype_kind(d) == 'c'; }

static inline int fail(ev *E, int code, const uf__expr *e,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static inline int fail(ev *E, int code, const uf__expr *e,
                      const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return uf__source_error(E->err, code, E->env->km->src, e->pos, "%s", msg);
}

static inline uf__cval mk(ev *E, uf_dtype d, bool weak)
{
    uf__cval v;
    memset(&v, 0, sizeof v);
    v.c.type = uf__type_scalar(E->env->km->tc, d);
    v.weak = weak;
    return v;
}

static inline uf_dtype dt_of(const uf__cval *v) { return v->c.type->dtype; }

/* The value as a double (the real part of a complex). */
static inline double as_double(const uf__cval *v)
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

static inline double as_imag(const uf__cval *v)
{
    return is_complex(dt_of(v)) ? v->c.v.c[1] : 0.0;
}

/* Integers (and bools) as a 64-bit pattern, sign-extended. */
static inline uint64_t as_bits(const uf__cval *v)
{
    uf_dtype d = dt_of(v);
    if (d == UF_BOOL)
        return v->c.v.b;
    if (is_signed(d))
        return (uint64_t)v->c.v.i;
    return v->c.v.u;
}

/* Stores the low bits of `x` as dtype d (NumPy's wrap-around). */
static inline void set_int_wrap(uf__cval *v, uint64_t x)
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

static inline double round_to(uf_dtype d, double x)
{
    return (d == UF_FLOAT32 || d == UF_COMPLEX64) ? (double)(float)x : x;
}

static inline bool int_fits(uf_dtype d, int64_t x)
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
static inline int convert(ev *E, const uf__expr *at, const uf__cval *v,
                          uf_dtype d, bool weak, uf__cval *out)
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

/* Python/NumPy arithmetic and comparison on folded values (arith.c). */
int uf__ce_binop(ev *E, const uf__expr *e, uf__binop op, const uf__cval *a,
                 const uf__cval *b, uf__cval *out);
int uf__ce_compare(ev *E, const uf__expr *e, uf__cmpop op, const uf__cval *a,
                   const uf__cval *b, bool *out);
bool uf__ce_truth(const uf__cval *v);

#endif
