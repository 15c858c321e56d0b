/* np.random inside kernels (compiler/lower/lower_nprandom.c calls these
 * by name): Numba 0.68's generator (numba/_random.c, numba/cpython/
 * randomimpl.py, numba/np/random/legacy.py), so that after the same
 * np.random.seed(n) the streams are Numba's bit for bit. Each thread has
 * its own Mersenne Twister state, separate from NumPy's global one and
 * seeded from the OS's entropy the first time a thread draws without
 * having seeded: np.random.seed in a prange body seeds that thread only,
 * as in Numba. */
#ifndef UF_COMMON_NPRANDOM_H
#define UF_COMMON_NPRANDOM_H

#include <stdint.h>

/* What the fallible functions below return besides 0. */
enum {
    UF__NPRANDOM_NOMEM = -1,      /* choice(replace=False)'s copy */
    UF__NPRANDOM_EMPTY_RANGE = 1, /* randint with low >= high */
    UF__NPRANDOM_LARGER_SAMPLE = 2 /* choice(replace=False), size > n */
};

/* np.random.seed(seed): MT19937's init_genrand, the cached Gaussian
 * dropped. */
void uf__np_random_seed(uint32_t seed);

/* np.random.random(): 53 random bits as a double in [0, 1). */
double uf__np_random_double(void);

/* np.random.normal(loc, scale): loc + scale * the polar Box-Muller
 * Gaussian (the pair's second value now, its first cached). */
double uf__np_random_normal(double loc, double scale);

/* np.random.uniform(low, high): low + (high - low) * random(). */
double uf__np_random_uniform(double low, double high);

/* The distributions of floats with up to three float64 parameters, by
 * number (UF__NPRANDOM_*): out[0..n) = n draws, in order, each computed
 * as Numba's overload does (numba/np/random/legacy.py; the gamma, beta,
 * weibull and von Mises ones are CPython's random module algorithms
 * there, not NumPy's). */
enum {
    UF__NPRANDOM_RANDOM,      /* random_sample ... ranf, rand */
    UF__NPRANDOM_UNIFORM,     /* (low, high) */
    UF__NPRANDOM_NORMAL,      /* (loc, scale): randn, standard_normal */
    UF__NPRANDOM_EXPONENTIAL, /* (scale): standard_exponential scale 1 */
    UF__NPRANDOM_GAMMA,       /* (shape, scale): CPython's gammavariate */
    UF__NPRANDOM_BETA,        /* (a, b): gamma(a) / (gamma(a) + gamma(b)) */
    UF__NPRANDOM_CHISQUARE,   /* (df): 2 standard_gamma(df / 2) */
    UF__NPRANDOM_F,           /* (dfnum, dfden) */
    UF__NPRANDOM_LOGNORMAL,   /* (mean, sigma): exp(normal) */
    UF__NPRANDOM_LAPLACE,     /* (loc, scale) */
    UF__NPRANDOM_LOGISTIC,    /* (loc, scale) */
    UF__NPRANDOM_GUMBEL,      /* (loc, scale) */
    UF__NPRANDOM_WEIBULL,     /* (a) */
    UF__NPRANDOM_PARETO,      /* (a) */
    UF__NPRANDOM_POWER,       /* (a) */
    UF__NPRANDOM_RAYLEIGH,    /* (scale) */
    UF__NPRANDOM_CAUCHY,      /* standard_cauchy: normal / normal */
    UF__NPRANDOM_STANDARD_T,  /* (df) */
    UF__NPRANDOM_VONMISES,    /* (mu, kappa): CPython's vonmisesvariate */
    UF__NPRANDOM_WALD,        /* (mean, scale) */
    UF__NPRANDOM_TRIANGULAR,  /* (left, mode, right) */
    UF__NPRANDOM_NDISTS
};
/* Their parameter checks, Numba's ValueErrors (0 when none failed; a
 * fill stops at the first draw that fails, as Numba's loop raises). */
enum {
    UF__NPRANDOM_BAD_GAMMA = 3,    /* shape or scale <= 0 */
    UF__NPRANDOM_BAD_POWER = 4,    /* a <= 0 */
    UF__NPRANDOM_BAD_RAYLEIGH = 5, /* scale <= 0 */
    UF__NPRANDOM_BAD_WALD_MEAN = 6,
    UF__NPRANDOM_BAD_WALD_SCALE = 7
};
int32_t uf__np_random_fill(int32_t kind, double a, double b, double c,
                           double *out, int64_t n);

/* The distributions of integers (int64 results), by number: poisson(a),
 * binomial(n_, a), geometric(a), negative_binomial(a, b) (n, p),
 * hypergeometric(a, b, c) (ngood, nbad, nsample), logseries(a), zipf(a);
 * NumPy's legacy algorithms as Numba runs them (numba/_random.c's
 * Hormann transformed rejection for poisson from 10 up, BTPE / BINV for
 * binomial). out[0..n) = n draws; 0, or the first failing draw's status
 * (nothing checked nor drawn when n is 0, as Numba's loop). */
