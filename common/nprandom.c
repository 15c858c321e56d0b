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
#include "common/nprandom_state.h"


/* One per thread, zero (unseeded) at thread start. */
_Thread_local mt_state uf__mt_tls;

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
void uf__mt_seed_from_os(mt_state *s)
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


void uf__mt_regenerate(mt_state *s)
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
        uf__mt_regenerate(s);
        *idx = 0;
    }
    uint32_t y = s->mt[(*idx)++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}



double uf__mt_gauss(mt_state *s)
{
    if (s->has_gauss) {
        s->has_gauss = false;
        return s->gauss;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * uf__mt_double(s) - 1.0;
        x2 = 2.0 * uf__mt_double(s) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (!(r2 < 1.0 && r2 != 0.0));
    double f = sqrt(-2.0 * log(r2) / r2);
    s->gauss = f * x1;
    s->has_gauss = true;
    return f * x2;
}

void uf__np_random_seed(uint32_t seed)
{
    init_genrand(&uf__mt_tls, seed);
}

void *uf__np_random_state(void)
{
    return uf__mt_state();
}

void uf__np_random_regenerate(void *state)
{
    uf__mt_regenerate(state);
}

double uf__np_random_double(void)
{
    return uf__mt_double(uf__mt_state());
}

double uf__np_random_normal(double loc, double scale)
{
    double g = uf__mt_gauss(uf__mt_state());
    return loc + scale * g;
}

double uf__np_random_uniform(double low, double high)
{
    double width = high - low;
    return low + width * uf__mt_double(uf__mt_state());
}

/* CPython's gammavariate as Numba's overload runs it (np.random.gamma):
 * Cheng's rejection above 1, -log(1 - u) at 1, algorithm GS below. */
bool uf__mt_gamma(mt_state *s, double alpha, double beta, double *r)
{
    if (alpha <= 0.0 || beta <= 0.0)
        return false;
    if (alpha > 1.0) {
        double ainv = sqrt(2.0 * alpha - 1.0);
        double bbb = alpha - log(4.0), ccc = alpha + ainv;
        double sg = 1.0 + log(4.5);
        for (;;) {
            double u1 = uf__mt_double(s);
            if (!(1e-7 < u1 && u1 < .9999999))
                continue;
            double u2 = 1.0 - uf__mt_double(s);
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
        *r = -log(1.0 - uf__mt_double(s)) * beta;
        return true;
    }
    const double e = 2.718281828459045;
    double x;
    for (;;) {
        double u = uf__mt_double(s);
        double b = (e + alpha) / e;
        double p = b * u;
        if (p <= 1.0)
            x = pow(p, 1.0 / alpha);
        else
            x = -log((b - p) / alpha);
        double u1 = uf__mt_double(s);
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
        return 2.0 * pi * uf__mt_double(s);
    double h = 0.5 / kappa;
    double r = h + sqrt(1.0 + h * h);
    double z;
    for (;;) {
        double u1 = uf__mt_double(s);
        z = cos(pi * u1);
        double d = z / (r + z);
        double u2 = uf__mt_double(s);
        if (u2 < 1.0 - d * d || u2 <= (1.0 - d) * exp(d))
            break;
    }
    double q = 1.0 / r;
    double f = (q + z) / (1.0 + q * z);
    double u3 = uf__mt_double(s);
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
        *r = a + (b - a) * uf__mt_double(s);
        return 0;
    case UF__NPRANDOM_NORMAL: {
        double g = uf__mt_gauss(s);
        *r = a + b * g;
        return 0;
    }
    case UF__NPRANDOM_EXPONENTIAL:
        *r = -log(1.0 - uf__mt_double(s)) * a;
        return 0;
    case UF__NPRANDOM_GAMMA:
        return uf__mt_gamma(s, a, b, r) ? 0 : UF__NPRANDOM_BAD_GAMMA;
    case UF__NPRANDOM_BETA: {
        double y, w;
        if (!uf__mt_gamma(s, a, 1.0, &y))
            return UF__NPRANDOM_BAD_GAMMA;
        if (y == 0.0) {
            *r = 0.0;
            return 0;
        }
        if (!uf__mt_gamma(s, b, 1.0, &w))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = y / (y + w);
        return 0;
    }
    case UF__NPRANDOM_CHISQUARE:
        if (!uf__mt_gamma(s, a / 2.0, 1.0, r))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = 2.0 * *r;
        return 0;
    case UF__NPRANDOM_F: {
        double x, y;
        if (!uf__mt_gamma(s, a / 2.0, 1.0, &x) ||
            !uf__mt_gamma(s, b / 2.0, 1.0, &y))
            return UF__NPRANDOM_BAD_GAMMA;
        *r = ((2.0 * x) * b) / ((2.0 * y) * a);
        return 0;
    }
    case UF__NPRANDOM_LOGNORMAL: {
        double g = uf__mt_gauss(s);
        *r = exp(a + b * g);
        return 0;
    }
    case UF__NPRANDOM_LAPLACE: {
        double u = uf__mt_double(s);
        *r = u < 0.5 ? a + b * log(u + u) : a - b * log(2.0 - u - u);
        return 0;
    }
    case UF__NPRANDOM_LOGISTIC: {
        double u = uf__mt_double(s);
        *r = a + b * log(u / (1.0 - u));
        return 0;
    }
    case UF__NPRANDOM_GUMBEL: {
        double u = 1.0 - uf__mt_double(s);
        *r = a - b * log(-log(u));
        return 0;
    }
    case UF__NPRANDOM_WEIBULL: {
        double u = 1.0 - uf__mt_double(s);
        *r = pow(-log(u), 1.0 / a);
        return 0;
    }
    case UF__NPRANDOM_PARETO: {
        double u = 1.0 - uf__mt_double(s);
        *r = 1.0 / pow(u, 1.0 / a) - 1.0;
        return 0;
    }
    case UF__NPRANDOM_POWER:
        if (a <= 0.0)
            return UF__NPRANDOM_BAD_POWER;
        *r = pow(1.0 - exp(-(-log(1.0 - uf__mt_double(s)))), 1. / a);
        return 0;
    case UF__NPRANDOM_RAYLEIGH:
        if (a <= 0.0)
            return UF__NPRANDOM_BAD_RAYLEIGH;
        *r = a * sqrt(-2.0 * log(1.0 - uf__mt_double(s)));
        return 0;
    case UF__NPRANDOM_CAUCHY: {
        double n1 = uf__mt_gauss(s);
        *r = n1 / uf__mt_gauss(s);
        return 0;
    }
    case UF__NPRANDOM_STANDARD_T: {
        double n1 = uf__mt_gauss(s), g;
        if (!uf__mt_gamma(s, a / 2.0, 1.0, &g))
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
        double y = uf__mt_gauss(s);
        y = a * y * y;
        double x = a + mu_2l * (y - sqrt(4 * b * y + y * y));
        double u = uf__mt_double(s);
        *r = u <= a / (a + x) ? x : a * a / x;
        return 0;
    }
    case UF__NPRANDOM_TRIANGULAR: {
        if (c == a) {
            *r = a;
            return 0;
        }
        double u = uf__mt_double(s), cc = (b - a) / (c - a);
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
        *r = uf__mt_double(s);
        return 0;
    }
}

int32_t uf__np_random_fill(int32_t kind, double a, double b, double c,
                           double *out, int64_t n)
{
    if (n <= 0)
        return 0;
    mt_state *s = uf__mt_state();
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
 * below n. Returns false on an empty range. The state's index is in *idx,
 * a local of the caller's loop (stores into the arrays it fills could
 * alias s; kept in memory, it cost shuffle 2.5x Numba's time). */
static inline bool randrange(mt_state *s, int *idx, uint64_t start,
                             uint64_t stop, int w, uint64_t *r)
{
    int64_t n = sext(stop - start, w);
    if (n <= 0)
        return false;
    uint64_t k = 0;
    if (n != 1) {
        int nbits = 64 - clz64((uint64_t)(n - 1));
        do
            k = next_bits_at(s, idx, nbits);
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
    mt_state *s = uf__mt_state();
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
    mt_state *s = uf__mt_state();
    int idx = s->index;
    if (nd == 1 && (itemsize == 8 || itemsize == 4)) { /* common rows */
        int64_t st = strides[0];
        for (int64_t i = shape[0] - 1; i > 0; i--) {
            uint64_t j;
            randrange(s, &idx, 0, (uint64_t)i + 1, 64, &j);
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
        s->index = idx;
        return;
    }
    for (int64_t i = shape[0] - 1; i > 0; i--) {
        uint64_t j;
        randrange(s, &idx, 0, (uint64_t)i + 1, 64, &j);
        swap_rows(data + i * strides[0], data + (int64_t)j * strides[0],
                  nd - 1, shape + 1, strides + 1, itemsize);
    }
    s->index = idx;
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
        mt_state *s = uf__mt_state();
        int idx = s->index;
        for (int64_t i = 0; i < nout; i++) {
            uint64_t j;
            if (!randrange(s, &idx, 0, (uint64_t)n, 64, &j))
                return UF__NPRANDOM_EMPTY_RANGE; /* before any draw */
            if (itemsize)
                memcpy(out + i * isz, data + (int64_t)j * stride,
                       (size_t)isz);
            else
                memcpy(out + i * isz, &j, 8);
        }
        s->index = idx;
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
