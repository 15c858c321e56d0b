/* np.random's generator inside kernels, Numba 0.68's steps (see
 * nprandom.h): MT19937 with NumPy's legacy tempering, random_sample's
 * (a >> 5, b >> 6) double, the polar Box-Muller pair with its second
 * value returned and its first cached, randint's masked rejection in the
 * widest argument type. Written from the algorithms' definitions
 * (Matsumoto & Nishimura's reference init_genrand / init_by_array). */
#include "common/nprandom.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"

#define MT_N 624
#define MT_M 397

typedef struct mt_state {
    int index;
    uint32_t mt[MT_N];
    bool has_gauss;
    double gauss;
    bool seeded;
} mt_state;

/* One per thread, zero (unseeded) at thread start. */
static _Thread_local mt_state tls_state;

static void init_genrand(mt_state *s, uint32_t seed)
{
    for (int i = 0; i < MT_N; i++) {
        s->mt[i] = seed;
        seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)i + 1u;
    }
    s->index = MT_N;
    s->has_gauss = false;
    s->gauss = 0.0;
    s->seeded = true;
}

static void init_by_array(mt_state *s, const uint32_t *key, int len)
{
    uint32_t *mt = s->mt;
    init_genrand(s, 19650218u);
    int i = 1, j = 0;
    for (int k = MT_N > len ? MT_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) +
                key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) -
                (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    s->index = MT_N;
}

/* A thread that draws before seeding: 624 words of the OS's entropy, as
 * Numba reads os.urandom; the clock, the thread and the stack when
 * /dev/urandom cannot be read (a sandbox without it). */
static void seed_from_os(mt_state *s)
{
    uint32_t key[MT_N];
    size_t got = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f != NULL) {
        got = fread(key, sizeof key[0], MT_N, f);
        fclose(f);
    }
    if (got < MT_N) {
        struct timespec ts;
        timespec_get(&ts, TIME_UTC);
        uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^
                     (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)s ^
                     (uint64_t)getpid() << 32;
        for (size_t i = got; i < MT_N; i++) { /* splitmix64 */
            x += 0x9e3779b97f4a7c15u;
            uint64_t z = x;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
            key[i] = (uint32_t)(z ^ (z >> 31));
        }
    }
    init_by_array(s, key, MT_N);
    s->seeded = true;
}

static inline mt_state *state(void)
{
    mt_state *s = &tls_state;
    if (!s->seeded)
        seed_from_os(s);
    return s;
}

static void regenerate(mt_state *s)
{
    uint32_t *mt = s->mt;
    int i;
    uint32_t y;
    for (i = 0; i < MT_N - MT_M; i++) {
        y = (mt[i] & 0x80000000u) | (mt[i + 1] & 0x7fffffffu);
        mt[i] = mt[i + MT_M] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
    }
    for (; i < MT_N - 1; i++) {
        y = (mt[i] & 0x80000000u) | (mt[i + 1] & 0x7fffffffu);
        mt[i] = mt[i + (MT_M - MT_N)] ^ (y >> 1) ^
                ((0u - (y & 1u)) & 0x9908b0dfu);
    }
    y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
    s->index = 0;
}

/* The next word with the index in *idx, a local the fills keep in a
 * register (their stores could otherwise alias the state). */
