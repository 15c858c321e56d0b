/* Element formatting for printing, following NumPy 2's arrayprint.py
 * (FloatingFormat, IntegerFormat, BoolFormat, ComplexFloatingFormat) and
 * its Dragon4 float printer (dragon4.c). The digit generator is the
 * free-format algorithm of Steele & White / Burger & Dybvig on exact big
 * integers, with NumPy's cut-off and rounding rules so the digits match
 * NumPy's character for character. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ndarray/format_scalar.h"

/* ---- exact unsigned big integers ------------------------------------------
 * Sized for float64: a subnormal scaled by 10^323 is ~1130 bits, and a
 * fractional cut-off can multiply the scale by up to 10^316 more. */
#define BN_WORDS 80

typedef struct bignum {
    int n; /* words in use, no leading zero word; 0 is zero */
    uint32_t w[BN_WORDS];
} bignum;

static void bn_set(bignum *b, uint64_t v)
{
    b->n = 0;
    while (v != 0) {
        b->w[b->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void bn_copy(bignum *dst, const bignum *src)
{
    dst->n = src->n;
    memcpy(dst->w, src->w, (size_t)src->n * sizeof src->w[0]);
}

static void bn_mul_small(bignum *b, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->w[i] * m + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0 && b->n < BN_WORDS)
        b->w[b->n++] = (uint32_t)carry;
}

static void bn_mul_pow10(bignum *b, int n)
{
    static const uint32_t p10[9] = {1,      10,      100,      1000,
                                    10000,  100000,  1000000,  10000000,
                                    100000000};
    for (; n >= 9; n -= 9)
        bn_mul_small(b, 1000000000u);
    if (n > 0)
        bn_mul_small(b, p10[n]);
}

static void bn_shl(bignum *b, int s)
{
    if (b->n == 0 || s == 0)
        return;
    int ws = s / 32, bs = s % 32, n = b->n;
    if (n + ws + 1 > BN_WORDS)
        return; /* cannot happen for float32/float64 inputs */
    if (bs == 0) {
        for (int i = n - 1; i >= 0; i--)
            b->w[i + ws] = b->w[i];
    } else {
        b->w[n + ws] = 0;
        for (int i = n - 1; i >= 0; i--) {
            uint32_t v = b->w[i];
            b->w[i + ws + 1] |= v >> (32 - bs);
            b->w[i + ws] = v << bs;
        }
        n++;
    }
    for (int i = 0; i < ws; i++)
        b->w[i] = 0;
    b->n = n + ws;
    while (b->n > 0 && b->w[b->n - 1] == 0)
        b->n--;
}

static int bn_cmp(const bignum *a, const bignum *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

static void bn_add(bignum *r, const bignum *a, const bignum *b)
{
    const bignum *lo = a->n < b->n ? a : b, *hi = a->n < b->n ? b : a;
    uint64_t carry = 0;
    int i = 0;
    for (; i < hi->n; i++) {
        uint64_t t = (uint64_t)hi->w[i] + (i < lo->n ? lo->w[i] : 0) + carry;
        r->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    r->n = hi->n;
    if (carry != 0 && r->n < BN_WORDS)
        r->w[r->n++] = 1;
}

/* a -= b, with a >= b. */
static void bn_sub(bignum *a, const bignum *b)
{
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        borrow = t < 0;
        a->w[i] = (uint32_t)(t + (borrow << 32));
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

/* floor(r / s) for r < 10 s; r becomes the remainder. */
static int bn_digit(bignum *r, const bignum *s)
{
    int q = 0;
    while (bn_cmp(r, s) >= 0) {
        bn_sub(r, s);
        q++;
    }
    return q;
}

/* ---- Dragon4 ----------------------------------------------------------- */

/* A float as |v| = f * 2^e. `unequal`: the gap to the next smaller float is
 * half the gap to the next larger (f is a power of two, not the smallest
 * normal binade). `d` is the value itself (float32 converts exactly). */
typedef struct fpval {
    bool neg, finite, nan, unequal;
    uint64_t f;
    int e;
    double d;
} fpval;

static fpval fp_decompose(uint64_t mant, int bexp, int mant_bits, int bias,
                          int max_bexp)
{
    fpval v = {0};
    v.finite = bexp != max_bexp;
    v.nan = !v.finite && mant != 0;
    if (bexp != 0) {
        v.f = mant | (uint64_t)1 << mant_bits;
        v.e = bexp - bias - mant_bits;
        v.unequal = mant == 0 && bexp > 1;
    } else {
        v.f = mant;
        v.e = 1 - bias - mant_bits;
    }
    return v;
}

static fpval fp_from_f64(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    fpval v = fp_decompose(bits & ((UINT64_C(1) << 52) - 1),
                           (int)(bits >> 52) & 0x7ff, 52, 1023, 0x7ff);
    v.neg = bits >> 63;
    v.d = d;
    return v;
}

static fpval fp_from_f32(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    fpval v = fp_decompose(bits & ((UINT32_C(1) << 23) - 1),
                           (int)(bits >> 23) & 0xff, 23, 127, 0xff);
    v.neg = bits >> 31;
    v.d = x;
    return v;
}

enum cutoff { CUT_TOTAL, CUT_FRACTION };

/* Most digits ever produced; well above the 17 a float64 needs. */
#define DIGITS_MAX 40

/* Shortest digits of |v| that read back as v (ties between equally short
 * candidates go to the nearer, then to the even digit), stopping early at
 * `cut_max` digits (total, or past the decimal point) and going on to at
 * least `cut_min`; -1 turns either off. Returns the digit count and sets
 * *exp10 to the decimal exponent of the first digit. */
static int dragon4(const fpval *v, enum cutoff mode, int cut_max,
                   int cut_min, char *dig, int *exp10)
{
    if (v->f == 0) {
        dig[0] = '0';
        *exp10 = 0;
        return 1;
    }
    /* v = r / s; the distances to the neighbouring floats' midpoints are
     * mlo / s and mhi / s. */
    bignum r, s, mlo, mhi_own, t;
    bignum *mhi = v->unequal ? &mhi_own : &mlo; /* same margins: share */
    bool even = (v->f & 1) == 0;
    int extra = v->unequal ? 2 : 1;
    bn_set(&r, v->f);
    bn_set(&mlo, 1);
    if (v->e >= 0) {
        bn_shl(&r, v->e + extra);
        bn_set(&s, (uint64_t)2 * (uint64_t)extra);
        bn_shl(&mlo, v->e);
    } else {
        bn_shl(&r, extra);
        bn_set(&s, 1);
        bn_shl(&s, -v->e + extra);
    }
    if (v->unequal) {
        bn_copy(mhi, &mlo);
        bn_shl(mhi, 1);
    }

    /* k: 10^(k-1) <= v < 10^k, estimated from the binary exponent, then
     * scale so that r / s = v / 10^k lies in [0.1, 1). */
    int bits = 64 - __builtin_clzll(v->f);
    int k = (int)floor((bits - 1 + v->e) * 0.30102999566398119521) + 1;
    if (k >= 0) {
        bn_mul_pow10(&s, k);
    } else {
        bn_mul_pow10(&r, -k);
        bn_mul_pow10(&mlo, -k);
        if (v->unequal)
            bn_mul_pow10(mhi, -k);
    }
    while (bn_cmp(&r, &s) >= 0) {
        bn_mul_small(&s, 10);
        k++;
    }
    for (;;) {
        bn_copy(&t, &r);
        bn_mul_small(&t, 10);
        if (bn_cmp(&t, &s) >= 0)
            break;
        bn_copy(&r, &t);
        bn_mul_small(&mlo, 10);
        if (v->unequal)
            bn_mul_small(mhi, 10);
        k--;
    }
    /* A value below the last fractional digit starts at that digit (as
     * NumPy does), so it rounds to 0 or 1 there. */
    if (mode == CUT_FRACTION && cut_max >= 0 && k < 1 - cut_max) {
        bn_mul_pow10(&s, 1 - cut_max - k);
        k = 1 - cut_max;
    }

    int last = k - DIGITS_MAX; /* exponent of the last digit allowed */
    if (cut_max >= 0) {
        int want = mode == CUT_TOTAL ? k - cut_max : -cut_max;
        if (want > last)
            last = want;
    }
    int enough = k; /* unique digits may stop once this one is printed */
    if (cut_min >= 0) {
        int want = mode == CUT_TOTAL ? k - cut_min : -cut_min;
        if (want < enough)
            enough = want;
    }
    *exp10 = k - 1;

    int n = 0, digit;
    bool low, high;
    for (;;) {
        k--;
        bn_mul_small(&r, 10);
        bn_mul_small(&mlo, 10);
        if (v->unequal)
            bn_mul_small(mhi, 10);
        digit = bn_digit(&r, &s);
        /* low: the digits so far already read back as v; high: so do the
         * digits with the last one rounded up. Bounds are inclusive for an
         * even mantissa (round-half-even reading). */
        int c = bn_cmp(&r, &mlo);
        low = even ? c <= 0 : c < 0;
        bn_add(&t, &r, mhi);
        c = bn_cmp(&t, &s);
        high = even ? c >= 0 : c > 0;
        if (((low || high) && k <= enough) || k == last)
            break;
        dig[n++] = (char)('0' + digit);
    }

    bool down = low;
    if (low == high) { /* nearest, ties to the even digit */
        bn_shl(&r, 1);
        int c = bn_cmp(&r, &s);
        down = c < 0 || (c == 0 && (digit & 1) == 0);
    }
    if (down) {
        dig[n++] = (char)('0' + digit);
    } else if (digit < 9) {
        dig[n++] = (char)('0' + digit + 1);
    } else {
        while (n > 0 && dig[n - 1] == '9')
            n--;
        if (n == 0) {
            dig[n++] = '1';
            (*exp10)++;
        } else {
            dig[n - 1]++;
        }
    }
    return n;
}

/* ---- positional and scientific layout (NumPy's FormatPositional and
 * FormatScientific, unique digit mode) ------------------------------------ */

/* Python's trim= letters: 'k' keep, '.' trim zeros keep the point,
 * '0' leave one zero, '-' drop zeros and the point. */
enum trim { TRIM_KEEP, TRIM_ZEROS, TRIM_ONE_ZERO, TRIM_DPT };

typedef struct fopts {
    bool scientific;
    enum cutoff cutoff; /* positional only; scientific counts all digits */
    int precision;      /* -1: no cut-off */
    int min_digits;     /* -1: none */
    bool plus;          /* '+' on positive values */
    enum trim trim;
    int pad_left, pad_right; /* -1: no padding */
    int exp_digits;          /* -1: at least 2 */
} fopts;

/* A bounded writer; the bound is never reached by the formats above. */
typedef struct obuf {
    char *p;
    size_t n;
} obuf;

static void put(obuf *o, char c)
{
    if (o->n < UF__ELEM_MAX - 1)
        o->p[o->n++] = c;
}

static void puts_n(obuf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(o, s[i]);
}

static void put_rep(obuf *o, char c, int n)
{
    for (int i = 0; i < n; i++)
        put(o, c);
}

static size_t inf_nan(const fpval *v, bool plus, char *buf)
{
    obuf o = {buf, 0};
    if (v->nan) {
        puts_n(&o, "nan", 3); /* NumPy never signs a nan here */
    } else {
        if (v->neg || plus)
            put(&o, v->neg ? '-' : '+');
        puts_n(&o, "inf", 3);
    }
    buf[o.n] = '\0';
    return o.n;
}

static size_t positional(const fpval *v, const fopts *op, char *buf)
{
    char dig[DIGITS_MAX + 2], body[UF__ELEM_MAX];
    int exp10;
    int nd = dragon4(v, op->cutoff, op->precision, op->min_digits, dig,
                     &exp10);
    obuf o = {body, 0};
    int has_sign = v->neg || op->plus;
    if (has_sign)
        put(&o, v->neg ? '-' : '+');
    int whole, frac = 0;
    if (exp10 >= 0) {
        whole = exp10 + 1;
        if (nd <= whole) {
            puts_n(&o, dig, (size_t)nd);
            put_rep(&o, '0', whole - nd);
        } else {
            puts_n(&o, dig, (size_t)whole);
            put(&o, '.');
            puts_n(&o, dig + whole, (size_t)(nd - whole));
            frac = nd - whole;
        }
    } else {
        whole = 1;
        puts_n(&o, "0.", 2);
        put_rep(&o, '0', -(exp10 + 1));
        puts_n(&o, dig, (size_t)nd);
        frac = -(exp10 + 1) + nd;
    }
    if (op->trim != TRIM_DPT && frac == 0)
        put(&o, '.');
    int want = op->min_digits < 0 ? 0 : op->min_digits;
    if (op->cutoff == CUT_TOTAL)
        want = op->min_digits - whole;
    if (op->trim == TRIM_ONE_ZERO) {
        if (frac == 0) {
            put(&o, '0');
            frac++;
        }
    } else if (op->trim == TRIM_KEEP && want > frac) {
        put_rep(&o, '0', want - frac);
        frac = want;
    }
    if (op->trim != TRIM_KEEP && frac > 0) {
        while (body[o.n - 1] == '0') {
            o.n--;
            frac--;
        }
        if (body[o.n - 1] == '.') {
            if (op->trim == TRIM_ONE_ZERO) {
                put(&o, '0');
                frac++;
            } else if (op->trim == TRIM_DPT) {
                o.n--;
            }
        }
    }
    if (op->pad_right >= frac) {
        if (op->trim == TRIM_DPT && frac == 0)
            put(&o, ' ');
        put_rep(&o, ' ', op->pad_right - frac);
    }
    obuf out = {buf, 0};
    put_rep(&out, ' ', op->pad_left - (whole + has_sign));
    puts_n(&out, body, o.n);
    buf[out.n] = '\0';
    return out.n;
}

static size_t scientific(const fpval *v, const fopts *op, char *buf)
{
    char dig[DIGITS_MAX + 2];
    int exp10;
    int nd = dragon4(v, CUT_TOTAL, op->precision < 0 ? -1 : op->precision + 1,
                     op->min_digits < 0 ? -1 : op->min_digits + 1, dig,
                     &exp10);
    obuf o = {buf, 0};
    int has_sign = v->neg || op->plus;
    put_rep(&o, ' ', op->pad_left - (1 + has_sign));
    if (has_sign)
        put(&o, v->neg ? '-' : '+');
    put(&o, dig[0]);
    int frac = nd - 1;
    if (frac > 0) {
        put(&o, '.');
        puts_n(&o, dig + 1, (size_t)frac);
    }
    if (op->trim != TRIM_DPT && frac == 0)
        put(&o, '.');
    int want = op->min_digits < 0 ? 0 : op->min_digits;
    if (op->trim == TRIM_ONE_ZERO) {
        if (frac == 0) {
            put(&o, '0');
            frac++;
        }
    } else if (op->trim == TRIM_KEEP && want > frac) {
        put_rep(&o, '0', want - frac);
        frac = want;
    }
    if (op->trim != TRIM_KEEP && frac > 0) {
        while (buf[o.n - 1] == '0')
            o.n--;
        if (op->trim == TRIM_ONE_ZERO && buf[o.n - 1] == '.')
            put(&o, '0');
    }
    int ed = op->exp_digits < 0 ? 2 : op->exp_digits > 5 ? 5 : op->exp_digits;
    char ebuf[16];
    int e = exp10 < 0 ? -exp10 : exp10;
    int len = snprintf(ebuf, sizeof ebuf, "e%c%0*d", exp10 < 0 ? '-' : '+',
                       ed, e);
    puts_n(&o, ebuf, (size_t)len);
    buf[o.n] = '\0';
    return o.n;
}

static size_t format_float(const fpval *v, const fopts *op, char *buf)
{
    if (!v->finite)
        return inf_nan(v, op->plus, buf);
    return op->scientific ? scientific(v, op, buf) : positional(v, op, buf);
}

/* ---- NumPy's FloatingFormat ------------------------------------------- */

static void float_init(uf__float_fmt *ff, bool f32, bool plus)
{
    memset(ff, 0, sizeof *ff);
    ff->f32 = f32;
    ff->plus = plus;
}

static void float_scan(uf__float_fmt *ff, const fpval *v)
{
    if (!v->finite) {
        ff->any_nonfinite = true;
        if (!v->nan && v->neg)
            ff->neg_inf = true;
        return;
    }
    ff->any_finite = true;
    if (v->d == 0)
        return;
    double a = fabs(v->d);
    if (!ff->any_nonzero || a > ff->max_abs)
        ff->max_abs = a;
    if (!ff->any_nonzero || a < ff->min_abs)
        ff->min_abs = a;
    ff->any_nonzero = true;
}

/* Scientific notation for the whole array when the largest value reaches
 * 10^min(8, digits of the type) or the smallest nonzero one is below 1e-4
 * or they are more than 1000 apart. NumPy compares float32 data in float32
 * (the Python constants are cast down), so 1e-4 and the ratio are float32
 * there. */
static bool float_plan(uf__float_fmt *ff)
{
    ff->exp_format = false;
    if (ff->any_nonzero) {
        if (ff->f32) {
            float mx = (float)ff->max_abs, mn = (float)ff->min_abs;
            float ratio = mx / mn;
            ff->exp_format = mx >= 1e6f || mn < 1e-4f || ratio > 1000.f;
        } else {
            double mx = ff->max_abs, mn = ff->min_abs;
            ff->exp_format = mx >= 1e8 || mn < 1e-4 || mx / mn > 1000.;
        }
    }
    ff->pad_left = 0;
    ff->pad_right = 0;
    ff->precision = ff->exp_format ? 0 : 8;
    ff->min_digits = -1;
    ff->exp_size = -1;
    return ff->any_finite;
}

/* Widths from each finite value printed with up to 8 digits, trimmed. */
static void float_measure(uf__float_fmt *ff, const fpval *v)
{
    if (!v->finite)
        return;
    fopts op = {.scientific = ff->exp_format, .cutoff = CUT_FRACTION,
                .precision = 8, .min_digits = -1, .plus = ff->plus,
                .trim = TRIM_ZEROS, .pad_left = -1, .pad_right = -1,
                .exp_digits = -1};
    char s[UF__ELEM_MAX];
    size_t len = format_float(v, &op, s);
    int dot = (int)(strchr(s, '.') - s);
    if (ff->exp_format) {
        int epos = (int)(strchr(s, 'e') - s);
        int exp_len = (int)len - epos - 1; /* sign and digits */
        if (exp_len - 1 > ff->exp_size)
            ff->exp_size = exp_len - 1;
        if (epos - dot - 1 > ff->precision)
            ff->precision = epos - dot - 1;
    } else if ((int)len - dot - 1 > ff->pad_right) {
        ff->pad_right = (int)len - dot - 1;
    }
    if (dot > ff->pad_left)
        ff->pad_left = dot;
}

static void float_finish(uf__float_fmt *ff)
{
    if (ff->any_finite && ff->exp_format) {
        ff->min_digits = ff->precision;
        ff->pad_right = ff->exp_size + 2 + ff->precision;
    } else if (ff->any_finite) {
        ff->min_digits = 0;
    }
    if (ff->any_nonfinite) {
        int neginf = ff->plus || ff->neg_inf;
        int offset = ff->pad_right + 1;
        if (3 - offset > ff->pad_left)
            ff->pad_left = 3 - offset;
        if (3 + neginf - offset > ff->pad_left)
            ff->pad_left = 3 + neginf - offset;
    }
}

static size_t float_write(const uf__float_fmt *ff, const fpval *v, char *buf)
{
    if (!v->finite) {
        /* unlike Dragon4, FloatingFormat gives nan a '+' too */
        char s[8];
        size_t n = v->nan && ff->plus ? (size_t)snprintf(s, sizeof s, "+nan")
                                      : inf_nan(v, ff->plus, s);
        obuf o = {buf, 0};
        put_rep(&o, ' ', ff->pad_left + ff->pad_right + 1 - (int)n);
        puts_n(&o, s, n);
        buf[o.n] = '\0';
        return o.n;
    }
    fopts op = {.scientific = ff->exp_format, .cutoff = CUT_FRACTION,
                .precision = ff->precision, .min_digits = ff->min_digits,
                .plus = ff->plus,
                .trim = ff->exp_format ? TRIM_KEEP : TRIM_ZEROS,
                .pad_left = ff->pad_left,
                .pad_right = ff->exp_format ? -1 : ff->pad_right,
                .exp_digits = ff->exp_size};
    return format_float(v, &op, buf);
}

/* ---- per-dtype elements ------------------------------------------------ */

static fpval load_real(uf_dtype dtype, const char *p, int part)
{
    if (dtype == UF_FLOAT32 || dtype == UF_COMPLEX64) {
        float x;
        memcpy(&x, p + part * sizeof x, sizeof x);
        return fp_from_f32(x);
    }
    double d;
    memcpy(&d, p + part * sizeof d, sizeof d);
    return fp_from_f64(d);
}

static int64_t load_signed(uf_dtype t, const char *p)
{
    switch (t) {
    case UF_INT8: {
        int8_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case UF_INT16: {
        int16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case UF_INT32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

static uint64_t load_unsigned(uf_dtype t, const char *p)
{
    switch (t) {
    case UF_UINT8:
        return (uint8_t)p[0];
    case UF_UINT16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case UF_UINT32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

void uf__elem_fmt_init(uf__elem_fmt *f, uf_dtype dtype, bool zero_d)
{
    memset(f, 0, sizeof *f);
    f->dtype = dtype;
    f->zero_d = zero_d;
    bool f32 = dtype == UF_FLOAT32 || dtype == UF_COMPLEX64;
    float_init(&f->re, f32, false);
    float_init(&f->im, f32, true);
}

void uf__elem_fmt_scan(uf__elem_fmt *f, const char *elem)
{
    char k = uf_dtype_kind(f->dtype);
    bool first = !f->any;
    f->any = true;
    if (k == 'i') {
        int64_t v = load_signed(f->dtype, elem);
        if (first || v < f->imin)
            f->imin = v;
        if (first || v > f->imax)
            f->imax = v;
    } else if (k == 'u') {
        uint64_t v = load_unsigned(f->dtype, elem);
        if (first || v < f->umin)
            f->umin = v;
        if (first || v > f->umax)
            f->umax = v;
    } else if (k == 'f' || k == 'c') {
        fpval re = load_real(f->dtype, elem, 0);
        float_scan(&f->re, &re);
        if (k == 'c') {
            fpval im = load_real(f->dtype, elem, 1);
            float_scan(&f->im, &im);
        }
    }
}

bool uf__elem_fmt_plan(uf__elem_fmt *f)
{
    char k = uf_dtype_kind(f->dtype);
    if (k == 'i' || k == 'u') {
        char a[24], b[24];
        int la, lb;
        if (k == 'i') {
            la = snprintf(a, sizeof a, "%lld", (long long)f->imin);
            lb = snprintf(b, sizeof b, "%lld", (long long)f->imax);
        } else {
            la = snprintf(a, sizeof a, "%llu", (unsigned long long)f->umin);
            lb = snprintf(b, sizeof b, "%llu", (unsigned long long)f->umax);
        }
        f->width = f->any ? (la > lb ? la : lb) : 0;
        return false;
    }
    if (k != 'f' && k != 'c')
        return false;
    bool need = float_plan(&f->re);
    if (k == 'c')
        need = float_plan(&f->im) || need;
    return need;
}

void uf__elem_fmt_measure(uf__elem_fmt *f, const char *elem)
{
    char k = uf_dtype_kind(f->dtype);
    if (k != 'f' && k != 'c')
        return;
    fpval re = load_real(f->dtype, elem, 0);
    float_measure(&f->re, &re);
    if (k == 'c') {
        fpval im = load_real(f->dtype, elem, 1);
        float_measure(&f->im, &im);
    }
}

void uf__elem_fmt_finish(uf__elem_fmt *f)
{
    float_finish(&f->re);
    float_finish(&f->im);
}

size_t uf__elem_fmt_write(const uf__elem_fmt *f, const char *elem, char *buf)
{
    int n;
    switch (uf_dtype_kind(f->dtype)) {
    case 'b':
        /* " True" lines up with "False", except alone in a 0-d array */
        n = snprintf(buf, UF__ELEM_MAX, "%s",
                     elem[0] ? (f->zero_d ? "True" : " True") : "False");
        return (size_t)n;
    case 'i':
        n = snprintf(buf, UF__ELEM_MAX, "%*lld", f->width,
                     (long long)load_signed(f->dtype, elem));
        return (size_t)n;
    case 'u':
        n = snprintf(buf, UF__ELEM_MAX, "%*llu", f->width,
                     (unsigned long long)load_unsigned(f->dtype, elem));
        return (size_t)n;
    case 'f': {
        fpval v = load_real(f->dtype, elem, 0);
        return float_write(&f->re, &v, buf);
    }
    default: {
        /* real part, then the signed imaginary part with its 'j' placed
         * before the padding */
        fpval re = load_real(f->dtype, elem, 0);
        fpval im = load_real(f->dtype, elem, 1);
        size_t nr = float_write(&f->re, &re, buf);
        char ib[UF__ELEM_MAX];
        size_t ni = float_write(&f->im, &im, ib);
        size_t text = ni;
        while (text > 0 && ib[text - 1] == ' ')
            text--;
        obuf o = {buf, nr};
        puts_n(&o, ib, text);
        put(&o, 'j');
        puts_n(&o, ib + text, ni - text);
        buf[o.n] = '\0';
        return o.n;
    }
    }
}

/* ---- str() of scalars -------------------------------------------------- */

/* Positional between 1e-4 and 1e16 (1e6 for float32), else scientific, with
 * the unique digits in full. */
static size_t float_str(const fpval *v, bool f32, enum trim trim_pos,
                        enum trim trim_sci, bool plus, char *buf)
{
    double a = fabs(v->d);
    bool pos = v->nan || v->d == 0 ||
               (a < (f32 ? 1e6 : 1e16) && a >= 1e-4);
    fopts op = {.scientific = !pos, .cutoff = CUT_TOTAL, .precision = -1,
                .min_digits = -1, .plus = plus,
                .trim = pos ? trim_pos : trim_sci, .pad_left = -1,
                .pad_right = -1, .exp_digits = -1};
    return format_float(v, &op, buf);
}

static size_t complex_str(const fpval *re, const fpval *im, bool f32,
                          char *buf)
{
    char r[UF__ELEM_MAX], i[UF__ELEM_MAX];
    if (re->finite && re->d == 0 && !re->neg) {
        float_str(im, f32, TRIM_DPT, TRIM_DPT, false, i);
        return (size_t)snprintf(buf, UF__ELEM_MAX, "%sj", i);
    }
    if (re->finite)
        float_str(re, f32, TRIM_DPT, TRIM_DPT, false, r);
    else
        snprintf(r, sizeof r, "%s", re->nan ? "nan" : re->neg ? "-inf" : "inf");
    if (im->finite)
        float_str(im, f32, TRIM_DPT, TRIM_DPT, true, i);
    else
        snprintf(i, sizeof i, "%s",
                 im->nan ? "+nan" : im->neg ? "-inf" : "+inf");
    return (size_t)snprintf(buf, UF__ELEM_MAX, "(%s%sj)", r, i);
}

size_t uf__scalar_str(uf_dtype dtype, const char *elem, char *buf)
{
    switch (uf_dtype_kind(dtype)) {
    case 'b':
        return (size_t)snprintf(buf, UF__ELEM_MAX, "%s",
                                elem[0] ? "True" : "False");
    case 'i':
        return (size_t)snprintf(buf, UF__ELEM_MAX, "%lld",
                                (long long)load_signed(dtype, elem));
    case 'u':
        return (size_t)snprintf(buf, UF__ELEM_MAX, "%llu",
                                (unsigned long long)load_unsigned(dtype,
                                                                  elem));
    case 'f': {
        fpval v = load_real(dtype, elem, 0);
        return float_str(&v, dtype == UF_FLOAT32, TRIM_ONE_ZERO, TRIM_DPT,
                         false, buf);
    }
    default: {
        fpval re = load_real(dtype, elem, 0), im = load_real(dtype, elem, 1);
        return complex_str(&re, &im, dtype == UF_COMPLEX64, buf);
    }
    }
}