enum {
    UF__NPRANDOM_POISSON,
    UF__NPRANDOM_BINOMIAL,
    UF__NPRANDOM_GEOMETRIC,
    UF__NPRANDOM_NEGATIVE_BINOMIAL,
    UF__NPRANDOM_HYPERGEOMETRIC,
    UF__NPRANDOM_LOGSERIES,
    UF__NPRANDOM_ZIPF
};
/* Their statuses (and those of the functions after), Numba's errors. */
enum {
    UF__NPRANDOM_BAD_POISSON = 8,     /* lam < 0 (or NaN) */
    UF__NPRANDOM_BAD_BINOMIAL_N = 9,  /* binomial's n < 0 */
    UF__NPRANDOM_BAD_BINOMIAL_P = 10, /* p outside [0, 1] (or NaN) */
    UF__NPRANDOM_BAD_GEOMETRIC = 11,  /* p outside (0, 1] */
    UF__NPRANDOM_BAD_NEGBIN_N = 12,   /* negative_binomial's n <= 0 */
    UF__NPRANDOM_BAD_LOGSERIES = 13,  /* p outside (0, 1] */
    UF__NPRANDOM_BAD_ZIPF = 14,       /* a <= 1 (or NaN) */
    UF__NPRANDOM_BAD_NC_DF = 15,      /* noncentral_chisquare's df <= 0 */
    UF__NPRANDOM_BAD_NC_NONC = 16,    /* its nonc < 0 */
    UF__NPRANDOM_BAD_DIRICHLET = 17,  /* an alpha <= 0 */
    UF__NPRANDOM_ZERODIV = 18,   /* a float division by zero in Numba's
                                    code: negative_binomial's p == 0,
                                    dirichlet's gammas all 0 */
    UF__NPRANDOM_RANGE_STEP = 19, /* multinomial / dirichlet of no
                                     categories: range()'s zero step */
    UF__NPRANDOM_BAD_NEGBIN_P = 20 /* p outside [0, 1] */
};
int32_t uf__np_random_ifill(int32_t kind, int64_t n_, double a, double b,
                            double c, int64_t *out, int64_t n);

/* np.random.noncentral_chisquare(df, nonc): df and nonc checked first
 * (even for no draws, as Numba), then n draws into out. */
int32_t uf__np_random_noncentral_chisquare(double df, double nonc,
                                           double *out, int64_t n);

/* np.random.multinomial(n, pvals): out (size values, C order, a multiple
 * of plen) zeroed, then each run of plen filled by Numba's conditional
 * binomials; pvals plen values stride bytes apart, of dtype dt: its
 * kind ('f', 'i', 'u') * 256 + its itemsize. */
int32_t uf__np_random_multinomial(int64_t n, const char *pvals, int64_t plen,
                                  int64_t stride, int32_t dt, int64_t *out,
                                  int64_t size);

/* np.random.dirichlet(alpha): each alpha checked > 0, then each run of
 * alen in out gamma(alpha[k], 1) draws divided by their sum. */
int32_t uf__np_random_dirichlet(const char *alpha, int64_t alen,
                                int64_t stride, int32_t dt, double *out,
                                int64_t size);

/* np.random.randint(low, high) in width bits (8, 16, 32, 64: Numba's
 * widest of the two types), low and high extended to 64 bits each by its
 * own signedness: n values of width / 8 bytes into out (no draw and no
 * error when n is 0). 0 or UF__NPRANDOM_EMPTY_RANGE. */
int32_t uf__np_random_randint(int64_t low, int64_t high, int32_t width,
                              void *out, int64_t n);

/* np.random.shuffle of the nd-dimensional array at data (shape[],
 * strides[] in bytes, itemsize bytes an element) along its first axis:
 * Numba's Fisher-Yates from the last row down, randint(0, i + 1). */
void uf__np_random_shuffle(char *data, int64_t nd, const int64_t *shape,
                           const int64_t *strides, int64_t itemsize);

/* np.random.permutation: out (C order, the shape of src) = a copy of
 * the nd-dimensional array at src (itemsize bytes an element), or,
 * itemsize 0, arange(shape[0]) as int64; then shuffled. */
void uf__np_random_permutation(const char *src, int64_t nd,
                               const int64_t *shape, const int64_t *strides,
                               int64_t itemsize, char *out);

/* np.random.choice(a, size, replace) into out[0..nout) (C order). The
 * population is the 1-D array at data (n elements, stride bytes apart,
 * itemsize bytes each), or, itemsize 0, range(n) as int64. With replace,
 * each is a[randint(0, n)]; without, the first nout of
 * np.random.permutation(a). 0 or a status above. */
int32_t uf__np_random_choice(const char *data, int64_t n, int64_t stride,
                             int64_t itemsize, int32_t replace, char *out,
                             int64_t nout);

/* For the draws the JIT emits inline (lower_nprandom_inline.c): the
 * calling thread's generator, seeded, and its refill of 624 words (the
 * index set back to 0). The layout is common/nprandom_state.h's. */
void *uf__np_random_state(void);
void uf__np_random_regenerate(void *state);

/* The JIT's names of them. */
#define UF__NP_RANDOM_SEED "uf__rt_np_random_seed"
#define UF__NP_RANDOM_DOUBLE "uf__rt_np_random_double"
#define UF__NP_RANDOM_NORMAL "uf__rt_np_random_normal"
#define UF__NP_RANDOM_UNIFORM "uf__rt_np_random_uniform"
#define UF__NP_RANDOM_FILL "uf__rt_np_random_fill"
#define UF__NP_RANDOM_RANDINT "uf__rt_np_random_randint"
#define UF__NP_RANDOM_SHUFFLE "uf__rt_np_random_shuffle"
#define UF__NP_RANDOM_PERMUTATION "uf__rt_np_random_permutation"
#define UF__NP_RANDOM_CHOICE "uf__rt_np_random_choice"
#define UF__NP_RANDOM_IFILL "uf__rt_np_random_ifill"
#define UF__NP_RANDOM_NONCENTRAL_CHISQUARE "uf__rt_np_random_noncentral_chisquare"
#define UF__NP_RANDOM_MULTINOMIAL "uf__rt_np_random_multinomial"
#define UF__NP_RANDOM_DIRICHLET "uf__rt_np_random_dirichlet"
#define UF__NP_RANDOM_STATE "uf__rt_np_random_state"
#define UF__NP_RANDOM_REGENERATE "uf__rt_np_random_regenerate"

#endif