static inline uint32_t next32_at(mt_state *s, int *idx)
{
    if (*idx >= MT_N) {
        regenerate(s);
        *idx = 0;
    }
    uint32_t y = s->mt[(*idx)++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static inline uint32_t next32(mt_state *s)
{
    if (s->index >= MT_N)
        regenerate(s);
    uint32_t y = s->mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static inline double next_double(mt_state *s)
{
    uint32_t a = next32(s) >> 5, b = next32(s) >> 6;
    return ((double)a * 67108864.0 + (double)b) / 9007199254740992.0;
}

static double gauss(mt_state *s)
{
    if (s->has_gauss) {
        s->has_gauss = false;
        return s->gauss;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * next_double(s) - 1.0;
        x2 = 2.0 * next_double(s) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (!(r2 < 1.0 && r2 != 0.0));
    double f = sqrt(-2.0 * log(r2) / r2);
    s->gauss = f * x1;
    s->has_gauss = true;
    return f * x2;
}

void uf__np_random_seed(uint32_t seed)
{
    init_genrand(&tls_state, seed);
}

double uf__np_random_double(void)
{
    return next_double(state());
}

double uf__np_random_normal(double loc, double scale)
{
    double g = gauss(state());
    return loc + scale * g;
}

double uf__np_random_uniform(double low, double high)
{
    double width = high - low;
    return low + width * next_double(state());
}

/* CPython's gammavariate as Numba's overload runs it (np.random.gamma):
 * Cheng's rejection above 1, -log(1 - u) at 1, algorithm GS below. */
static bool gamma_draw(mt_state *s, double alpha, double beta, double *r)
{
    if (alpha <= 0.0 || beta <= 0.0)
        return false;
    if (alpha > 1.0) {
        double ainv = sqrt(2.0 * alpha - 1.0);
        double bbb = alpha - log(4.0), ccc = alpha + ainv;
        double sg = 1.0 + log(4.5);
        for (;;) {
            double u1 = next_double(s);
            if (!(1e-7 < u1 && u1 < .9999999))
                continue;
            double u2 = 1.0 - next_double(s);
            double v = log(u1 / (1.0 - u1)) / ainv;
            double x = alpha * exp(v);
            double z = u1 * u1 * u2;
            double q = bbb + ccc * v - x;
            if (q + sg - 4.5 * z >= 0.0 || q >= log(z)) {
                *r = x * beta;
                return true;
            }
        }
    }
    if (alpha == 1.0) {
        *r = -log(1.0 - next_double(s)) * beta;
        return true;
    }
    const double e = 2.718281828459045;
    double x;
    for (;;) {
        double u = next_double(s);
        double b = (e + alpha) / e;
        double p = b * u;
        if (p <= 1.0)
            x = pow(p, 1.0 / alpha);
        else
            x = -log((b - p) / alpha);
        double u1 = next_double(s);
        if (p > 1.0) {
            if (u1 <= pow(x, alpha - 1.0))
                break;
        } else if (u1 <= exp(-x)) {
            break;
        }
    }
    *r = x * beta;
    return true;
}

/* Python's float x % y (the sign of y), as Numba computes it. */
static double py_mod(double x, double y)
{
    double m = fmod(x, y);
    if (m != 0.0) {
        if ((y < 0.0) != (m < 0.0))
            m += y;
    } else {
        m = copysign(0.0, y);
    }
    return m;
}

static double vonmises_draw(mt_state *s, double mu, double kappa)
{
    const double pi = 3.141592653589793;
    if (kappa <= 1e-6)
        return 2.0 * pi * next_double(s);
    double h = 0.5 / kappa;
    double r = h + sqrt(1.0 + h * h);
    double z;
    for (;;) {
        double u1 = next_double(s);
        z = cos(pi * u1);
        double d = z / (r + z);
        double u2 = next_double(s);
        if (u2 < 1.0 - d * d || u2 <= (1.0 - d) * exp(d))
            break;
    }
    double q = 1.0 / r;
    double f = (q + z) / (1.0 + q * z);
    double u3 = next_double(s);
    if (u3 > 0.5)
        return py_mod(mu + acos(f), 2.0 * pi);
    return py_mod(mu - acos(f), 2.0 * pi);
}

/* One draw of distribution `kind` into *r: 0 or its status. */
static int32_t draw(mt_state *s, int32_t kind, double a, double b, double c,
                    double *r)
{
    switch (kind) {
    case UF__NPRANDOM_UNIFORM:
        *r = a + (b - a) * next_double(s);
        return 0;
    case UF__NPRANDOM_NORMAL: {
        double g = gauss(s);
        *r = a + b * g;
        return 0;
    }
    case UF__NPRANDOM_EXPONENTIAL:
        *r = -log(1.0 - next_double(s)) * a;
        return 0;
    case UF__NPRANDOM_GAMMA:
        return gamma_draw(s, a, b, r) ? 0 : UF__NPRANDOM_BAD_GAMMA;
    case UF__NPRANDOM_BETA: {
        double y, w;
        if (!gamma_draw(s, a, 1.0, &y))
            return UF__NPRANDOM_BAD_GAMMA;
        if (y == 0.0) {
            *r = 0.0;
            return 0;
        }
        if (!gamma_draw(s, b, 1.0, &w))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = y / (y + w);
        return 0;
    }
    case UF__NPRANDOM_CHISQUARE:
        if (!gamma_draw(s, a / 2.0, 1.0, r))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = 2.0 * *r;
        return 0;
    case UF__NPRANDOM_F: {
        double x, y;
        if (!gamma_draw(s, a / 2.0, 1.0, &x) ||
            !gamma_draw(s, b / 2.0, 1.0, &y))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = ((2.0 * x) * b) / ((2.0 * y) * a);
        return 0;
    }
    case UF__NPRANDOM_LOGNORMAL: {
        double g = gauss(s);
        *r = exp(a + b * g);
        return 0;
    }
    case UF__NPRANDOM_LAPLACE: {
        double u = next_double(s);
        *r = u < 0.5 ? a + b * log(u + u) : a - b * log(2.0 - u - u);
        return 0;
    }
    case UF__NPRANDOM_LOGISTIC: {
        double u = next_double(s);
        *r = a + b * log(u / (1.0 - u));
        return 0;
    }
    case UF__NPRANDOM_GUMBEL: {
        double u = 1.0 - next_double(s);
        *r = a - b * log(-log(u));
        return 0;
    }
    case UF__NPRANDOM_WEIBULL: {
        double u = 1.0 - next_double(s);
        *r = pow(-log(u), 1.0 / a);
        return 0;
    }
    case UF__NPRANDOM_PARETO: {
        double u = 1.0 - next_double(s);
        *r = 1.0 / pow(u, 1.0 / a) - 1.0;
        return 0;
    }
    case UF__NPRANDOM_POWER:
        if (a <= 0.0)
            return UF__NPRANDOM_BAD_POWER;
        *r = pow(1.0 - exp(-(-log(1.0 - next_double(s)))), 1. / a);
        return 0;
    case UF__NPRANDOM_RAYLEIGH:
        if (a <= 0.0)
            return UF__NPRANDOM_BAD_RAYLEIGH;
        *r = a * sqrt(-2.0 * log(1.0 - next_double(s)));
        return 0;
    case UF__NPRANDOM_CAUCHY: {
        double n1 = gauss(s);
        *r = n1 / gauss(s);
        return 0;
    }
    case UF__NPRANDOM_STANDARD_T: {
        double n1 = gauss(s), g;
        if (!gamma_draw(s, a / 2.0, 1.0, &g))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = sqrt(a / 2.0) * n1 / sqrt(g);
        return 0;
    }
    case UF__NPRANDOM_VONMISES:
        *r = vonmises_draw(s, a, b);
        return 0;
    case UF__NPRANDOM_WALD: {
        if (a <= 0.0)
            return UF__NPRANDOM_BAD_WALD_MEAN;
        if (b <= 0.0)
            return UF__NPRANDOM_BAD_WALD_SCALE;
        double mu_2l = a / (2.0 * b);
        double y = gauss(s);
        y = a * y * y;
        double x = a + mu_2l * (y - sqrt(4 * b * y + y * y));
        double u = next_double(s);
        *r = u <= a / (a + x) ? x : a * a / x;
        return 0;
    }
    case UF__NPRANDOM_TRIANGULAR: {
        if (c == a) {
            *r = a;
            return 0;
        }
        double u = next_double(s), cc = (b - a) / (c - a);
        double left = a, right = c;
        if (u > cc) {
            u = 1.0 - u;
            cc = 1.0 - cc;
            left = c;
            right = a;
        }
        *r = left + (right - left) * sqrt(u * cc);
        return 0;
    }
    default:
        *r = next_double(s);
        return 0;
    }
}

int32_t uf__np_random_fill(int32_t kind, double a, double b, double c,
                           double *out, int64_t n)
{
    if (n <= 0)
        return 0;
    mt_state *s = state();
    if (kind == UF__NPRANDOM_RANDOM) {
        int idx = s->index;
        for (int64_t i = 0; i < n; i++) {
            uint32_t hi = next32_at(s, &idx) >> 5;
            uint32_t lo = next32_at(s, &idx) >> 6;
            out[i] = ((double)hi * 67108864.0 + (double)lo) /
                     9007199254740992.0;
        }
        s->index = idx;
        return 0;
    }
    for (int64_t i = 0; i < n; i++) {
        int32_t st = draw(s, kind, a, b, c, &out[i]);
        if (st != 0)
            return st;
    }
    return 0;
}

/* NumPy's bits for an nbits-wide integer (0 < nbits <= 64): the low bits
 * of one word, or above 32 the high word first. */
static inline uint64_t next_bits(mt_state *s, int nbits)
{
    if (nbits <= 32)
        return next32(s) & (0xffffffffu >> (32 - nbits));
    uint64_t high = next32(s) & (0xffffffffu >> (64 - nbits));
    uint64_t low = next32(s);
    return low + (high << 32);
}

static inline uint64_t next_bits_at(mt_state *s, int *idx, int nbits)
{
    if (nbits <= 32)
        return next32_at(s, idx) & (0xffffffffu >> (32 - nbits));
    uint64_t high = next32_at(s, idx) & (0xffffffffu >> (64 - nbits));
    uint64_t low = next32_at(s, idx);
    return low + (high << 32);
}

/* v's low w bits as a signed number. */
static inline int64_t sext(uint64_t v, int w)
{
    return w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

static inline int clz64(uint64_t v)
{
    return __builtin_clzll(v);
}

/* randrange(start, stop) in w bits as Numba's _randrange_impl for the
 * NumPy state: n = stop - start must be positive (w-bit signed), one
 * value needs no draw, otherwise bits enough for n - 1 are drawn until
 * below n. Returns false on an empty range. */
static inline bool randrange(mt_state *s, uint64_t start, uint64_t stop,
                             int w, uint64_t *r)
{
    int64_t n = sext(stop - start, w);
    if (n <= 0)
        return false;
    uint64_t k = 0;
    if (n != 1) {
        int nbits = 64 - clz64((uint64_t)(n - 1));
        do
            k = next_bits(s, nbits);
        while ((int64_t)k >= n);
    }
    *r = start + k;
    return true;
}

/* n draws below n_range (>= 2) of nbits bits each, plus start, stored
 * as T: the bounds worked out once for the whole fill. */
#define RANDINT_FILL(T)                                                     \
    do {                                                                    \
        T *o = out;                                                         \
        int idx = s->index;                                                 \
        for (int64_t i = 0; i < n; i++) {                                   \
            uint64_t k;                                                     \
            if (nbits <= 32) /* one masked word: the usual case */          \
                do                                                          \
                    k = next32_at(s, &idx) & mask;                          \
                while (k >= (uint64_t)range);                               \
            else                                                            \
                do                                                          \
                    k = next_bits_at(s, &idx, nbits);                       \
                while ((int64_t)k >= range);                                \
            o[i] = (T)(start + k);                                          \
        }                                                                   \
        s->index = idx;                                                     \
    } while (0)

int32_t uf__np_random_randint(int64_t low, int64_t high, int32_t width,
                              void *out, int64_t n)
{
    if (n <= 0)
        return 0;
    uint64_t start = (uint64_t)low;
    int64_t range = sext((uint64_t)high - start, width);
    if (range <= 0)
        return UF__NPRANDOM_EMPTY_RANGE;
    mt_state *s = state();
    if (range == 1) { /* one value: nothing drawn */
        for (int64_t i = 0; i < n; i++)
            memcpy((char *)out + i * (width / 8), &start, (size_t)width / 8);
        return 0;
    }
    int nbits = 64 - clz64((uint64_t)(range - 1));
    uint32_t mask = nbits <= 32 ? 0xffffffffu >> (32 - nbits) : 0;
    switch (width) {
    case 8:
        RANDINT_FILL(uint8_t);
        break;
    case 16:
        RANDINT_FILL(uint16_t);
        break;
    case 32:
        RANDINT_FILL(uint32_t);
        break;
    default:
        RANDINT_FILL(uint64_t);
    }
    return 0;
}

/* Swaps the (nd - 1)-dimensional rows at p and q, element by element. */
static void swap_rows(char *p, char *q, int64_t nd, const int64_t *shape,
                      const int64_t *strides, int64_t itemsize)
{
    if (nd == 0) {
        char tmp[32];
        memcpy(tmp, p, (size_t)itemsize);
        memcpy(p, q, (size_t)itemsize);
        memcpy(q, tmp, (size_t)itemsize);
        return;
    }
    for (int64_t i = 0; i < shape[0]; i++)
        swap_rows(p + i * strides[0], q + i * strides[0], nd - 1, shape + 1,
                  strides + 1, itemsize);
}

void uf__np_random_shuffle(char *data, int64_t nd, const int64_t *shape,
                           const int64_t *strides, int64_t itemsize)
{
    if (nd < 1 || shape[0] < 2)
        return;
    mt_state *s = state();
    if (nd == 1 && (itemsize == 8 || itemsize == 4)) { /* common rows */
        int64_t st = strides[0];
        for (int64_t i = shape[0] - 1; i > 0; i--) {
            uint64_t j;
            randrange(s, 0, (uint64_t)i + 1, 64, &j);
            char *p = data + i * st, *q = data + (int64_t)j * st;
            if (itemsize == 8) {
                uint64_t t;
                memcpy(&t, p, 8);
                memcpy(p, q, 8);
                memcpy(q, &t, 8);
            } else {
                uint32_t t;
                memcpy(&t, p, 4);
                memcpy(p, q, 4);
                memcpy(q, &t, 4);
            }
        }
        return;
    }
    for (int64_t i = shape[0] - 1; i > 0; i--) {
        uint64_t j;
        randrange(s, 0, (uint64_t)i + 1, 64, &j);
        swap_rows(data + i * strides[0], data + (int64_t)j * strides[0],
                  nd - 1, shape + 1, strides + 1, itemsize);
    }
}

/* Copies the nd-dimensional array at src into out in C order; returns
 * the end of what it wrote. */
static char *copy_c(const char *src, int64_t nd, const int64_t *shape,
                    const int64_t *strides, int64_t itemsize, char *out)
{
    if (nd == 0) {
        memcpy(out, src, (size_t)itemsize);
        return out + itemsize;
    }
    for (int64_t i = 0; i < shape[0]; i++)
        out = copy_c(src + i * strides[0], nd - 1, shape + 1, strides + 1,
                     itemsize, out);
    return out;
}

void uf__np_random_permutation(const char *src, int64_t nd,
                               const int64_t *shape, const int64_t *strides,
                               int64_t itemsize, char *out)
{
    int64_t cs[64], isz = itemsize ? itemsize : 8; /* UF_MAXDIMS */
    if (itemsize) {
        copy_c(src, nd, shape, strides, itemsize, out);
    } else {
        for (int64_t i = 0; i < shape[0]; i++)
            memcpy(out + i * 8, &i, 8);
    }
    int64_t s = isz;
    for (int64_t k = nd - 1; k >= 0; k--) {
        cs[k] = s;
        s *= shape[k];
    }
    uf__np_random_shuffle(out, nd, shape, cs, isz);
}

int32_t uf__np_random_choice(const char *data, int64_t n, int64_t stride,
                             int64_t itemsize, int32_t replace, char *out,
                             int64_t nout)
{
    int64_t isz = itemsize ? itemsize : 8;
    if (replace) {
        if (nout <= 0)
            return 0;
        mt_state *s = state();
        for (int64_t i = 0; i < nout; i++) {
            uint64_t j;
            if (!randrange(s, 0, (uint64_t)n, 64, &j))
                return UF__NPRANDOM_EMPTY_RANGE;
            if (itemsize)
                memcpy(out + i * isz, data + (int64_t)j * stride,
                       (size_t)isz);
            else
                memcpy(out + i * isz, &j, 8);
        }
        return 0;
    }
    if (nout > n)
        return UF__NPRANDOM_LARGER_SAMPLE;
    /* np.random.permutation(a): a copy (arange(n)) shuffled whole */
    char *tmp = uf__malloc(n ? (size_t)n : 1, (size_t)isz, NULL);
    if (tmp == NULL)
        return UF__NPRANDOM_NOMEM;
    for (int64_t i = 0; i < n; i++) {
        if (itemsize)
            memcpy(tmp + i * isz, data + i * stride, (size_t)isz);
        else
            memcpy(tmp + i * isz, &i, 8);
    }
    uf__np_random_shuffle(tmp, 1, &n, &isz, isz);
    if (nout > 0)
        memcpy(out, tmp, (size_t)(nout * isz));
    uf__free(tmp);
    return 0;
}

/* ---- The integer-valued distributions (uf__np_random_ifill) ---- */

/* Python's int(x) of a double as Numba's fptosi runs on x86-64: the
 * truncation, INT64_MIN where it does not fit (NaN, infinities). */
static inline int64_t to_i64(double x)
{
    if (!(x > -9223372036854775808.0 - 1.0 && x < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)x;
}

/* log(gamma(x)) as Numba's numba_poisson_ptrs uses it (NumPy's loggam):
 * Stirling's series shifted above 7. */
static double loggam(double x)
{
    static const double a[10] = {
        8.333333333333333e-02,  -2.777777777777778e-03,
        7.936507936507937e-04,  -5.952380952380952e-04,
        8.417508417508418e-04,  -1.917526917526918e-03,
        6.410256410256410e-03,  -2.955065359477124e-02,
        1.796443723688307e-01,  -1.39243221690590e+00};
    double x0 = x;
    long n = 0;
    if (x == 1.0 || x == 2.0)
        return 0.0;
    if (x <= 7.0) {
        n = (long)(7 - x);
        x0 = x + (double)n;
    }
    double x2 = 1.0 / (x0 * x0), xp = 2 * 3.14159265358979323846;
    double gl0 = a[9];
    for (int k = 8; k >= 0; k--) {
        gl0 *= x2;
        gl0 += a[k];
    }
    double gl = gl0 / x0 + 0.5 * log(xp) + (x0 - 0.5) * log(x0) - x0;
    if (x <= 7.0)
        for (long k = 1; k <= n; k++) {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    return gl;
}

/* np.random.poisson(lam): Hormann's transformed rejection from 10 up,
 * Knuth's product of uniforms below (Numba's two paths). */
static int32_t poisson_draw(mt_state *s, double lam, int64_t *r)
{
    if (lam >= 10.0) {
        double slam = sqrt(lam), loglam = log(lam);
        double b = 0.931 + 2.53 * slam;
        double a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double U = next_double(s) - 0.5;
            double V = next_double(s);
            double us = 0.5 - fabs(U);
            int64_t k = to_i64(floor((2 * a / us + b) * U + lam + 0.43));
            if (us >= 0.07 && V <= vr) {
                *r = k;
                return 0;
            }
            if (k < 0 || (us < 0.013 && V > us))
                continue;
            if (log(V) + log(invalpha) - log(a / (us * us) + b) <=
                -lam + (double)k * loglam - loggam((double)k + 1)) {
                *r = k;
                return 0;
            }
        }
    }
    /* NaN would draw forever in Numba (prod <= NaN never holds): here
     * it is the negative lambda's ValueError */
    if (lam < 0.0 || lam != lam)
        return UF__NPRANDOM_BAD_POISSON;
    if (lam == 0.0) {
        *r = 0;
        return 0;
    }
    double enlam = exp(-lam), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= next_double(s);
        if (prod <= enlam) {
            *r = x;
            return 0;
        }
        x++;
    }
}

/* Numba's q ** n for an integer n: squaring below 0x10000, pow above. */
static double int_pow(double q, int64_t n)
{
    uint64_t e = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
    if (e > 0x10000)
        return pow(q, (double)n);
    double r = 1.0;
    while (e != 0) {
        if (e & 1u)
            r *= q;
        e >>= 1;
        q *= q;
    }
    return n < 0 ? 1.0 / r : r;
}

/* The squeeze of BTPE's step 5.2 at NumPy's legacy constants: true to
 * reject. */
static bool btpe_squeeze(double A, double xm, int64_t m, int64_t n,
                         int64_t y, double r, double q)
{
    int64_t x1 = y + 1, f1 = m + 1, z = n + 1 - m, w = n - y + 1;
    double x2 = (double)(x1 * x1), f2 = (double)(f1 * f1);
    double z2 = (double)(z * z), w2 = (double)(w * w);
    double dx1 = (double)x1, df1 = (double)f1, dz = (double)z,
           dw = (double)w;
    return A > (xm * log(df1 / dx1) + ((double)(n - m) + 0.5) * log(dz / dw) +
                (double)(y - m) * log(dw * r / (dx1 * q)) +
                (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) /
                    df1 / 166320. +
                (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) /
                    dz / 166320. +
                (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) /
                    dx1 / 166320. +
                (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) /
                    dw / 166320.);
}

/* BTPE (Kachitvichyanukul & Schmeiser) for n r > 30, r <= 1/2. */
static int64_t binomial_btpe(mt_state *s, int64_t n, double r)
{
    double dn = (double)n, q = 1.0 - r;
    double fm = dn * r + r;
    int64_t m = to_i64(floor(fm));
    double p1 = floor(2.195 * sqrt(dn * r * q) - 4.6 * q) + 0.5;
    double xm = (double)m + 0.5, xl = xm - p1, xr = xm + p1;
    double c = 0.134 + 20.5 / (15.3 + (double)m);
    double a = (fm - xl) / (fm - xl * r);
    double laml = a * (1.0 + a / 2.0);
    a = (xr - fm) / (xr * q);
    double lamr = a * (1.0 + a / 2.0);
    double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
    for (;;) { /* step 10 */
        double nrq = dn * r * q;
        double u = next_double(s) * p4, v = next_double(s);
        int64_t y;
        if (u <= p1) {
            return to_i64(floor(xm - p1 * v + u));
        } else if (u <= p2) { /* 20 */
            double x = xl + (u - p1) / c;
            v = v * c + 1.0 - fabs((double)m - x + 0.5) / p1;
            if (v > 1.0)
                continue;
            y = to_i64(floor(x));
        } else if (u <= p3) { /* 30 */
            y = to_i64(floor(xl + log(v) / laml));
            if (y < 0 || v == 0.0)
                continue;
            v = v * (u - p2) * laml;
        } else { /* 40 */
            y = to_i64(floor(xr - log(v) / lamr));
            if (y > n || v == 0.0)
                continue;
            v = v * (u - p3) * lamr;
        }
        /* 50 */
        int64_t k = y - m < 0 ? m - y : y - m;
        if (k > 20 && (double)k < nrq / 2.0 - 1) { /* 52 */
            double dk = (double)k;
            double rho =
                (dk / nrq) * ((dk * (dk / 3.0 + 0.625) + 0.16666666666666666) /
                                  nrq +
                              0.5);
            double t = (double)(-k * k) / (2 * nrq);
            double A = log(v);
            if (A < t - rho)
                return y;
            if (A > t + rho)
                continue;
            if (btpe_squeeze(A, xm, m, n, y, r, q))
                continue;
            return y;
        }
        double sr = r / q, aa = sr * (double)(n + 1), F = 1.0;
        if (m < y) {
            for (int64_t i = m + 1; i <= y; i++)
                F = F * (aa / (double)i - sr);
        } else if (m > y) {
            for (int64_t i = y + 1; i <= m; i++)
                F = F / (aa / (double)i - sr);
        }
        if (v > F)
            continue;
        return y;
    }
}

/* np.random.binomial(n, p): BTPE above n p = 30, inversion (BINV)
 * below, p above 1/2 drawn as 1 - p and flipped. */
static int32_t binomial_draw(mt_state *s, int64_t n, double p, int64_t *r)
{
    if (n < 0)
        return UF__NPRANDOM_BAD_BINOMIAL_N;
    if (!(0.0 <= p && p <= 1.0))
        return UF__NPRANDOM_BAD_BINOMIAL_P;
    if (p == 0.0) {
        *r = 0;
        return 0;
    }
    if (p == 1.0) {
        *r = n;
        return 0;
    }
    bool flipped = p > 0.5;
    if (flipped)
        p = 1.0 - p;
    double q = 1.0 - p, np_prod = (double)n * p;
    if (np_prod > 30.0) {
        int64_t x = binomial_btpe(s, n, p);
        *r = flipped ? n - x : x;
        return 0;
    }
    int64_t niters = 1;
    double qn = int_pow(q, n);
    while (qn <= 1e-308) { /* underflow: several smaller draws */
        niters <<= 2;
        n >>= 2;
        qn = int_pow(q, n);
    }
    double bound = np_prod + 10.0 * sqrt(np_prod * q + 1);
    if ((double)n < bound)
        bound = (double)n;
    int64_t total = 0;
    while (niters > 0) {
        int64_t x = 0;
        double U = next_double(s), px = qn;
        while ((double)x <= bound) {
            if (U <= px) {
                total += flipped ? n - x : x;
                niters--;
                break;
            }
            U -= px;
            x++;
            px = ((double)(n - x + 1) * p * px) / ((double)x * q);
        }
    }
    *r = total;
    return 0;
}

/* np.random.geometric(p): search below p = 1/3, inversion above. */
static int32_t geometric_draw(mt_state *s, double p, int64_t *r)
{
    if (p <= 0.0 || p > 1.0)
        return UF__NPRANDOM_BAD_GEOMETRIC;
    double q = 1.0 - p;
    if (p >= 0.333333333333333333333333) {
        int64_t x = 1;
        double sum = p, prod = p, U = next_double(s);
        while (U > sum) {
            prod *= q;
            sum += prod;
            x++;
        }
        *r = x;
        return 0;
    }
    double lq = log(q), u = log(1.0 - next_double(s));
    if (lq == 0.0) /* p below 2**-53: Numba's float division raises */
        return UF__NPRANDOM_ZERODIV;
    *r = to_i64(ceil(u / lq));
    return 0;
}

/* np.random.hypergeometric(ngood, nbad, nsample): NumPy's HYP loop, no
 * checks (Numba has none). */
static int32_t hypergeometric_draw(mt_state *s, double ngood, double nbad,
                                   double nsample, int64_t *r)
{
    int64_t d1 = to_i64(nbad) + to_i64(ngood) - to_i64(nsample);
    double d2 = nbad < ngood ? nbad : ngood;
    double Y = d2;
    int64_t K = to_i64(nsample);
    while (Y > 0.0 && K > 0) {
        double u = next_double(s);
        if (d1 + K == 0) /* nsample > ngood + nbad: Numba's float
                            division by zero */
            return UF__NPRANDOM_ZERODIV;
        Y -= (double)to_i64(floor(u + Y / (double)(d1 + K)));
        K--;
    }
    int64_t Z = to_i64(d2 - Y);
    *r = ngood > nbad ? to_i64(nsample) - Z : Z;
    return 0;
}

static int32_t logseries_draw(mt_state *s, double p, int64_t *r)
{
    if (p <= 0.0 || p > 1.0)
        return UF__NPRANDOM_BAD_LOGSERIES;
    double lr = log(1.0 - p);
    double V = next_double(s);
    if (V >= p) {
        *r = 1;
        return 0;
    }
    double U = next_double(s);
    double q = 1.0 - exp(lr * U);
    if (V <= q * q) {
        if (log(q) == 0.0) /* p 1: q is 1, Numba's division raises */
            return UF__NPRANDOM_ZERODIV;
        *r = to_i64(1.0 + log(V) / log(q));
    }
    else
        *r = V >= q ? 1 : 2;
    return 0;
}

/* np.random.zipf(a): NumPy's rejection; a NaN (which Numba would draw
 * with forever) is the a <= 1 ValueError. */
static int32_t zipf_draw(mt_state *s, double a, int64_t *r)
{
    if (!(a > 1.0))
        return UF__NPRANDOM_BAD_ZIPF;
    double am1 = a - 1.0, b = pow(2.0, am1);
    for (;;) {
        double U = 1.0 - next_double(s);
        double V = next_double(s);
        int64_t X = to_i64(floor(pow(U, -1.0 / am1)));
        if (X < 1)
            continue;
        double T = pow(1.0 + 1.0 / (double)X, am1);
        if (V * (double)X * (T - 1.0) / (b - 1.0) <= T / b) {
            *r = X;
            return 0;
        }
    }
}

int32_t uf__np_random_ifill(int32_t kind, int64_t n_, double a, double b,
                            double c, int64_t *out, int64_t n)
{
    if (n <= 0)
        return 0;
    mt_state *s = state();
    for (int64_t i = 0; i < n; i++) {
        int32_t st = 0;
        switch (kind) {
        case UF__NPRANDOM_POISSON:
            st = poisson_draw(s, a, &out[i]);
            break;
        case UF__NPRANDOM_BINOMIAL:
            st = binomial_draw(s, n_, a, &out[i]);
            break;
        case UF__NPRANDOM_GEOMETRIC:
            st = geometric_draw(s, a, &out[i]);
            break;
        case UF__NPRANDOM_NEGATIVE_BINOMIAL: {
            double y;
            if (a <= 0)
                return UF__NPRANDOM_BAD_NEGBIN_N;
            if (b < 0.0 || b > 1.0)
                return UF__NPRANDOM_BAD_NEGBIN_P;
            if (b == 0.0)
                return UF__NPRANDOM_ZERODIV;
            if (!gamma_draw(s, a, (1.0 - b) / b, &y))
                return UF__NPRANDOM_BAD_GAMMA;
            st = poisson_draw(s, y, &out[i]);
            break;
        }
        case UF__NPRANDOM_HYPERGEOMETRIC:
            st = hypergeometric_draw(s, a, b, c, &out[i]);
            break;
        case UF__NPRANDOM_LOGSERIES:
            st = logseries_draw(s, a, &out[i]);
            break;
        default:
            st = zipf_draw(s, a, &out[i]);
        }
        if (st != 0)
            return st;
    }
    return 0;
}

/* np.random.noncentral_chisquare(df, nonc): checked once, then NumPy's
 * draws (chisquare(df - 1) + (normal + sqrt(nonc))^2 above df 1, else
 * chisquare(df + 2 poisson(nonc / 2))). */
int32_t uf__np_random_noncentral_chisquare(double df, double nonc,
                                           double *out, int64_t n)
{
    if (df <= 0)
        return UF__NPRANDOM_BAD_NC_DF;
    if (nonc < 0)
        return UF__NPRANDOM_BAD_NC_NONC;
    if (n <= 0)
        return 0;
    mt_state *s = state();
    for (int64_t i = 0; i < n; i++) {
        if (nonc != nonc) {
            out[i] = NAN;
            continue;
        }
        double g;
        if (1 < df) {
            if (!gamma_draw(s, (df - 1) / 2.0, 1.0, &g))
                return UF__NPRANDOM_BAD_GAMMA;
            double chi2 = 2.0 * g;
            double nn = gauss(s) + sqrt(nonc);
            out[i] = chi2 + nn * nn;
        } else {
            int64_t k;
            int32_t st = poisson_draw(s, nonc / 2.0, &k);
            if (st != 0)
                return st;
            if (!gamma_draw(s, (df + (double)(2 * k)) / 2.0, 1.0, &g))
                return UF__NPRANDOM_BAD_GAMMA;
            out[i] = 2.0 * g;
        }
    }
    return 0;
}

/* The probabilities an array or a tuple gives, as doubles: dt is the
 * dtype's kind ('f', 'i', 'u') times 256 plus its itemsize. */
static double pval(const char *p, int32_t dt)
{
    union {
        double f8;
        float f4;
        int64_t i8;
        int32_t i4;
        int16_t i2;
        int8_t i1;
        uint64_t u8;
        uint32_t u4;
        uint16_t u2;
        uint8_t u1;
    } v;
    memcpy(&v, p, (size_t)(dt & 0xff));
    switch (dt) {
    case 'f' * 256 + 4:
        return v.f4;
    case 'i' * 256 + 8:
        return (double)v.i8;
    case 'i' * 256 + 4:
        return v.i4;
    case 'i' * 256 + 2:
        return v.i2;
    case 'i' * 256 + 1:
        return v.i1;
    case 'u' * 256 + 8:
        return (double)v.u8;
    case 'u' * 256 + 4:
        return v.u4;
    case 'u' * 256 + 2:
        return v.u2;
    case 'u' * 256 + 1:
        return v.u1;
    default:
        return v.f8;
    }
}

int32_t uf__np_random_multinomial(int64_t n, const char *pv, int64_t plen,
                                  int64_t stride, int32_t dt, int64_t *out,
                                  int64_t size)
{
    if (size > 0) /* np.zeros: the buckets a break leaves */
        memset(out, 0, (size_t)size * sizeof *out);
    if (plen == 0)
        return UF__NPRANDOM_RANGE_STEP;
    if (size <= 0)
        return 0;
    mt_state *s = state();
    for (int64_t i = 0; i < size; i += plen) {
        double p_sum = 1.0;
        int64_t left = n;
        for (int64_t j = 0; j < plen - 1; j++) {
            double p_j = pval(pv + j * stride, dt);
            int64_t nj;
            int32_t st = binomial_draw(s, left, p_j / p_sum, &nj);
            if (st != 0)
                return st;
            out[i + j] = nj;
            left -= nj;
            if (left <= 0)
                break;
            p_sum -= p_j;
        }
        if (left > 0)
            out[i + plen - 1] = left;
    }
    return 0;
}

int32_t uf__np_random_dirichlet(const char *alpha, int64_t alen,
                                int64_t stride, int32_t dt, double *out,
                                int64_t size)
{
    for (int64_t k = 0; k < alen; k++)
        if (pval(alpha + k * stride, dt) <= 0)
            return UF__NPRANDOM_BAD_DIRICHLET;
    if (alen == 0)
        return UF__NPRANDOM_RANGE_STEP;
    if (size <= 0)
        return 0;
    mt_state *s = state();
    for (int64_t i = 0; i < size; i += alen) {
        double norm = 0;
        for (int64_t k = 0; k < alen; k++) {
            if (!gamma_draw(s, pval(alpha + k * stride, dt), 1.0, &out[i + k]))
                return UF__NPRANDOM_BAD_GAMMA;
            norm += out[i + k];
        }
        if (norm == 0.0)
            return UF__NPRANDOM_ZERODIV;
        for (int64_t k = 0; k < alen; k++)
            out[i + k] /= norm;
    }
    return 0;
}
